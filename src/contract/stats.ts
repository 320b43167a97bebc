import { z } from 'zod';
import { solAmountSchema } from './users';

/** GET /api/stats, computed from the database (definitions in docs/decisions/007). */
export const statsSchema = z
  .object({
    /** Community dares (major dares excluded). */
    totalDares: z.number().int(),
    /** Of those, active and before their deadline. */
    activeDares: z.number().int(),
    /** SOL in every dare's pool, major dares included: what is at stake on the platform. */
    totalRewards: solAmountSchema,
    /** Registered users. */
    daredevils: z.number().int(),
    /** Distinct users with at least one submission. */
    totalParticipants: z.number().int(),
  })
  .meta({ id: 'Stats' });
export type Stats = z.infer<typeof statsSchema>;

/**
 * GET /api/stats?major=: without it, the Home strip's numbers above. (Addition) `major=false`
 * counts community dares only in every number, as Community Dares' list shows them;
 * `major=true` counts major dares only. `daredevils` is every user either way.
 */
export const statsQuerySchema = z.object({
  major: z
    .enum(['true', 'false'], { error: 'major must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
});
export type StatsQuery = z.infer<typeof statsQuerySchema>;
