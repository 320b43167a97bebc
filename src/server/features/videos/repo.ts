import { and, eq, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import { UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { Db, DbOrTx } from '#server/db/client';
import { dareSubmissions, users, videoUploads } from '#server/db/schema';

/** What serving a submission's video needs: whose it is, whether it is public, and where it is. */
export async function findSubmissionVideo(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: dareSubmissions.id,
      userId: dareSubmissions.userId,
      status: dareSubmissions.status,
      videoUrl: dareSubmissions.videoUrl,
    })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.id, id));
  return row;
}

/** The statuses of the submissions whose video is this upload URL (normally one). */
export async function findSubmissionsByVideoUrl(db: DbOrTx, videoUrl: string) {
  return db
    .select({ status: dareSubmissions.status })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.videoUrl, videoUrl));
}

/** Every video URL that points at one of our uploads: those files belong to a submission. */
export async function uploadedVideoUrls(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ videoUrl: dareSubmissions.videoUrl })
    .from(dareSubmissions)
    .where(like(dareSubmissions.videoUrl, `${UPLOADED_VIDEO_PREFIX}%`));
  return rows.map((row) => row.videoUrl);
}

/** Submission statuses whose video still counts against its uploader: not (yet) approved by an admin. */
const UNAPPROVED_STATUSES = ['pending', 'rejected'] as const;

/**
 * Bytes of stored uploads not approved (waiting for their submit, or submitted and pending review
 * or rejected) by this uploader and from this address, leaving out the pending upload `except`
 * names (the one a new upload for that dare replaces).
 */
export async function unapprovedUploadBytes(
  db: DbOrTx,
  of: { userId: number; address: string | null; except?: { dareId: number } },
): Promise<{ account: number; address: number }> {
  const replaced = of.except
    ? sql`(${videoUploads.submissionId} is null and ${videoUploads.userId} = ${of.userId} and ${videoUploads.dareId} = ${of.except.dareId})`
    : sql`false`;
  const sumWhere = (who: SQL) => sql`coalesce(sum(${videoUploads.size}) filter (where ${who}), 0)`;
  const [row] = await db
    .select({
      account: sumWhere(sql`${videoUploads.userId} = ${of.userId}`).mapWith(Number),
      address: sumWhere(sql`${videoUploads.uploaderAddress} = ${of.address}`).mapWith(Number),
    })
    .from(videoUploads)
    .leftJoin(dareSubmissions, eq(dareSubmissions.id, videoUploads.submissionId))
    .where(
      and(
        sql`(${videoUploads.userId} = ${of.userId} or ${videoUploads.uploaderAddress} = ${of.address})`,
        or(isNull(videoUploads.submissionId), inArray(dareSubmissions.status, [...UNAPPROVED_STATUSES])),
        sql`not ${replaced}`,
      ),
    );
  return { account: row?.account ?? 0, address: row?.address ?? 0 };
}

/** Thrown inside the transaction to undo it: the upload would take its uploader past a limit. */
class HoldsTooMuch extends Error {
  constructor(readonly over: 'account' | 'address') {
    super(`unapproved uploads over the ${over} limit`);
  }
}

/**
 * Records a stored upload as its uploader's pending one for the dare, replacing the pending one
 * they had there (one waits per account and dare). Answers the replaced uploads, whose bytes the
 * caller deletes, or which limit on unapproved bytes the upload would pass (then nothing changes).
 * The uploader's row and its address are locked, so two uploads at once are counted one after the
 * other.
 */
export async function replacePendingUpload(
  db: Db,
  upload: {
    key: string;
    userId: number;
    dareId: number;
    size: number;
    sha256: string;
    /** Null for the demo data, which no client sent. */
    uploaderAddress: string | null;
    now: Date;
  },
  /** Absent for the demo data: nothing is limited. */
  limits?: { accountBytes: number; addressBytes: number },
): Promise<{ replaced: { key: string; size: number }[] } | { over: 'account' | 'address' }> {
  try {
    return await db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, upload.userId)).for('update');
      if (limits && upload.uploaderAddress !== null)
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`video-uploads:${upload.uploaderAddress}`}))`,
        );
      const replaced = await tx
        .delete(videoUploads)
        .where(
          and(
            eq(videoUploads.userId, upload.userId),
            eq(videoUploads.dareId, upload.dareId),
            isNull(videoUploads.submissionId),
          ),
        )
        .returning({ key: videoUploads.key, size: videoUploads.size });
      await tx.insert(videoUploads).values({
        key: upload.key,
        userId: upload.userId,
        dareId: upload.dareId,
        size: upload.size,
        sha256: upload.sha256,
        uploaderAddress: upload.uploaderAddress,
        createdAt: upload.now,
      });
      if (limits) {
        const held = await unapprovedUploadBytes(tx, {
          userId: upload.userId,
          address: upload.uploaderAddress,
        });
        if (held.account > limits.accountBytes) throw new HoldsTooMuch('account');
        if (held.address > limits.addressBytes) throw new HoldsTooMuch('address');
      }
      return { replaced };
    });
  } catch (error) {
    if (error instanceof HoldsTooMuch) return { over: error.over };
    throw error;
  }
}

/**
 * Forgets the oldest pending uploads made at or before `madeBefore` whose sizes together reach
 * `bytes`, and answers them (their bytes are the caller's to delete); forgets none when all such
 * uploads together are smaller. One statement: an upload submitted meanwhile is not taken.
 */
export async function takePendingUploadsToFree(
  db: DbOrTx,
  bytes: number,
  madeBefore: Date,
): Promise<{ key: string; size: number }[]> {
  const candidates = sql`(select key, size, sum(size) over (order by created_at, key) as running
    from video_uploads where submission_id is null
    and created_at <= ${madeBefore.toISOString()}::timestamptz) as candidates`;
  return db
    .delete(videoUploads)
    .where(
      and(
        isNull(videoUploads.submissionId),
        sql`${videoUploads.key} in (select key from ${candidates} where running - size < ${bytes})`,
        sql`(select coalesce(max(running), 0) from ${candidates}) >= ${bytes}`,
      ),
    )
    .returning({ key: videoUploads.key, size: videoUploads.size });
}

/** Forgets the pending uploads of these keys (the clean-up job deleted their bytes). */
export async function forgetPendingUploads(db: DbOrTx, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .delete(videoUploads)
    .where(and(inArray(videoUploads.key, keys), isNull(videoUploads.submissionId)));
}
