import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import type { Claim } from '#contract/claims';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { toast } from '#web/components/ui/use-toast';
import { apiRequest } from '#web/lib/api-client';
import { configQueryOptions } from '#web/lib/config';
import { balanceQueryKey } from '#web/lib/payments/api/check-balance';
import { profileKey } from './get-profile';
import { claimsKey } from './list-claims';
import { winningKey } from './list-winning-submissions';

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
    onError: (error) =>
      toast({ title: 'Error claiming prize', description: error.message, variant: 'destructive' }),
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
