/**
 * Payments out of a vault that others sent, as the notice job books them (decision 037): from what
 * the program moved out of the vault, never from wallets' balance changes; and each vault's
 * history read once, from a cursor, however many transactions merely mention it.
 */
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  createSignerFromKeyPair,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import { fetchReceipt, fetchVault } from '#server/chain/escrow-program/accounts';
import { getCancelInstruction, getRefundInstruction } from '#server/chain/escrow-program/instructions';
import { findReceiptAddress } from '#server/chain/escrow-program/pda';
import { getDepositV2Instruction } from '#server/chain/escrow-program/v2/instructions';
import { partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import type { ChainPort } from '#server/chain/port';
import { ledgerEntries, vaultSignatureCursors } from '#server/db/schema';
import { walletSigns } from './helpers/entries';
import { lapsedPaymentsJob } from './helpers/money';
import {
  api,
  contribute,
  createFundedDare,
  expectReconciled,
  lamportsOf,
  payoutsService,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import type { TestWallet } from './helpers/wallet';

const {
  ctx,
  actors: { owner, alice, accomplice },
} = setupApiSuite({
  actors: { owner: {}, alice: { sol: '1' }, accomplice: { sol: '10' } },
});

/** The payout machinery on an rpc that counts what the notice job asks of the chain. */
function countingPayouts() {
  const calls = { getSignaturesForAddress: 0, getTransaction: 0 };
  const rpc = new Proxy(ctx.chain.rpc, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'getSignaturesForAddress' && property !== 'getTransaction') return value;
      return (...args: unknown[]) => {
        calls[property] += 1;
        return (value as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  const chain: ChainPort = Object.assign(Object.create(Object.getPrototypeOf(ctx.chain)), ctx.chain, { rpc });
  return { calls, payouts: payoutsService(ctx, { chain }) };
}

const signer = (wallet: TestWallet) => createSignerFromKeyPair(wallet.keys);

/** Instructions in one transaction, paid by `feePayer`, sent straight to the chain. */
async function sendOwn(feePayer: KeyPairSigner, instructions: Instruction[]): Promise<string> {
  const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = await ctx.chain.rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { intervalMs: 5, timeoutMs: 10_000 });
  return signature;
}

/**
 * A refund of `payer`'s receipt, its rent and (the last receipt) the vault's back to whoever paid
 * them, as the vault and receipt record: on program v2 the creator's wallet paid its vault and its
 * own receipt, the platform a backer's receipt.
 */
async function refundOf(vault: Address, payer: string): Promise<Instruction> {
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  const account = await fetchVault(ctx.chain.rpc, programs, vault);
  const receipt = await findReceiptAddress(account!.programId, vault, address(payer));
  const record = await fetchReceipt(ctx.chain.rpc, programs, receipt.address);
  return getRefundInstruction({
    programId: account!.programId,
    vault,
    payer: address(payer),
    receiptRentPayer: record!.rentPayer,
    vaultRentPayer: account!.rentPayer,
  });
}

const linesOf = (vault: string) =>
  ctx.database.db
    .select({
      kind: ledgerEntries.kind,
      counterparty: ledgerEntries.counterparty,
      amount: ledgerEntries.amount,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.escrowWallet, vault))
    .orderBy(ledgerEntries.id);

let dare: { id: number; escrowWallet: string; vault: Address };
let target: { escrowWallet: string; dareId: number };
beforeAll(async () => {
  dare = await createFundedDare(ctx, owner, '0.1');
  await contribute(ctx, alice, dare, '0.05');
  target = { escrowWallet: dare.escrowWallet, dareId: dare.id };
  // The moderator (the v2 vault's canceller) cancels it on chain: from now on anyone may refund any
  // receipt.
  const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const cancel = await partiallySigned({
    feePayer: await ctx.escrowKeys.feePayer(),
    lifetime,
    instructions: [
      getCancelInstruction({
        programId: ctx.escrowProgramV2Id,
        vault: dare.vault,
        moderator: await ctx.escrowKeys.moderator(),
      }),
    ],
  });
  const sent = await ctx.chain.rpc.sendTransaction(cancel.base64, { encoding: 'base64' }).send();
  await waitForConfirmation(ctx.chain.rpc, sent);
});

/** A receipt's rent on the test chain (120 bytes). */
const RECEIPT_RENT = 1_726_080n;

describe('refunds others sent', () => {
  it('books a self-refund sent with a 3 SOL transfer to the same wallet as exactly its receipt, with no surplus', async () => {
    const before = await lamportsOf(ctx, alice.wallet.address);
    const signature = await sendOwn(await signer(alice.wallet), [
      getTransferSolInstruction({
        source: await signer(accomplice.wallet),
        destination: address(alice.wallet.address),
        amount: 3_000_000_000n,
      }),
      await refundOf(dare.vault, alice.wallet.address),
    ]);
    // The wallet is 3.05 SOL richer and has its receipt's rent back (it lent it, decision 058),
    // less the fee: its balance says nothing of what the vault paid.
    expect((await lamportsOf(ctx, alice.wallet.address)) - before).toBe(
      3_050_000_000n + RECEIPT_RENT - 10_000n,
    );

    const { payouts } = countingPayouts();
    const booked = await payouts.noticeVaultPayments(target);
    expect(booked).toEqual([
      { kind: 'refund', signature, wallet: alice.wallet.address, lamports: 50_000_000n },
    ]);
    expect(await linesOf(dare.escrowWallet)).toEqual([
      { kind: 'stake', counterparty: owner.wallet.address, amount: '0.100000000' },
      { kind: 'contribution', counterparty: alice.wallet.address, amount: '0.050000000' },
      { kind: 'refund', counterparty: alice.wallet.address, amount: '0.050000000' },
    ]);
    await expectReconciled(ctx);
    // Noticed again, it books nothing more.
    expect(await payouts.noticeVaultPayments(target)).toEqual([]);
  });

  it("reads a vault's history once: a stranger's many mentions are not read again, and a refund after the cursor is still booked", async () => {
    const stranger = await signer(accomplice.wallet);
    const mentions = 25;
    for (let i = 0; i < mentions; i++)
      await sendOwn(stranger, [
        getTransferSolInstruction({ source: stranger, destination: dare.vault, amount: 0n }),
      ]);

    const { calls, payouts } = countingPayouts();
    expect(await payouts.noticeVaultPayments(target)).toEqual([]);
    // Only what is newer than the cursor: each mention, once.
    expect(calls).toEqual({ getSignaturesForAddress: 1, getTransaction: mentions });
    expect(await payouts.noticeVaultPayments(target)).toEqual([]);
    expect(calls).toEqual({ getSignaturesForAddress: 2, getTransaction: mentions });

    // Anyone refunds the last receipt (the owner's), after the cursor: booked, and the vault closes.
    const signature = await sendOwn(stranger, [await refundOf(dare.vault, owner.wallet.address)]);
    expect(await payouts.noticeVaultPayments(target)).toEqual([
      { kind: 'refund', signature, wallet: owner.wallet.address, lamports: 100_000_000n },
    ]);
    expect(calls).toEqual({ getSignaturesForAddress: 3, getTransaction: mentions + 1 });
    const [cursor] = await ctx.database.db
      .select()
      .from(vaultSignatureCursors)
      .where(eq(vaultSignatureCursors.escrowWallet, dare.escrowWallet));
    expect(cursor!.newestSignature).toBe(signature);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    await expectReconciled(ctx);
  });
});

describe('deposits made straight on chain (decision 058)', () => {
  it("credits one to its payer's account once, and leaves a deposit the server built to its payment intent", async () => {
    const running = await createFundedDare(ctx, owner, '0.1');
    const vault = address(running.escrowWallet);
    const target = { escrowWallet: running.escrowWallet, dareId: running.id };
    const { payouts } = countingPayouts();

    // Alice, who has an account, deposits 0.02 SOL twice in one transaction of her own.
    const own = await signer(alice.wallet);
    const deposit = () =>
      getDepositV2Instruction({
        programId: ctx.escrowProgramV2Id,
        vault,
        payer: own,
        rentPayer: own,
        amount: 20_000_000n,
      });
    const straight = await sendOwn(own, [await deposit(), await deposit()]);
    // The accomplice asks the API for a deposit and broadcasts it itself, without reporting it.
    const built = await api(ctx).post(
      '/api/create-transaction',
      { fromWallet: accomplice.wallet.address, toWallet: running.escrowWallet, amount: '0.03' },
      accomplice.token,
    );
    expect(built.statusCode, built.body).toBe(200);
    const signed = await walletSigns(accomplice.wallet, built.json().transaction);
    const reported = await ctx.chain.rpc.sendTransaction(signed as never, { encoding: 'base64' }).send();
    await waitForConfirmation(ctx.chain.rpc, reported, { intervalMs: 5, timeoutMs: 10_000 });

    // Noticed (twice): Alice's deposit is in the pool once, under her account; the accomplice's
    // is its intent's to book, not the notice's.
    await payouts.noticeVaultPayments(target);
    await payouts.noticeVaultPayments(target);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, running.escrowWallet));
    expect(
      lines
        .filter((line) => line.kind === 'contribution')
        .map((line) => [line.signature, line.userId, line.amount]),
    ).toEqual([[straight, alice.id, '0.040000000']]);
    const shown = await api(ctx).get(`/api/dares/${running.id}`);
    expect(shown.json().totalPool).toBe('0.14');

    // The lapsed-payments job books the accomplice's once its intent lapses: no line twice.
    ctx.clock.advance(DAY_MS + 60_000);
    expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({ found: 1, credited: 1 });
    await payouts.noticeVaultPayments(target);
    expect((await api(ctx).get(`/api/dares/${running.id}`)).json().totalPool).toBe('0.17');
    await expectReconciled(ctx);
  });
});
