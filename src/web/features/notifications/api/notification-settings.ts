import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings, UpdateNotificationSettingsRequest } from '#contract/notifications';
import { toast } from '#web/components/ui/use-toast';
import { apiGet, apiRequest } from '#web/lib/api-client';
import { USER_SCOPED } from '#web/lib/session/auth-provider';
import { verificationSent } from '../lib/kind-labels';

/** GET /api/profile/notifications: the email address, whether it is verified, and what it receives. */
export const notificationSettingsKey = (userId: number) =>
  ['/api/profile/notifications', USER_SCOPED, { userId }] as const;

export function useNotificationSettings(userId: number) {
  return useQuery({
    queryKey: notificationSettingsKey(userId),
    queryFn: ({ signal }) => apiGet<NotificationSettings>('/api/profile/notifications', { signal }),
  });
}

/** PUT /api/profile/notifications: answers the saved settings, which replace the shown ones. */
export function useUpdateNotificationSettings(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateNotificationSettingsRequest) =>
      apiRequest<NotificationSettings>('PUT', '/api/profile/notifications', change),
    onSuccess: (saved) => queryClient.setQueryData(notificationSettingsKey(userId), saved),
    onError: (error) =>
      toast({ title: 'Settings not saved', description: error.message, variant: 'destructive' }),
  });
}

/**
 * PUT /api/profile/email (202, the saved settings): the address is sent a verification mail; it is
 * unverified until its link is opened.
 */
export function useSetEmail(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiRequest<NotificationSettings>('PUT', '/api/profile/email', { email }),
    onSuccess: (saved, email) => {
      toast({ title: 'Verification email sent', description: verificationSent(email) });
      queryClient.setQueryData(notificationSettingsKey(userId), saved);
    },
    onError: (error) =>
      toast({ title: 'Email not saved', description: error.message, variant: 'destructive' }),
  });
}
