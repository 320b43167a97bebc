import { ADMIN_MESSAGES } from '#contract/admin';
import type { SystemSettings } from '#contract/settings';
import { apiRequest } from '#web/lib/api-client';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/** PUT /api/admin/settings: the switches that changed. */
export const useSaveSettings = () =>
  useAdminMutation(
    (update: Partial<SystemSettings>) => apiRequest<SystemSettings>('PUT', '/api/admin/settings', update),
    { success: ADMIN_MESSAGES.settingsSaved, failure: ADMIN_MESSAGES.settingsFailed },
  );
