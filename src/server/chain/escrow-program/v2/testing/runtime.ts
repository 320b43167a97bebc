/**
 * `ProgramRuntime`: the little a program test needs from a Solana runtime, so the same happy paths
 * and freezing case run on LiteSVM and on a second runtime (solana-bankrun, solana-program-test's
 * BanksServer). Same shape as the interface written alongside for bankrun
 * (`escrow-program/runtimes/runtime.ts`), so either can serve the other's tests.
 *
 * - A failed transaction never throws: `RuntimeResult` carries the error, the Custom code and logs.
 * - `fund` credits lamports out of thin air (no fee); `now` / `setTime` read and set the Clock's
 *   unix timestamp; `nextSlot` moves on one slot (a program deployed in slot N runs from N+1).
 * - Fees are 5,000 lamports a signature and rent 6,960 lamports a byte-year on every
 *   implementation, so lamport results compare one to one.
 */
import {
  type Address,
  type Blockhash,
  generateKeyPairSigner,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { type DeployTarget, deployProgram } from '../../deploy';

export type RuntimeResult =
  | { ok: true; computeUnits: bigint; logs: string[] }
  /** `code`: the Custom(n) of the failed instruction, null for any other failure. */
  | { ok: false; error: string; code: number | null; logs: string[] };

export interface RuntimeAccount {
  lamports: bigint;
  owner: Address;
  executable: boolean;
  data: Uint8Array;
}

export interface ProgramRuntime {
  /** Shown in test names: 'litesvm', 'bankrun'. */
  readonly name: string;
  /** A funded key; it pays for and holds the upgrade authority of deployed programs. */
  readonly payer: KeyPairSigner;
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
  sendTransaction(transaction: Transaction): Promise<RuntimeResult>;
  /** null when the address holds nothing. */
  getAccount(address: Address): Promise<RuntimeAccount | null>;
  getBalance(address: Address): Promise<bigint>;
  minimumBalanceForRentExemption(size: number): Promise<bigint>;
  fund(address: Address, lamports: bigint): Promise<void>;
  now(): Promise<bigint>;
  setTime(unixTimestamp: bigint): Promise<void>;
  nextSlot(): Promise<void>;
  close(): Promise<void>;
}

/** A runtime's latest blockhash as kit's transaction lifetime. */
export async function blockhashLifetime(
  runtime: ProgramRuntime,
): Promise<{ blockhash: Blockhash; lastValidBlockHeight: bigint }> {
  const { blockhash, lastValidBlockHeight } = await runtime.latestBlockhash();
  return { blockhash: blockhash as Blockhash, lastValidBlockHeight };
}

/** The runtime as `deployProgram` reaches a chain. */
export function runtimeDeployTarget(runtime: ProgramRuntime): DeployTarget {
  return {
    latestBlockhash: () => runtime.latestBlockhash(),
    minimumBalanceForRentExemption: (size) => runtime.minimumBalanceForRentExemption(size),
    async send(transaction) {
      const result = await runtime.sendTransaction(transaction);
      if (!result.ok) throw new Error(`${runtime.name}: ${result.error}\n${result.logs.join('\n')}`);
    },
  };
}

/**
 * Deploys each program through the upgradeable loader (`runtime.payer` pays and keeps the upgrade
 * authority; `program`, default a new key, becomes the program id), then moves on one slot so they
 * can run. `invoked: false` deploys a program nobody will call (only an executable account is
 * needed) without moving on a slot, which bankrun can do only once.
 */
export async function deployPrograms(
  runtime: ProgramRuntime,
  programs: readonly { bytes: Uint8Array; program?: KeyPairSigner }[],
  options: { invoked?: boolean } = {},
): Promise<Address[]> {
  const target = runtimeDeployTarget(runtime);
  const ids: Address[] = [];
  for (const { bytes, program } of programs) {
    const deployed = await deployProgram({
      target,
      payer: runtime.payer,
      program: program ?? (await generateKeyPairSigner()),
      bytes,
    });
    ids.push(deployed.programId);
  }
  if (options.invoked !== false) await runtime.nextSlot();
  return ids;
}
