import { z } from 'zod';

/** A year at most: enough to pass any deadline or window, small enough to stay a sane slot count. */
export const WARP_MAX_SECONDS = 366 * 24 * 3600;

/** POST /api/dev/warp: only when the server runs with EMBEDDED_CHAIN_TEST_CONTROLS=1 (tests). */
export const warpRequestSchema = z
  .object({ seconds: z.number().int().positive().max(WARP_MAX_SECONDS) })
  .meta({ id: 'WarpRequest' });
export type WarpRequest = z.infer<typeof warpRequestSchema>;

export const warpResponseSchema = z
  .object({
    /** The chain's slot and Clock sysvar time (unix seconds) after the move, as decimal strings. */
    slot: z.string(),
    unixTimestamp: z.string(),
  })
  .meta({ id: 'WarpResponse' });
