import { and, eq, inArray, isNull, like, sql } from 'drizzle-orm';
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

/**
 * Records a stored upload as its uploader's pending one for the dare, replacing the pending one
 * they had there (one waits per account and dare). Answers the replaced uploads, whose bytes the
 * caller deletes. The uploader's row is locked, so two uploads at once replace one after the other.
 */
export async function replacePendingUpload(
  db: Db,
  upload: { key: string; userId: number; dareId: number; size: number; sha256: string; now: Date },
): Promise<{ key: string; size: number }[]> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, upload.userId)).for('update');
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
      createdAt: upload.now,
    });
    return replaced;
  });
}

/** Forgets the oldest pending upload and answers it (its bytes are the caller's to delete), or null. */
export async function takeOldestPendingUpload(db: DbOrTx): Promise<{ key: string; size: number } | null> {
  const [row] = await db
    .delete(videoUploads)
    .where(
      sql`${videoUploads.key} = (select key from video_uploads where submission_id is null
        order by created_at, key limit 1)`,
    )
    .returning({ key: videoUploads.key, size: videoUploads.size });
  return row ?? null;
}

/** Forgets the pending uploads of these keys (the clean-up job deleted their bytes). */
export async function forgetPendingUploads(db: DbOrTx, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .delete(videoUploads)
    .where(and(inArray(videoUploads.key, keys), isNull(videoUploads.submissionId)));
}
