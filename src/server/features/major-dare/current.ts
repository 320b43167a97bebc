import type { DareStatus, Difficulty } from '#contract/limits';
import { MAJOR_DARE_MESSAGES, type MajorDare, splitMajorPrize } from '#contract/major-dare';
import { lamportsToSol, normalizeSol, solToLamports } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { conflict } from '#server/errors';
import { findLiveMajorDare, findNewestMajorDare } from './repo';

/**
 * One Major Dare is live at a time: a new one's prize is refused (409, naming the live one and its
 * end) before the admin's wallet signs, and again when it is credited.
 */
export async function requireNoLiveMajorDare(
  db: DbOrTx,
  now: Date,
  /** The prize payment being credited: the same request again answers its own dare. */
  paidBy?: string,
): Promise<void> {
  const live = await findLiveMajorDare(db, now);
  if (live && (paidBy === undefined || live.transactionSignature !== paidBy))
    throw conflict(MAJOR_DARE_MESSAGES.oneLive(live.title, live.deadline));
}

/**
 * The current major dare: the live one, else the newest one not cancelled (a completed one still shows, closed), with
 * its prize split; `{ isActive: false }` when there is none. Submissions read it too.
 */
export async function currentMajorDare(db: DbOrTx, now = new Date()): Promise<MajorDare> {
  const row = await findNewestMajorDare(db, now);
  if (!row) return { isActive: false };
  const { dare } = row;
  const split = splitMajorPrize(solToLamports(dare.totalPool));
  return {
    isActive: true,
    id: dare.id,
    title: dare.title,
    description: dare.description,
    category: dare.category,
    difficulty: dare.difficulty as Difficulty,
    totalPool: normalizeSol(dare.totalPool),
    adminPrize: lamportsToSol(split.admin),
    communityPrize: lamportsToSol(split.community),
    deadline: dare.deadline?.toISOString() ?? null,
    status: dare.status as DareStatus,
    participantCount: Number(row.participantCount),
    submissionCount: Number(row.submissionCount),
    maxParticipants: dare.maxParticipants,
    escrowWallet: dare.escrowWallet,
  };
}
