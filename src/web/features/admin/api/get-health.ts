import { useQuery } from '@tanstack/react-query';
import type { Health } from '#contract/health';

/** GET /api/health: the admin panel reads the guardian's readiness from it. */
export const useHealth = () => useQuery<Health>({ queryKey: ['/api/health'] });
