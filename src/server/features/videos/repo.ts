import { eq, like } from 'drizzle-orm';
import { UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { DbOrTx } from '#server/db/client';
import { dareSubmissions } from '#server/db/schema';

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
