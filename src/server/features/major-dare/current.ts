import type { DareStatus, Difficulty } from '#contract/limits';
import { type MajorDare, splitMajorPrize } from '#contract/major-dare';
import { lamportsToSol, normalizeSol, solToLamports } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { findNewestMajorDare } from './repo';

/**
 * The current major dare: the newest one not cancelled (a completed one still shows, closed), with
 * its prize split; `{ isActive: false }` when there is none. Submissions read it too.
 */
export async function currentMajorDare(db: DbOrTx): Promise<MajorDare> {
  const row = await findNewestMajorDare(db);
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
