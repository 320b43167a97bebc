import { ADMIN_MESSAGES, type DeleteDareResponse } from '#contract/admin';
import { apiRequest } from '#web/lib/api-client';
import { refundToastDescription } from '../components/refund-toast';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/** DELETE /api/admin/dares/{id}, method and path in their proper places (the first client swapped them: docs/product.md#admin-calls). */
export const useDeleteDare = () =>
  useAdminMutation(
    ({ id }: { id: number }) => apiRequest<DeleteDareResponse>('DELETE', `/api/admin/dares/${id}`),
    {
      success: (result) => ({
        title: ADMIN_MESSAGES.dareDeleted,
        description: refundToastDescription(result.refunds),
      }),
      failure: ADMIN_MESSAGES.dareDeleteFailed,
    },
  );
