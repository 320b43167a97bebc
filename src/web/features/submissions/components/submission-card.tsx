import { Trophy } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Submission } from '#contract/submissions';
import { Badge } from '#web/components/ui/badge';
import { authorName } from '../lib/author-name';
import { ProofFingerprint } from './proof-fingerprint';
import { VoteButton } from './vote-button';
import { WatchVideoDialog } from './watch-video-dialog';

/**
 * One public proof: author, description, its badge ('Approved', or 'Winner' once an admin picked
 * it: the winner status of docs/product.md#submission-status, shown as a badge), vote button and player.
 */
export function SubmissionCard({
  submission,
  heading,
  votingClosed = null,
  voted = false,
  outOfVotes = false,
}: {
  submission: Submission;
  heading?: ReactNode;
  /** Why votes no longer count on this dare, shown on the disabled button. */
  votingClosed?: string | null;
  voted?: boolean;
  outOfVotes?: boolean;
}) {
  const author = authorName(submission);
  return (
    <article
      aria-label={`Submission by ${author}`}
      className="flex flex-col gap-3 rounded-lg border bg-card p-4"
      data-submission-id={submission.id}
    >
      {heading}
      <div className="flex items-start justify-between gap-2">
        <p className="font-semibold break-words">{author}</p>
        {submission.status === 'pending' ? (
          <Badge variant="outline">Pending review</Badge>
        ) : submission.status === 'winner' ? (
          <Badge>
            <Trophy className="mr-1 size-3" aria-hidden />
            Winner
          </Badge>
        ) : (
          <Badge variant="success">Approved</Badge>
        )}
      </div>
      {submission.description && (
        <p className="line-clamp-3 text-sm break-words text-muted-foreground">{submission.description}</p>
      )}
      <ProofFingerprint proofHash={submission.proofHash} proofMatches={submission.proofMatches} />
      <div className="mt-auto flex flex-wrap items-center gap-2">
        {submission.status !== 'pending' && (
          <VoteButton
            submission={submission}
            closedReason={votingClosed}
            voted={voted}
            outOfVotes={outOfVotes}
          />
        )}
        <WatchVideoDialog submission={submission} />
      </div>
    </article>
  );
}
