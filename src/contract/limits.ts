/** Business constants of the product (docs/product.md#limits-and-constants). One definition, read by server and web. */
export const LAMPORTS_PER_SOL = 1_000_000_000n;

export const STAKE_MIN_SOL = '0.01';
export const STAKE_MAX_SOL = '5';
export const NETWORK_FEE_SOL = '0.000005';
export const POOL_ADD_MIN_SOL = '0.01';
export const POOL_ADD_DEFAULT_SOL = '0.01';
export const AIRDROP_MAX_SOL = '10';
/** A Major Dare's prize: at least this much; the maximum is the server's MAJOR_PRIZE_MAX_SOL. */
export const MAJOR_PRIZE_MIN_SOL = '0.01';
export const MAJOR_PRIZE_MAX_SOL_DEFAULT = '100';
/** FEE_PAYER_MIN_SOL's default: below it the platform fee payer is reported low. */
export const FEE_PAYER_MIN_SOL_DEFAULT = '0.5';
/** How long a paid stake or contribution that step 7 refused waits for a corrected request before it is refunded. */
export const REFUSED_PAYMENT_HOLD_MINUTES = 15;

export const SUBMISSION_LIMITS = {
  /** Max video file. */
  videoMaxBytes: 10 * 1024 * 1024,
  descriptionMax: 1000,
  votesPerDare: 3,
} as const;
export const MAJOR_DARE_SPLIT = { adminPercent: 70, communityPercent: 30 } as const;

export const CREATE_DARE_DEFAULTS = {
  maxParticipants: 10,
  difficulty: 'medium',
  category: 'creative',
  isPublic: true,
} as const;
export const MAJOR_DARE_DEFAULTS = {
  prizeAmount: '0.1',
  maxParticipants: 100,
  difficulty: 'medium',
} as const;

export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 6;
export const LEADERBOARD_SIZE = 10;

export const POLL_MS = {
  stats: 30_000,
  majorDare: 30_000,
  submissions: 5_000,
  approvedSubmissions: 5_000,
} as const;

export const TOAST = {
  limit: 1,
  durationMs: 5_000,
  removeDelayMs: 1_000_000,
  swipeThresholdPx: 50,
  hotkey: ['F8'],
} as const;
export const TOOLTIP = { delayDurationMs: 700, skipDelayDurationMs: 300 } as const;

export const DIFFICULTIES = ['easy', 'medium', 'hard', 'extreme'] as const;
export const CATEGORIES = ['creative', 'physical', 'social', 'skill', 'adventure'] as const;
export const DARE_STATUSES = ['active', 'cancelled', 'completed'] as const;
export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected', 'winner'] as const;
export const CLAIM_STATUSES = ['pending', 'processing', 'paid', 'failed'] as const;

export type Difficulty = (typeof DIFFICULTIES)[number];
export type Category = (typeof CATEGORIES)[number];
export type DareStatus = (typeof DARE_STATUSES)[number];
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** Reputation points (docs/decisions/008-payouts-refunds.md); the server applies them, the UI explains them. */
export const REPUTATION = {
  /** A submission moves to approved (taken back if the approval is withdrawn). */
  submissionApproved: 1,
  /** A prize claim is paid out. */
  prizeWon: 10,
} as const;

/** How reputation is earned, in words, wherever the number is shown. */
export const REPUTATION_EXPLAINED = `+${REPUTATION.submissionApproved} for each approved proof, +${REPUTATION.prizeWon} for each prize paid out`;
