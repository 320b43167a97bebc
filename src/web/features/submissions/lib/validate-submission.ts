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

/** What the link field says from the start, before anything is typed. */
export const VIDEO_LINK_RULE = 'A direct https:// link to a video file: .mp4, .webm or .ogv';
/** What the file field says from the start, before a file is picked. */
export const VIDEO_FILE_RULE = `MP4, WebM or OGG, under ${SUBMISSION_LIMITS.videoMaxBytes / (1024 * 1024)}MB`;

/** Why a typed link cannot be sent (the server's own rule and message), or null; blank is not judged. */
export function linkProblem(videoUrl: string): string | null {
  if (videoUrl.trim() === '') return null;
  const link = videoLinkSchema.safeParse(videoUrl);
  return link.success ? null : (link.error.issues[0]?.message ?? SUBMISSION_MESSAGES.videoHttps);
}

/** Why a picked file cannot be sent (too large, not a video), or null: judged as it is picked. */
export function fileProblem(file: File): string | null {
  if (file.size > SUBMISSION_LIMITS.videoMaxBytes) return SUBMISSION_MESSAGES.videoTooLarge;
  const typeOk = file.type
    ? (VIDEO_TYPES as readonly string[]).includes(file.type)
    : VIDEO_EXTENSIONS.test(file.name);
  return typeOk ? null : SUBMISSION_MESSAGES.videoType;
}

/**
 * docs/product.md#submit-video-rules: a video (URL or file) and a description, a file under 10 MB of
 * an accepted type. Returns the message to show, or null when the draft can be sent.
 */
export function validateSubmission(draft: SubmissionDraft): string | null {
  const hasVideo = draft.file !== null || draft.videoUrl.trim() !== '';
  if (!hasVideo || draft.description.trim() === '') return SUBMISSION_MESSAGES.videoAndDescription;
  const problem = draft.file ? fileProblem(draft.file) : linkProblem(draft.videoUrl);
  if (problem) return problem;
  if (draft.description.trim().length > SUBMISSION_LIMITS.descriptionMax)
    return SUBMISSION_MESSAGES.descriptionMax;
  return null;
}
