import { z } from 'zod';

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.object({
      ok: z.boolean(),
      kind: z.enum(['pglite', 'postgres']),
      error: z.string().optional(),
    }),
    chain: z.object({
      ok: z.boolean(),
      cluster: z.string(),
      embedded: z.boolean(),
      slot: z.string().optional(),
      error: z.string().optional(),
    }),
    /** Where rate limits are counted; `ok: false` while Redis does not answer (the status stays 'ok'). */
    rateLimits: z.object({ store: z.enum(['memory', 'redis']), ok: z.boolean() }),
  })
  .meta({ id: 'Health' });

export type Health = z.infer<typeof healthSchema>;
