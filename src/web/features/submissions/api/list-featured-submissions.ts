import { useQuery } from '@tanstack/react-query';
import type { Submission } from '#contract/submissions';

/** GET /api/featured-submissions: the Home page's Featured tab. */
export const featuredSubmissionsKey = ['/api/featured-submissions'] as const;

export function useFeaturedSubmissions(enabled = true) {
  return useQuery<Submission[]>({ queryKey: featuredSubmissionsKey, enabled });
}
