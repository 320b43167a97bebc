import { type Address, address, type Base64EncodedWireTransaction, generateKeyPairSigner } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { REFUND_GRACE_MS } from '#contract/dare-status';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import {
  buildCloseRecordsTransactions,
  buildRefundTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { claims, dares, dareWallets, ledgerEntries, poolContributions } from '#server/db/schema';
import { createRefundsService } from '#server/features/refunds/service';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { programIdsOf } from './helpers/app';
import { chainNow, warpChain } from './helpers/chain-clock';
import { ENTRY_COST, ENTRY_RENT, enterAndSubmit, fundEntries } from './helpers/entries';
import { recordExecute } from './helpers/execute';
import { nameWinner, passPayoutWindow } from './helpers/judging';
import { sendOwnTransfer, signBase64 } from './helpers/money';
import {
  type Actor,
  castVote,
  contribute,
  contributeOnChain,
  createFundedDare,
  createProgramDare,
  enterOnChain,
  expectReconciled,
  lamportsOf,
  newActor,
  payoutsService,
  platformFeesFor as platformFeesOf,
  refundJob,
  submitVideo,
  vaultOnChain,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, alice, bob, carol, dan },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  // Every dare here is v2's: a chain that never had v1, as every new one (decision 081).
  context: { v1Program: false },
  actors: { admin: { username: 'boss', admin: true }, alice: {}, bob: {}, carol: {}, dan: { sol: '0' } },
});

/**
 * Rent on the test chain. A new dare's vault is program v2's: its creator's wallet pays the rent of
 * the vault (424 bytes) and of its own receipt, so a refund of the creator's stake brings both back
 * to the creator; a backer's wallet pays its own receipt's rent (decision 058), back with its refund.
 */
const VAULT_RENT = 3_841_920n;
const RECEIPT_RENT = 1_726_080n;
/** What a refund of its stake gives a dare's creator: the stake, and its vault's and receipt's rent. */
const creatorBack = (stake: bigint) => stake + VAULT_RENT + RECEIPT_RENT;
/** What a refund gives a backer: what it put in, and its receipt's rent. */
const backerBack = (amount: bigint) => amount + RECEIPT_RENT;

const balances = async (...actors: Actor[]) =>
  Promise.all(actors.map((a) => lamportsOf(ctx, a.wallet.address)));
const platformBalance = async () => lamportsOf(ctx, (await ctx.escrowKeys.feePayer()).address);

async function expectClosed(dare: { vault: Address }) {
  expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });
  expect(await lamportsOf(ctx, dare.vault)).toBe(0n);
}

async function unbooked(dare: { escrowWallet: string }) {
  const report = await reconcileEscrows(ctx.database.db, ctx.chain.rpc, programIdsOf(ctx));
  return report.differences.filter((d) => d.escrowWallet === dare.escrowWallet);
}

describe('admin cancel', () => {
  it('refunds every payer exactly what they put in, once, and closes the vault with its entry', async () => {
    const dare = await createFundedDare(ctx, alice, '0.2');
    await contribute(ctx, bob, dare, '0.05');
    await contribute(ctx, carol, dare, '0.03');
    await contribute(ctx, bob, dare, '0.011');
    await fundEntries(ctx, dan.wallet.address);
    await enterOnChain(ctx, dan, dare);
    expect(await vaultOnChain(ctx, dare.vault)).toMatchObject({ receipts: 3, entries: 1 });
    const [a0, b0, c0] = await balances(alice, bob, carol);
    const platformBefore = await platformBalance();

    const res = await http.patch(`/api/admin/dares/${dare.id}/status`, { status: 'cancelled' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const { refunds } = res.json();
    // Four contributions, three receipts (Bob's two deposits are one receipt): one refund per payer.
    expect(refunds).toMatchObject({ refunded: 4, refundedAmount: '0.291', failed: 0, failureReason: null });
    expect(
      refunds.transfers
        .map((t: { amount: string; walletAddress: string }) => `${t.walletAddress} ${t.amount}`)
        .sort(),
    ).toEqual(
      [`${alice.wallet.address} 0.2`, `${bob.wallet.address} 0.061`, `${carol.wallet.address} 0.03`].sort(),
    );
    const [a1, b1, c1] = await balances(alice, bob, carol);
    expect([a1! - a0!, b1! - b0!, c1! - c0!]).toEqual([
      creatorBack(200_000_000n),
      backerBack(61_000_000n),
      backerBack(30_000_000n),
    ]);
    await expectClosed(dare);
    // Every rent went back to whoever paid it: the backers' receipts' to the backers, the vault's
    // and the creator's receipt's to the creator, the entry's to the entrant. The platform paid
    // only the fees of what it sent: the cancel alone (the fee payer's and the moderator's
    // signatures), then the three refunds and the entry's close packed into one transaction
    // (decision 058).
    const platformFees = await platformFeesOf(ctx, dare.escrowWallet);
    expect(platformFees).toBe(15_000n);
    expect((await platformBalance()) - platformBefore).toBe(-platformFees);
    expect(await lamportsOf(ctx, dan.wallet.address)).toBe(ENTRY_RENT);
    const rows = await ctx.database.db
      .select()
      .from(poolContributions)
      .where(eq(poolContributions.dareId, dare.id));
    // The three payers' refunds (one per receipt) went in one transaction: every contribution
    // names it, and each refund is still booked on its own, a ledger line per payer (below).
    const refundSignatures = new Set(refunds.transfers.map((t: { signature: string }) => t.signature));
    expect(rows.every((row) => row.refundedAt !== null && refundSignatures.has(row.refundSignature!))).toBe(
      true,
    );
    expect(new Set(rows.map((row) => row.refundSignature)).size).toBe(1);
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.dareId, dare.id));
    expect(
      lines
        .filter((line) => line.kind === 'refund')
        .map((line) => line.amount)
        .sort(),
    ).toEqual(['0.030000000', '0.061000000', '0.200000000']);
    const [wallet] = await ctx.database.db
      .select()
      .from(dareWallets)
      .where(eq(dareWallets.publicKey, dare.vault));
    expect(wallet).toMatchObject({ status: 'closed', balance: '0.000000000' });
    await expectReconciled(ctx);

    // Again: nothing more moves; reactivating a refunded dare is refused.
    const again = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      admin.token,
    );
    expect(again.json().refunds).toEqual({
      refunded: 0,
      refundedAmount: '0',
      failed: 0,
      failureReason: null,
      transfers: [],
    });
    const reactivate = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'active' },
      admin.token,
    );
    expect(reactivate.statusCode).toBe(409);
    expect((await refundJob(ctx).refundDue()).dareIds).not.toContain(dare.id);
    expect(await balances(alice, bob, carol)).toEqual([a1, b1, c1]);
  });

  it('deletes a dare only after its vault refunded everyone', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1');
    await contribute(ctx, carol, dare, '0.02');
    const [a0, c0] = await balances(alice, carol);
    const res = await http.del(`/api/admin/dares/${dare.id}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds).toMatchObject({ refunded: 2, refundedAmount: '0.12', failed: 0 });
    const [a1, c1] = await balances(alice, carol);
    expect([a1! - a0!, c1! - c0!]).toEqual([creatorBack(100_000_000n), backerBack(20_000_000n)]);
    await expectClosed(dare);
    await expectReconciled(ctx);
  });
});

describe('deadline passed with no winner', () => {
  it('is cancelled and refunded by the job after the 7-day grace, not before, and never a dare with a winner', async () => {
    const deadline = new Date(ctx.clock.now.getTime() + DAY_MS);
    const dare = await createFundedDare(ctx, alice, '0.1', { deadline: deadline.toISOString() });
    await contribute(ctx, carol, dare, '0.02');
    const won = await createFundedDare(ctx, bob, '0.1', { deadline: deadline.toISOString() });
    const submission = await enterAndSubmit(ctx, carol, won.id);
    await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    await nameWinner(ctx, admin, submission.id, won.id);
    const [a0, c0] = await balances(alice, carol);
    const job = refundJob(ctx);

    ctx.clock.advance(DAY_MS + REFUND_GRACE_MS - 60_000);
    expect((await job.refundDue()).dareIds).not.toContain(dare.id);
    expect((await vaultOnChain(ctx, dare.vault)).vault?.status).toBe('open');

    ctx.clock.advance(120_000);
    const run = await job.refundDue();
    expect(run.dareIds).toContain(dare.id);
    expect(run.dareIds).not.toContain(won.id);
    const [a1, c1] = await balances(alice, carol);
    expect([a1! - a0!, c1! - c0!]).toEqual([creatorBack(100_000_000n), backerBack(20_000_000n)]);
    await expectClosed(dare);
    // The winner's proposal stands on chain: its vault can be neither cancelled nor refunded.
    expect((await vaultOnChain(ctx, won.vault)).vault?.status).toBe('proposed');
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('cancelled');
    expect((await job.refundDue()).dareIds).toEqual([]);
    await expectReconciled(ctx);
    // The winner is still paid, once the payout window has passed.
    await passPayoutWindow(ctx);
    const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, carol.token);
    expect(paid.statusCode, paid.body).toBe(200);
    await expectClosed(won);
    await expectReconciled(ctx);
  });
});

describe('a dare past refund_after, refunded by strangers straight on the chain', () => {
  it('is noticed and booked: the ledger follows the chain', async () => {
    // The program fixes the vault's deadline and refund_after at creation: seconds away here.
    const now = (await chainNow(ctx)).getTime();
    const deadline = new Date(now + 2_000);
    const dare = await createProgramDare(ctx, alice, '0.1', {
      deadline,
      refundAfter: new Date(now + 3_000),
      version: 2,
    });
    await contributeOnChain(ctx, bob, dare, '0.04');
    await contributeOnChain(ctx, carol, dare, '0.025');
    await fundEntries(ctx, dan.wallet.address);
    await enterOnChain(ctx, dan, dare);
    const [a0, b0, c0] = await balances(alice, bob, carol);
    await warpChain(ctx, 4);

    // Bob's 'Refund me': his own wallet signs and pays the fee; nothing of DarePool signs.
    const own = await buildRefundTransaction(ctx.chain.rpc, {
      programId: ctx.escrowProgramV2Id,
      vault: dare.vault,
      payer: address(bob.wallet.address),
    });
    const bobSignature = await sendRaw(await signBase64(bob.wallet, own.base64));
    expect((await lamportsOf(ctx, bob.wallet.address)) - b0!).toBe(40_000_000n - 5_000n);
    // A stranger's `npm run refund-dare`: its own key pays the fees; everyone else is refunded.
    const stranger = await generateKeyPairSigner();
    await ctx.chain.airdrop(stranger.address, 100_000_000n);
    const rest = await buildCloseRecordsTransactions(ctx.chain.rpc, {
      programId: ctx.escrowProgramV2Id,
      vault: dare.vault,
      feePayer: stranger,
    });
    const strangerSignatures = [];
    for (const transaction of rest) strangerSignatures.push(await sendRaw(transaction.base64));
    await expectClosed(dare);
    const [a1, , c1] = await balances(alice, bob, carol);
    expect([a1! - a0!, c1! - c0!]).toEqual([creatorBack(100_000_000n), 25_000_000n]);
    // The books do not know yet: the vault is gone, the ledger still holds the pool.
    expect(await unbooked(dare)).toEqual([
      { escrowWallet: dare.escrowWallet, ledger: 165_000_000n, onChain: 0n, difference: -165_000_000n },
    ]);

    ctx.clock.advance(DAY_MS + REFUND_GRACE_MS);
    const run = await refundJob(ctx).refundDue();
    expect(run.dareIds).toContain(dare.id);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, dare.escrowWallet));
    expect(
      lines
        .filter((line) => line.kind === 'refund')
        .map((line) => [line.counterparty, line.amount, line.signature]),
    ).toEqual(
      expect.arrayContaining([
        [bob.wallet.address, '0.040000000', bobSignature],
        [alice.wallet.address, '0.100000000', expect.any(String)],
        [carol.wallet.address, '0.025000000', expect.any(String)],
      ]),
    );
    expect(lines.filter((line) => line.kind === 'refund')).toHaveLength(3);
    const contributions = await ctx.database.db
      .select()
      .from(poolContributions)
      .where(eq(poolContributions.dareId, dare.id));
    expect(contributions.every((row) => row.refundSignature !== null)).toBe(true);
    expect(contributions.find((row) => row.walletAddress === bob.wallet.address)!.refundSignature).toBe(
      bobSignature,
    );
    expect(strangerSignatures).toContain(
      contributions.find((row) => row.walletAddress === carol.wallet.address)!.refundSignature,
    );
    expect(await unbooked(dare)).toEqual([]);
    // Booked once: another run finds nothing new.
    await refundJob(ctx).refundDue();
    expect(
      await ctx.database.db.$count(ledgerEntries, eq(ledgerEntries.escrowWallet, dare.escrowWallet)),
    ).toBe(lines.length);
    await expectReconciled(ctx);
  });
});

describe('a refund that cannot be sent blocks no other dare', () => {
  it('refunds the next dare; the failed one is retried on its own', async () => {
    const deadline = new Date(ctx.clock.now.getTime() + DAY_MS);
    const stuck = await createFundedDare(ctx, alice, '0.1', { deadline: deadline.toISOString() });
    await contribute(ctx, bob, stuck, '0.02');
    const next = await createFundedDare(ctx, carol, '0.1', { deadline: deadline.toISOString() });
    const [a0, b0, c0] = await balances(alice, bob, carol);
    const payouts = payoutsService(ctx);
    const flaky = createRefundsService({
      db: ctx.database.db,
      chain: ctx.chain,
      clock: () => ctx.clock.now,
      payouts: {
        ...payouts,
        refundVault: (target) =>
          target.escrowWallet === stuck.escrowWallet
            ? Promise.reject(new Error('node unavailable'))
            : payouts.refundVault(target),
      },
    });
    ctx.clock.advance(DAY_MS + REFUND_GRACE_MS + 60_000);
    const run = await flaky.refundDue();
    expect(run.dareIds).toEqual(expect.arrayContaining([stuck.id, next.id]));
    expect(run.summaries[run.dareIds.indexOf(stuck.id)]).toEqual({
      refunded: 0,
      refundedAmount: '0',
      failed: 2,
      failureReason: 'The refund could not be prepared',
      transfers: [],
    });
    expect(run.summaries[run.dareIds.indexOf(next.id)]).toMatchObject({ refunded: 1, failed: 0 });
    const [a1, b1, c1] = await balances(alice, bob, carol);
    expect([a1, b1, c1! - c0!]).toEqual([a0, b0, creatorBack(100_000_000n)]);
    await expectClosed(next);
    await expectReconciled(ctx);

    const again = await refundJob(ctx).refundDue();
    expect(again.dareIds).toEqual([stuck.id]);
    const [a2, b2] = await balances(alice, bob);
    expect([a2! - a0!, b2! - b0!]).toEqual([creatorBack(100_000_000n), backerBack(20_000_000n)]);
    await expectClosed(stuck);
    await expectReconciled(ctx);
  });
});

describe('lamports sent to a vault from outside', () => {
  it('do not freeze a cancel: the last refund carries them, booked as surplus, and the vault closes', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1');
    await contribute(ctx, bob, dare, '0.02');
    await sendOwnTransfer(ctx.chain, carol.wallet, { to: dare.escrowWallet, sol: '0.000000001' });
    const [a0, b0] = await balances(alice, bob);
    const res = await http.patch(`/api/admin/dares/${dare.id}/status`, { status: 'cancelled' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds).toMatchObject({ refunded: 2, refundedAmount: '0.120000001', failed: 0 });
    const [a1, b1] = await balances(alice, bob);
    // One of the two refunds is the vault's last: it carries the stray lamport. The creator also
    // gets its vault's and receipt's rent back.
    expect(a1! - a0! + (b1! - b0!)).toBe(backerBack(creatorBack(120_000_001n)));
    await expectClosed(dare);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, dare.escrowWallet));
    expect(lines.filter((line) => line.kind === 'surplus').map((line) => line.amount)).toEqual([
      '0.000000001',
    ]);
    await expectReconciled(ctx);
  });
});

describe('records left after a payout', () => {
  it('are closed by the job: an execute that closed none, each record’s rent back to whoever paid it', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1');
    await contribute(ctx, bob, dare, '0.01');
    await fundEntries(ctx, dan.wallet.address);
    await enterOnChain(ctx, dan, dare);
    const submission = await submitVideo(ctx, dan, dare.id);
    await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    await castVote(ctx, carol, submission);
    await nameWinner(ctx, admin, submission.id, dare.id);
    // While the proposal stands the vault takes no new record: a late entrant is refused.
    const late = await newActor(ctx, 'late', { sol: '0' });
    await fundEntries(ctx, late.wallet.address);
    await expect(enterOnChain(ctx, late, dare)).rejects.toThrow();
    expect(await lamportsOf(ctx, late.wallet.address)).toBe(ENTRY_COST);
    await passPayoutWindow(ctx);

    // The execute alone, as a payout cut short after it landed: the records stay behind.
    const [claim] = await ctx.database.db.select().from(claims).where(eq(claims.submissionId, submission.id));
    const claimId = claim!.id;
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claimId));
    const { transfer } = await recordExecute(
      ctx,
      { claimId, dareId: dare.id, escrowWallet: dare.escrowWallet },
      async (tx, signature) => {
        await tx.update(claims).set({ transactionHash: signature }).where(eq(claims.id, claimId));
      },
    );
    const before = await lamportsOf(ctx, dan.wallet.address);
    expect(await payoutsService(ctx).sendStored(transfer)).toMatchObject({ status: 'confirmed' });
    // Exactly the pool.
    expect((await lamportsOf(ctx, dan.wallet.address)) - before).toBe(110_000_000n);
    expect(await vaultOnChain(ctx, dare.vault)).toMatchObject({ receipts: 2, entries: 1 });
    expect((await vaultOnChain(ctx, dare.vault)).vault?.status).toBe('settled');
    await expectReconciled(ctx);

    const platformBefore = await platformBalance();
    const [aliceBefore, bobBefore] = await balances(alice, bob);
    const run = await refundJob(ctx).refundDue();
    expect(run.finished).toMatchObject({ closed: 1, failureReasons: [] });
    await expectClosed(dare);
    // Each rent back to whoever paid it: the backer's receipt's to the backer, the vault's and the
    // creator's receipt's to the creator, the entry's to the winner who paid it. The platform paid
    // one fee: the two receipts' and the entry's closes packed in one transaction (decision 058).
    expect((await platformBalance()) - platformBefore).toBe(-5_000n);
    expect((await lamportsOf(ctx, alice.wallet.address)) - aliceBefore!).toBe(VAULT_RENT + RECEIPT_RENT);
    expect((await lamportsOf(ctx, bob.wallet.address)) - bobBefore!).toBe(RECEIPT_RENT);
    expect((await lamportsOf(ctx, dan.wallet.address)) - before).toBe(110_000_000n + ENTRY_RENT);
    await expectReconciled(ctx);
  });
});

async function sendRaw(wire: string): Promise<string> {
  const signature = await ctx.chain.rpc
    .sendTransaction(wire as Base64EncodedWireTransaction, { encoding: 'base64' })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { intervalMs: 5, timeoutMs: 10_000 });
  return signature;
}
