import { useQuery } from '@tanstack/react-query';
import type { SystemSettings } from '#contract/settings';

/** GET /api/admin/settings: System Controls' switches. */
export const useSystemSettings = () => useQuery<SystemSettings>({ queryKey: ['/api/admin/settings'] });
