import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { normalizeSol } from '#contract/money';
import { type DareOutcome, type Submission, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { DbOrTx } from '#server/db/client';
import {
  claims,
  dareSubmissions,
  dares,
  ledgerEntries,
  poolContributions,
  submissionVotes,
  users,
  videoUploads,
} from '#server/db/schema';
import { walletOnlyContributionsOf, walletRefundSignature } from '#server/db/wallet-contributions';
import { PUBLIC_STATUSES } from './visibility';

export type SubmissionRow = typeof dareSubmissions.$inferSelect;
/** A submission before its viewer is known: the video's source depends on who asks. */
export type SubmissionRecord = Omit<Submission, 'videoSrc'>;

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

function toSubmission({ submission, dare, user }: Selected): SubmissionRecord {
  return {
    id: submission.id,
    dareId: submission.dareId,
    userId: submission.userId,
    videoUrl: submission.videoUrl,
    thumbnailUrl: submission.thumbnailUrl,
    description: submission.description,
    votes: submission.votes,
    proofHash: submission.proofHash,
    proofMatches: submission.proofHash === null ? null : submission.proofMatches,
    status: submission.status,
    isFeatured: submission.isFeatured,
    createdAt: submission.createdAt.toISOString(),
    updatedAt: submission.updatedAt.toISOString(),
    dare_id: submission.dareId,
    user_id: submission.userId,
    video_url: submission.videoUrl,
    thumbnail_url: submission.thumbnailUrl,
    is_featured: submission.isFeatured,
    rejection_reason: submission.status === 'rejected' ? submission.rejectionReason : null,
    dares: dare ? { title: dare.title, is_major: dare.isMajor } : null,
    users: user ? { username: user.username } : null,
  };
}

/** Submissions matching `where`, most voted first then oldest, with their dare and author. */
async function selectSubmissions(
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

const publicOnly = () => inArray(dareSubmissions.status, [...PUBLIC_STATUSES]);

/** A dare's submissions a viewer may see: the public ones, plus their own of any status. */
export function listVisibleSubmissions(db: DbOrTx, dareId: number, viewerId: number | null) {
  const visible = viewerId === null ? publicOnly() : or(publicOnly(), eq(dareSubmissions.userId, viewerId));
  return selectSubmissions(db, and(eq(dareSubmissions.dareId, dareId), visible));
}

export function listApprovedSubmissions(db: DbOrTx, dareId: number) {
  return selectSubmissions(db, and(eq(dareSubmissions.dareId, dareId), publicOnly()));
}

/** Featured public videos, newest first. */
export function listFeaturedSubmissions(db: DbOrTx) {
  return selectSubmissions(db, and(publicOnly(), eq(dareSubmissions.isFeatured, true)), 'newest');
}

export async function findSubmissionRecord(db: DbOrTx, id: number): Promise<SubmissionRecord | undefined> {
  const [record] = await selectSubmissions(db, eq(dareSubmissions.id, id));
  return record;
}

export async function findSubmission(db: DbOrTx, id: number): Promise<SubmissionRow | undefined> {
  const [row] = await db.select().from(dareSubmissions).where(eq(dareSubmissions.id, id));
  return row;
}

/** What decides whether votes on a dare still count: its status, kind and how many winners it has. */
export async function findVotingState(db: DbOrTx, dareId: number) {
  const [row] = await db
    .select({
      status: dares.status,
      isMajor: dares.isMajor,
      // Qualified by hand: drizzle prints a single-table select's columns unqualified.
      winners: sql<number>`(select count(*)::int from claims c where c.dare_id = "dares"."id"
        and c.claim_type in ('dare_winner', 'major_community'))`,
    })
    .from(dares)
    .where(eq(dares.id, dareId));
  return row && { ...row, winners: Number(row.winners) };
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
    claimType: row.claimType,
    amount: normalizeSol(row.amount),
    status: row.status,
    transactionSignature: row.status === 'paid' ? row.transactionHash : null,
  }));
}

/** The refunds that landed for a dare, oldest first: each payment back to the wallet that paid it. */
export async function refundsOf(db: DbOrTx, dareId: number): Promise<DareOutcome['refunds']> {
  const rows = await db
    .select({
      signature: poolContributions.refundSignature,
      amount: poolContributions.amount,
      walletAddress: poolContributions.walletAddress,
      username: users.username,
    })
    .from(poolContributions)
    .leftJoin(users, eq(users.id, poolContributions.userId))
    .where(
      and(
        eq(poolContributions.dareId, dareId),
        isNotNull(poolContributions.refundedAt),
        isNotNull(poolContributions.refundSignature),
      ),
    )
    .orderBy(asc(poolContributions.refundedAt), asc(poolContributions.id));
  return rows.map((row) => ({
    signature: row.signature!,
    amount: normalizeSol(row.amount),
    walletAddress: row.walletAddress,
    username: row.username,
  }));
}

/** The submissions of a dare a user voted for. */
export async function votedSubmissionIds(db: DbOrTx, userId: number, dareId: number): Promise<number[]> {
  const rows = await db
    .select({ id: submissionVotes.submissionId })
    .from(submissionVotes)
    .where(and(eq(submissionVotes.userId, userId), eq(submissionVotes.dareId, dareId)))
    .orderBy(asc(submissionVotes.submissionId));
  return rows.map((row) => row.id);
}

/** What submitting and voting need of a dare: whether it is open, and whether it is major. */
export async function findDareEntry(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: dares.id,
      status: dares.status,
      deadline: dares.deadline,
      isMajor: dares.isMajor,
      escrowWallet: dares.escrowWallet,
    })
    .from(dares)
    .where(eq(dares.id, id));
  return row;
}

export async function hasSubmitted(db: DbOrTx, dareId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: dareSubmissions.id })
    .from(dareSubmissions)
    .where(and(eq(dareSubmissions.dareId, dareId), eq(dareSubmissions.userId, userId)));
  return row !== undefined;
}

/** The new submission's id; the one-per-user index refuses a second (dare_submissions_one_per_user). */
export async function insertSubmission(
  db: DbOrTx,
  submission: {
    dareId: number;
    userId: number;
    videoUrl: string;
    description: string;
    /** The fingerprint its entry holds, and whether the stored bytes matched it when checked. */
    proof: { hash: string; matches: boolean | null; checkedAt: Date | null } | null;
    now: Date;
  },
): Promise<number> {
  const [row] = await db
    .insert(dareSubmissions)
    .values({
      dareId: submission.dareId,
      userId: submission.userId,
      videoUrl: submission.videoUrl,
      description: submission.description,
      proofHash: submission.proof?.hash ?? null,
      proofMatches: submission.proof?.matches ?? null,
      proofCheckedAt: submission.proof?.checkedAt ?? null,
      createdAt: submission.now,
      updatedAt: submission.now,
    })
    .returning({ id: dareSubmissions.id });
  return row!.id;
}

/**
 * Whether the user has money in this dare's pool now: a stake or contribution credited to it (a
 * pool row) and not refunded. A payment only booked on the ledger may yet be refused and refunded,
 * so it does not count; a stake in some other dare does not either (a vote on the Major Dare must
 * cost a share of its own pool, not 0.01 SOL anywhere).
 */
export async function hasMoneyInPool(db: DbOrTx, userId: number, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: poolContributions.id })
    .from(poolContributions)
    .where(
      and(
        eq(poolContributions.userId, userId),
        eq(poolContributions.dareId, dareId),
        isNull(poolContributions.refundedAt),
      ),
    )
    .limit(1);
  if (row !== undefined) return true;
  // A deposit its wallet made before it had an account (a blink) counts once the wallet is theirs.
  const [walletLine] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(
      and(
        walletOnlyContributionsOf(userId),
        eq(ledgerEntries.dareId, dareId),
        sql`${walletRefundSignature} is null`,
      ),
    )
    .limit(1);
  return walletLine !== undefined;
}

/** The voter's row, locked until the transaction ends: one user's votes are counted one at a time. */
export async function lockVoter(db: DbOrTx, userId: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function hasVoted(db: DbOrTx, submissionId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: submissionVotes.id })
    .from(submissionVotes)
    .where(and(eq(submissionVotes.submissionId, submissionId), eq(submissionVotes.userId, userId)));
  return row !== undefined;
}

export async function countVotes(db: DbOrTx, userId: number, dareId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(submissionVotes)
    .where(and(eq(submissionVotes.userId, userId), eq(submissionVotes.dareId, dareId)));
  return row!.n;
}

/** Records one vote; returns the submission's new total (submission_votes_one_per_user refuses a second). */
export async function insertVote(
  db: DbOrTx,
  vote: { submissionId: number; userId: number; dareId: number; now: Date },
): Promise<number> {
  await db.insert(submissionVotes).values({
    submissionId: vote.submissionId,
    userId: vote.userId,
    dareId: vote.dareId,
    createdAt: vote.now,
  });
  const [updated] = await db
    .update(dareSubmissions)
    .set({ votes: sql`${dareSubmissions.votes} + 1` })
    .where(eq(dareSubmissions.id, vote.submissionId))
    .returning({ votes: dareSubmissions.votes });
  return updated!.votes;
}

/** Whether this stored upload is the user's own, for this dare, and no submission took it yet. */
export async function isOwnPendingUpload(
  db: DbOrTx,
  upload: { key: string; userId: number; dareId: number },
): Promise<boolean> {
  const [row] = await db
    .select({ key: videoUploads.key })
    .from(videoUploads)
    .where(
      and(
        eq(videoUploads.key, upload.key),
        eq(videoUploads.userId, upload.userId),
        eq(videoUploads.dareId, upload.dareId),
        isNull(videoUploads.submissionId),
      ),
    );
  return row !== undefined;
}

/**
 * Hands the user's pending upload to their new submission, once: answers its size, or null when it
 * is not (or no longer) theirs to use, e.g. another submission took it a moment before.
 */
export async function attachUpload(
  db: DbOrTx,
  upload: { key: string; userId: number; dareId: number; submissionId: number },
): Promise<number | null> {
  const [row] = await db
    .update(videoUploads)
    .set({ submissionId: upload.submissionId })
    .where(
      and(
        eq(videoUploads.key, upload.key),
        eq(videoUploads.userId, upload.userId),
        eq(videoUploads.dareId, upload.dareId),
        isNull(videoUploads.submissionId),
      ),
    )
    .returning({ size: videoUploads.size });
  return row ? row.size : null;
}

/** The SHA-256 recorded for an upload when it was stored; null for older uploads (or none). */
export async function recordedUploadHash(db: DbOrTx, key: string): Promise<string | null> {
  const [row] = await db
    .select({ sha256: videoUploads.sha256 })
    .from(videoUploads)
    .where(eq(videoUploads.key, key));
  return row?.sha256 ?? null;
}

/** Records the hash of an upload stored before uploads were hashed (computed from its bytes). */
export async function recordUploadHash(db: DbOrTx, key: string, sha256: string): Promise<void> {
  await db
    .update(videoUploads)
    .set({ sha256 })
    .where(and(eq(videoUploads.key, key), isNull(videoUploads.sha256)));
}

/** A fingerprinted submission whose stored video can be re-hashed: an upload, not a link. */
export interface ProofToCheck {
  id: number;
  videoUrl: string;
  proofHash: string;
}

const fingerprintedUpload = () =>
  and(isNotNull(dareSubmissions.proofHash), like(dareSubmissions.videoUrl, `${UPLOADED_VIDEO_PREFIX}%`));

export async function findProofToCheck(db: DbOrTx, id: number): Promise<ProofToCheck | undefined> {
  const [row] = await db
    .select({
      id: dareSubmissions.id,
      videoUrl: dareSubmissions.videoUrl,
      proofHash: dareSubmissions.proofHash,
    })
    .from(dareSubmissions)
    .where(and(eq(dareSubmissions.id, id), fingerprintedUpload()));
  return row && { ...row, proofHash: row.proofHash! };
}

/** Up to `limit` fingerprinted uploads never checked or last checked before `checkedBefore`, oldest check first. */
export async function proofsDueForCheck(
  db: DbOrTx,
  checkedBefore: Date,
  limit: number,
): Promise<ProofToCheck[]> {
  const rows = await db
    .select({
      id: dareSubmissions.id,
      videoUrl: dareSubmissions.videoUrl,
      proofHash: dareSubmissions.proofHash,
    })
    .from(dareSubmissions)
    .where(
      and(
        fingerprintedUpload(),
        or(isNull(dareSubmissions.proofCheckedAt), lt(dareSubmissions.proofCheckedAt, checkedBefore)),
      ),
    )
    .orderBy(sql`${dareSubmissions.proofCheckedAt} asc nulls first`, asc(dareSubmissions.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, proofHash: row.proofHash! }));
}

/** Stores what re-hashing a submission's stored video found, and when. */
export async function recordProofCheck(
  db: DbOrTx,
  id: number,
  check: { matches: boolean; at: Date },
): Promise<void> {
  await db
    .update(dareSubmissions)
    .set({ proofMatches: check.matches, proofCheckedAt: check.at })
    .where(eq(dareSubmissions.id, id));
}

/**
 * Whether another user's submission, on any dare, holds this fingerprint (its entry's, or its
 * upload's hash for an entry without one) or this exact link: a copied proof (issue 37, item 3).
 */
export async function isCopiedProof(
  db: DbOrTx,
  proof: { userId: number; proofHash: string; videoUrl: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: dareSubmissions.id })
    .from(dareSubmissions)
    .leftJoin(videoUploads, eq(videoUploads.submissionId, dareSubmissions.id))
    .where(
      and(
        sql`${dareSubmissions.userId} <> ${proof.userId}`,
        or(
          eq(dareSubmissions.proofHash, proof.proofHash),
          eq(videoUploads.sha256, proof.proofHash),
          eq(dareSubmissions.videoUrl, proof.videoUrl),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}
