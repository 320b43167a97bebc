import { ADMIN_MESSAGES, type AdminSubmission } from '#contract/admin';
import { apiRequest } from '#web/lib/api-client';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/** PUT /api/admin/submissions/{id}: approve, reject or feature a submission. */
export const useUpdateSubmission = () =>
  useAdminMutation(
    ({ id, status, isFeatured }: { id: number; status: AdminSubmission['status']; isFeatured: boolean }) =>
      apiRequest<AdminSubmission>('PUT', `/api/admin/submissions/${id}`, { status, is_featured: isFeatured }),
    { success: ADMIN_MESSAGES.submissionUpdated, failure: ADMIN_MESSAGES.submissionFailed },
  );
