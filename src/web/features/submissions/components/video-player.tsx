import { ExternalLink, VideoOff } from 'lucide-react';
import { useEffect, useState } from 'react';

/** A source that has shown no frame by then is treated as broken: a blank player forever is worse. */
const STALL_MS = 10_000;

/**
 * The proof's player. `src` is where this viewer may play it (our video proxy, or a signed link
 * for one's own pending upload; null for a pending external link). When the video cannot play —
 * no source, a dead link, a format the browser lacks, a link that never answers — it says so and
 * offers the original link.
 */
export default function VideoPlayer({
  src,
  originalUrl,
  title,
}: {
  src: string | null;
  /** What 'Open original link' opens: the submitted https link, or the upload itself. */
  originalUrl: string | null;
  title: string;
}) {
  const [failed, setFailed] = useState(src === null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (loaded || failed) return;
    const timer = setTimeout(() => setFailed(true), STALL_MS);
    return () => clearTimeout(timer);
  }, [loaded, failed]);
  if (failed) {
    return (
      <div
        role="alert"
        className="flex aspect-video w-full flex-col items-center justify-center gap-3 rounded-md bg-muted p-4 text-center"
      >
        <VideoOff className="size-8 text-muted-foreground" aria-hidden />
        <p className="font-medium">This video cannot be played here.</p>
        {originalUrl && (
          <a
            href={originalUrl}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="inline-flex items-center gap-1 font-medium text-primary underline"
          >
            Open original link <ExternalLink className="size-3" aria-hidden />
          </a>
        )}
      </div>
    );
  }
  return (
    // biome-ignore lint/a11y/useMediaCaption: user-submitted proofs come without captions.
    <video
      className="aspect-video w-full rounded-md bg-black"
      src={src ?? undefined}
      controls
      autoPlay
      playsInline
      preload="metadata"
      aria-label={title}
      onLoadedData={() => setLoaded(true)}
      onError={() => setFailed(true)}
    />
  );
}
