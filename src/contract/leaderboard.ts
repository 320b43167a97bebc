import { z } from 'zod';
import { solAmountSchema } from './users';

/** One user on the leaderboard (docs/product.md#derived-shapes). */
export const leaderboardEntrySchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    dareWins: z.number().int(),
    totalEarnings: solAmountSchema,
    walletAddress: z.string().nullable(),
    reputation: z.number().int(),
  })
  .meta({ id: 'LeaderboardEntry' });

/**
 * GET /api/leaderboard. Each category is computed for its own measure: most wins (dareWins),
 * highest earner (totalEarnings), most active (submissions + votes + pool contributions).
 * Ties go to the earlier account. A category is null when nobody scores above zero.
 */
export const leaderboardSchema = z
  .object({
    /** The top 10 by totalEarnings (then wins, then the earlier account). */
    topEarners: z.array(leaderboardEntrySchema),
    stats: z.object({
      totalUsers: z.number().int(),
      /** Sum of every user's totalEarnings, SOL. */
      totalWinnings: solAmountSchema,
      totalWins: z.number().int(),
    }),
    categories: z.object({
      mostWins: leaderboardEntrySchema.nullable(),
      highestEarner: leaderboardEntrySchema.nullable(),
      mostActive: leaderboardEntrySchema.extend({ activityCount: z.number().int() }).nullable(),
    }),
  })
  .meta({ id: 'Leaderboard' });

export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;
export type Leaderboard = z.infer<typeof leaderboardSchema>;
