import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { claims, dareSubmissions, dares } from '#server/db/schema';

/**
 * The major dare to show: the live one (active, deadline ahead) if any, else the newest not
 * cancelled (a completed one still shows, closed), with its counts.
 */
export async function findNewestMajorDare(db: DbOrTx, now: Date) {
  const [row] = await db
    .select({
      dare: dares,
      // Qualified by hand: drizzle prints a single-table select's columns unqualified.
      submissionCount: sql<number>`(select count(*)::int from dare_submissions s where s.dare_id = "dares"."id")`,
      participantCount: sql<number>`(select count(distinct s.user_id)::int from dare_submissions s where s.dare_id = "dares"."id")`,
    })
    .from(dares)
    .where(and(eq(dares.isMajor, true), ne(dares.status, 'cancelled')))
    .orderBy(sql`(${liveCondition(now)}) desc`, desc(dares.createdAt), desc(dares.id))
    .limit(1);
  return row;
}

/** A major dare that still takes submissions and pool additions: active, its deadline ahead. */
function liveCondition(now: Date) {
  return and(eq(dares.status, 'active'), or(isNull(dares.deadline), gt(dares.deadline, now)));
}

/** The live major dare, if one is. */
export async function findLiveMajorDare(db: DbOrTx, now: Date) {
  const [row] = await db
    .select({
      id: dares.id,
      title: dares.title,
      deadline: dares.deadline,
      transactionSignature: dares.transactionSignature,
    })
    .from(dares)
    .where(and(eq(dares.isMajor, true), liveCondition(now)))
    .orderBy(desc(dares.createdAt), desc(dares.id))
    .limit(1);
  return row;
}

/** What picking a winner needs of the dare: whether it is major, and the pool to split. */
export async function findDarePool(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: dares.id, isMajor: dares.isMajor, totalPool: dares.totalPool })
    .from(dares)
    .where(eq(dares.id, id));
  return row;
}

export async function findSubmissionEntry(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: dareSubmissions.id,
      dareId: dareSubmissions.dareId,
      userId: dareSubmissions.userId,
      status: dareSubmissions.status,
    })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.id, id));
  return row;
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

/** The prizes picked so far (a claim per prize, paid or not). */
export async function findRecordedPicks(db: DbOrTx, dareId: number) {
  return db
    .select({ claimType: claims.claimType, submissionId: claims.submissionId })
    .from(claims)
    .where(and(eq(claims.dareId, dareId), inArray(claims.claimType, ['major_admin', 'major_community'])));
}
