import { Play } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { Submission } from '#contract/submissions';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { authorName } from '../lib/author-name';

// The player is its own chunk, loaded when a dialog first opens.
const VideoPlayer = lazy(() => import('#web/components/common/video-player'));

/** Watch Video: the proof in a player, with its author and description. */
export function WatchVideoDialog({ submission }: { submission: Submission }) {
  const author = authorName(submission);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <Play aria-hidden />
          Watch Video
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{submission.dares?.title ?? 'Video proof'}</DialogTitle>
          <DialogDescription>
            By {author}
            {submission.description ? ` · ${submission.description}` : ''}
          </DialogDescription>
        </DialogHeader>
        <Suspense fallback={<Spinner label="Loading player" className="p-8" />}>
          <VideoPlayer
            src={submission.videoSrc}
            submittedUrl={submission.videoUrl}
            title={`Video proof by ${author}`}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
