import { useState } from 'react';
import type { AdminSubmission } from '#contract/admin';
import { MAJOR_DARE_MESSAGES } from '#contract/major-dare';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { countOf } from '#web/lib/utils';
import { selectMajorWinners } from '../api/select-major-winners';
import { nameOfWallet, type ProofAuthors, pickedWinners } from '../lib/proof-authors';
import { NameWinnerButton } from './name-winner';
import type { ChosenPrize } from './winner-actions';

/**
 * A judged Major Dare's winners, both at once (decision 072): the judge chooses the admin winner
 * (any eligible proof) here, which records nothing; the community winner is the most voted one,
 * as the server requires. "Name both winners" then asks for the propose naming both, the
 * confirmation names both with their amounts, and one signature records and proposes them.
 */
export function NameMajorWinners({
  dareId,
  ranked,
  authors,
  chosen,
}: {
  dareId: number;
  /** The eligible proofs in the server's community order: the first is the community winner. */
  ranked: readonly AdminSubmission[];
  authors: ProofAuthors;
  /** Picks the server already recorded (an earlier pick through the single pick route). */
  chosen: { admin?: ChosenPrize; community?: ChosenPrize };
}) {
  const recordedAdmin = chosen.admin?.submissionId ?? null;
  const [adminPick, setAdminPick] = useState<number | null>(recordedAdmin);
  const communityPick = chosen.community?.submissionId ?? ranked[0]!.id;
  const communityName = authors.get(communityPick)?.username ?? `proof ${communityPick}`;
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">{MAJOR_DARE_MESSAGES.pickAdminWinner}</p>
      <ul className="max-h-80 space-y-2 overflow-y-auto" aria-label="Eligible submissions">
        {ranked.map((submission) => {
          const selected = adminPick === submission.id;
          return (
            <li
              key={submission.id}
              aria-label={submission.users.username}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm"
            >
              <div className="min-w-0">
                <p className="font-medium">
                  {submission.users.username}{' '}
                  {submission.id === communityPick && (
                    <Badge variant="secondary">Community Winner (30%)</Badge>
                  )}
                </p>
                <p className="text-muted-foreground">
                  {countOf(submission.votes, 'vote')}
                  {submission.description ? ` · ${submission.description}` : ''}
                </p>
              </div>
              <Button
                size="sm"
                variant={selected ? 'default' : 'outline'}
                aria-pressed={selected}
                // A recorded admin pick stands: the pair is named with it.
                disabled={recordedAdmin !== null && !selected}
                onClick={() => setAdminPick(submission.id)}
              >
                Admin Winner (70%)
              </Button>
            </li>
          );
        })}
      </ul>
      <p className="text-sm">{MAJOR_DARE_MESSAGES.communityWinnerIs(communityName)}</p>
      {adminPick === null ? (
        <Button disabled>{MAJOR_DARE_MESSAGES.nameBoth}</Button>
      ) : (
        <NameWinnerButton
          dareId={dareId}
          label={MAJOR_DARE_MESSAGES.nameBoth}
          variant="default"
          kind="admin"
          username={authors.get(adminPick)?.username ?? ''}
          request={(signedTransaction) =>
            selectMajorWinners({
              dareId,
              adminSubmissionId: adminPick,
              communitySubmissionId: communityPick,
              signedTransaction,
            })
          }
          // What the propose must pay, from the page's own list: the admin's 70% first.
          picked={pickedWinners(authors, [adminPick, communityPick])}
          nameOfWallet={(wallet) => nameOfWallet(authors, wallet)}
          recordedTitle={MAJOR_DARE_MESSAGES.bothNamed}
          failureTitle={MAJOR_DARE_MESSAGES.winnerFailed}
        />
      )}
    </div>
  );
}
