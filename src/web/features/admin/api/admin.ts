import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_MESSAGES, type AdminStats, type AdminSubmission } from '../../../../contract/admin';
import type { Claim } from '../../../../contract/claims';
import { toast } from '../../../components/ui/use-toast';
import { apiRequest } from '../../../lib/api-client';

// Keys are the paths (spec section 7's default GET); every admin read starts with '/api/admin'.
export const useAdminStats = () => useQuery<AdminStats>({ queryKey: ['/api/admin/stats'] });
export const useAdminSubmissions = () =>
  useQuery<AdminSubmission[]>({ queryKey: ['/api/admin/submissions'] });

function useAdminMutation<Input, Output>(
  run: (input: Input) => Promise<Output>,
  messages: { success: string; failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => toast({ title: messages.success }),
    onError: (error) =>
      toast({ title: messages.failure, description: error.message, variant: 'destructive' }),
    // Moderation changes lists, stats, pools and the public submission lists alike.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

export const useUpdateSubmission = () =>
  useAdminMutation(
    ({ id, status, isFeatured }: { id: number; status: AdminSubmission['status']; isFeatured: boolean }) =>
      apiRequest<AdminSubmission>('PUT', `/api/admin/submissions/${id}`, { status, is_featured: isFeatured }),
    { success: ADMIN_MESSAGES.submissionUpdated, failure: ADMIN_MESSAGES.submissionFailed },
  );

export const useMarkWinner = () =>
  useAdminMutation(
    ({ id, dareId }: { id: number; dareId: number }) =>
      apiRequest<Claim>('POST', `/api/admin/submissions/${id}/mark-winner`, { dareId }),
    { success: ADMIN_MESSAGES.winnerMarked, failure: ADMIN_MESSAGES.winnerFailed },
  );
