/**
 * What the 'Refund me' parts work with: the deps the wiring passes (`RefundMeDeps`) and what is
 * built once from them (`RefundMe`), handed to each part's functions first.
 */
import type { Address } from '@solana/kit';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { createPreparedTransactions } from '#server/prepared-transactions/prepared';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimit, RateLimiter } from '#server/rate-limit/port';

/**
 * Books a refund the chain made outside the server's own refund job: the money-out features
 * notice the vault's payments sent by others and book each once (wired in services.ts).
 */
export interface RefundBooking {
  bookOutsideRefunds(target: { escrowWallet: string; dareId: number }): Promise<void>;
}

export interface RefundMeDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  /** Both escrow programs (v1 null where the chain has none): a vault is refunded under whichever owns it. */
  escrowProgramId: Address | null;
  escrowProgramV2Id: Address;
  limiter: RateLimiter;
  booking: RefundBooking;
  /** Where a booking that failed is reported; the refunds job books it later anyway. */
  onBookingFailed?: (error: unknown) => void;
}

export interface RefundMe extends RefundMeDeps {
  onBookingFailed: (error: unknown) => void;
  programs: { v1: Address | null; v2: Address };
  /** The refunds prepared for one payer, relayed only as prepared. */
  prepared: ReturnType<typeof createPreparedTransactions>;
  /** Counts one request against `rule` under `key` (429 past it). */
  limit: (key: string, rule: RateLimit) => Promise<void>;
}

/** The 'Refund me' parts' shared state, built once from its deps. */
export function refundMeOf(deps: RefundMeDeps): RefundMe {
  const { db, chain, clock, limiter } = deps;
  return {
    ...deps,
    onBookingFailed: deps.onBookingFailed ?? (() => {}),
    programs: { v1: deps.escrowProgramId, v2: deps.escrowProgramV2Id },
    prepared: createPreparedTransactions({ db, rpc: chain.rpc, clock }),
    limit: (key, rule) => hitLimit(limiter, key, rule, 'Too many refund requests; wait a minute'),
  };
}
