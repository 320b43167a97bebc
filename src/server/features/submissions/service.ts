import { and, count, eq, sql } from 'drizzle-orm';
import {
  type DareOutcome,
  SUBMISSION_LIMITS,
  SUBMISSION_MESSAGES,
  type Submission,
  UPLOADED_VIDEO_PREFIX,
  type VoteResponse,
} from '../../../contract/submissions';
import type { VotingRights } from '../../../contract/voting';
import type { Clock } from '../../app';
import type { Db, DbOrTx } from '../../db/client';
import { violatedConstraint } from '../../db/errors';
import { dareSubmissions, submissionVotes, users } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { StoragePort } from '../../storage/port';
import type { UserRow } from '../auth/repo';
import { effectiveStatus, findDareRow, hasBackedADare } from '../dares/repo';
import { currentMajorDare } from '../major-dare/repo';
import type { VideoAccess } from '../videos/access';
import {
  featured,
  findSubmission,
  ofDare,
  publicOnly,
  type SubmissionRecord,
  selectSubmissions,
  visibleTo,
  votingClosedReason,
  winnersOf,
} from './repo';

/** The storage key inside one of our upload URLs, or null for anything else. */
export function uploadedKey(videoUrl: string): string | null {
  const match = new RegExp(`^${UPLOADED_VIDEO_PREFIX}([a-f0-9]{32})$`).exec(videoUrl);
  return match ? match[1]! : null;
}

export function createSubmissionsService({
  db,
  clock,
  storage,
  videoAccess,
}: {
  db: Db;
  clock: Clock;
  storage: StoragePort;
  videoAccess: VideoAccess;
}) {
  /** Every list only holds what its viewer may see, so each gets the source it may play. */
  const withSource = (record: SubmissionRecord): Submission => ({
    ...record,
    videoSrc: videoAccess.sourceFor(record),
  });
  const withSources = (records: SubmissionRecord[]) => records.map(withSource);

  /** The dare, if it takes submissions now; 404 or 409 'Submissions Closed' otherwise. */
  async function requireOpenDare(dareId: number) {
    const dare = await findDareRow(db, dareId);
    if (!dare) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
    if (effectiveStatus(dare, clock()) !== 'active') throw conflict(SUBMISSION_MESSAGES.submissionsClosed);
    return dare;
  }

  async function show(id: number): Promise<Submission> {
    const [submission] = await selectSubmissions(db, eq(dareSubmissions.id, id));
    if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
    return withSource(submission);
  }

  async function majorDareId(): Promise<number | null> {
    const major = await currentMajorDare(db);
    return major.isActive ? major.id : null;
  }

  return {
    requireOpenDare,

    async submit(user: UserRow, dareId: number, body: { videoUrl: string; description: string }) {
      await requireOpenDare(dareId);
      // The schema let through only our upload paths and https links; an upload must exist.
      const key = uploadedKey(body.videoUrl);
      if (body.videoUrl.startsWith(UPLOADED_VIDEO_PREFIX) && !(key && (await storage.stat(key)))) {
        throw badRequest(SUBMISSION_MESSAGES.videoUrl, {
          fields: { videoUrl: SUBMISSION_MESSAGES.videoUrl },
        });
      }
      const now = clock();
      try {
        const [row] = await db
          .insert(dareSubmissions)
          .values({
            dareId,
            userId: user.id,
            videoUrl: body.videoUrl,
            description: body.description,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: dareSubmissions.id });
        return show(row!.id);
      } catch (error) {
        if (violatedConstraint(error) === 'dare_submissions_one_per_user')
          throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
        throw error;
      }
    },

    show,

    featured: async () => withSources(await selectSubmissions(db, featured(), 'newest')),

    /** A dare's submissions as `viewerId` may see them; without a dare, the current major dare's. */
    async ofDare(dareId: number | null, viewerId: number | null) {
      const id = dareId ?? (await majorDareId());
      if (id === null) return [];
      return withSources(await selectSubmissions(db, and(ofDare(id), visibleTo(viewerId))));
    },

    async approvedOf(dareId: number | null) {
      const id = dareId ?? (await majorDareId());
      if (id === null) return [];
      return withSources(await selectSubmissions(db, and(ofDare(id), publicOnly())));
    },

    /**
     * One vote. The voter's user row is locked first, so one user's concurrent votes run one at a
     * time and the 3-per-dare count cannot be raced; one vote per submission is also unique.
     */
    async vote(user: UserRow, submissionId: number): Promise<VoteResponse> {
      try {
        return await db.transaction(async (tx) => {
          await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
          const submission = await findSubmission(tx, submissionId);
          if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
          const closed = await votingClosedReason(tx, submission.dareId);
          if (closed) throw conflict(closed);
          if (submission.status !== 'approved') throw badRequest(SUBMISSION_MESSAGES.notApproved);
          if (submission.userId === user.id)
            throw new AppError('FORBIDDEN', SUBMISSION_MESSAGES.ownSubmission);
          // The Major Dare's community prize follows the votes: fresh accounts must not decide it.
          const dare = await findDareRow(tx, submission.dareId);
          if (dare?.isMajor && !(await hasBackedADare(tx, user.id)))
            throw new AppError('FORBIDDEN', SUBMISSION_MESSAGES.majorVoteNeedsPayment);
          const [already] = await tx
            .select({ id: submissionVotes.id })
            .from(submissionVotes)
            .where(and(eq(submissionVotes.submissionId, submissionId), eq(submissionVotes.userId, user.id)));
          if (already) throw conflict(SUBMISSION_MESSAGES.alreadyVoted);
          const used = await votesUsed(tx, user.id, submission.dareId);
          if (used >= SUBMISSION_LIMITS.votesPerDare) throw conflict(SUBMISSION_MESSAGES.outOfVotes);
          await tx.insert(submissionVotes).values({
            submissionId,
            userId: user.id,
            dareId: submission.dareId,
            createdAt: clock(),
          });
          const [updated] = await tx
            .update(dareSubmissions)
            .set({ votes: sql`${dareSubmissions.votes} + 1` })
            .where(eq(dareSubmissions.id, submissionId))
            .returning({ votes: dareSubmissions.votes });
          return { votes: updated!.votes, voteCount: used + 1 };
        });
      } catch (error) {
        if (violatedConstraint(error) === 'submission_votes_one_per_user')
          throw conflict(SUBMISSION_MESSAGES.alreadyVoted);
        throw error;
      }
    },

    votesUsed: (userId: number, dareId: number) => votesUsed(db, userId, dareId),

    async outcome(dareId: number): Promise<DareOutcome> {
      if (!(await findDareRow(db, dareId))) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
      return { votingClosed: await votingClosedReason(db, dareId), winners: await winnersOf(db, dareId) };
    },

    async votingRights(user: UserRow): Promise<VotingRights> {
      return { majorDare: await hasBackedADare(db, user.id) };
    },
  };
}

async function votesUsed(db: DbOrTx, userId: number, dareId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(submissionVotes)
    .where(and(eq(submissionVotes.userId, userId), eq(submissionVotes.dareId, dareId)));
  return row!.n;
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
