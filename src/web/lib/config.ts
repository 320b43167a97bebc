import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '#contract/config';
import { apiGet, type RequestOptions } from './api-client';

/**
 * GET /api/config: the deployment's cluster, explorer link and limits. Shared by the shell (the
 * network label), sign-in (the local dev wallet on the embedded chain) and the money forms.
 * Typed, not validated: zod would add 25 KB to the first load for an answer from our own server.
 */
export function getConfig(options?: RequestOptions): Promise<PublicConfig> {
  return apiGet<PublicConfig>('/api/config', options);
}

export const configQueryOptions = () =>
  queryOptions({ queryKey: ['/api/config'], queryFn: ({ signal }) => getConfig({ signal }) });

export function useConfig() {
  return useQuery(configQueryOptions());
}
