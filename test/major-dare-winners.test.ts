/**
 * POST /api/admin/major-dare/{id}/winners: both winners of a judged Major Dare in one propose and
 * one signature (issue 37 item 5, docs/decisions/072-both-major-picks-one-signature.md). Asking
 * records nothing; only the judge's signed propose records both picks, once, and relays it.
 */
import { getCompiledTransactionMessageDecoder, getTransactionDecoder, type KeyPairSigner } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { MAJOR_DARE_MESSAGES, splitMajorPrize } from '#contract/major-dare';
import { lamportsToSol, normalizeSol } from '#contract/money';
import { proposeAccountIndex } from '#contract/propose-layout';
import { claims, dareSubmissions, dares } from '#server/db/schema';
import {
  adminWithKey,
  createV2Dare,
  demoJudgeKey,
  enteredSubmission,
  judgeSigns,
  potOf,
  type V2Dare,
  vaultV2,
} from './helpers/judging';
import { type Actor, castVote } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const { ctx, http, actors } = setupApiSuite({
  // The v2 dares here are funded on chain directly (helpers/judging.ts), without the stake's ledger line.
  context: { leavesReconcileDifferences: true },
  actors: { creator: {}, ada: {}, bob: {}, voter: {}, stranger: { admin: true, judge: false } },
});

let judgeKey: KeyPairSigner;
let judge: Actor;
beforeAll(async () => {
  judgeKey = await demoJudgeKey(ctx);
  judge = await adminWithKey(ctx, judgeKey, 'majorjudge');
});

interface Offered {
  transaction: string;
  winners: { submissionId: number; walletAddress: string; amount: string }[];
}

const winners = (dareId: number, body: object, token = judge.token) =>
  http.post(`/api/admin/major-dare/${dareId}/winners`, body, token);

/** A judged Major Dare with ada's and bob's entered, approved proofs; bob's is the most voted. */
async function majorWithProofs(): Promise<{
  dare: V2Dare;
  adas: { id: number };
  bobs: { id: number };
}> {
  const dare = await createV2Dare(ctx, actors.creator, '1', { kind: 'major' });
  const adas = await enteredSubmission(ctx, actors.ada, dare);
  const bobs = await enteredSubmission(ctx, actors.bob, dare);
  await castVote(ctx, actors.voter, bobs);
  return { dare, adas, bobs };
}

async function nothingRecorded(dareId: number) {
  expect(await ctx.database.db.$count(claims, eq(claims.dareId, dareId))).toBe(0);
  const [dare] = await ctx.database.db.select().from(dares).where(eq(dares.id, dareId));
  expect(dare!.status).toBe('active');
  const statuses = await ctx.database.db
    .select({ status: dareSubmissions.status })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.dareId, dareId));
  expect(statuses.map((s) => s.status)).toEqual(['approved', 'approved']);
}

/** The winners' wallets the propose instruction pays, read from the transaction itself. */
function proposedWallets(base64: string): string[] {
  const message = getCompiledTransactionMessageDecoder().decode(
    getTransactionDecoder().decode(Buffer.from(base64, 'base64')).messageBytes,
  ) as Extract<ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>, { version: 0 }>;
  const propose = message.instructions.at(-1)!;
  const accounts = (propose.accountIndices ?? []).map((i) => String(message.staticAccounts[i]));
  return [0, 1].map((winner) => accounts[proposeAccountIndex.winner(winner)]!);
}

describe('naming both Major Dare winners at once', () => {
  it('answers the propose naming both, recording nothing, then records both picks once when signed', async () => {
    const { dare, adas, bobs } = await majorWithProofs();
    const split = splitMajorPrize(await potOf(ctx, dare.vault));
    const picks = { adminSubmissionId: adas.id, communitySubmissionId: bobs.id };

    const asked = await winners(dare.id, picks);
    expect(asked.statusCode, asked.body).toBe(200);
    const offered = asked.json() as Offered;
    expect(offered.winners).toEqual([
      { submissionId: adas.id, walletAddress: actors.ada.wallet.address, amount: lamportsToSol(split.admin) },
      {
        submissionId: bobs.id,
        walletAddress: actors.bob.wallet.address,
        amount: lamportsToSol(split.community),
      },
    ]);
    expect(proposedWallets(offered.transaction)).toEqual([
      actors.ada.wallet.address,
      actors.bob.wallet.address,
    ]);
    await nothingRecorded(dare.id);
    expect((await vaultV2(ctx, dare.vault)).status).toBe('open');

    // The propose handed back without the judge's signature records nothing.
    const unsigned = await winners(dare.id, { ...picks, signedTransaction: offered.transaction });
    expect(unsigned.statusCode, unsigned.body).toBe(400);
    await nothingRecorded(dare.id);

    const signedTransaction = await judgeSigns(judgeKey, offered.transaction);
    const signed = await winners(dare.id, { ...picks, signedTransaction });
    expect(signed.statusCode, signed.body).toBe(200);
    const { proposal } = signed.json() as { proposal: { winners: unknown[]; signature: string } };
    expect(proposal.winners).toEqual(offered.winners);
    const vault = await vaultV2(ctx, dare.vault);
    expect(vault.status).toBe('proposed');
    expect(vault.proposal!.winners).toEqual([actors.ada.wallet.address, actors.bob.wallet.address]);

    // The same signed call again (a retry) answers the same proposal and records nothing twice.
    const again = await winners(dare.id, { ...picks, signedTransaction });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().proposal.signature).toBe(proposal.signature);
    const rows = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(rows.map((r) => [r.claimType, r.submissionId, normalizeSol(r.amount), r.status]).sort()).toEqual(
      [
        ['major_admin', adas.id, lamportsToSol(split.admin), 'pending'],
        ['major_community', bobs.id, lamportsToSol(split.community), 'pending'],
      ].sort(),
    );
    // Standing: nobody asks for another pair.
    const late = await winners(dare.id, picks);
    expect(late.statusCode).toBe(409);
  });

  it('lets the judge change the admin pick before signing: the new pair replaces the old propose', async () => {
    const { dare, adas, bobs } = await majorWithProofs();
    const first = (
      await winners(dare.id, { adminSubmissionId: adas.id, communitySubmissionId: bobs.id })
    ).json();
    const changed = await winners(dare.id, { adminSubmissionId: bobs.id, communitySubmissionId: bobs.id });
    expect(changed.statusCode, changed.body).toBe(200);
    const offered = changed.json() as Offered;
    expect(offered.transaction).not.toBe(first.transaction);
    expect(offered.winners.map((w) => w.submissionId)).toEqual([bobs.id, bobs.id]);
    await nothingRecorded(dare.id);

    // The first propose, signed late, is no longer the one standing for signature: nothing recorded.
    const stale = await winners(dare.id, {
      adminSubmissionId: adas.id,
      communitySubmissionId: bobs.id,
      signedTransaction: await judgeSigns(judgeKey, first.transaction),
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error).toBe(JUDGING_MESSAGES.wrongTransaction);
    // A signed propose sent with other picks than it names: refused before any pick is recorded.
    const mismatched = await winners(dare.id, {
      adminSubmissionId: adas.id,
      communitySubmissionId: bobs.id,
      signedTransaction: await judgeSigns(judgeKey, offered.transaction),
    });
    expect(mismatched.statusCode).toBe(400);
    expect(mismatched.json().error).toBe(JUDGING_MESSAGES.wrongTransaction);
    await nothingRecorded(dare.id);
    expect((await vaultV2(ctx, dare.vault)).status).toBe('open');
  });

  it('refuses by the single pick rules, recording nothing', async () => {
    const { dare, adas, bobs } = await majorWithProofs();
    const notTop = await winners(dare.id, { adminSubmissionId: bobs.id, communitySubmissionId: adas.id });
    expect([notTop.statusCode, notTop.json().error]).toEqual([409, MAJOR_DARE_MESSAGES.notTopVoted]);

    await ctx.database.db
      .update(dareSubmissions)
      .set({ status: 'pending' })
      .where(eq(dareSubmissions.id, adas.id));
    const pending = await winners(dare.id, { adminSubmissionId: adas.id, communitySubmissionId: bobs.id });
    expect([pending.statusCode, pending.json().error]).toEqual([400, MAJOR_DARE_MESSAGES.notApproved]);
    await ctx.database.db
      .update(dareSubmissions)
      .set({ status: 'approved' })
      .where(eq(dareSubmissions.id, adas.id));

    const picks = { adminSubmissionId: adas.id, communitySubmissionId: bobs.id };
    const outsider = await winners(dare.id, picks, actors.stranger.token);
    expect([outsider.statusCode, outsider.json().error]).toEqual([403, JUDGING_MESSAGES.notJudge]);
    expect((await winners(dare.id, picks, actors.voter.token)).statusCode).toBe(403);
    const other = await winners(dare.id, { ...picks, adminSubmissionId: 999_999 });
    expect(other.statusCode).toBe(404);
    const bad = await winners(dare.id, { adminSubmissionId: 'x', communitySubmissionId: bobs.id });
    expect(bad.statusCode).toBe(400);
    const community = await createV2Dare(ctx, actors.creator, '0.1');
    const notMajor = await winners(community.id, picks);
    expect([notMajor.statusCode, notMajor.json().error]).toEqual([400, MAJOR_DARE_MESSAGES.notMajor]);
    expect((await winners(999_999, picks)).statusCode).toBe(404);
    await nothingRecorded(dare.id);
  });

  it('answers 409 when another submission was picked for a prize through the single pick route', async () => {
    const { dare, adas, bobs } = await majorWithProofs();
    const single = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      { submissionId: bobs.id, winnerType: 'admin' },
      judge.token,
    );
    expect(single.statusCode, single.body).toBe(201);
    const taken = await winners(dare.id, { adminSubmissionId: adas.id, communitySubmissionId: bobs.id });
    expect([taken.statusCode, taken.json().error]).toEqual([
      409,
      MAJOR_DARE_MESSAGES.winnerTypeTaken('admin'),
    ]);
    // The recorded pick itself completes the pair: the propose names it first.
    const same = await winners(dare.id, { adminSubmissionId: bobs.id, communitySubmissionId: bobs.id });
    expect(same.statusCode, same.body).toBe(200);
    expect((same.json() as Offered).winners.map((w) => w.submissionId)).toEqual([bobs.id, bobs.id]);
    expect(await ctx.database.db.$count(claims, eq(claims.dareId, dare.id))).toBe(1);
  });

  it('records each pick once when the signed pair arrives twice at the same time', async () => {
    const { dare, adas, bobs } = await majorWithProofs();
    const picks = { adminSubmissionId: adas.id, communitySubmissionId: bobs.id };
    const offered = (await winners(dare.id, picks)).json() as Offered;
    const signedTransaction = await judgeSigns(judgeKey, offered.transaction);
    const [a, b] = await Promise.all([
      winners(dare.id, { ...picks, signedTransaction }),
      winners(dare.id, { ...picks, signedTransaction }),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    expect(a.json().proposal.signature).toBe(b.json().proposal.signature);
    const rows = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(rows.map((r) => [r.claimType, r.submissionId]).sort()).toEqual(
      [
        ['major_admin', adas.id],
        ['major_community', bobs.id],
      ].sort(),
    );
  });

  it('is in the OpenAPI document with its body and every status it answers', async () => {
    const doc = (await http.get('/api/docs/json')).json();
    const route = doc.paths['/api/admin/major-dare/{dareId}/winners'].post;
    expect(JSON.stringify(route.requestBody)).toContain('SelectMajorWinnersRequest');
    expect(Object.keys(route.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '503']);
  });
});
