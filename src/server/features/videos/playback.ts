/** Who may play which video, and what its address plays: stored bytes, or an approved link. */
import { SUBMISSION_MESSAGES, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import { forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { isPublicStatus } from '#server/features/submissions/video-access';
import { uploadedKey } from '#server/features/submissions/video-url';
import type { ByteRange } from '#server/storage/port';
import { findSubmissionsByVideoUrl, findSubmissionVideo } from './repo';
import type { VideosDeps } from './videos-deps';

/** What a video address plays: stored bytes (shared caches may keep public ones), or an approved link. */
export type Playback =
  | { kind: 'stored'; key: string; visibility: 'public' | 'private' }
  | { kind: 'redirect'; url: string };

/** An upload's own address plays only once a public submission points at it. */
export async function publicUpload({ db }: VideosDeps, key: string): Promise<Playback> {
  // Only our own key shape reaches the database (a %00 in the path cannot become a 500).
  if (!uploadedKey(`${UPLOADED_VIDEO_PREFIX}${key}`)) throw notFound('Video not found');
  const owners = await findSubmissionsByVideoUrl(db, `${UPLOADED_VIDEO_PREFIX}${key}`);
  if (!owners.some((owner) => isPublicStatus(owner.status))) throw notFound('Video not found');
  return { kind: 'stored', key, visibility: 'public' };
}

/**
 * A submission's video for this viewer. Pending and rejected ones play only for their author
 * and admins, or through a signed link (see video-access.ts); without a valid link a pending
 * video does not exist for the caller.
 */
export async function submissionPlayback(
  { db, videoAccess }: VideosDeps,
  submissionId: number,
  viewer: UserRow | null,
  link: { expires?: number; signature?: string },
): Promise<Playback> {
  const submission = await findSubmissionVideo(db, submissionId);
  if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
  const isPublic = isPublicStatus(submission.status);
  if (!isPublic) {
    const allowed = viewer && (viewer.isAdmin || viewer.id === submission.userId);
    if (!allowed) {
      const check = videoAccess.check(submissionId, link.expires, link.signature);
      if (check === 'invalid') throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
      if (check === 'expired') throw forbidden(SUBMISSION_MESSAGES.videoLinkExpired);
    }
  }
  const key = uploadedKey(submission.videoUrl);
  if (key) return { kind: 'stored', key, visibility: isPublic ? 'public' : 'private' };
  // The server never fetches a client-given URL (no SSRF); it sends the player there, https
  // only, and only once an admin approved the link: no open redirect through a pending one.
  if (isPublic && submission.videoUrl.startsWith('https://'))
    return { kind: 'redirect', url: submission.videoUrl };
  throw notFound('This video is not available');
}

/** A stored video's size and type, and its bytes (all or one range); 404 when it is gone. */
export async function openStoredVideo({ storage }: VideosDeps, key: string) {
  const object = await storage.stat(key);
  if (!object) throw notFound('Video not found');
  return { ...object, read: (range?: ByteRange) => storage.read(key, range) };
}
