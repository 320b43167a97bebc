import type { Address } from '@solana/kit';
import type { EscrowKeys } from './chain/escrow-keys';
import type { ChainPort } from './chain/port';
import type { AppConfig } from './config';
import type { Database } from './db/client';
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
  /** The escrow program that holds every dare's SOL (docs/program.md). */
  escrowProgramId: Address;
  storage: StoragePort;
  clock: Clock;
}
