import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MyVotes, Submission, VoteResponse } from '#contract/submissions';
import { toast } from '#web/components/ui/use-toast';
import { apiRequest } from '#web/lib/api-client';
import { myVotesKey } from './get-my-votes';
import { voteCountKey } from './get-vote-count';
import { approvedSubmissionsKey } from './list-approved-submissions';
import { featuredSubmissionsKey } from './list-featured-submissions';

export const VOTE_TOASTS = {
  successTitle: 'Vote added!',
  successText: 'Your vote has been recorded.',
  failureTitle: 'Error voting',
  failureFallback: 'Failed to vote',
} as const;

/** POST /api/submissions/{id}/vote, no body → {votes, voteCount}. */
export function voteFor(submissionId: number): Promise<VoteResponse> {
  return apiRequest<VoteResponse>('POST', `/api/submissions/${submissionId}/vote`);
}

/**
 * A vote, with the toasts of docs/product.md#vote-messages. The answer is exact (the submission's new count and the
 * caller's votes used on the dare), so the caches take it at once; the lists are refetched too
 * because other people vote as well.
 */
export function useVote(userId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submission: Submission) => voteFor(submission.id),
    onSuccess: ({ votes, voteCount }, submission) => {
      const setVotes = (list: Submission[] | undefined) =>
        list?.map((item) => (item.id === submission.id ? { ...item, votes } : item));
      queryClient.setQueryData(approvedSubmissionsKey(submission.dareId), setVotes);
      queryClient.setQueryData(featuredSubmissionsKey, setVotes);
      if (userId !== null) {
        queryClient.setQueryData(voteCountKey(userId, submission.dareId), { voteCount });
        queryClient.setQueryData(myVotesKey(userId, submission.dareId), (mine: MyVotes | undefined) => ({
          voteCount,
          submissionIds: [...new Set([...(mine?.submissionIds ?? []), submission.id])],
        }));
      }
      void queryClient.invalidateQueries({ queryKey: approvedSubmissionsKey(submission.dareId) });
      void queryClient.invalidateQueries({ queryKey: featuredSubmissionsKey });
      toast({ title: VOTE_TOASTS.successTitle, description: VOTE_TOASTS.successText });
    },
    onError: (error, submission) => {
      // A refused vote (cast in another tab, votes used up) means this page's picture is stale.
      if (userId !== null)
        void queryClient.invalidateQueries({ queryKey: myVotesKey(userId, submission.dareId) });
      toast({
        title: VOTE_TOASTS.failureTitle,
        description: error instanceof Error && error.message ? error.message : VOTE_TOASTS.failureFallback,
        variant: 'destructive',
      });
    },
  });
}
