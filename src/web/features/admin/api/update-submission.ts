import { ADMIN_MESSAGES, type AdminSubmission } from '#contract/admin';
import { apiRequest } from '#web/lib/api-client';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/**
 * PUT /api/admin/submissions/{id}: approve, reject (with the reason told to the author, when
 * given) or feature a submission.
 */
export const useUpdateSubmission = () =>
  useAdminMutation(
    ({
      id,
      status,
      isFeatured,
      reason,
    }: {
      id: number;
      status: AdminSubmission['status'];
      isFeatured: boolean;
      reason?: string;
    }) =>
      apiRequest<AdminSubmission>('PUT', `/api/admin/submissions/${id}`, {
        status,
        is_featured: isFeatured,
        ...(reason ? { reason } : {}),
      }),
    { success: ADMIN_MESSAGES.submissionUpdated, failure: ADMIN_MESSAGES.submissionFailed },
  );
