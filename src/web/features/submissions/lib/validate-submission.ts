import { SUBMISSION_LIMITS } from '#contract/limits';
import { SUBMISSION_MESSAGES, VIDEO_TYPES, videoLinkSchema } from '#contract/submissions';

export interface SubmissionDraft {
  videoUrl: string;
  file: File | null;
  description: string;
}

/** The extensions of the accepted types, for a file whose browser-reported type is empty. */
const VIDEO_EXTENSIONS = /\.(mp4|m4v|webm|ogg|ogv)$/i;

/** What the file input offers; the server sniffs the bytes whatever the name says. */
export const VIDEO_ACCEPT = [...VIDEO_TYPES, '.mp4', '.webm', '.ogg', '.ogv'].join(',');

/**
 * docs/product.md#submit-video-rules: a video (URL or file) and a description, a file under 10 MB of
 * an accepted type. Returns the message to show, or null when the draft can be sent.
 */
export function validateSubmission(draft: SubmissionDraft): string | null {
  const hasVideo = draft.file !== null || draft.videoUrl.trim() !== '';
  if (!hasVideo || draft.description.trim() === '') return SUBMISSION_MESSAGES.videoAndDescription;
  if (draft.file) {
    if (draft.file.size > SUBMISSION_LIMITS.videoMaxBytes) return SUBMISSION_MESSAGES.videoTooLarge;
    const typeOk = draft.file.type
      ? (VIDEO_TYPES as readonly string[]).includes(draft.file.type)
      : VIDEO_EXTENSIONS.test(draft.file.name);
    if (!typeOk) return SUBMISSION_MESSAGES.videoType;
  } else {
    // The server's own rule and message: our uploads or an https link.
    const link = videoLinkSchema.safeParse(draft.videoUrl);
    if (!link.success) return link.error.issues[0]?.message ?? SUBMISSION_MESSAGES.videoHttps;
  }
  if (draft.description.trim().length > SUBMISSION_LIMITS.descriptionMax)
    return SUBMISSION_MESSAGES.descriptionMax;
  return null;
}
