import { UPLOADED_VIDEO_PREFIX } from '#contract/submissions';

/** The storage key inside one of our upload URLs, or null for anything else (an https link). */
export function uploadedKey(videoUrl: string): string | null {
  const match = new RegExp(`^${UPLOADED_VIDEO_PREFIX}([a-f0-9]{32})$`).exec(videoUrl);
  return match ? match[1]! : null;
}
