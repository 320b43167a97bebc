import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dares, ledgerEntries, poolContributions } from '#server/db/schema';
import { createPayoutsService } from '#server/features/payouts/service';
import { createRefundsService, REFUND_GRACE_MS } from '#server/features/refunds/service';
import { sendOwnTransfer } from './helpers/money';
import {
  type Actor,
  contribute,
  createFundedDare,
  expectReconciled,
  lamportsOf,
  refundJob as newRefundJob,
  submitVideo,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, alice, bob, carol },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { admin: { username: 'boss', admin: true }, alice: {}, bob: {}, carol: {} },
});
/** The same job the server runs every minute, driven here directly with the test clock. */
let refundJob: ReturnType<typeof newRefundJob>;

const DAY = 24 * 3600 * 1000;

beforeAll(() => {
  refundJob = newRefundJob(ctx);
});

const balances = async (...actors: Actor[]) =>
  Promise.all(actors.map((a) => lamportsOf(ctx, a.wallet.address)));

describe('admin cancel', () => {
  it('refunds every contribution to the wallet it came from, exactly, once', async () => {
    const dare = await createFundedDare(ctx, alice, '0.2');
    await contribute(ctx, bob, dare, '0.05');
    await contribute(ctx, carol, dare, '0.03');
    await contribute(ctx, bob, dare, '0.011');
    const [a0, b0, c0] = await balances(alice, bob, carol);

    const res = await http.patch(`/api/admin/dares/${dare.id}/status`, { status: 'cancelled' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: dare.id,
      status: 'cancelled',
      refunds: {
        refunded: 4,
        refundedAmount: '0.291',
        failed: 0,
        failureReason: null,
        transfers: expect.any(Array),
      },
    });
    const [a1, b1, c1] = await balances(alice, bob, carol);
    expect(a1! - a0!).toBe(200_000_000n);
    expect(b1! - b0!).toBe(61_000_000n);
    expect(c1! - c0!).toBe(30_000_000n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    const rows = await ctx.database.db
      .select()
      .from(poolContributions)
      .where(eq(poolContributions.dareId, dare.id));
    expect(rows.every((row) => row.refundedAt !== null && row.refundSignature !== null)).toBe(true);
    // The answer names every refund transfer: the signatures the contributions recorded.
    expect(
      res
        .json()
        .refunds.transfers.map((t: { signature: string; amount: string; walletAddress: string }) =>
          [t.signature, t.amount, t.walletAddress].join(' '),
        )
        .sort(),
    ).toEqual(
      rows
        .map((row) => [row.refundSignature, Number(row.amount).toString(), row.walletAddress].join(' '))
        .sort(),
    );
    const refunds = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds.filter((entry) => entry.dareId === dare.id)).toHaveLength(4);
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
    expect(reactivate.json().error).toBe(
      'This dare was cancelled and its pool refunded; it cannot be reactivated',
    );
    expect((await refundJob.refundDue()).dareIds).not.toContain(dare.id);
    expect(await balances(alice, bob, carol)).toEqual([a1, b1, c1]);
    const bad = await http.patch(`/api/admin/dares/${dare.id}/status`, { status: 'completed' }, admin.token);
    expect(bad.statusCode).toBe(400);
  });
});

describe('deadline passed with no winner', () => {
  it('is refunded automatically after the 7-day grace, not before, and never a dare with a winner', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1', {
      deadline: new Date(ctx.clock.now.getTime() + DAY).toISOString(),
    });
    await contribute(ctx, carol, dare, '0.02');
    const won = await createFundedDare(ctx, bob, '0.1', {
      deadline: new Date(ctx.clock.now.getTime() + DAY).toISOString(),
    });
    const submission = await submitVideo(ctx, carol, won.id);
    await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    expect(
      (
        await http.post(
          `/api/admin/submissions/${submission.id}/mark-winner`,
          { dareId: won.id },
          admin.token,
        )
      ).statusCode,
    ).toBe(201);
    const [a0, c0] = await balances(alice, carol);

    ctx.clock.advance(DAY + REFUND_GRACE_MS - 60_000);
    expect((await refundJob.refundDue()).dareIds).not.toContain(dare.id);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(120_000_000n);

    ctx.clock.advance(120_000);
    const run = await refundJob.refundDue();
    expect(run.dareIds).toContain(dare.id);
    expect(run.dareIds).not.toContain(won.id);
    const [a1, c1] = await balances(alice, carol);
    expect(a1! - a0!).toBe(100_000_000n);
    expect(c1! - c0!).toBe(20_000_000n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    expect(await lamportsOf(ctx, won.escrowWallet)).toBe(100_000_000n);
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('cancelled');
    // The next run finds nothing owed.
    expect((await refundJob.refundDue()).dareIds).toEqual([]);
    await expectReconciled(ctx);
  });
});

describe('a refund that cannot be paid blocks no other (issue 13)', () => {
  it('refunds the other contributions and the next dare; the failed one is retried on its own', async () => {
    const stuck = await createFundedDare(ctx, alice, '0.1', {
      deadline: new Date(ctx.clock.now.getTime() + DAY).toISOString(),
    });
    await contribute(ctx, bob, stuck, '0.02');
    await contribute(ctx, carol, stuck, '0.03');
    const next = await createFundedDare(ctx, carol, '0.1', {
      deadline: new Date(ctx.clock.now.getTime() + DAY).toISOString(),
    });
    const [a0, b0, c0] = await balances(alice, bob, carol);
    // Bob's refund cannot even be prepared (the node fails on it, say): only his.
    const clock = () => ctx.clock.now;
    const payouts = createPayoutsService({
      db: ctx.database.db,
      chain: ctx.chain,
      escrowKeys: ctx.escrowKeys,
      clock,
    });
    const flaky = createRefundsService({
      db: ctx.database.db,
      chain: ctx.chain,
      clock,
      payouts: {
        ...payouts,
        pay: (request, beforeRecord) =>
          request.recipient === bob.wallet.address
            ? Promise.reject(new Error('node unavailable'))
            : payouts.pay(request, beforeRecord),
      },
    });

    ctx.clock.advance(DAY + REFUND_GRACE_MS + 60_000);
    const run = await flaky.refundDue();
    expect(run.dareIds).toEqual(expect.arrayContaining([stuck.id, next.id]));
    expect(run.summaries[run.dareIds.indexOf(stuck.id)]).toEqual({
      refunded: 2,
      refundedAmount: '0.13',
      failed: 1,
      failureReason: 'The refund could not be prepared',
      transfers: [expect.objectContaining({ amount: '0.03' }), expect.objectContaining({ amount: '0.1' })],
    });
    const [a1, b1, c1] = await balances(alice, bob, carol);
    expect(a1! - a0!).toBe(100_000_000n);
    expect(b1).toBe(b0);
    expect(c1! - c0!).toBe(130_000_000n); // her contribution, and her stake of the next dare
    expect(await lamportsOf(ctx, stuck.escrowWallet)).toBe(20_000_000n);
    expect(await lamportsOf(ctx, next.escrowWallet)).toBe(0n);
    await expectReconciled(ctx);

    // The regular job pays Bob's refund alone; nothing else moves twice.
    const again = await refundJob.refundDue();
    expect(again.dareIds).toEqual([stuck.id]);
    expect(await balances(alice, bob, carol)).toEqual([a1, b1! + 20_000_000n, c1]);
    expect(await lamportsOf(ctx, stuck.escrowWallet)).toBe(0n);
    await expectReconciled(ctx);
  });
});

describe('dust sent to an escrow from outside (issue 13)', () => {
  it('does not freeze a cancel: the last refund takes the escrow to exactly 0 and the dust is booked', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1', {
      deadline: new Date(ctx.clock.now.getTime() + DAY).toISOString(),
    });
    await contribute(ctx, bob, dare, '0.02');
    // Anyone can send 1 lamport to a public escrow address.
    await sendOwnTransfer(ctx.chain, carol.wallet, { to: dare.escrowWallet, sol: '0.000000001' });
    const [a0, b0] = await balances(alice, bob);
    const res = await http.patch(`/api/admin/dares/${dare.id}/status`, { status: 'cancelled' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds).toEqual({
      refunded: 2,
      refundedAmount: '0.12',
      failed: 0,
      failureReason: null,
      transfers: [
        expect.objectContaining({ amount: '0.02', walletAddress: bob.wallet.address }),
        expect.objectContaining({ amount: '0.1', walletAddress: alice.wallet.address }),
      ],
    });
    const [a1, b1] = await balances(alice, bob);
    expect(b1! - b0!).toBe(20_000_000n);
    // The stake goes last and empties the escrow: its refund carries the lamport along.
    expect(a1! - a0!).toBe(100_000_001n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, dare.escrowWallet));
    expect(lines.map((line) => `${line.kind}:${line.direction}:${line.amount}`).sort()).toEqual([
      'contribution:1:0.020000000',
      'refund:-1:0.020000000',
      'refund:-1:0.100000001',
      'stake:1:0.100000000',
      'surplus:1:0.000000001',
    ]);
    await expectReconciled(ctx);
  });
});
