import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import type { Claim, WinningSubmission } from '../../../../contract/claims';
import type { Profile } from '../../../../contract/profile';
import { toast } from '../../../components/ui/use-toast';
import { apiGet, apiRequest } from '../../../lib/api-client';
import { configQueryOptions } from '../../../lib/config';
import { balanceQueryKey } from '../../payments/api/check-balance';
import { TransactionLink } from '../../payments/components/transaction-link';

// Spec section 7: these reads are keyed by user id (a new sign-in never shows the last user's).
export const profileKey = (userId: number) => ['/api/profile', userId] as const;
export const claimsKey = (userId: number) => ['/api/claims', userId] as const;
export const winningKey = (userId: number) => ['/api/winning-submissions', userId] as const;

export const useProfile = (userId: number) =>
  useQuery({
    queryKey: profileKey(userId),
    queryFn: ({ signal }) => apiGet<Profile>('/api/profile', { signal }),
  });

export const useClaims = (userId: number) =>
  useQuery({
    queryKey: claimsKey(userId),
    queryFn: ({ signal }) => apiGet<Claim[]>('/api/claims', { signal }),
  });

export const useWinningSubmissions = (userId: number) =>
  useQuery({
    queryKey: winningKey(userId),
    queryFn: ({ signal }) => apiGet<WinningSubmission[]>('/api/winning-submissions', { signal }),
  });

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
