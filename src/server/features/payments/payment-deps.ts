/**
 * What the payments feature's parts work with: the deps the wiring passes (`PaymentsDeps`) and
 * what is built once from them (`Payments`), handed to each part's functions as their first argument.
 */
import type { Address } from '@solana/kit';
import { MAJOR_PRIZE_MAX_SOL_DEFAULT, STAKE_MAX_SOL } from '#contract/limits';
import { solToLamports } from '#contract/money';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import { type EscrowPrograms, programOfVersion } from '#server/chain/escrow-program/any-program';
import { createFeePayerFunds, type FeePayerFunds } from '#server/chain/fee-payer-funds';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { Judging } from '#server/judging-keys';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimit, RateLimiter } from '#server/rate-limit/port';
import { createOurVaults, type OurVaults } from './intents/our-vault';
import { type PlatformKeys, platformKeys } from './intents/vault-terms';
import type { RefusedVaults } from './jobs/refund-refused-vaults';
import type { EscrowWalletRow } from './repo/escrow-wallets';

export interface PaymentsDeps {
  db: Db;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /** Escrow program v1, which holds the vaults made before v2; null where the chain has none (decision 081). */
  escrowProgramId: Address | null;
  /** Escrow program v2: every new dare's vault. */
  escrowProgramV2Id: Address;
  /** The judges, guardian and payout window new vaults record. */
  judging: Judging;
  clock: Clock;
  limiter: RateLimiter;
  /** Cancels and refunds a vault the server refuses: the refunds feature (wired in routes.ts). */
  refusedVaults: RefusedVaults;
  /** The largest Major Dare prize (SOL), from MAJOR_PRIZE_MAX_SOL: an admin's stake may go this high. */
  majorPrizeMaxSol?: string;
  /**
   * Refuses a new Major Dare's prize while one is live (the major-dare feature, wired in
   * services.ts; declared here so payments does not depend on it). Absent: not checked.
   */
  requireNoLiveMajorDare?: (now: Date) => Promise<void>;
}

export interface Payments extends PaymentsDeps {
  majorPrizeMaxSol: string;
  stakeMax: bigint;
  prizeMax: bigint;
  platform: () => Promise<PlatformKeys>;
  feePayerFunds: FeePayerFunds;
  programs: EscrowPrograms;
  ourVaults: OurVaults;
  /** Counts one request against `rule` under `key` (429 with `message` past it). */
  limit: (key: string, rule: RateLimit, message: string) => Promise<void>;
}

/** The payments feature's parts' shared state, built once from its deps. */
export function paymentsOf(deps: PaymentsDeps): Payments {
  const majorPrizeMaxSol = deps.majorPrizeMaxSol ?? MAJOR_PRIZE_MAX_SOL_DEFAULT;
  const { db, chain, escrowKeys, escrowProgramId, escrowProgramV2Id, judging, clock, limiter } = deps;
  const programs: EscrowPrograms = { v1: escrowProgramId, v2: escrowProgramV2Id };
  return {
    ...deps,
    majorPrizeMaxSol,
    stakeMax: solToLamports(STAKE_MAX_SOL),
    prizeMax: solToLamports(majorPrizeMaxSol),
    platform: platformKeys(escrowKeys),
    feePayerFunds: createFeePayerFunds({ rpc: chain.rpc, escrowKeys }),
    programs,
    ourVaults: createOurVaults({ db, rpc: chain.rpc, programs, escrowKeys, judging, clock }),
    limit: (key, rule, message) => hitLimit(limiter, key, rule, message),
  };
}

/** The program an escrow's vault belongs to, as recorded when it was reserved. */
export const programOf = ({ programs }: Payments, escrow: Pick<EscrowWalletRow, 'programVersion'>) =>
  programOfVersion(programs, escrow.programVersion);
