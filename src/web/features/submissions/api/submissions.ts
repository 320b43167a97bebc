import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '../../../../contract/limits';
import type { DareOutcome, Submission } from '../../../../contract/submissions';
import type { VotingRights } from '../../../../contract/voting';
import { apiGet } from '../../../lib/api-client';

/** GET /api/approved-submissions/{dareId}: what the dare page lists, polled every 5 s. */
export const approvedSubmissionsKey = (dareId: number) => ['/api/approved-submissions', dareId] as const;

export function useApprovedSubmissions(dareId: number) {
  return useQuery<Submission[]>({
    queryKey: approvedSubmissionsKey(dareId),
    refetchInterval: POLL_MS.approvedSubmissions,
  });
}

/**
 * GET /api/submissions/{dareId}, polled every 5 s: the public ones plus the caller's own of any
 * status, which is how the page knows the user already submitted. The answer depends on who
 * asks, so the user is part of the key (the path stays the spec's).
 */
export const dareSubmissionsKey = (dareId: number, userId: number | null) =>
  ['/api/submissions', dareId, { userId }] as const;

export function useDareSubmissions(dareId: number, userId: number | null, enabled = true) {
  return useQuery<Submission[]>({
    enabled,
    queryKey: dareSubmissionsKey(dareId, userId),
    queryFn: ({ signal }) => apiGet<Submission[]>(`/api/submissions/${dareId}`, { signal }),
    refetchInterval: POLL_MS.submissions,
  });
}

/** GET /api/featured-submissions: the Home page's Featured tab. */
export const featuredSubmissionsKey = ['/api/featured-submissions'] as const;

export function useFeaturedSubmissions(enabled = true) {
  return useQuery<Submission[]>({ queryKey: featuredSubmissionsKey, enabled });
}

/** GET /api/user/{userId}/votes/dare/{dareId} → {voteCount}: the key's parts joined are the path. */
export const voteCountKey = (userId: number, dareId: number) =>
  ['/api/user', userId, 'votes/dare', dareId] as const;

export function useVoteCount(userId: number | null, dareId: number) {
  return useQuery<{ voteCount: number }>({
    queryKey: voteCountKey(userId ?? 0, dareId),
    enabled: userId !== null,
  });
}

/**
 * GET /api/voting-rights for the signed-in user. Refetched when a vote button mounts and after a
 * payment (refresh-after-payment), since a first stake or contribution grants the Major Dare vote.
 */
export const votingRightsKey = (userId: number) => ['/api/voting-rights', { userId }] as const;

export function useVotingRights(userId: number | null, enabled: boolean) {
  return useQuery<VotingRights>({
    queryKey: votingRightsKey(userId ?? 0),
    queryFn: ({ signal }) => apiGet<VotingRights>('/api/voting-rights', { signal }),
    enabled: enabled && userId !== null,
    staleTime: 0,
  });
}

/** The player's source: the server streams uploads with range support and redirects external URLs. */
export const videoSourceUrl = (submissionId: number) => `/api/video-proxy/${submissionId}`;

/** GET /api/dares/{dareId}/outcome: whether votes still count, and the winners with their payouts. */
export const dareOutcomeKey = (dareId: number) => ['/api/dares', dareId, 'outcome'] as const;

export function useDareOutcome(dareId: number) {
  return useQuery<DareOutcome>({
    queryKey: dareOutcomeKey(dareId),
    refetchInterval: POLL_MS.approvedSubmissions,
  });
}
