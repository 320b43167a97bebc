import { z } from 'zod';
import { dareSchema } from './dares';
import { idParam } from './ids';
import { DARE_STATUSES, SUBMISSION_STATUSES } from './limits';
import { NOTIFICATION_MESSAGES, REJECTION_REASON_MAX } from './notifications';
import { submissionSchema } from './submissions';
import { text } from './text';
import { solAmountSchema } from './users';

export const ADMIN_MESSAGES = {
  accessDenied: "Access Denied - You don't have admin privileges to access this panel.",
  dareStatusUpdated: 'Dare status updated successfully',
  dareStatusFailed: 'Failed to update dare status',
  submissionUpdated: 'Submission status updated successfully',
  submissionFailed: 'Failed to update submission',
  dareDeleted: 'Dare deleted successfully',
  /** The first client had no failure handler here (docs/product.md#admin-toasts); ours says why (e.g. unpaid prize claims). */
  dareDeleteFailed: 'Failed to delete dare',
  settingsSaved: 'Settings saved',
  settingsFailed: 'Failed to save settings',
  winnerMarked: 'Winner marked and claim created successfully!',
  winnerFailed: 'Failed to mark winner',
  submissionNotFound: 'Submission not found',
  dareNotFound: 'Dare not found',
  userNotFound: 'User not found',
  winnerAlreadyMarked: 'This dare already has a winner',
  winnerNotApproved: 'Only an approved submission can be marked as the winner',
  winnerWrongDare: 'This submission belongs to another dare',
  dareNotActive: 'Only an active dare can get a winner',
  useMajorWinner: 'Use the major dare winner selection for a major dare',
  completedDare: 'A completed dare cannot change status',
  refundedDare: 'This dare was cancelled and its pool refunded; it cannot be reactivated',
  retiredDare: "This dare's escrow was retired (program v1): it cannot be reactivated",
  unpaidClaims: 'This dare has prize claims that are not paid yet',
  refundFailed: (reason: string) => `The refund did not complete: ${reason}. It will be retried.`,
  winnerStatusByMarkWinner: 'Use mark winner to make a submission the winner',
} as const;

/** GET /api/admin/stats (docs/product.md#derived-shapes). SOL as decimal strings. */
export const adminStatsSchema = z
  .object({
    totalUsers: z.number().int(),
    totalDares: z.number().int(),
    activeDares: z.number().int(),
    /** SOL ever paid into escrows (stakes and pool additions). */
    totalStaked: solAmountSchema,
    /** SOL paid out to winners. */
    paidOut: solAmountSchema,
    pendingSubmissions: z.number().int(),
  })
  .meta({ id: 'AdminStats' });

/** Rows an admin list answers at most, newest first; older ones are found with `q`. */
export const ADMIN_LIST_LIMIT = 200;

/**
 * GET /api/admin/dares?q=&major=: every dare, major ones included, newest first; q searches title
 * and description; (addition) major=true lists only major dares, major=false only community ones.
 */
export const adminDareListQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  major: z
    .enum(['true', 'false'], { error: 'major must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
});
export type AdminDareListQuery = z.infer<typeof adminDareListQuerySchema>;

/** One transfer that gave a contribution back to the wallet that paid it. */
export const dareRefundSchema = z
  .object({ signature: z.string(), amount: solAmountSchema, walletAddress: z.string() })
  .meta({ id: 'DareRefund' });
export type DareRefund = z.infer<typeof dareRefundSchema>;

/**
 * A row of GET /api/admin/dares: the public dare plus (addition) whether any of its contributions
 * went back (`refunded`: the server then refuses Activate) and those refund transfers, oldest first.
 */
export const adminDareSchema = dareSchema
  .extend({ refunded: z.boolean(), refunds: z.array(dareRefundSchema) })
  .meta({ id: 'AdminDare' });
export type AdminDare = z.infer<typeof adminDareSchema>;

/** GET /api/admin/submissions?dareId=&status=: optional filters ("view submissions" of one dare). */
export const adminSubmissionListQuerySchema = z.object({
  dareId: idParam().optional(),
  status: z.enum(SUBMISSION_STATUSES).optional(),
});

/** GET /api/admin/users?q=: q searches username and wallet address. */
export const adminUserListQuerySchema = z.object({ q: text().trim().max(100).optional() });

export const updateDareStatusRequestSchema = z
  .object({ status: z.enum(['active', 'cancelled'], { error: 'Status must be active or cancelled' }) })
  .meta({ id: 'UpdateDareStatusRequest' });

/** Refunds run when a dare with money is cancelled or deleted: what happened to each contribution. */
export const refundSummarySchema = z
  .object({
    refunded: z.number().int(),
    /** SOL sent back in this call. */
    refundedAmount: solAmountSchema,
    /** Contributions whose refund did not complete (retried by the refund job). */
    failed: z.number().int(),
    failureReason: z.string().nullable(),
    /**
     * (Addition) the refunds this call confirmed, in the order they were sent: each transfer's
     * signature, so the admin's toast links every one ('View transaction'), a deleted dare's too.
     * Optional: a summary without transfers (none confirmed) may leave it out.
     */
    transfers: z.array(dareRefundSchema).optional().meta({
      description: 'The refund transfers this call confirmed, in the order sent (addition; may be absent)',
    }),
  })
  .meta({ id: 'RefundSummary' });

export const updateDareStatusResponseSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(DARE_STATUSES),
    refunds: refundSummarySchema,
  })
  .meta({ id: 'UpdateDareStatusResponse' });

export const deleteDareResponseSchema = z
  .object({ success: z.literal(true), id: z.number().int(), refunds: refundSummarySchema })
  .meta({ id: 'DeleteDareResponse' });

/** PUT /api/admin/submissions/{id}: 'winner' is set only by mark-winner. */
export const updateSubmissionRequestSchema = z
  .object({
    status: z.enum(['pending', 'approved', 'rejected'], {
      error: 'Status must be pending, approved or rejected',
    }),
    is_featured: z.boolean().optional(),
    /** (Addition, issue 35/37) why it is rejected, shown to its author; kept only with status 'rejected'. */
    reason: text()
      .trim()
      .max(REJECTION_REASON_MAX, NOTIFICATION_MESSAGES.reasonMax)
      .transform((value) => (value === '' ? undefined : value))
      .optional(),
  })
  .meta({ id: 'UpdateSubmissionRequest' });

/** POST /api/admin/submissions/{id}/mark-winner: defined with the judging contract it belongs to. */
export { markWinnerRequestSchema } from './judging';

/** A submission as the admin lists it: the public shape, with the dare's status and never-null nesting. */
export const adminSubmissionSchema = submissionSchema
  .extend({
    dares: z.object({ title: z.string(), is_major: z.boolean(), status: z.enum(DARE_STATUSES) }),
    /** `walletAddress`: the author's wallet, the one a propose naming this proof must pay (decision 054). */
    users: z.object({ username: z.string(), walletAddress: z.string().nullable() }),
    /**
     * (Addition) the earliest other submission, on any dare, whose fingerprint or link is this
     * one's: the review warns that this proof may be a copy. Null when there is none.
     */
    fingerprintSeen: z
      .object({
        submissionId: z.number().int(),
        dareId: z.number().int(),
        dareTitle: z.string(),
        username: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'AdminSubmission' });

/** GET /api/admin/fee-payer: the platform wallet that pays every payout's network fee. */
export const feePayerStatusSchema = z
  .object({
    address: z.string(),
    /** Lamports, integer string. */
    balance: z.string(),
    /** Roughly how many more payouts it can pay (5,000 lamports each). */
    payoutsLeft: z.number().int(),
    /** FEE_PAYER_MIN_SOL in lamports (integer string): below it the panel warns. */
    minBalance: z.string(),
    /** Below `minBalance`: users are told 'DarePool cannot pay network fees right now'. */
    low: z.boolean(),
  })
  .meta({ id: 'FeePayerStatus' });

export const idParamsSchema = z.object({ id: idParam() });
export const dareIdParamsSchema = z.object({ dareId: idParam() });

export type AdminStats = z.infer<typeof adminStatsSchema>;
export type FeePayerStatus = z.infer<typeof feePayerStatusSchema>;
export type AdminSubmission = z.infer<typeof adminSubmissionSchema>;
export type UpdateDareStatusRequest = z.infer<typeof updateDareStatusRequestSchema>;
export type UpdateDareStatusResponse = z.infer<typeof updateDareStatusResponseSchema>;
export type DeleteDareResponse = z.infer<typeof deleteDareResponseSchema>;
export type UpdateSubmissionRequest = z.infer<typeof updateSubmissionRequestSchema>;
export type RefundSummary = z.infer<typeof refundSummarySchema>;
