import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import {
  ADMIN_LIST_LIMIT,
  type AdminDare,
  type AdminDareListQuery,
  type AdminStats,
  type AdminSubmission,
} from '../../../contract/admin';
import type { DareStatus, SubmissionStatus } from '../../../contract/limits';
import { lamportsToSol, normalizeSol, solToLamports } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { claims, dareSubmissions, dares, poolContributions, users } from '../../db/schema';
import { likePattern, toDare } from '../dares/repo';
import { refundsOfDares } from '../refunds/repo';

const sumSol = async (query: Promise<{ total: string | null }[]>) => {
  const [row] = await query;
  return row?.total ? lamportsToSol(solToLamports(row.total)) : '0';
};

export async function adminStats(db: DbOrTx): Promise<AdminStats> {
  const [u] = await db.select({ n: count() }).from(users);
  const [d] = await db.select({ n: count() }).from(dares);
  const [a] = await db.select({ n: count() }).from(dares).where(eq(dares.status, 'active'));
  const [p] = await db
    .select({ n: count() })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.status, 'pending'));
  const totalStaked = await sumSol(
    db.select({ total: sql<string | null>`sum(${poolContributions.amount})::text` }).from(poolContributions),
  );
  const paidOut = await sumSol(
    db
      .select({ total: sql<string | null>`sum(${claims.amount})::text` })
      .from(claims)
      .where(eq(claims.status, 'paid')),
  );
  return {
    totalUsers: u!.n,
    totalDares: d!.n,
    activeDares: a!.n,
    totalStaked,
    paidOut,
    pendingSubmissions: p!.n,
  };
}

/**
 * Every dare (or only major / community ones), newest first; `q` matches title or description.
 * Each carries its landed refunds: `refunded` is the very rule that refuses Activate (hasRefunds).
 */
export async function listAdminDares(db: DbOrTx, { q, major }: AdminDareListQuery): Promise<AdminDare[]> {
  const rows = await db
    .select({
      dare: dares,
      creator: { id: users.id, username: users.username, walletAddress: users.walletAddress },
      submissionCount: sql<number>`(select count(*)::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
      participantCount: sql<number>`(select count(distinct ${dareSubmissions.userId})::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
    })
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(
      and(
        q ? or(ilike(dares.title, likePattern(q)), ilike(dares.description, likePattern(q))) : undefined,
        major === undefined ? undefined : eq(dares.isMajor, major),
      ),
    )
    .orderBy(desc(dares.createdAt), desc(dares.id))
    .limit(ADMIN_LIST_LIMIT);
  const refunds = await refundsOfDares(
    db,
    rows.map((row) => row.dare.id),
  );
  return rows.map((row) => {
    const landed = (refunds.get(row.dare.id) ?? []).map((refund) => ({
      ...refund,
      amount: normalizeSol(refund.amount),
    }));
    return { ...toDare(row), refunded: landed.length > 0, refunds: landed };
  });
}

export async function listAdminUsers(db: DbOrTx, q: string | undefined) {
  return db
    .select()
    .from(users)
    .where(
      q ? or(ilike(users.username, likePattern(q)), ilike(users.walletAddress, likePattern(q))) : undefined,
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(ADMIN_LIST_LIMIT);
}

const submissionColumns = {
  submission: dareSubmissions,
  dareTitle: dares.title,
  dareIsMajor: dares.isMajor,
  dareStatus: dares.status,
  username: users.username,
};

type SubmissionSelection = {
  submission: typeof dareSubmissions.$inferSelect;
  dareTitle: string;
  dareIsMajor: boolean;
  dareStatus: string;
  username: string;
};

/** The admin's view of a submission before the video's signed source is added. */
export type AdminSubmissionRecord = Omit<AdminSubmission, 'videoSrc'>;

function toAdminSubmission(row: SubmissionSelection): AdminSubmissionRecord {
  const s = row.submission;
  return {
    id: s.id,
    dareId: s.dareId,
    userId: s.userId,
    videoUrl: s.videoUrl,
    thumbnailUrl: s.thumbnailUrl,
    description: s.description,
    votes: s.votes,
    status: s.status as SubmissionStatus,
    isFeatured: s.isFeatured,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    dare_id: s.dareId,
    user_id: s.userId,
    video_url: s.videoUrl,
    thumbnail_url: s.thumbnailUrl,
    is_featured: s.isFeatured,
    dares: { title: row.dareTitle, is_major: row.dareIsMajor, status: row.dareStatus as DareStatus },
    users: { username: row.username },
  };
}

export async function listAdminSubmissions(
  db: DbOrTx,
  filter: { dareId?: number; status?: SubmissionStatus },
): Promise<AdminSubmissionRecord[]> {
  const rows = await db
    .select(submissionColumns)
    .from(dareSubmissions)
    .innerJoin(dares, eq(dares.id, dareSubmissions.dareId))
    .innerJoin(users, eq(users.id, dareSubmissions.userId))
    .where(
      and(
        filter.dareId ? eq(dareSubmissions.dareId, filter.dareId) : undefined,
        filter.status ? eq(dareSubmissions.status, filter.status) : undefined,
      ),
    )
    .orderBy(desc(dareSubmissions.createdAt), desc(dareSubmissions.id))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map(toAdminSubmission);
}

export async function getAdminSubmission(db: DbOrTx, id: number): Promise<AdminSubmissionRecord | undefined> {
  const [row] = await db
    .select(submissionColumns)
    .from(dareSubmissions)
    .innerJoin(dares, eq(dares.id, dareSubmissions.dareId))
    .innerJoin(users, eq(users.id, dareSubmissions.userId))
    .where(eq(dareSubmissions.id, id));
  return row ? toAdminSubmission(row) : undefined;
}

export async function findSubmissionRow(db: DbOrTx, id: number) {
  const [row] = await db.select().from(dareSubmissions).where(eq(dareSubmissions.id, id));
  return row;
}
