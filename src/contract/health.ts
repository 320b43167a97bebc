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
    /**
     * The platform fee payer (it pays payouts' fees and new vaults' and receipts' rent): `ok: false`
     * below FEE_PAYER_MIN_SOL (`minBalance`), with `message` saying what users are told. Like the
     * rate-limit store it is shared by every instance, so the status stays 'ok'. Lamports as
     * integer strings; `balance` absent when the chain did not answer.
     */
    feePayer: z.object({
      ok: z.boolean(),
      balance: z.string().optional(),
      minBalance: z.string(),
      message: z.string().optional(),
    }),
    /**
     * The guardian's wallet, the only key that can veto a proposed payout (docs/operations.md,
     * 'Keys'): it pays each veto's fee itself, so `ok: false` below the fees of
     * GUARDIAN_MIN_VETOES vetoes (`minBalance`). Shared by every instance: the status stays 'ok'.
     * Lamports as integer strings; `balance` absent when the chain did not answer.
     */
    guardian: z.object({
      ok: z.boolean(),
      address: z.string(),
      balance: z.string().optional(),
      minBalance: z.string(),
    }),
  })
  .meta({ id: 'Health' });

/** How many vetoes the guardian's wallet must be able to pay for to count as ready. */
export const GUARDIAN_MIN_VETOES = 10;

export type Health = z.infer<typeof healthSchema>;
