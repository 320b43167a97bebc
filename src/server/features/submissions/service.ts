import type { Address } from '@solana/kit';
import { effectiveStatus } from '#contract/dare-rules';
import { SUBMISSION_LIMITS } from '#contract/limits';
import {
  type DareOutcome,
  type MyVotes,
  SUBMISSION_MESSAGES,
  type Submission,
  type SubmitVideoRequest,
  UPLOADED_VIDEO_PREFIX,
  type VoteResponse,
} from '#contract/submissions';
import type { VotingRights } from '#contract/voting';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import type { ChainPort } from '#server/chain/port';
import type { Db, DbOrTx } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict, forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { currentMajorDare } from '#server/features/major-dare/current';
import type { Judging } from '#server/judging-keys';
import type { RateLimiter } from '#server/rate-limit/port';
import type { StoragePort } from '#server/storage/port';
import { createEntries } from './entries';
import { createProofChecks } from './proof-checks';
import { proofHashOf } from './proof-hash';
import {
  attachUpload,
  countVotes,
  findDareEntry,
  findSubmission,
  findSubmissionRecord,
  findVotingState,
  hasMoneyInPool,
  hasSubmitted,
  hasVoted,
  insertSubmission,
  insertVote,
  isCopiedProof,
  isOwnPendingUpload,
  listApprovedSubmissions,
  listFeaturedSubmissions,
  listVisibleSubmissions,
  lockVoter,
  recordedUploadHash,
  recordUploadHash,
  refundsOf,
  type SubmissionRecord,
  votedSubmissionIds,
  winnersOf,
} from './repo';
import { uploadedKey } from './video-url';

const notYourUpload = () =>
  badRequest(SUBMISSION_MESSAGES.ownUpload, { fields: { videoUrl: SUBMISSION_MESSAGES.ownUpload } });

/** Where a viewer plays a submission's video (the videos feature signs the links). */
export interface VideoSources {
  sourceFor(submission: { id: number; status: string; videoUrl: string }): string | null;
}

/**
 * Why votes on a dare can no longer change anything, or null while they can: a cancelled dare
 * pays nobody, a community dare's winner is paid from its whole pool, and a major dare's votes
 * only pick its community winner.
 */
async function votingClosedReason(db: DbOrTx, dareId: number): Promise<string | null> {
  const dare = await findVotingState(db, dareId);
  if (!dare) return null;
  if (dare.status === 'cancelled') return SUBMISSION_MESSAGES.votingClosedCancelled;
  if (dare.winners === 0) return null;
  return dare.isMajor
    ? SUBMISSION_MESSAGES.votingClosedCommunityWinner
    : SUBMISSION_MESSAGES.votingClosedWinner;
}

export interface SubmissionsDeps {
  db: Db;
  clock: Clock;
  storage: StoragePort;
  videoAccess: VideoSources;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /** Escrow v1's program id; null where the chain has no v1 vault (decision 081). */
  escrowProgramId: Address | null;
  /** Escrow v2's program id: entries refuse a vault owned by any third program (decision 038). */
  escrowProgramV2Id: Address;
  /** The judging configuration: the terms of vaults made before they were recorded (decision 048). */
  judging: Judging;
  limiter: RateLimiter;
  /** Told when a pending upload becomes a submission's video (the storage quota counts it). */
  onUploadAttached?: (bytes: number) => void;
  /**
   * The outcome's `proposal` and `judging` of a v2 vault (the judging feature; declared here so
   * this feature does not depend on it). Absent: both null.
   */
  judgingOutcome?: (dareId: number) => Promise<Pick<DareOutcome, 'proposal' | 'judging'>>;
}

export function createSubmissionsService(deps: SubmissionsDeps) {
  const { db, clock, storage, videoAccess } = deps;
  const entries = createEntries(deps);
  const proofChecks = createProofChecks({ db, storage, clock });
  /** Every list only holds what its viewer may see, so each gets the source it may play. */
  const withSource = (record: SubmissionRecord): Submission => ({
    ...record,
    videoSrc: videoAccess.sourceFor(record),
  });
  const withSources = (records: SubmissionRecord[]) => records.map(withSource);

  /** Only a registered wallet can enter, and only an entrant can be paid. */
  function requireEntrantWallet(user: UserRow): string {
    if (!user.walletAddress) throw badRequest(SUBMISSION_MESSAGES.noWalletToEnter);
    return user.walletAddress;
  }

  /** The dare, if it takes submissions now; 404 or 409 'Submissions Closed' otherwise. */
  async function requireOpenDare(dareId: number) {
    const dare = await findDareEntry(db, dareId);
    if (!dare) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
    if (effectiveStatus(dare, clock()) !== 'active') throw conflict(SUBMISSION_MESSAGES.submissionsClosed);
    return dare;
  }

  async function show(id: number): Promise<Submission> {
    const submission = await findSubmissionRecord(db, id);
    if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
    return withSource(submission);
  }

  /**
   * The proof at `videoUrl` as the user may submit it to this dare, and its fingerprint: our
   * upload paths must name a stored upload that is the user's own for this dare and not taken by
   * a submission yet (never another's proof); anything else is an https link (the schema said so).
   */
  async function proofOf(user: UserRow, dareId: number, videoUrl: string) {
    const key = uploadedKey(videoUrl);
    if (videoUrl.startsWith(UPLOADED_VIDEO_PREFIX) && !(key && (await storage.stat(key)))) {
      throw badRequest(SUBMISSION_MESSAGES.videoUrl, {
        fields: { videoUrl: SUBMISSION_MESSAGES.videoUrl },
      });
    }
    const upload = key ? { key, userId: user.id, dareId } : null;
    if (upload && !(await isOwnPendingUpload(db, upload))) throw notYourUpload();
    const proofHash = await proofHashOf(videoUrl, {
      storage,
      recordedUploadHash: (uploadKey) => recordedUploadHash(db, uploadKey),
      recordUploadHash: (uploadKey, sha256) => recordUploadHash(db, uploadKey, sha256),
    });
    // Deleted since the check above (the clean-up, or a newer upload replacing it).
    if (proofHash === null) throw notYourUpload();
    // Refused before any entry is built or relayed: nothing is fixed on chain for a copy.
    if (await isCopiedProof(db, { userId: user.id, proofHash, videoUrl }))
      throw conflict(SUBMISSION_MESSAGES.copiedProof, {
        fields: { videoUrl: SUBMISSION_MESSAGES.copiedProof },
      });
    return { upload, proofHash };
  }

  async function majorDareId(): Promise<number | null> {
    const major = await currentMajorDare(db, clock());
    return major.isActive ? major.id : null;
  }

  return {
    requireOpenDare,

    /** Re-hashing stored videos against their fingerprints (approval, the clean-up job). */
    proofChecks,

    /** An upload is for an open dare its uploader has not submitted to yet (404, 409 otherwise). */
    async requireUploadableDare(user: UserRow, dareId: number) {
      const dare = await requireOpenDare(dareId);
      if (await hasSubmitted(db, dareId, user.id)) throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
      return dare;
    },

    /**
     * POST /api/dares/{id}/enter-transaction: the caller's `enter` for the dare's vault, for a
     * user with a registered wallet who has no proof on this open dare and has not entered. The
     * video is checked as submit checks it; a v2 entry carries its fingerprint.
     */
    async enterTransaction(user: UserRow, dareId: number, body: { videoUrl: string }) {
      const wallet = requireEntrantWallet(user);
      const dare = await requireOpenDare(dareId);
      if (await hasSubmitted(db, dareId, user.id)) throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
      const proof = await proofOf(user, dareId, body.videoUrl);
      return entries.transaction(user, wallet, dare, proof.proofHash);
    },

    /**
     * A proof, recorded once its author entered the dare on chain: the signed entry is relayed and
     * confirmed first in the same request (docs/product.md#submit-video-rules).
     */
    async submit(user: UserRow, dareId: number, body: SubmitVideoRequest) {
      const wallet = requireEntrantWallet(user);
      const dare = await requireOpenDare(dareId);
      const { upload, proofHash } = await proofOf(user, dareId, body.videoUrl);
      // Nothing is relayed for a proof that could not be recorded anyway.
      if (await hasSubmitted(db, dareId, user.id)) throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
      // The entry's fingerprint (v2) is the proof's, or nothing was relayed or is recorded.
      const entered = await entries.ensureEntered(user, wallet, dare, body.signedEntryTransaction, proofHash);
      const now = clock();
      try {
        const { id, attachedBytes } = await db.transaction(async (tx) => {
          const id = await insertSubmission(tx, {
            dareId,
            userId: user.id,
            videoUrl: body.videoUrl,
            description: body.description,
            // An upload's hash was taken of the bytes as they were stored: they match now. A
            // link's bytes are someone else's to change: never said to match (decision 038).
            proof:
              entered.proofHash === null
                ? null
                : { hash: entered.proofHash, matches: upload ? true : null, checkedAt: upload ? now : null },
            now,
          });
          if (!upload) return { id, attachedBytes: null };
          // Taken by another submission since the check above: nothing is recorded.
          const attachedBytes = await attachUpload(tx, { ...upload, submissionId: id });
          if (attachedBytes === null) throw notYourUpload();
          return { id, attachedBytes };
        });
        if (attachedBytes !== null) deps.onUploadAttached?.(attachedBytes);
        return show(id);
      } catch (error) {
        if (violatedConstraint(error) === 'dare_submissions_one_per_user')
          throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
        throw error;
      }
    },

    show,

    featured: async () => withSources(await listFeaturedSubmissions(db)),

    /** A dare's submissions as `viewerId` may see them; without a dare, the current major dare's. */
    async ofDare(dareId: number | null, viewerId: number | null) {
      const id = dareId ?? (await majorDareId());
      if (id === null) return [];
      return withSources(await listVisibleSubmissions(db, id, viewerId));
    },

    async approvedOf(dareId: number | null) {
      const id = dareId ?? (await majorDareId());
      if (id === null) return [];
      return withSources(await listApprovedSubmissions(db, id));
    },

    /**
     * One vote. The voter's user row is locked first, so one user's concurrent votes run one at a
     * time and the 3-per-dare count cannot be raced; one vote per submission is also unique.
     */
    async vote(user: UserRow, submissionId: number): Promise<VoteResponse> {
      try {
        return await db.transaction(async (tx) => {
          await lockVoter(tx, user.id);
          const submission = await findSubmission(tx, submissionId);
          if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
          const closed = await votingClosedReason(tx, submission.dareId);
          if (closed) throw conflict(closed);
          if (submission.status !== 'approved') throw badRequest(SUBMISSION_MESSAGES.notApproved);
          if (submission.userId === user.id)
            throw new AppError('FORBIDDEN', SUBMISSION_MESSAGES.ownSubmission);
          // The Major Dare's community prize follows the votes: only its own backers decide it.
          const dare = await findDareEntry(tx, submission.dareId);
          if (dare?.isMajor && !(await hasMoneyInPool(tx, user.id, submission.dareId)))
            throw new AppError('FORBIDDEN', SUBMISSION_MESSAGES.majorVoteNeedsPayment);
          if (await hasVoted(tx, submissionId, user.id)) throw conflict(SUBMISSION_MESSAGES.alreadyVoted);
          const used = await countVotes(tx, user.id, submission.dareId);
          if (used >= SUBMISSION_LIMITS.votesPerDare) throw conflict(SUBMISSION_MESSAGES.outOfVotes);
          const votes = await insertVote(tx, {
            submissionId,
            userId: user.id,
            dareId: submission.dareId,
            now: clock(),
          });
          return { votes, voteCount: used + 1 };
        });
      } catch (error) {
        if (violatedConstraint(error) === 'submission_votes_one_per_user')
          throw conflict(SUBMISSION_MESSAGES.alreadyVoted);
        throw error;
      }
    },

    /** How many votes a user has used on a dare: nobody's business but their own. */
    async votesUsed(viewer: UserRow, userId: number, dareId: number): Promise<number> {
      if (viewer.id !== userId) throw forbidden(SUBMISSION_MESSAGES.votesNotYours);
      return countVotes(db, userId, dareId);
    },

    async myVotes(user: UserRow, dareId: number): Promise<MyVotes> {
      if (!(await findDareEntry(db, dareId))) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
      const submissionIds = await votedSubmissionIds(db, user.id, dareId);
      return { voteCount: submissionIds.length, submissionIds };
    },

    async outcome(dareId: number): Promise<DareOutcome> {
      if (!(await findDareEntry(db, dareId))) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
      return {
        votingClosed: await votingClosedReason(db, dareId),
        // First: reading the vault may record a veto, which changes the winners.
        ...(await (deps.judgingOutcome?.(dareId) ?? { proposal: null, judging: null })),
        winners: await winnersOf(db, dareId),
        refunds: await refundsOf(db, dareId),
      };
    },

    async votingRights(user: UserRow): Promise<VotingRights> {
      const majorId = await majorDareId();
      return { majorDare: majorId !== null && (await hasMoneyInPool(db, user.id, majorId)) };
    },
  };
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>;
