/** Submissions as a viewer sees them: one, the featured ones, a dare's visible or approved ones. */
import { SUBMISSION_MESSAGES, type Submission } from '#contract/submissions';
import { notFound } from '#server/errors';
import { currentMajorDare } from '#server/features/major-dare/current';
import {
  findSubmissionRecord,
  listApprovedSubmissions,
  listFeaturedSubmissions,
  listVisibleSubmissions,
  type SubmissionRecord,
} from './repo';
import type { Submissions } from './submission-deps';

/** Every list only holds what its viewer may see, so each gets the source it may play. */
function withSource({ videoAccess }: Submissions, record: SubmissionRecord): Submission {
  return { ...record, videoSrc: videoAccess.sourceFor(record) };
}

const withSources = (submissions: Submissions, records: SubmissionRecord[]) =>
  records.map((record) => withSource(submissions, record));

/** The current Major Dare's id while it is active; null otherwise. */
export async function activeMajorDareId({ db, clock }: Submissions): Promise<number | null> {
  const major = await currentMajorDare(db, clock());
  return major.isActive ? major.id : null;
}

export async function showSubmission(submissions: Submissions, id: number): Promise<Submission> {
  const submission = await findSubmissionRecord(submissions.db, id);
  if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
  return withSource(submissions, submission);
}

export async function featuredSubmissions(submissions: Submissions): Promise<Submission[]> {
  return withSources(submissions, await listFeaturedSubmissions(submissions.db));
}

/** A dare's submissions as `viewerId` may see them; without a dare, the current major dare's. */
export async function visibleSubmissions(
  submissions: Submissions,
  dareId: number | null,
  viewerId: number | null,
): Promise<Submission[]> {
  const id = dareId ?? (await activeMajorDareId(submissions));
  if (id === null) return [];
  return withSources(submissions, await listVisibleSubmissions(submissions.db, id, viewerId));
}

/** A dare's approved submissions; without a dare, the current major dare's. */
export async function approvedSubmissions(
  submissions: Submissions,
  dareId: number | null,
): Promise<Submission[]> {
  const id = dareId ?? (await activeMajorDareId(submissions));
  if (id === null) return [];
  return withSources(submissions, await listApprovedSubmissions(submissions.db, id));
}
