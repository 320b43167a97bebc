import { videoSourceUrl } from '../api/submissions';

/**
 * The proof's player. The source is always our video proxy: it streams uploads with range
 * support (so seeking works) and redirects external links. Load errors are only logged (spec).
 */
export default function VideoPlayer({ submissionId, title }: { submissionId: number; title: string }) {
  return (
    // biome-ignore lint/a11y/useMediaCaption: user-submitted proofs come without captions.
    <video
      className="aspect-video w-full rounded-md bg-black"
      src={videoSourceUrl(submissionId)}
      controls
      autoPlay
      playsInline
      preload="metadata"
      aria-label={title}
      onError={(event) => console.error('Video failed to load', event.currentTarget.error)}
    />
  );
}
