import { lazy, Suspense, useState } from 'react';
import type { AdminSubmission } from '#contract/admin';
import { WINNER_TYPES } from '#contract/major-dare';
import { EmptyState } from '#web/components/common/empty-state';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { countOf } from '#web/lib/utils';
import { useAdminSubmissions } from '../api/list-admin-submissions';
import { useUpdateSubmission } from '../api/update-submission';
import { proofAuthors } from '../lib/proof-authors';
import { RejectDialog } from './reject-dialog';
import { CommunityWinnerAction, MajorPrizeButton } from './winner-actions';

const STATUS_REASONS: Record<Exclude<AdminSubmission['status'], 'pending'>, string> = {
  approved: 'Already approved',
  rejected: 'Already rejected',
  winner: 'A winner stays approved',
};

// The player that says when a proof cannot play, the same as on the dare pages (its own chunk).
const VideoPlayer = lazy(() => import('#web/components/common/video-player'));

/**
 * Submissions Management: every submission with its video, approve, reject, feature/unfeature and
 * the winner actions: Mark Winner for an approved submission of an active community dare, the
 * admin (70%) and community (30%) winner of a major dare (also in the Major Dares tab).
 */
export function SubmissionsManagement({
  listClassName,
  dare,
  onShowAll,
}: {
  listClassName: string;
  /** Set by Dares Management's 'View Submissions': only this dare's submissions. */
  dare?: { id: number; title: string } | null;
  onShowAll?: () => void;
}) {
  const submissions = useAdminSubmissions({ dareId: dare?.id });
  return (
    <div className="space-y-3">
      {dare && (
        <p role="status" className="flex flex-wrap items-center gap-2 text-sm">
          Showing the submissions of <span className="font-medium">{dare.title}</span>
          <Button size="sm" variant="ghost" onClick={onShowAll}>
            Show all
          </Button>
        </p>
      )}
      {submissions.isPending ? (
        <Spinner label="Loading submissions" />
      ) : submissions.isError ? (
        <EmptyState title="Failed to load submissions" description={submissions.error.message} />
      ) : submissions.data.length === 0 ? (
        <EmptyState title={dare ? 'This dare has no submissions yet' : 'No submissions yet'} />
      ) : (
        <SubmissionList submissions={submissions.data} className={listClassName} />
      )}
    </div>
  );
}

/**
 * The proof as the admin reviews it: the source the server gave this admin (a public video's
 * proxy path, or a link signed for a few minutes for a pending upload), in the player that says
 * when it cannot play and offers the original link. A pending external link has no source, since
 * the proxy never redirects to an address nobody approved: the admin plays it from its own address
 * here, on request (the browser, not the server, loads it: issue 37, item 12), or opens it.
 */
function SubmissionVideo({ submission }: { submission: AdminSubmission }) {
  const [playLink, setPlayLink] = useState(false);
  const src = submission.videoSrc ?? (playLink ? submission.videoUrl : null);
  if (src === null)
    return (
      <div className="flex aspect-video w-full flex-col items-center justify-center gap-1 rounded bg-muted p-2 text-center text-xs">
        <span>External video: not served by DarePool until approved</span>
        {submission.videoUrl.startsWith('https://') && (
          <Button size="sm" variant="secondary" onClick={() => setPlayLink(true)}>
            Play it here
          </Button>
        )}
        <a
          href={submission.videoUrl}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="break-all underline"
        >
          Open the link
        </a>
      </div>
    );
  return (
    <Suspense fallback={<div className="aspect-video w-full rounded bg-black" />}>
      <VideoPlayer
        compact
        src={src}
        submittedUrl={submission.videoUrl}
        title={`Video by ${submission.users.username}`}
      />
    </Suspense>
  );
}

function SubmissionList({ submissions, className }: { submissions: AdminSubmission[]; className: string }) {
  const update = useUpdateSubmission();
  const busy = update.isPending;
  const authors = proofAuthors(submissions);
  return (
    <ul className={`${className} space-y-3`} aria-label="Submissions">
      {submissions.map((submission) => (
        <li key={submission.id} className="grid gap-3 rounded-md border p-3 text-sm md:grid-cols-[12rem_1fr]">
          <SubmissionVideo submission={submission} />
          <div className="min-w-0 space-y-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{submission.dares.title}</span>
              {submission.dares.is_major && <Badge>MAJOR</Badge>}
              <Badge variant={submission.status === 'rejected' ? 'destructive' : 'secondary'}>
                {submission.status}
              </Badge>
              {submission.isFeatured && <Badge variant="outline">Featured</Badge>}
            </div>
            <p className="text-muted-foreground">
              by {submission.users.username} · {countOf(submission.votes, 'vote')}
            </p>
            {submission.fingerprintSeen && (
              <p
                role="alert"
                className="rounded border border-destructive/50 bg-destructive/10 p-2 text-destructive"
              >
                Possible copy: the same video as {submission.fingerprintSeen.username}'s earlier proof on "
                {submission.fingerprintSeen.dareTitle}" (submission #{submission.fingerprintSeen.submissionId}
                )
              </p>
            )}
            {submission.description && <p className="break-words">{submission.description}</p>}
            {submission.status === 'rejected' && submission.rejection_reason && (
              <p className="break-words text-muted-foreground">
                <span className="font-medium">Rejected:</span> {submission.rejection_reason}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                disabled={busy || submission.status === 'approved' || submission.status === 'winner'}
                onClick={() =>
                  update.mutate({ id: submission.id, status: 'approved', isFeatured: submission.isFeatured })
                }
              >
                Approve
              </Button>
              <RejectDialog
                username={submission.users.username}
                disabled={busy || submission.status === 'rejected' || submission.status === 'winner'}
                onReject={(reason) =>
                  update.mutate({ id: submission.id, status: 'rejected', isFeatured: false, reason })
                }
              />
              <Button
                size="sm"
                variant="outline"
                disabled={busy}
                onClick={() =>
                  update.mutate({
                    id: submission.id,
                    status: submission.status,
                    isFeatured: !submission.isFeatured,
                  })
                }
              >
                {submission.isFeatured ? 'Unfeature' : 'Feature'}
              </Button>
              {submission.status !== 'pending' && (
                // Why Approve or Reject is off, as text (issue 26): the badge alone reads as a label.
                <span className="self-center text-xs text-muted-foreground">
                  {STATUS_REASONS[submission.status]}
                </span>
              )}
              {!submission.dares.is_major &&
                (submission.status === 'approved' || submission.status === 'winner') &&
                submission.dares.status !== 'cancelled' && (
                  <CommunityWinnerAction
                    dareId={submission.dareId}
                    submissionId={submission.id}
                    username={submission.users.username}
                    authors={authors}
                    open={submission.status === 'approved' && submission.dares.status === 'active'}
                  />
                )}
              {submission.dares.is_major &&
                (submission.status === 'approved' || submission.status === 'winner') &&
                submission.dares.status !== 'cancelled' &&
                // The server checks each type once and that the community pick is the most voted.
                WINNER_TYPES.map((type) => (
                  <MajorPrizeButton
                    key={type}
                    dareId={submission.dareId}
                    submissionId={submission.id}
                    username={submission.users.username}
                    type={type}
                    authors={authors}
                  />
                ))}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
