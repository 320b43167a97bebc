import { z } from 'zod';
import { CLAIM_TYPES } from './claims';
import { idParam } from './ids';
import { dareJudgingSchema, dareProposalSchema } from './judging';
import { CLAIM_STATUSES, SUBMISSION_LIMITS, SUBMISSION_STATUSES } from './limits';
import { lamportsToSolRoundedUp, solToLamports } from './money';
import { text } from './text';
import { signedTransactionSchema } from './transactions';
import { MAJOR_VOTE_NEEDS_PAYMENT, type VotingRights } from './voting';

export const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/ogg'] as const;

export const SUBMISSION_MESSAGES = {
  videoAndDescription: 'Please provide both video (URL or file) and description',
  videoTooLarge: 'Video file must be under 10MB',
  videoType: 'Only MP4, WebM and OGG videos are accepted',
  videoMissing: 'Attach a video file in the "video" field',
  uploadParts: 'Send only the video file and the dare id',
  uploadNeedsDare: 'Name the dare this video is for (the "dareId" field, before the file)',
  ownUpload: 'Upload your own video',
  uploadMalformed: 'The upload is not a valid multipart form',
  uploadTimedOut: 'The upload took too long; please try again',
  storageFull:
    'Video storage is full, so uploads are paused. Please try again later or use an https:// video link.',
  accountHoldsTooMuch:
    'You have too many videos waiting for review. Please wait until they are reviewed, or use an https:// video link.',
  addressHoldsTooMuch:
    'Too many videos from your network are waiting for review. Please wait until they are reviewed, or use an https:// video link.',
  videoUrl: 'The video must be a file uploaded here or an https:// link',
  videoHttps: 'Please use an https:// video link',
  videoLinkExpired: 'This video link has expired; reload the page to watch it',
  descriptionMax: `Description must be at most ${SUBMISSION_LIMITS.descriptionMax} characters`,
  submissionsClosed: 'Submissions Closed',
  alreadySubmitted: 'Already Submitted',
  /** Another user's submission has this fingerprint or this link (issue 37, item 3). */
  copiedProof: 'This video was already submitted by another user',
  dareNotFound: 'Dare not found',
  submissionNotFound: 'Submission not found',
  notApproved: 'Only approved submissions can be voted on',
  ownSubmission: 'You cannot vote for your own submission',
  alreadyVoted: 'You already voted for this submission',
  outOfVotes: `You have used all ${SUBMISSION_LIMITS.votesPerDare} votes for this dare`,
  votesNotYours: 'You can only see the votes you have used yourself',
  votingClosedCancelled: 'Voting is closed: this dare was cancelled',
  votingClosedWinner: 'Voting is closed: this dare already has its winner',
  votingClosedCommunityWinner: 'Voting is closed: the community winner has been picked',
  videoFileLink:
    'Links must point to a video file (.mp4, .webm or .ogv), not a page: upload the file instead, or use its direct link',
  majorVoteNeedsPayment: MAJOR_VOTE_NEEDS_PAYMENT,
  /** The Submit Video dialog's reason for the wallet prompt (docs/product.md#submit-video-rules). */
  entryPrompt: 'Sign to enter this dare on chain: only entrants can be paid',
  signEntry: 'Sign your entry to submit',
  noWalletToEnter: 'Connect a wallet to your account first: only a wallet that entered can be paid',
  alreadyEntered: 'You already entered this dare on chain: submit your video without signing again',
  noVault: "This dare's vault is not on chain: it cannot take entries",
  entryNotPrepared: 'This entry was not prepared by DarePool for your account; ask for a new one',
  entryNotAsPrepared:
    'This is not the entry DarePool prepared for you; sign the prepared transaction unchanged',
  entryBadSignature: 'The entry is not correctly signed by your wallet',
  entryUnreadable: 'The signed entry could not be read',
  entryExpired: 'Your entry expired before it reached the chain; please sign a new one',
  entryFailed: (reason: string) => `Your entry failed on chain: ${reason}`,
  entryUnconfirmed: 'The network did not confirm your entry in time; submit again in a moment',
  /** The signed entry carries another video's fingerprint than the one submitted (nothing was sent). */
  entryForOtherVideo:
    'This entry was prepared for another video: ask for the entry of this video and sign it',
  /** The entry on chain holds another video's fingerprint: it is fixed for the dare (decision 038). */
  entrySignedForOtherVideo:
    'This entry was signed for another video: submit that video (the same file, uploaded again if it is gone)',
  /** Said before the wallet signs (Submit Video); `sol` is the entry cost rounded up (entryCostLabel). */
  entryCost: (sol: string) => `Entering costs ${sol} SOL, returned to you when the dare ends`,
  /**
   * The wallet cannot pay its entry: `needSol` is what it must hold, `holdsSol` what it holds
   * (left out when a preflight refused it and the balance is not known).
   */
  entryUnaffordable: (needSol: string, holdsSol?: string) =>
    `Your wallet cannot pay this entry: entering needs ${needSol} SOL (the entry's rent, returned to you when the dare ends, and the network fee)${holdsSol === undefined ? '' : ` and it holds ${holdsSol} SOL`}. Add SOL to your wallet and try again`,
} as const;

/** The entry cost as the dialog and its refusals say it: rounded up to 0.0001 SOL. */
export function entryCostLabel(entryCostSol: string): string {
  return lamportsToSolRoundedUp(solToLamports(entryCostSol), 4);
}

/** Our own uploads are served from here; anything else must be an https URL. */
export const UPLOADED_VIDEO_PREFIX = '/uploads/videos/';

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:' && !/\s/.test(value);
  } catch {
    return false;
  }
}

/** The video files a link may point to: a browser's <video> plays these; pages (YouTube…) never. */
const VIDEO_FILE_PATH = /\.(mp4|webm|ogv|ogg)$/i;

function isVideoFileUrl(value: string): boolean {
  try {
    return VIDEO_FILE_PATH.test(new URL(value).pathname);
  } catch {
    return false;
  }
}

/**
 * A submission's video: one of our uploads, or an https link (an http one could never play on
 * an https page). The form checks typed links with it, so the user reads the server's message.
 */
export const videoLinkSchema = text({ error: SUBMISSION_MESSAGES.videoAndDescription })
  .trim()
  .min(1, SUBMISSION_MESSAGES.videoAndDescription)
  .max(2048, SUBMISSION_MESSAGES.videoUrl)
  .refine((value) => value.startsWith(UPLOADED_VIDEO_PREFIX) || isHttpsUrl(value), {
    error: SUBMISSION_MESSAGES.videoHttps,
    abort: true,
  })
  // Only a direct file link plays in the page's player; see docs/decisions/018.
  .refine((value) => value.startsWith(UPLOADED_VIDEO_PREFIX) || isVideoFileUrl(value), {
    error: SUBMISSION_MESSAGES.videoFileLink,
    abort: true,
  });

export const submitVideoRequestSchema = z
  .object({
    videoUrl: videoLinkSchema,
    /**
     * The `enter` transaction of POST /api/dares/{id}/enter-transaction, signed by the caller's
     * wallet: the server relays it and records the proof once the entry is on chain. Left out
     * only when the caller's entry already exists (a retry); else 400 'Sign your entry to submit'.
     */
    signedEntryTransaction: signedTransactionSchema(SUBMISSION_MESSAGES.entryUnreadable).optional(),
    description: text({ error: SUBMISSION_MESSAGES.videoAndDescription })
      .trim()
      .min(1, SUBMISSION_MESSAGES.videoAndDescription)
      .max(SUBMISSION_LIMITS.descriptionMax, SUBMISSION_MESSAGES.descriptionMax),
  })
  .meta({ id: 'SubmitVideoRequest' });

/**
 * POST /api/dares/{id}/enter-transaction body: the video the entry will carry the fingerprint of
 * (an upload of the caller's, or a link), exactly as it will be submitted.
 */
export const enterTransactionRequestSchema = z
  .object({ videoUrl: videoLinkSchema })
  .meta({ id: 'EnterTransactionRequest' });
export type SubmitVideoRequest = z.infer<typeof submitVideoRequestSchema>;
export type EnterTransactionRequest = z.infer<typeof enterTransactionRequestSchema>;

/**
 * POST /api/dares/{id}/enter-transaction: the `enter` transaction for the caller's registered
 * wallet: the wallet is its fee payer, the entry's rent payer (the rent comes back when the dare
 * ends) and its only signer; nothing of DarePool signs it. 400 `entryUnaffordable` when the wallet
 * cannot pay it. Asked again while it can still land, the same one comes back.
 */
export const enterTransactionResponseSchema = z
  .object({
    /** base64 wire format: one signature slot, the wallet's, empty. */
    transaction: z.string(),
    /** The entry account the transaction creates: PDA ["entry", vault, wallet]. */
    entry: z.string(),
    /** Past this block height the transaction can no longer land: ask for a new one. */
    lastValidBlockHeight: z.string(),
  })
  .meta({ id: 'EnterTransactionResponse' });
export type EnterTransactionResponse = z.infer<typeof enterTransactionResponseSchema>;

export const uploadVideoResponseSchema = z.object({ url: z.string() }).meta({ id: 'UploadVideoResponse' });

/** A submission as every endpoint answers it, with the snake-case and nested shapes of docs/product.md#records-and-fields. */
export const submissionSchema = z
  .object({
    id: z.number().int(),
    dareId: z.number().int(),
    userId: z.number().int(),
    videoUrl: z.string(),
    /**
     * Where a player loads the video, for this viewer: `/api/video-proxy/{id}` when public; for
     * the author or an admin of a pending or rejected upload, a link signed for a few minutes;
     * null for a pending external link (never redirected to before approval).
     */
    videoSrc: z.string().nullable(),
    thumbnailUrl: z.string().nullable(),
    description: z.string().nullable(),
    votes: z.number().int(),
    /**
     * (Addition) the proof's fingerprint its on-chain entry holds: SHA-256 (hex) of the uploaded
     * file's bytes, or of the link's exact URL; null for an entry of program v1 (no fingerprint).
     */
    proofHash: z.string().nullable(),
    /** Whether the video served now still hashes to `proofHash` (null: not known / no fingerprint). */
    proofMatches: z.boolean().nullable(),
    status: z.enum(SUBMISSION_STATUSES),
    isFeatured: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    dare_id: z.number().int(),
    user_id: z.number().int(),
    video_url: z.string(),
    thumbnail_url: z.string().nullable(),
    is_featured: z.boolean(),
    /**
     * (Addition, issue 35/37) why an admin rejected it, when one was given: only a rejected proof
     * has one, and a rejected proof is shown only to its author and admins. Null otherwise.
     */
    rejection_reason: z.string().nullable(),
    dares: z.object({ title: z.string(), is_major: z.boolean() }).nullable(),
    users: z.object({ username: z.string() }).nullable(),
  })
  .meta({ id: 'Submission' });
export type Submission = z.infer<typeof submissionSchema>;
export const submissionListSchema = z.array(submissionSchema).meta({ id: 'SubmissionList' });

export const voteResponseSchema = z
  .object({
    /** The submission's new vote count. */
    votes: z.number().int(),
    /** Votes the caller has used on this dare, at most 3. */
    voteCount: z.number().int(),
  })
  .meta({ id: 'VoteResponse' });
export type VoteResponse = z.infer<typeof voteResponseSchema>;

export const voteInfoSchema = z.object({ voteCount: z.number().int() }).meta({ id: 'VoteInfo' });

/**
 * (Addition) GET /api/dares/{dareId}/my-votes: the session user's votes on a dare, so a voted
 * proof can read 'Voted' and the counter can say where the votes left can still go. Only the
 * caller's own: who voted for what is not public.
 */
export const myVotesSchema = z
  .object({ voteCount: z.number().int(), submissionIds: z.array(z.number().int()) })
  .meta({ id: 'MyVotes' });
export type MyVotes = z.infer<typeof myVotesSchema>;

/**
 * GET /api/voting-rights: what the session user may vote on. The Major Dare's votes decide money,
 * so they need one verified payment into DarePool (a stake or a pool contribution) first.
 */
export const votingRightsSchema = z
  .object({ majorDare: z.boolean() })
  .meta({ id: 'VotingRights' }) satisfies z.ZodType<VotingRights>;

export const submissionIdParamsSchema = z.object({
  id: idParam(SUBMISSION_MESSAGES.submissionNotFound),
});
export const dareSubmissionsParamsSchema = z.object({
  dareId: idParam(SUBMISSION_MESSAGES.dareNotFound),
});
export const userVotesParamsSchema = z.object({
  userId: idParam(),
  dareId: idParam(),
});

/**
 * GET /api/dares/{dareId}/outcome: how a dare ended so far. `votingClosed` is why votes can no
 * longer change anything (the vote endpoint's 409 message), or null while they can; `winners`
 * are the picked winners with their payout once paid.
 */
export const dareOutcomeSchema = z
  .object({
    votingClosed: z.string().nullable(),
    winners: z.array(
      z.object({
        submissionId: z.number().int().nullable(),
        username: z.string(),
        claimType: z.enum(CLAIM_TYPES),
        amount: z.string(),
        status: z.enum(CLAIM_STATUSES),
        /** The payout transaction, once paid. */
        transactionSignature: z.string().nullable(),
      }),
    ),
    /**
     * (Addition) program v2: the dare's latest payout proposal (null when none, and for v1
     * vaults): who is named, when it pays unless the guardian vetoes it, and the propose transaction.
     */
    proposal: dareProposalSchema.nullable(),
    /** (Addition) program v2: who judges this dare's vault (null for v1 vaults and dares without one). */
    judging: dareJudgingSchema.nullable(),
    /** (Addition) the refunds that landed, oldest first: who got how much back, and the transaction. */
    refunds: z.array(
      z.object({
        signature: z.string(),
        amount: z.string(),
        walletAddress: z.string(),
        username: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'DareOutcome' });
export type DareOutcome = z.infer<typeof dareOutcomeSchema>;
