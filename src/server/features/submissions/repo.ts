import { and, asc, desc, eq, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import { normalizeSol } from '../../../contract/money';
import {
  type DareOutcome,
  SUBMISSION_MESSAGES,
  type Submission,
  UPLOADED_VIDEO_PREFIX,
} from '../../../contract/submissions';
import type { DbOrTx } from '../../db/client';
import { claims, dareSubmissions, dares, users } from '../../db/schema';

export type SubmissionRow = typeof dareSubmissions.$inferSelect;
/** A submission before its viewer is known: the video's source depends on who asks. */
export type SubmissionRecord = Omit<Submission, 'videoSrc'>;

/** Statuses anyone may see; pending and rejected videos are seen by their author and admins only. */
export const PUBLIC_STATUSES = ['approved', 'winner'] as const;

const LIST_LIMIT = 100;

const columns = {
  submission: dareSubmissions,
  dare: { title: dares.title, isMajor: dares.isMajor },
  user: { username: users.username },
};

type Selected = {
  submission: SubmissionRow;
  dare: { title: string; isMajor: boolean } | null;
  user: { username: string } | null;
};

export function toSubmission({ submission, dare, user }: Selected): SubmissionRecord {
  return {
    id: submission.id,
    dareId: submission.dareId,
    userId: submission.userId,
    videoUrl: submission.videoUrl,
    thumbnailUrl: submission.thumbnailUrl,
    description: submission.description,
    votes: submission.votes,
    status: submission.status as Submission['status'],
    isFeatured: submission.isFeatured,
    createdAt: submission.createdAt.toISOString(),
    updatedAt: submission.updatedAt.toISOString(),
    dare_id: submission.dareId,
    user_id: submission.userId,
    video_url: submission.videoUrl,
    thumbnail_url: submission.thumbnailUrl,
    is_featured: submission.isFeatured,
    dares: dare ? { title: dare.title, is_major: dare.isMajor } : null,
    users: user ? { username: user.username } : null,
  };
}

/** Submissions matching `where`, most voted first then oldest, with their dare and author. */
export async function selectSubmissions(
  db: DbOrTx,
  where: SQL | undefined,
  order: 'votes' | 'newest' = 'votes',
): Promise<SubmissionRecord[]> {
  const rows = await db
    .select(columns)
    .from(dareSubmissions)
    .leftJoin(dares, eq(dares.id, dareSubmissions.dareId))
    .leftJoin(users, eq(users.id, dareSubmissions.userId))
    .where(where)
    .orderBy(
      ...(order === 'votes'
        ? [desc(dareSubmissions.votes), dareSubmissions.createdAt, dareSubmissions.id]
        : [desc(dareSubmissions.createdAt), desc(dareSubmissions.id)]),
    )
    .limit(LIST_LIMIT);
  return rows.map(toSubmission);
}

/** What a viewer may see of a dare's submissions: the public ones, plus their own of any status. */
export function visibleTo(viewerId: number | null): SQL | undefined {
  const visible = inArray(dareSubmissions.status, [...PUBLIC_STATUSES]);
  return viewerId === null ? visible : or(visible, eq(dareSubmissions.userId, viewerId));
}

export const ofDare = (dareId: number) => eq(dareSubmissions.dareId, dareId);
export const publicOnly = () => inArray(dareSubmissions.status, [...PUBLIC_STATUSES]);
export const featured = () => and(publicOnly(), eq(dareSubmissions.isFeatured, true));

/** The submissions whose video is this upload URL (normally one). */
export async function findSubmissionsByVideoUrl(db: DbOrTx, videoUrl: string): Promise<SubmissionRow[]> {
  return db.select().from(dareSubmissions).where(eq(dareSubmissions.videoUrl, videoUrl));
}

export async function findSubmission(db: DbOrTx, id: number): Promise<SubmissionRow | undefined> {
  const [row] = await db.select().from(dareSubmissions).where(eq(dareSubmissions.id, id));
  return row;
}

/** Every video URL that points at one of our uploads: those files belong to a submission. */
export async function uploadedVideoUrls(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ videoUrl: dareSubmissions.videoUrl })
    .from(dareSubmissions)
    .where(like(dareSubmissions.videoUrl, `${UPLOADED_VIDEO_PREFIX}%`));
  return rows.map((row) => row.videoUrl);
}

/**
 * Why votes on a dare can no longer change anything, or null while they can: a cancelled dare
 * pays nobody, a community dare's winner is paid from its whole pool, and a major dare's votes
 * only pick its community winner.
 */
export async function votingClosedReason(db: DbOrTx, dareId: number): Promise<string | null> {
  const [dare] = await db
    .select({
      status: dares.status,
      isMajor: dares.isMajor,
      // Qualified by hand: drizzle prints a single-table select's columns unqualified.
      winners: sql<number>`(select count(*)::int from claims c where c.dare_id = "dares"."id"
        and c.claim_type in ('dare_winner', 'major_community'))`,
    })
    .from(dares)
    .where(eq(dares.id, dareId));
  if (!dare) return null;
  if (dare.status === 'cancelled') return SUBMISSION_MESSAGES.votingClosedCancelled;
  if (Number(dare.winners) === 0) return null;
  return dare.isMajor
    ? SUBMISSION_MESSAGES.votingClosedCommunityWinner
    : SUBMISSION_MESSAGES.votingClosedWinner;
}

/** A dare's picked winners, the admin's pick first, with the payout transaction once paid. */
export async function winnersOf(db: DbOrTx, dareId: number): Promise<DareOutcome['winners']> {
  const rows = await db
    .select({
      submissionId: claims.submissionId,
      username: users.username,
      claimType: claims.claimType,
      amount: claims.amount,
      status: claims.status,
      transactionHash: claims.transactionHash,
    })
    .from(claims)
    .innerJoin(users, eq(users.id, claims.userId))
    .where(eq(claims.dareId, dareId))
    .orderBy(asc(claims.createdAt), asc(claims.id));
  return rows.map((row) => ({
    submissionId: row.submissionId,
    username: row.username,
    claimType: row.claimType as DareOutcome['winners'][number]['claimType'],
    amount: normalizeSol(row.amount),
    status: row.status as DareOutcome['winners'][number]['status'],
    transactionSignature: row.status === 'paid' ? row.transactionHash : null,
  }));
}
