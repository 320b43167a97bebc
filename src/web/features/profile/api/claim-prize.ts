import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import type { Claim } from '#contract/claims';
import { JUDGING_MESSAGES } from '#contract/judging';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { toast } from '#web/components/ui/use-toast';
import { ApiError, apiRequest } from '#web/lib/api-client';
import { configQueryOptions } from '#web/lib/config';
import { formatDayTime } from '#web/lib/dates';
import { balanceQueryKey } from '#web/lib/payments/api/check-balance';
import { profileKey } from './get-profile';
import { claimsKey } from './list-claims';
import { winningKey } from './list-winning-submissions';

/** The 409 of a claim made inside the payout window (claimNotYetSchema): when it pays, else null. */
export function notYetPaysAt(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    const body = JSON.parse(error.body) as { executesAt?: unknown };
    return typeof body.executesAt === 'string' && !Number.isNaN(Date.parse(body.executesAt))
      ? body.executesAt
      : null;
  } catch {
    return null;
  }
}

/**
 * POST /api/claims/prize: the server pays the prize on chain and answers the paid claim. Only the
 * submission goes up; who is paid, how much and where is the server's to decide.
 */
export function useClaimPrize(userId: number, walletAddress: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (submissionId: number) => apiRequest<Claim>('POST', '/api/claims/prize', { submissionId }),
    onSuccess: (claim) => {
      // Like every money toast, it links the payout's transaction.
      const config = queryClient.getQueryData(configQueryOptions().queryKey);
      toast({
        title: 'Prize claimed successfully!',
        description:
          claim.transactionHash && config
            ? createElement(TransactionLink, {
                signature: claim.transactionHash,
                explorerUrl: config.explorerUrl,
              })
            : undefined,
      });
    },
    onError: (error) => {
      const executesAt = notYetPaysAt(error);
      // Before the guardian's window ends the prize is on its way, not refused: say when it pays.
      if (executesAt)
        toast({ title: 'Prize on its way', description: JUDGING_MESSAGES.paysOn(formatDayTime(executesAt)) });
      else toast({ title: 'Error claiming prize', description: error.message, variant: 'destructive' });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: claimsKey(userId) }),
        queryClient.invalidateQueries({ queryKey: winningKey(userId) }),
        queryClient.invalidateQueries({ queryKey: profileKey(userId) }),
        walletAddress
          ? queryClient.invalidateQueries({ queryKey: balanceQueryKey(walletAddress) })
          : undefined,
      ]),
  });
}
