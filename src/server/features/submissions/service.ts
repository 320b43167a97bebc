/**
 * Submissions: proofs of dares, and the votes on them. The parts, each a module of named functions
 * taking the feature's shared state (`Submissions`, submission-deps.ts) first: open-dare.ts (whether
 * a dare takes a user's proof now), submit-proof.ts (the entry to sign, then the proof recorded),
 * submission-lists.ts (what a viewer sees), votes.ts, outcome.ts (a dare's winners and refunds);
 * entering on chain is entries.ts, re-hashing stored proofs proof-checks.ts. This module only
 * puts them together under the names callers use.
 */
import type { SubmitVideoRequest } from '#contract/submissions';
import type { UserRow } from '#server/features/auth/user';
import { requireOpenDare, requireUploadableDare } from './open-dare';
import { dareOutcome } from './outcome';
import { type SubmissionsDeps, submissionsOf } from './submission-deps';
import {
  approvedSubmissions,
  featuredSubmissions,
  showSubmission,
  visibleSubmissions,
} from './submission-lists';
import { enterTransaction, submitProof } from './submit-proof';
import { myVotes, vote, votesUsed, votingRights } from './votes';

export type { SubmissionsDeps, VideoSources } from './submission-deps';

export function createSubmissionsService(deps: SubmissionsDeps) {
  const submissions = submissionsOf(deps);
  return {
    requireOpenDare: (dareId: number) => requireOpenDare(submissions, dareId),
    /** Re-hashing stored videos against their fingerprints (approval, the clean-up job). */
    proofChecks: submissions.proofChecks,
    requireUploadableDare: (user: UserRow, dareId: number) =>
      requireUploadableDare(submissions, user, dareId),
    enterTransaction: (user: UserRow, dareId: number, body: { videoUrl: string }) =>
      enterTransaction(submissions, user, dareId, body),
    submit: (user: UserRow, dareId: number, body: SubmitVideoRequest) =>
      submitProof(submissions, user, dareId, body),
    show: (id: number) => showSubmission(submissions, id),
    featured: () => featuredSubmissions(submissions),
    /** A dare's submissions as `viewerId` may see them; without a dare, the current major dare's. */
    ofDare: (dareId: number | null, viewerId: number | null) =>
      visibleSubmissions(submissions, dareId, viewerId),
    approvedOf: (dareId: number | null) => approvedSubmissions(submissions, dareId),
    vote: (user: UserRow, submissionId: number) => vote(submissions, user, submissionId),
    votesUsed: (viewer: UserRow, userId: number, dareId: number) =>
      votesUsed(submissions, viewer, userId, dareId),
    myVotes: (user: UserRow, dareId: number) => myVotes(submissions, user, dareId),
    outcome: (dareId: number) => dareOutcome(submissions, dareId),
    votingRights: (user: UserRow) => votingRights(submissions, user),
  };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
