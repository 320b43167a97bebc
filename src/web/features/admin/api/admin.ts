import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_MESSAGES,
  type AdminDare,
  type AdminStats,
  type AdminSubmission,
  type DeleteDareResponse,
  type UpdateDareStatusResponse,
} from '../../../../contract/admin';
import type { Claim } from '../../../../contract/claims';
import type { Dare } from '../../../../contract/dares';
import {
  type CreateMajorDareRequest,
  MAJOR_DARE_MESSAGES,
  type WinnerType,
} from '../../../../contract/major-dare';
import type { SystemSettings } from '../../../../contract/settings';
import type { PublicUser } from '../../../../contract/users';
import { toast } from '../../../components/ui/use-toast';
import { apiRequest } from '../../../lib/api-client';
import { describeRefunds } from '../lib/describe-refunds';

/** A path with its non-empty query parameters: the query key of a filtered admin list. */
function withQuery(path: string, params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

// Keys are the paths (spec section 7's default GET); every admin read starts with '/api/admin'.
// A changed search keeps the previous list on screen until the new one arrives.
export const useAdminStats = () => useQuery<AdminStats>({ queryKey: ['/api/admin/stats'] });
export const useAdminDares = (filter: { q?: string; major?: boolean }) =>
  useQuery<AdminDare[]>({
    queryKey: [withQuery('/api/admin/dares', { q: filter.q, major: filter.major })],
    placeholderData: keepPreviousData,
  });
export const useAdminSubmissions = (filter: { dareId?: number } = {}) =>
  useQuery<AdminSubmission[]>({
    queryKey: [withQuery('/api/admin/submissions', { dareId: filter.dareId })],
    placeholderData: keepPreviousData,
  });
export const useAdminUsers = (q: string, enabled: boolean) =>
  useQuery<PublicUser[]>({
    queryKey: [withQuery('/api/admin/users', { q })],
    placeholderData: keepPreviousData,
    enabled,
  });
export const useSystemSettings = () => useQuery<SystemSettings>({ queryKey: ['/api/admin/settings'] });

interface Toast {
  title: string;
  description?: string;
}

function useAdminMutation<Input, Output>(
  run: (input: Input) => Promise<Output>,
  messages: { success: string | ((output: Output) => Toast); failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (output) =>
      toast(typeof messages.success === 'string' ? { title: messages.success } : messages.success(output)),
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

/** Spec: Deactivate sets cancelled (refunding every contribution), Activate sets active. */
export const useSetDareStatus = () =>
  useAdminMutation(
    ({ id, status }: { id: number; status: 'active' | 'cancelled' }) =>
      apiRequest<UpdateDareStatusResponse>('PATCH', `/api/admin/dares/${id}/status`, { status }),
    {
      success: (result) => ({
        title: ADMIN_MESSAGES.dareStatusUpdated,
        description: describeRefunds(result.refunds),
      }),
      failure: ADMIN_MESSAGES.dareStatusFailed,
    },
  );

/** DELETE /api/admin/dares/{id}, method and path in their proper places (the spec's client swaps them). */
export const useDeleteDare = () =>
  useAdminMutation(
    ({ id }: { id: number }) => apiRequest<DeleteDareResponse>('DELETE', `/api/admin/dares/${id}`),
    {
      success: (result) => ({
        title: ADMIN_MESSAGES.dareDeleted,
        description: describeRefunds(result.refunds),
      }),
      failure: ADMIN_MESSAGES.dareDeleteFailed,
    },
  );

export const useSelectMajorWinner = () =>
  useAdminMutation(
    ({
      dareId,
      submissionId,
      winnerType,
    }: {
      dareId: number;
      submissionId: number;
      winnerType: WinnerType;
    }) => apiRequest<Claim>('POST', `/api/admin/major-dare/${dareId}/winner`, { submissionId, winnerType }),
    { success: MAJOR_DARE_MESSAGES.winnerSelected, failure: MAJOR_DARE_MESSAGES.winnerFailed },
  );

export const useSaveSettings = () =>
  useAdminMutation(
    (update: Partial<SystemSettings>) => apiRequest<SystemSettings>('PUT', '/api/admin/settings', update),
    { success: ADMIN_MESSAGES.settingsSaved, failure: ADMIN_MESSAGES.settingsFailed },
  );

/** POST /api/admin/major-dare with the verified prize payment; 201 new, 200 the same request again. */
export function createMajorDare(request: CreateMajorDareRequest): Promise<Dare> {
  return apiRequest<Dare>('POST', '/api/admin/major-dare', request);
}
