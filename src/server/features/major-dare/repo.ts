import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DareStatus, Difficulty } from '../../../contract/limits';
import type { MajorDare } from '../../../contract/major-dare';
import { splitMajorPrize } from '../../../contract/major-dare';
import { lamportsToSol, normalizeSol, solToLamports } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { dareSubmissions, dares } from '../../db/schema';

/** The current major dare: the newest one not cancelled (a completed one still shows, closed). */
export async function currentMajorDare(db: DbOrTx): Promise<MajorDare> {
  const [row] = await db
    .select({
      dare: dares,
      // Qualified by hand: drizzle prints a single-table select's columns unqualified.
      submissionCount: sql<number>`(select count(*)::int from dare_submissions s where s.dare_id = "dares"."id")`,
      participantCount: sql<number>`(select count(distinct s.user_id)::int from dare_submissions s where s.dare_id = "dares"."id")`,
    })
    .from(dares)
    .where(and(eq(dares.isMajor, true), ne(dares.status, 'cancelled')))
    .orderBy(desc(dares.createdAt), desc(dares.id))
    .limit(1);
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

/** The community's pick: the eligible submission with the most votes, the earliest on a tie. */
export async function topVotedSubmission(db: DbOrTx, dareId: number) {
  const [row] = await db
    .select({ id: dareSubmissions.id, votes: dareSubmissions.votes })
    .from(dareSubmissions)
    .where(and(eq(dareSubmissions.dareId, dareId), inArray(dareSubmissions.status, ['approved', 'winner'])))
    .orderBy(desc(dareSubmissions.votes), asc(dareSubmissions.createdAt), asc(dareSubmissions.id))
    .limit(1);
  return row;
}
