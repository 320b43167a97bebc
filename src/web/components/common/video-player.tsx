import { ExternalLink, VideoOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '#web/lib/utils';

/** A source that has shown no frame by then is treated as broken: a blank player forever is worse. */
const STALL_MS = 10_000;

/**
 * A proof's player, on the dare pages and in the admin's review list. `src` is where this viewer
 * may play it (our video proxy, or a signed link for a pending upload; null for a pending external
 * link). When the video cannot play — no source, a dead link, a format the browser lacks, a link
 * that never answers — it says so and offers the original link: the submitted https link, or the
 * upload's own source.
 */
export default function VideoPlayer({
  src,
  submittedUrl,
  title,
  compact = false,
}: {
  src: string | null;
  /** The submission's `videoUrl`: an https link, or the path of an upload. */
  submittedUrl: string;
  title: string;
  /**
   * One of many in a list (the admin's): nothing loads before Play, so the wait for a first frame
   * starts there, and the notice fits a small box.
   */
  compact?: boolean;
}) {
  const originalUrl = submittedUrl.startsWith('https://') ? submittedUrl : src;
  const [failed, setFailed] = useState(src === null);
  const [loaded, setLoaded] = useState(false);
  const [started, setStarted] = useState(!compact);
  useEffect(() => {
    if (!started || loaded || failed) return;
    const timer = setTimeout(() => setFailed(true), STALL_MS);
    return () => clearTimeout(timer);
  }, [started, loaded, failed]);
  if (failed) {
    return (
      <div
        role="alert"
        className={cn(
          'flex aspect-video w-full flex-col items-center justify-center rounded-md bg-muted text-center',
          compact ? 'gap-1 p-2 text-xs' : 'gap-3 p-4',
        )}
      >
        <VideoOff className={cn('text-muted-foreground', compact ? 'size-5' : 'size-8')} aria-hidden />
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
      autoPlay={!compact}
      playsInline
      preload={compact ? 'none' : 'metadata'}
      aria-label={title}
      onPlay={() => setStarted(true)}
      onLoadedData={() => setLoaded(true)}
      onError={() => setFailed(true)}
    />
  );
}
