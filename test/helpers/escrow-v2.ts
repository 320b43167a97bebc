import { randomBytes } from 'node:crypto';
import { type Address, address, type Base64EncodedWireTransaction, createNoopSigner } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { waitForConfirmation } from '#server/chain/confirmation';
import { ensureProgramDeployed } from '#server/chain/escrow-program/deploy';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { getCreateVaultV2Instruction } from '#server/chain/escrow-program/v2/instructions';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import { createDare } from '#server/db/factories';
import { dares } from '#server/db/schema';
import type { TestContext } from './app';
import { walletSigns } from './entries';
import type { Actor } from './payouts';

/**
 * Escrow v2 on the test's embedded chain: the app's own once it deploys v2 beside v1 (the test
 * context then names it), else deployed here at a new program id, the platform fee payer (funded
 * by v1's deploy) paying for it.
 */
export async function deployEscrowV2(ctx: TestContext): Promise<Address> {
  const deployedByApp = (ctx as Partial<{ escrowProgramV2Id: Address }>).escrowProgramV2Id;
  if (deployedByApp) return deployedByApp;
  const { programId } = await ensureProgramDeployed({
    rpc: ctx.chain.rpc,
    authority: await ctx.escrowKeys.feePayer(),
    keypairFile: null,
    bytes: readEscrowProgramV2(),
  });
  return programId;
}

/**
 * A dare row whose vault is a v2 vault created here by `creator`'s wallet (it pays the stake, the
 * rent and the fee: no ledger line, nothing of the platform's), with the app's judging terms.
 */
export async function createV2Dare(
  ctx: TestContext,
  programId: Address,
  creator: Actor,
): Promise<{ id: number; vault: Address }> {
  const row = await createDare(ctx.database.db, { creatorId: creator.id, escrowWallet: null });
  const deadline = BigInt(Math.floor(row.deadline!.getTime() / 1000));
  const dareId = new Uint8Array(randomBytes(32));
  const signer = createNoopSigner(address(creator.wallet.address));
  const built = await partiallySigned({
    feePayer: signer,
    lifetime: (await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value,
    instructions: [
      await getCreateVaultV2Instruction({
        programId,
        creator: signer,
        rentPayer: signer,
        dareId,
        kind: 'community',
        deadline,
        refundAfter: deadline + 7n * 86_400n,
        // The app's terms (decision 048): a vault with any other is foreign, and nothing enters it.
        judges: ctx.judging.judges,
        threshold: ctx.judging.threshold,
        guardian: ctx.judging.guardian,
        canceller: (await ctx.escrowKeys.moderator()).address,
        payoutWindow: ctx.judging.payoutWindowSeconds,
        amount: 10_000_000n,
      }),
    ],
  });
  await sendSigned(ctx, await walletSigns(creator.wallet, built.base64));
  const vault = (await findVaultAddress(programId, dareId)).address;
  await ctx.database.db.update(dares).set({ escrowWallet: vault }).where(eq(dares.id, row.id));
  return { id: row.id, vault };
}

/** Broadcasts a signed transaction straight to the chain, as a wallet can, and waits for it. */
export async function sendSigned(ctx: TestContext, signed: string): Promise<void> {
  const signature = await ctx.chain.rpc
    .sendTransaction(signed as Base64EncodedWireTransaction, { encoding: 'base64' })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { commitment: 'confirmed', timeoutMs: 10_000 });
}
