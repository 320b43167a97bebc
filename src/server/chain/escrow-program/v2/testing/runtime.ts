/**
 * The little a program test needs from a Solana runtime, so the same happy paths and freezing case
 * run on LiteSVM and on a second runtime (solana-bankrun, solana-program-test's BanksServer).
 * Both charge 5,000 lamports a signature, which EscrowV2Chain counts as fees.
 */
import type { Address, Blockhash, KeyPairSigner, Transaction } from '@solana/kit';

export interface RuntimeAccount {
  lamports: bigint;
  owner: Address;
  data: Uint8Array;
  executable: boolean;
}

export type RuntimeSendResult =
  | { ok: true; computeUnits: bigint; logs: string[] }
  /** `code`: the Custom(n) of the failed instruction, null for any other failure. */
  | { ok: false; code: number | null; error: string; logs: string[] };

export interface ProgramRuntime {
  /** For test names and messages: 'LiteSVM', 'bankrun'. */
  readonly name: string;
  /** Deploys `bytes` through the upgradeable loader at `program`'s address; `payer` pays and is its authority. */
  deploy(input: { bytes: Uint8Array; program: KeyPairSigner; payer: KeyPairSigner }): Promise<Address>;
  airdrop(address: Address, lamports: bigint): Promise<void>;
  /** A blockhash no earlier transaction used, so identical transactions stay distinct. */
  latestBlockhash(): Promise<{ blockhash: Blockhash; lastValidBlockHeight: bigint }>;
  send(transaction: Transaction): Promise<RuntimeSendResult>;
  /** null when the address holds nothing. */
  getAccount(address: Address): Promise<RuntimeAccount | null>;
  /** The Clock sysvar's unix_timestamp, and setting it (the slot may move too). */
  now(): Promise<bigint>;
  setTime(unixTimestamp: bigint): Promise<void>;
}
