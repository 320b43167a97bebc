/**
 * A major dare's prize in a vault of escrow program v1 (made before every new vault was v2's:
 * decision 046) is no longer paid: v1 let the moderator key, which the server holds, settle a pool
 * to any wallet, so v1 is retired (decision 050). Picks on such a dare are refused; winners picked
 * before the upgrade (their claims pending) are never paid: the payout job cancels the dare and
 * refunds every payer to the lamport, the entrants get their entries' rent back, the claims fail
 * with the reason, and the dare says why. The same prize on v2 (propose, window, execute):
 * major-dare.test.ts.
 */
import { address } from '@solana/kit';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES } from '#contract/claims';
import { claims, dares, ledgerEntries, payoutTransfers, users } from '#server/db/schema';
import { completeDare, insertPendingClaim, markSubmissionWinner } from '#server/features/claims/repo';
import { V1_RETIRED } from '#server/features/payouts/service';
import { ENTRY_FEE } from './helpers/entries';
import {
  type Actor,
  castVote,
  contributeOnChain,
  createProgramDare,
  enterOnChain,
  expectReconciled,
  lamportsOf,
  newActor,
  refundJob,
  submitVideo,
  vaultOnChain,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, backer, picked, popular, voter },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000', MAJOR_PRIZE_MAX_SOL: '7' },
  actors: {
    admin: { username: 'boss', admin: true },
    backer: {},
    picked: { sol: '0' },
    popular: { sol: '0' },
    voter: { sol: '0' },
  },
});

/** A v1 entry's rent (112 bytes, no proof hash), back to the entrant when the entry closes. */
const ENTRY_RENT = 1_670_400n;
const REFUNDED_WORDS =
  "Refunded: this dare's escrow was retired (program v1), every backer got their SOL back";

async function majorWithEntries(prize: string, added: string | null, entrants: Actor[]) {
  const dare = await createProgramDare(ctx, admin, prize, { kind: 'major' });
  if (added) await contributeOnChain(ctx, backer, dare, added);
  const submissions = [];
  for (const entrant of entrants) {
    // Each entrant's wallet pays its own (v1) entry: exactly that much is given to it first.
    await ctx.chain.airdrop(address(entrant.wallet.address), ENTRY_RENT + ENTRY_FEE);
    await enterOnChain(ctx, entrant, dare);
    const submission = await submitVideo(ctx, entrant, dare.id);
    const approved = await http.put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'approved' },
      admin.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    submissions.push(submission);
  }
  return { dare, submissions };
}

const pick = (dareId: number, submissionId: number, winnerType: 'admin' | 'community') =>
  http.post(`/api/admin/major-dare/${dareId}/winner`, { submissionId, winnerType }, admin.token);

/** A pick recorded before the upgrade, as the old pick wrote it: the dare completed, one pending claim. */
async function pickedBeforeTheUpgrade(
  dareId: number,
  submission: { id: number; userId: number },
  claimType: 'major_admin' | 'major_community',
  amount: string,
) {
  return ctx.database.db.transaction(async (tx) => {
    await completeDare(tx, dareId, ['active', 'completed'], ctx.clock.now);
    await markSubmissionWinner(tx, submission.id, ctx.clock.now);
    return insertPendingClaim(tx, {
      userId: submission.userId,
      amount,
      claimType,
      dareId,
      submissionId: submission.id,
      now: ctx.clock.now,
    });
  });
}

describe('a major dare on a retired v1 vault', () => {
  it('refuses new picks, moving nothing', async () => {
    const { dare, submissions } = await majorWithEntries('0.05', null, [picked]);
    const before = await lamportsOf(ctx, dare.vault);
    const refused = await pick(dare.id, submissions[0]!.id, 'admin');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(CLAIM_MESSAGES.escrowRetired);
    expect(await ctx.database.db.$count(claims, eq(claims.dareId, dare.id))).toBe(0);
    expect(await lamportsOf(ctx, dare.vault)).toBe(before);
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('active');
    // The job retires and refunds it like any other v1 dare.
    await refundJob(ctx).refundDue();
    expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });
    await expectReconciled(ctx);
  });

  it('both winners picked before the upgrade: no settle, every payer refunded to the lamport, the claims failed with the reason', async () => {
    const { dare, submissions } = await majorWithEntries('0.090000007', '0.01', [picked, popular]);
    const [a, b] = submissions as [(typeof submissions)[0], (typeof submissions)[0]];
    await castVote(ctx, voter, b);
    const ids = [
      await pickedBeforeTheUpgrade(dare.id, a, 'major_admin', '0.070000005'),
      await pickedBeforeTheUpgrade(dare.id, b, 'major_community', '0.030000002'),
    ];
    const vaultBefore = await lamportsOf(ctx, dare.vault);

    // Claim Prize before the job ran: refused, nothing recorded or sent, the claims pending again.
    const early = await http.post('/api/claims/prize', { submissionId: a.id }, picked.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(CLAIM_MESSAGES.vaultRefused(V1_RETIRED));
    expect(await lamportsOf(ctx, dare.vault)).toBe(vaultBefore);
    expect(await ctx.database.db.$count(payoutTransfers, eq(payoutTransfers.dareId, dare.id))).toBe(0);

    const wallets = [admin, backer, picked, popular].map((actor) => actor.wallet.address);
    const before = await Promise.all(wallets.map((wallet) => lamportsOf(ctx, wallet)));
    const run = await refundJob(ctx).refundDue();
    expect(run.retired).toEqual([dare.id]);
    const after = await Promise.all(wallets.map((wallet) => lamportsOf(ctx, wallet)));
    // The prize back to the admin who paid it, the backer's 0.01, each entrant its entry's rent.
    expect(after.map((lamports, index) => lamports - before[index]!)).toEqual([
      90_000_007n,
      10_000_000n,
      ENTRY_RENT,
      ENTRY_RENT,
    ]);
    expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });

    const rows = await ctx.database.db.select().from(claims).where(inArray(claims.id, ids));
    expect(rows.map((row) => [row.status, row.failureReason, row.transactionHash])).toEqual([
      ['failed', CLAIM_MESSAGES.escrowRetired, null],
      ['failed', CLAIM_MESSAGES.escrowRetired, null],
    ]);
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.dareId, dare.id));
    expect(
      lines
        .filter((line) => line.direction < 0)
        .map((line) => [line.kind, line.counterparty, line.amount])
        .sort(),
    ).toEqual(
      [
        ['refund', admin.wallet.address, '0.090000007'],
        ['refund', backer.wallet.address, '0.010000000'],
      ].sort(),
    );
    const winners = await ctx.database.db
      .select()
      .from(users)
      .where(inArray(users.id, [picked.id, popular.id]));
    expect(winners.map((w) => [w.dareWins, w.totalEarnings])).toEqual([
      [0, '0.000000000'],
      [0, '0.000000000'],
    ]);

    // Claimed after: the reason, not 'being paid out'.
    const late = await http.post('/api/claims/prize', { submissionId: b.id }, popular.token);
    expect([late.statusCode, late.json().error]).toEqual([409, CLAIM_MESSAGES.escrowRetired]);
    const page = await http.get(`/api/dares/${dare.id}`);
    expect(page.json()).toMatchObject({
      status: 'cancelled',
      phase: 'refunded',
      phaseReason: REFUNDED_WORDS,
    });

    // Run again: nothing left to do, nothing sent, nothing booked twice.
    const again = await refundJob(ctx).refundDue();
    expect(again.retired).toEqual([]);
    expect(await ctx.database.db.$count(ledgerEntries, eq(ledgerEntries.dareId, dare.id))).toBe(lines.length);
    await expectReconciled(ctx);
  });

  it('only the admin’s pick made before the upgrade: refunded the same, the entrant’s rent back', async () => {
    const one = await newActor(ctx, 'one', { sol: '0' });
    const { dare, submissions } = await majorWithEntries('0.05', null, [one]);
    await pickedBeforeTheUpgrade(dare.id, submissions[0]!, 'major_admin', '0.035');
    const [adminBefore, oneBefore] = [
      await lamportsOf(ctx, admin.wallet.address),
      await lamportsOf(ctx, one.wallet.address),
    ];
    await refundJob(ctx).refundDue();
    expect((await lamportsOf(ctx, admin.wallet.address)) - adminBefore).toBe(50_000_000n);
    expect((await lamportsOf(ctx, one.wallet.address)) - oneBefore).toBe(ENTRY_RENT);
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(row!.status).toBe('failed');
    await expectReconciled(ctx);
  });
});
