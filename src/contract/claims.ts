import { z } from 'zod';
import { idParam } from './ids';
import { CLAIM_STATUSES } from './limits';
import { solAmountSchema } from './users';

export const CLAIM_TYPES = ['dare_winner', 'major_admin', 'major_community'] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

export const CLAIM_MESSAGES = {
  userNotAuthenticated: 'User not authenticated',
  submissionNotFound: 'Submission not found',
  noClaim: 'This submission has no prize to claim',
  notYourClaim: 'Only the winner can claim this prize',
  alreadyPaid: 'This prize has already been paid',
  processing: 'This prize is being paid out; check again in a moment',
  noWallet: 'Your account has no wallet to receive the prize; connect a wallet first',
  payoutFailed: (reason: string) => `The payout failed: ${reason}. You can try again.`,
  majorNeedsBothWinners:
    "A major dare's prize is paid to both winners at once (70/30): it can be claimed once both are picked",
  vaultBusy: "Another payment of this dare's vault is on its way; try again in a moment",
  vaultRefused: (reason: string) => `The prize cannot be paid from this dare's vault: ${reason}`,
  /** A winner of a dare whose escrow (program v1) was retired: refused, or the reason of its claim. */
  escrowRetired:
    "This dare's escrow was retired (program v1): every backer gets their SOL back and no prize is paid",
  claimSucceeded: 'Prize claimed successfully!',
  claimFailedTitle: 'Error claiming prize',
} as const;

/** A prize claim as every endpoint answers it; `transactionHash` is the payout's signature once sent. */
export const claimSchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    amount: solAmountSchema,
    claimType: z.enum(CLAIM_TYPES),
    status: z.enum(CLAIM_STATUSES),
    transactionHash: z.string().nullable(),
    /** Why the last payout attempt failed (the claim is claimable again); null otherwise. */
    failureReason: z.string().nullable(),
    /** Explorer link of the payout transaction, when paid. */
    explorerUrl: z.string().nullable(),
    dareId: z.number().int().nullable(),
    dareTitle: z.string().nullable(),
    submissionId: z.number().int().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Claim' });

/**
 * POST /api/claims/prize. The first client also sends userId, amount and walletAddress (docs/product.md#claim-calls): they are
 * accepted and ignored (stripped), since the server decides who is paid, how much and where.
 */
export const claimPrizeRequestSchema = z
  .object({
    submissionId: idParam(CLAIM_MESSAGES.submissionNotFound),
  })
  .meta({ id: 'ClaimPrizeRequest' });

/** One prize won by the session user: one entry per claim (a major dare submission can win both types). */
export const winningSubmissionSchema = z
  .object({
    id: z.number().int(),
    description: z.string().nullable(),
    prizeAmount: solAmountSchema,
    claimId: z.number().int(),
    claimType: z.enum(CLAIM_TYPES),
    claimStatus: z.enum(CLAIM_STATUSES),
    dareId: z.number().int().nullable(),
    dareTitle: z.string().nullable(),
  })
  .meta({ id: 'WinningSubmission' });

export type Claim = z.infer<typeof claimSchema>;
export type ClaimPrizeRequest = z.input<typeof claimPrizeRequestSchema>;
export type WinningSubmission = z.infer<typeof winningSubmissionSchema>;
