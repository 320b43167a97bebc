import { address } from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildExecuteTransaction } from '#server/chain/escrow-program/app-transactions';
import type { Tx } from '#server/db/client';
import { countVaultAttempts, insertPayoutTransfer } from '#server/features/payouts/repo';
import type { TestContext } from './app';

/**
 * What paying a v2 dare's named winners does up to sending (payWinners: the `execute` signed by
 * the fee payer, recorded 'sending' in one database transaction with `beforeRecord`), for tests of
 * a process that stops before or after sending it. The payout window must have passed.
 */
export async function recordExecute(
  ctx: TestContext,
  payout: { claimId: number; dareId: number; escrowWallet: string },
  beforeRecord: (tx: Tx, signature: string) => Promise<void>,
) {
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  const vault = await fetchVault(ctx.chain.rpc, programs, address(payout.escrowWallet));
  const proposal = vault?.judging?.proposal;
  if (!vault || !proposal) throw new Error('recordExecute: no proposal stands on this vault');
  const attempt = (await countVaultAttempts(ctx.database.db, payout.escrowWallet)) + 1;
  const execute = await buildExecuteTransaction(ctx.chain.rpc, {
    programId: vault.programId,
    vault: vault.address,
    winners: proposal.winners,
    feePayer: await ctx.escrowKeys.feePayer(),
    memo: `DarePool prize payout of dare ${payout.dareId}, attempt ${attempt}`,
  });
  const now = ctx.clock.now;
  const transfer = await ctx.database.db.transaction(async (tx) => {
    await beforeRecord(tx, execute.signature);
    return insertPayoutTransfer(tx, {
      purpose: 'claim',
      claimId: payout.claimId,
      contributionId: null,
      intentId: null,
      strayPaymentId: null,
      dareId: payout.dareId,
      escrowWallet: payout.escrowWallet,
      recipient: proposal.winners[0]!,
      amount: lamportsToSol(vault.lamports - vault.rent),
      surplus: '0',
      signature: execute.signature,
      wireTransaction: execute.base64,
      lastValidBlockHeight: execute.lastValidBlockHeight,
      createdAt: now,
      updatedAt: now,
    });
  });
  return { transfer };
}
