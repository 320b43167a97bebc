/** Reputation points (docs/decisions/008-payouts-refunds.md), applied in one place each. */
export const REPUTATION = {
  /** A submission moves to approved (taken back if the approval is withdrawn). */
  submissionApproved: 1,
  /** A prize claim is paid out. */
  prizeWon: 10,
} as const;
