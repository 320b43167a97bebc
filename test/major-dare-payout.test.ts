/**
 * A major dare's prize in a vault of escrow program v1 (made before every new vault was v2's:
 * decision 046; such vaults keep v1's rules for life): one `settle` pays both winners 70/30 in exact
 * lamports (the odd lamport to the admin's pick, as the program splits), once both are picked; both
 * claims record its signature. The same on v2 (propose, window, execute): major-dare.test.ts.
 */
import { address } from '@solana/kit';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { majorShares } from '#server/chain/payout-transactions';
import { claims, ledgerEntries, payoutTransfers, users } from '#server/db/schema';
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

describe('major dare payout on the program', () => {
  it('pays both winners 70/30 in exact lamports with one settle, once both are picked', async () => {
    const { dare, submissions } = await majorWithEntries('0.090000007', '0.01', [picked, popular]);
    const [a, b] = submissions as [(typeof submissions)[0], (typeof submissions)[0]];
    await castVote(ctx, voter, b);
    const adminPick = await pick(dare.id, a.id, 'admin');
    expect(adminPick.statusCode, adminPick.body).toBe(201);
    const [first, second] = majorShares(100_000_007n);
    expect([first, second]).toEqual([70_000_005n, 30_000_002n]);
    expect(adminPick.json()).toMatchObject({ amount: '0.070000005', claimType: 'major_admin' });

    // Only one winner picked: the one settle cannot pay yet.
    const early = await http.post('/api/claims/prize', { submissionId: a.id }, picked.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(
      "A major dare's prize is paid to both winners at once (70/30): it can be claimed once both are picked",
    );
    expect((await vaultOnChain(ctx, dare.vault)).vault?.status).toBe('open');

    expect((await pick(dare.id, b.id, 'community')).statusCode).toBe(201);
    const [p0, q0] = [
      await lamportsOf(ctx, picked.wallet.address),
      await lamportsOf(ctx, popular.wallet.address),
    ];
    const paid = await http.post('/api/claims/prize', { submissionId: a.id }, picked.token);
    expect(paid.statusCode, paid.body).toBe(200);
    // Each share, and each entry's rent back to the entrant who paid it.
    expect((await lamportsOf(ctx, picked.wallet.address)) - p0).toBe(70_000_005n + ENTRY_RENT);
    expect((await lamportsOf(ctx, popular.wallet.address)) - q0).toBe(30_000_002n + ENTRY_RENT);
    expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });

    // The community winner's claim was paid by the same settle.
    const rows = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(rows.map((row) => [row.claimType, row.status, row.transactionHash]).sort()).toEqual(
      [
        ['major_admin', 'paid', paid.json().transactionHash],
        ['major_community', 'paid', paid.json().transactionHash],
      ].sort(),
    );
    const theirs = await http.post('/api/claims/prize', { submissionId: b.id }, popular.token);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().error).toBe('This prize has already been paid');
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.dareId, dare.id));
    expect(
      lines
        .filter((line) => line.kind === 'payout')
        .map((line) => [line.counterparty, line.amount, line.claimId])
        .sort(),
    ).toEqual(
      [
        [picked.wallet.address, '0.070000005', rows.find((r) => r.claimType === 'major_admin')!.id],
        [popular.wallet.address, '0.030000002', rows.find((r) => r.claimType === 'major_community')!.id],
      ].sort(),
    );
    const winners = await ctx.database.db
      .select()
      .from(users)
      .where(inArray(users.id, [picked.id, popular.id]));
    expect(winners.map((w) => [w.id, w.dareWins, w.totalEarnings]).sort()).toEqual(
      [
        [picked.id, 1, '0.070000005'],
        [popular.id, 1, '0.030000002'],
      ].sort(),
    );
    await expectReconciled(ctx);
  });

  it('both winners claiming at once: one settle, each paid exactly once', async () => {
    const [one, two] = [await newActor(ctx, 'one', { sol: '0' }), await newActor(ctx, 'two', { sol: '0' })];
    const { dare, submissions } = await majorWithEntries('0.333333333', null, [one, two]);
    const [a, b] = submissions as [(typeof submissions)[0], (typeof submissions)[0]];
    await castVote(ctx, voter, b);
    expect((await pick(dare.id, a.id, 'admin')).statusCode).toBe(201);
    expect((await pick(dare.id, b.id, 'community')).statusCode).toBe(201);
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () => http.post('/api/claims/prize', { submissionId: a.id }, one.token)),
      ...Array.from({ length: 5 }, () => http.post('/api/claims/prize', { submissionId: b.id }, two.token)),
    ]);
    expect(responses.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((res) => res.statusCode === 409)).toHaveLength(9);
    const [first, second] = majorShares(333_333_333n);
    expect(await lamportsOf(ctx, one.wallet.address)).toBe(first + ENTRY_RENT);
    expect(await lamportsOf(ctx, two.wallet.address)).toBe(second + ENTRY_RENT);
    expect(first + second).toBe(333_333_333n);
    expect(
      (await ctx.database.db.select().from(payoutTransfers).where(eq(payoutTransfers.dareId, dare.id))).map(
        (t) => t.status,
      ),
    ).toEqual(['confirmed']);
    await expectReconciled(ctx);
  });

  it('one submission winning both picks is paid the whole prize by one settle', async () => {
    const { dare, submissions } = await majorWithEntries('0.05', null, [picked]);
    const [only] = submissions as [(typeof submissions)[0]];
    await castVote(ctx, voter, only);
    expect((await pick(dare.id, only.id, 'admin')).statusCode).toBe(201);
    expect((await pick(dare.id, only.id, 'community')).statusCode).toBe(201);
    const before = await lamportsOf(ctx, picked.wallet.address);
    const paid = await http.post('/api/claims/prize', { submissionId: only.id }, picked.token);
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await lamportsOf(ctx, picked.wallet.address)) - before).toBe(50_000_000n + ENTRY_RENT);
    const rows = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(rows.map((row) => row.status)).toEqual(['paid', 'paid']);
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.dareId, dare.id));
    expect(lines.filter((line) => line.kind === 'payout').map((line) => line.amount)).toEqual([
      '0.050000000',
    ]);
    expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });
    await expectReconciled(ctx);
  });
});
