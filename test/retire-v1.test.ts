/**
 * Escrow program v1 retired (decision 050): the payout job cancels every open v1 vault and refunds
 * each payer, exactly once however the run is interrupted or raced. Here on vaults of the test's
 * own v1 program (createProgramDare's default, as dares made before v2); the data folder from
 * before v2 shows the same on a real old folder (legacy-data-folder.test.ts), a major dare's
 * picks major-dare-payout.test.ts.
 */
import { address } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '#contract/admin';
import { CLAIM_MESSAGES } from '#contract/claims';
import { buildCancelAndRefundTransactions } from '#server/chain/escrow-program/app-transactions';
import { claims, ledgerEntries, payoutTransfers } from '#server/db/schema';
import { completeDare, insertPendingClaim, markSubmissionWinner } from '#server/features/claims/repo';
import { createTransfers } from '#server/features/payouts/transfers';
import { retireV1Dares } from '#server/features/refunds/repo/retired-escrows';
import { v1ProgramOf } from './helpers/app';
import { ENTRY_FEE } from './helpers/entries';
import { waitUntilLanded } from './helpers/money';
import {
  contributeOnChain,
  createProgramDare,
  enterOnChain,
  expectReconciled,
  lamportsOf,
  refundJob,
  submitVideo,
  vaultOnChain,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, alice, bob, carol },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  context: { persistentChain: true },
  actors: { admin: { username: 'boss', admin: true }, alice: {}, bob: {}, carol: { sol: '0' } },
});

/** A v1 entry's rent (112 bytes), back to the entrant when the entry closes. */
const ENTRY_RENT = 1_670_400n;

const refundLines = async (dareId: number) =>
  (await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.dareId, dareId)))
    .filter((line) => line.kind === 'refund')
    .map((line) => `${line.amount} ${line.counterparty}`)
    .sort();

describe('retiring escrow program v1', () => {
  it('a refund sent but not booked when the process stopped is booked once at the restart, never sent twice', async () => {
    const dare = await createProgramDare(ctx, alice, '0.1');
    await contributeOnChain(ctx, bob, dare, '0.04');
    expect(await retireV1Dares(ctx.database.db, ctx.clock.now)).toEqual([dare.id]);
    // Cancelled, the reason said before any SOL went back; Activate refused.
    const page = await http.get(`/api/dares/${dare.id}`);
    expect(page.json()).toMatchObject({
      status: 'cancelled',
      phase: 'cancelled',
      phaseReason: "Cancelled: this dare's escrow was retired (program v1), every backer gets their SOL back",
    });
    const reactivate = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'active' },
      admin.token,
    );
    expect([reactivate.statusCode, reactivate.json().error]).toEqual([409, ADMIN_MESSAGES.retiredDare]);

    // What the job's refund does up to the crash: the cancel and refunds signed, recorded, sent.
    const [alice0, bob0] = [
      await lamportsOf(ctx, alice.wallet.address),
      await lamportsOf(ctx, bob.wallet.address),
    ];
    const [transaction, ...rest] = await buildCancelAndRefundTransactions(ctx.chain.rpc, {
      programId: v1ProgramOf(ctx),
      vault: dare.vault,
      moderator: await ctx.escrowKeys.moderator(),
      feePayer: await ctx.escrowKeys.feePayer(),
    });
    expect(rest).toEqual([]);
    const transfers = createTransfers({
      db: ctx.database.db,
      chain: ctx.chain,
      escrowKeys: ctx.escrowKeys,
      escrowPrograms: { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id },
      clock: () => ctx.clock.now,
    });
    const row = await transfers.record(
      { purpose: 'refund', claimId: null, dareId: dare.id, escrowWallet: dare.escrowWallet },
      transaction!,
      { recipient: alice.wallet.address, lamports: 140_000_000n },
    );
    await ctx.chain.rpc.sendTransaction(row.wireTransaction as never, { encoding: 'base64' }).send();
    await waitUntilLanded(ctx.chain, row.signature);
    await expect(expectReconciled(ctx)).rejects.toThrow(); // the chain moved, the books not yet

    await ctx.restart();
    expect(await refundLines(dare.id)).toEqual(
      [`0.100000000 ${alice.wallet.address}`, `0.040000000 ${bob.wallet.address}`].sort(),
    );
    await refundJob(ctx).refundDue();
    await refundJob(ctx).refundDue();
    expect(await refundLines(dare.id)).toHaveLength(2);
    expect(
      (await ctx.database.db.select().from(payoutTransfers).where(eq(payoutTransfers.dareId, dare.id))).map(
        (t) => [t.signature, t.status],
      ),
    ).toEqual([[row.signature, 'confirmed']]);
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(alice0 + 100_000_000n);
    expect(await lamportsOf(ctx, bob.wallet.address)).toBe(bob0 + 40_000_000n);
    expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });
    expect((await http.get(`/api/dares/${dare.id}`)).json()).toMatchObject({
      phase: 'refunded',
      phaseReason: "Refunded: this dare's escrow was retired (program v1), every backer got their SOL back",
    });
    await expectReconciled(ctx);
  });

  it('a winner named before the upgrade claiming while the job runs: never paid, every payer refunded', async () => {
    const dare = await createProgramDare(ctx, alice, '0.2');
    await contributeOnChain(ctx, bob, dare, '0.05');
    await ctx.chain.airdrop(address(carol.wallet.address), ENTRY_RENT + ENTRY_FEE);
    await enterOnChain(ctx, carol, dare);
    const submission = await submitVideo(ctx, carol, dare.id);
    // Named by v1's mark-winner before the upgrade: the dare completed, the claim pending.
    const claimId = await ctx.database.db.transaction(async (tx) => {
      await completeDare(tx, dare.id, ['active'], ctx.clock.now);
      await markSubmissionWinner(tx, submission.id, ctx.clock.now);
      return insertPendingClaim(tx, {
        userId: carol.id,
        amount: '0.25',
        claimType: 'dare_winner',
        dareId: dare.id,
        submissionId: submission.id,
        now: ctx.clock.now,
      });
    });
    const before = await Promise.all([alice, bob, carol].map((a) => lamportsOf(ctx, a.wallet.address)));
    // Carol's Claim Prize burst racing the job's run.
    const [claimed] = await Promise.all([
      Promise.all(
        Array.from({ length: 5 }, () =>
          http.post('/api/claims/prize', { submissionId: submission.id }, carol.token),
        ),
      ),
      refundJob(ctx).refundDue(),
    ]);
    expect(claimed.every((res) => res.statusCode === 409)).toBe(true);
    // A claim a Claim Prize held meanwhile is failed (and its dare refunded) by the next run at the latest.
    await refundJob(ctx).refundDue();
    const after = await Promise.all([alice, bob, carol].map((a) => lamportsOf(ctx, a.wallet.address)));
    expect(after.map((lamports, index) => lamports - before[index]!)).toEqual([
      200_000_000n,
      50_000_000n,
      ENTRY_RENT,
    ]);
    const [claim] = await ctx.database.db.select().from(claims).where(eq(claims.id, claimId));
    expect([claim!.status, claim!.failureReason, claim!.transactionHash]).toEqual([
      'failed',
      CLAIM_MESSAGES.escrowRetired,
      null,
    ]);
    const late = await http.post('/api/claims/prize', { submissionId: submission.id }, carol.token);
    expect([late.statusCode, late.json().error]).toEqual([409, CLAIM_MESSAGES.escrowRetired]);
    expect(
      (await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.dareId, dare.id))).filter(
        (line) => line.kind === 'payout',
      ),
    ).toEqual([]);
    expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });
    await expectReconciled(ctx);
    // Its failed prize holds nothing up: the admin may delete the refunded dare.
    const deleted = await http.del(`/api/admin/dares/${dare.id}`, admin.token);
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
});
