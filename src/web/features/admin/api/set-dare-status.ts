import { ADMIN_MESSAGES, type UpdateDareStatusResponse } from '#contract/admin';
import { apiRequest } from '#web/lib/api-client';
import { refundToastDescription } from '../components/refund-toast';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/**
 * PATCH /api/admin/dares/{id}/status. docs/product.md#dare-status: Deactivate sets cancelled (refunding every
 * contribution), Activate sets active.
 */
export const useSetDareStatus = () =>
  useAdminMutation(
    ({ id, status }: { id: number; status: 'active' | 'cancelled' }) =>
      apiRequest<UpdateDareStatusResponse>('PATCH', `/api/admin/dares/${id}/status`, { status }),
    {
      success: (result) => ({
        title: ADMIN_MESSAGES.dareStatusUpdated,
        description: refundToastDescription(result.refunds),
      }),
      failure: ADMIN_MESSAGES.dareStatusFailed,
    },
  );
