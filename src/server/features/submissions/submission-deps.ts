/**
 * What the submissions feature's parts work with: the deps the wiring passes (`SubmissionsDeps`)
 * and what is built once from them (`Submissions`), handed to each part's functions first.
 */
import type { Address } from '@solana/kit';
import type { DareOutcome } from '#contract/submissions';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { Judging } from '#server/judging-keys';
import type { RateLimiter } from '#server/rate-limit/port';
import type { StoragePort } from '#server/storage/port';
import { createEntries } from './entries';
import { createProofChecks } from './proof-checks';

/** Where a viewer plays a submission's video (the videos feature signs the links). */
export interface VideoSources {
  sourceFor(submission: { id: number; status: string; videoUrl: string }): string | null;
}

export interface SubmissionsDeps {
  db: Db;
  clock: Clock;
  storage: StoragePort;
  videoAccess: VideoSources;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /** Escrow v1's program id; null where the chain has no v1 vault (decision 081). */
  escrowProgramId: Address | null;
  /** Escrow v2's program id: entries refuse a vault owned by any third program (decision 038). */
  escrowProgramV2Id: Address;
  /** The judging configuration: the terms of vaults made before they were recorded (decision 048). */
  judging: Judging;
  limiter: RateLimiter;
  /** Told when a pending upload becomes a submission's video (the storage quota counts it). */
  onUploadAttached?: (bytes: number) => void;
  /**
   * The outcome's `proposal` and `judging` of a v2 vault (the judging feature; declared here so
   * this feature does not depend on it). Absent: both null.
   */
  judgingOutcome?: (dareId: number) => Promise<Pick<DareOutcome, 'proposal' | 'judging'>>;
}

export interface Submissions extends SubmissionsDeps {
  /** Entering a dare on chain (entries.ts). */
  entries: ReturnType<typeof createEntries>;
  /** Re-hashing stored videos against their fingerprints (approval, the clean-up job). */
  proofChecks: ReturnType<typeof createProofChecks>;
}

/** The submissions feature's parts' shared state, built once from its deps. */
export function submissionsOf(deps: SubmissionsDeps): Submissions {
  const { db, storage, clock } = deps;
  return { ...deps, entries: createEntries(deps), proofChecks: createProofChecks({ db, storage, clock }) };
}
