import { useQuery } from '@tanstack/react-query';
import type { SystemSettings } from '#contract/settings';

/**
 * GET /api/settings: the admin's System Controls switches, public so a page can say a switched-off
 * feature is off before anyone fills its form. Read again on every visit of a page that uses it
 * (an admin may flip a switch at any time; the server enforces it either way).
 */
export function useSystemSwitches() {
  return useQuery<SystemSettings>({ queryKey: ['/api/settings'], refetchOnMount: 'always' });
}
