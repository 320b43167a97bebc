/**
 * A Major Dare's two winners on a v2 vault (admin's pick 70%, community's 30%): named one at a
 * time through /winner, or as a pair through /winners, in one propose either way.
 */
import type { Address } from '@solana/kit';
import { JUDGING_MESSAGES, type ProposeTransaction } from '#contract/judging';
import { MAJOR_DARE_MESSAGES } from '#contract/major-dare';
import { decodeSigned, isValidSignature } from '#server/chain/relay';
import { badRequest, conflict, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { type Judging, requireJudge, v2Dare, vaultOf } from './judged-vaults';
import { offer, winnerOf } from './offer-proposal';
import { syncDare } from './proposal-sync';
import { relay } from './relay-proposal';
import { findDareForNaming, findLiveProposal, findMajorPicks } from './repo';

/** A major dare pick must come from a judge of its vault (before it is recorded). */
export async function requireMajorJudge(judging: Judging, user: UserRow, dareId: number): Promise<void> {
  const dare = await v2Dare(judging, dareId);
  if (!dare) return;
  requireJudge(user, await vaultOf(judging, dare.vault));
  await syncDare(judging, dareId);
  if (await findLiveProposal(judging.db, dareId).then((p) => p?.status === 'proposed'))
    throw conflict(JUDGING_MESSAGES.proposalStanding);
}

/** Whether this very pick (winner type and submission) is recorded already. */
export async function isRecordedPick(
  { db }: Judging,
  dareId: number,
  winnerType: 'admin' | 'community',
  submissionId: number,
) {
  const claimType = winnerType === 'admin' ? 'major_admin' : 'major_community';
  const picks = await findMajorPicks(db, dareId);
  return picks.some((p) => p.claimType === claimType && p.submissionId === submissionId);
}

/**
 * After a major dare pick was recorded: once both picks are, the propose naming them (admin
 * pick first: 70%); null while one is missing.
 */
export async function majorPicks(
  judging: Judging,
  user: UserRow,
  dareId: number,
): Promise<ProposeTransaction | null> {
  const dare = await v2Dare(judging, dareId);
  if (!dare) return null;
  const picks = await findMajorPicks(judging.db, dareId);
  const admin = picks.find((p) => p.claimType === 'major_admin');
  const community = picks.find((p) => p.claimType === 'major_community');
  if (!admin?.submissionId || !community?.submissionId) return null;
  return offer(judging, user, dare, [
    await winnerOf(judging, admin.submissionId, dareId, 'major_admin'),
    await winnerOf(judging, community.submissionId, dareId, 'major_community'),
  ]);
}

/**
 * POST /api/admin/major-dare/{id}/winners: the caller is a judge of this Major Dare's v2
 * vault (a v1 Major Dare's picks go one at a time through /winner).
 */
export async function requireMajorPairJudge(judging: Judging, user: UserRow, dareId: number): Promise<void> {
  const dare = await findDareForNaming(judging.db, dareId);
  if (!dare) throw notFound(MAJOR_DARE_MESSAGES.noMajorDare);
  if (!dare.isMajor) throw badRequest(MAJOR_DARE_MESSAGES.notMajor);
  const judged = await v2Dare(judging, dareId);
  if (!judged) throw badRequest(MAJOR_DARE_MESSAGES.pairOnJudgedOnly);
  requireJudge(user, await vaultOf(judging, judged.vault));
}

/** The propose naming both picks (admin's 70% first), nothing recorded (the picks were checked). */
export async function offerMajorPair(
  judging: Judging,
  user: UserRow,
  dareId: number,
  picks: { admin: number; community: number },
) {
  const dare = await v2Dare(judging, dareId);
  if (!dare) throw badRequest(MAJOR_DARE_MESSAGES.pairOnJudgedOnly);
  return offer(judging, user, dare, [
    await winnerOf(judging, picks.admin, dareId, 'major_admin'),
    await winnerOf(judging, picks.community, dareId, 'major_community'),
  ]);
}

/**
 * Before the picks are recorded for a signed pair: it must sign the dare's live propose, and
 * that propose must name these picks in share order; else nothing is recorded.
 */
export async function requireMajorPairProposal(
  judging: Judging,
  user: UserRow,
  dareId: number,
  picks: { admin: number; community: number },
  signedTransaction: string,
): Promise<void> {
  const signed = decodeSigned(signedTransaction, JUDGING_MESSAGES.unreadableTransaction);
  await syncDare(judging, dareId);
  const live = await findLiveProposal(judging.db, dareId);
  const named = live?.winners.map((w) => w.submissionId).join(',');
  if (live?.messageHash !== signed.messageHash || named !== `${picks.admin},${picks.community}`)
    throw badRequest(JUDGING_MESSAGES.wrongTransaction);
  // The picks are recorded only behind the calling judge's own valid signature of this very
  // propose: the unsigned propose handed back (or a junk signature) records nothing.
  const judge = user.walletAddress;
  if (
    !judge ||
    !(await isValidSignature(judge, signed.transaction.signatures[judge as Address], signed.messageBytes))
  )
    throw badRequest(JUDGING_MESSAGES.wrongTransaction);
}

/** POST /api/admin/major-dare/{id}/winner with `signedTransaction` on a v2 vault. */
export async function relayMajor(judging: Judging, user: UserRow, dareId: number, signedTransaction: string) {
  const dare = await v2Dare(judging, dareId);
  if (!dare) return null;
  return relay(judging, user, dare.id, dare.vault, signedTransaction);
}
