import { and, asc, count, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import {
  ADMIN_LIST_LIMIT,
  type AdminDareListQuery,
  type AdminStats,
  type AdminSubmission,
} from '#contract/admin';
import type { DareStatus, SubmissionStatus } from '#contract/limits';
import { lamportsToSol, solToLamports } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { likePattern } from '#server/db/like';
import { refundedColumns } from '#server/db/refunded-columns';
import { claims, dareSubmissions, dares, poolContributions, users } from '#server/db/schema';

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

/** Every dare (or only major / community ones), newest first; `q` matches title or description. */
export async function listAdminDares(db: DbOrTx, { q, major }: AdminDareListQuery) {
  return db
    .select({
      dare: dares,
      creator: { id: users.id, username: users.username, walletAddress: users.walletAddress },
      submissionCount: sql<number>`(select count(*)::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
      participantCount: sql<number>`(select count(distinct ${dareSubmissions.userId})::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
      ...refundedColumns,
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
}

/** The refund transfers that landed for these dares, oldest first, grouped by dare. */
export async function refundsOfDares(
  db: DbOrTx,
  dareIds: number[],
): Promise<Map<number, { signature: string; amount: string; walletAddress: string }[]>> {
  const byDare = new Map<number, { signature: string; amount: string; walletAddress: string }[]>();
  if (dareIds.length === 0) return byDare;
  const rows = await db
    .select({
      dareId: poolContributions.dareId,
      signature: poolContributions.refundSignature,
      amount: poolContributions.amount,
      walletAddress: poolContributions.walletAddress,
    })
    .from(poolContributions)
    .where(
      and(
        inArray(poolContributions.dareId, dareIds),
        isNotNull(poolContributions.refundedAt),
        isNotNull(poolContributions.refundSignature),
      ),
    )
    .orderBy(asc(poolContributions.refundedAt), asc(poolContributions.id));
  for (const { dareId, signature, amount, walletAddress } of rows) {
    const list = byDare.get(dareId) ?? [];
    list.push({ signature: signature!, amount, walletAddress });
    byDare.set(dareId, list);
  }
  return byDare;
}

/** Whether any of the dare's contributions was refunded (a landed refund). */
export async function hasRefunds(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: poolContributions.id })
    .from(poolContributions)
    .where(and(eq(poolContributions.dareId, dareId), isNotNull(poolContributions.refundedAt)))
    .limit(1);
  return row !== undefined;
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

/**
 * The earliest other submission, on any dare, with this one's fingerprint (its entry's or its
 * upload's hash) or its exact link: the review's warning of a copied proof (issue 37, item 3).
 */
const fingerprintSeen = sql<AdminSubmission['fingerprintSeen']>`(
  select json_build_object('submissionId', o.id, 'dareId', o.dare_id, 'dareTitle', od.title, 'username', ou.username)
  from dare_submissions o
  join dares od on od.id = o.dare_id
  join users ou on ou.id = o.user_id
  left join video_uploads ov on ov.submission_id = o.id
  where o.id < ${dareSubmissions.id}
    and (o.video_url = ${dareSubmissions.videoUrl}
      or o.proof_hash = ${dareSubmissions.proofHash}
      or ov.sha256 = ${dareSubmissions.proofHash})
  order by o.id
  limit 1
)`;

const submissionColumns = {
  submission: dareSubmissions,
  dareTitle: dares.title,
  dareIsMajor: dares.isMajor,
  dareStatus: dares.status,
  username: users.username,
  walletAddress: users.walletAddress,
  fingerprintSeen,
};

type SubmissionSelection = {
  submission: typeof dareSubmissions.$inferSelect;
  dareTitle: string;
  dareIsMajor: boolean;
  dareStatus: DareStatus;
  username: string;
  walletAddress: string | null;
  fingerprintSeen: AdminSubmission['fingerprintSeen'];
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
    proofHash: s.proofHash,
    proofMatches: s.proofHash === null ? null : s.proofMatches,
    status: s.status,
    isFeatured: s.isFeatured,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    dare_id: s.dareId,
    user_id: s.userId,
    video_url: s.videoUrl,
    thumbnail_url: s.thumbnailUrl,
    is_featured: s.isFeatured,
    rejection_reason: s.status === 'rejected' ? s.rejectionReason : null,
    dares: { title: row.dareTitle, is_major: row.dareIsMajor, status: row.dareStatus },
    users: { username: row.username, walletAddress: row.walletAddress },
    fingerprintSeen: row.fingerprintSeen ?? null,
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

export async function findDareRow(db: DbOrTx, id: number) {
  const [row] = await db.select().from(dares).where(eq(dares.id, id));
  return row;
}

/** Sets an active or cancelled dare's status; false when it is neither (completed meanwhile). */
export async function setOpenDareStatus(
  db: DbOrTx,
  dareId: number,
  status: 'active' | 'cancelled',
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(dares)
    .set({ status, updatedAt: now })
    .where(and(eq(dares.id, dareId), sql`${dares.status} in ('active', 'cancelled')`))
    .returning({ id: dares.id });
  return updated.length === 1;
}

export async function cancelActiveDare(db: DbOrTx, dareId: number, now: Date): Promise<void> {
  await db
    .update(dares)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(dares.id, dareId), eq(dares.status, 'active')));
}

export async function hasUnpaidClaims(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: claims.id })
    .from(claims)
    // A failed claim (a retired v1 dare's prize, decision 050) will never be paid: it holds nothing up.
    .where(and(eq(claims.dareId, dareId), sql`${claims.status} in ('pending', 'processing')`))
    .limit(1);
  return row !== undefined;
}

/** The dare and its pool rows; the ledger (append-only, no foreign key) keeps its money's history. */
export async function deleteDareAndContributions(db: DbOrTx, dareId: number): Promise<void> {
  await db.delete(poolContributions).where(eq(poolContributions.dareId, dareId));
  await db.delete(dares).where(eq(dares.id, dareId));
}

/** The submission, locked until the transaction ends: concurrent moderations apply one at a time. */
export async function lockSubmissionRow(db: DbOrTx, id: number) {
  const [row] = await db.select().from(dareSubmissions).where(eq(dareSubmissions.id, id)).for('update');
  return row;
}

export async function setSubmissionModeration(
  db: DbOrTx,
  id: number,
  moderation: { status: SubmissionStatus; isFeatured: boolean; rejectionReason: string | null; now: Date },
): Promise<void> {
  await db
    .update(dareSubmissions)
    .set({
      status: moderation.status,
      isFeatured: moderation.isFeatured,
      rejectionReason: moderation.rejectionReason,
      updatedAt: moderation.now,
    })
    .where(eq(dareSubmissions.id, id));
}

export async function addReputation(db: DbOrTx, userId: number, delta: number, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ reputation: sql`${users.reputation} + ${delta}`, updatedAt: now })
    .where(eq(users.id, userId));
}
