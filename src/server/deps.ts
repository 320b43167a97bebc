import type { Address } from '@solana/kit';
import type { EscrowKeys } from './chain/escrow-keys';
import type { ChainPort } from './chain/port';
import type { AppConfig } from './config';
import type { Database } from './db/client';
import type { Judging } from './judging-keys';
import type { StoragePort } from './storage/port';

/** The app's time: tests move it by hand, so features never read the system clock. */
export type Clock = () => Date;

/** Everything the app talks to, chosen by main.ts (or a test): the app itself never picks an adapter. */
export interface AppDeps {
  config: AppConfig;
  database: Database;
  chain: ChainPort;
  /** Derives escrow addresses and signers from the master seed; nothing else sees the seed. */
  escrowKeys: EscrowKeys;
  /**
   * Escrow program v1: it keeps the vaults made before v2, refunded by its rules (docs/program.md).
   * null where the chain never had a v1 vault: a new data folder, a cluster without
   * ESCROW_PROGRAM_ID (decision 081).
   */
  escrowProgramId: Address | null;
  /** Escrow program v2: every new vault (judges name winners, a guardian may veto, anyone executes). */
  escrowProgramV2Id: Address;
  /** The judges, guardian and payout window new vaults record. */
  judging: Judging;
  storage: StoragePort;
  clock: Clock;
}
