import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '#server/deps';
import { uploadedKey } from './video-url';
import { PUBLIC_STATUSES } from './visibility';

/** Signed links are valid at least this long... */
export const VIDEO_LINK_LIFETIME_MS = 15 * 60_000;
/** ...and their expiry is rounded up to this step, so a list polled meanwhile keeps the same link. */
export const VIDEO_LINK_STEP_MS = 5 * 60_000;

export type VideoLinkCheck = 'valid' | 'expired' | 'invalid';

export const isPublicStatus = (status: string) => (PUBLIC_STATUSES as readonly string[]).includes(status);

/**
 * Who may play what. Approved and winner videos are public at `/api/video-proxy/{id}`. A pending
 * or rejected one is shown only to its author and to admins; a browser's `<video>` cannot send
 * the bearer token, so they get a short-lived link signed with a server secret
 * (`?expires=<unix s>&signature=<HMAC-SHA256>`), which the proxy checks. A pending external link
 * has no source at all: the proxy never redirects to an address nobody has approved.
 */
export function createVideoAccess({ secret, clock }: { secret: Uint8Array; clock: Clock }) {
  const sign = (submissionId: number, expires: number) =>
    createHmac('sha256', secret).update(`video:${submissionId}:${expires}`).digest();

  return {
    /** Where the viewer (already allowed to see the submission) plays its video; null: nowhere. */
    sourceFor(submission: { id: number; status: string; videoUrl: string }): string | null {
      const path = `/api/video-proxy/${submission.id}`;
      if (isPublicStatus(submission.status)) return path;
      if (!uploadedKey(submission.videoUrl)) return null;
      const expires =
        (Math.ceil((clock().getTime() + VIDEO_LINK_LIFETIME_MS) / VIDEO_LINK_STEP_MS) * VIDEO_LINK_STEP_MS) /
        1000;
      return `${path}?expires=${expires}&signature=${sign(submission.id, expires).toString('base64url')}`;
    },

    check(submissionId: number, expires: number | undefined, signature: string | undefined): VideoLinkCheck {
      if (expires === undefined || !signature) return 'invalid';
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(submissionId, expires);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return expires * 1000 < clock().getTime() ? 'expired' : 'valid';
    },
  };
}

export type VideoAccess = ReturnType<typeof createVideoAccess>;
