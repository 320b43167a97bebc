import { z } from 'zod';
import { publicUserSchema, solAmountSchema } from './users';

export const ACTIVITY_TYPES = ['submission', 'vote', 'contribution', 'claim'] as const;

/** One line of Recent Activity: something the user did, newest first. */
export const activityItemSchema = z
  .object({
    /** Unique across types, e.g. 'vote:12'. */
    key: z.string(),
    type: z.enum(ACTIVITY_TYPES),
    at: z.string(),
    dareId: z.number().int().nullable(),
    dareTitle: z.string().nullable(),
    /** SOL for contributions and claims, else null. */
    amount: solAmountSchema.nullable(),
    /** Submission or claim status, or for contributions 'stake' | 'contribution' | 'refunded'. */
    status: z.string().nullable(),
    /** The on-chain signature (contribution payment or claim payout), when there is one. */
    transactionSignature: z.string().nullable(),
    /** (Addition) a refunded contribution's refund transaction, else null. */
    refundSignature: z.string().nullable(),
  })
  .meta({ id: 'ActivityItem' });

/** GET /api/profile: the session user's record, counts and recent activity. */
export const profileSchema = z
  .object({
    user: publicUserSchema,
    stats: z.object({
      submissions: z.number().int(),
      approvedSubmissions: z.number().int(),
      votesCast: z.number().int(),
      contributions: z.number().int(),
      /** SOL the user put into pools (stakes and additions), refunds not subtracted. */
      totalContributed: solAmountSchema,
      claims: z.number().int(),
      pendingClaims: z.number().int(),
    }),
    /** At most 20 items, newest first. */
    recentActivity: z.array(activityItemSchema),
  })
  .meta({ id: 'Profile' });

export type ActivityItem = z.infer<typeof activityItemSchema>;
export type Profile = z.infer<typeof profileSchema>;
