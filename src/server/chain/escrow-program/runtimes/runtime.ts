/**
 * `ProgramRuntime`: the few things a program test needs from a Solana runtime, so the same test
 * function runs a program on several runtimes and compares what they did. Not used by the server.
 *
 * - In: raw @solana/kit `Instruction`s (signers attached, as the client's builders make them) or
 *   a signed kit `Transaction`. Out: `RuntimeResult` — ok with compute units and logs, or the
 *   runtime's error as text (with the program's Custom code when there is one) and logs. A failed
 *   transaction never throws; only a runtime that cannot run at all does.
 * - State: `getAccount`, `getBalance`; `fund` credits lamports to an address out of thin air (a
 *   faucet: LiteSVM's airdrop, bankrun's account override), so no test fee is charged for it.
 * - Time: `now` / `setTime` read and set the Clock sysvar's unix timestamp; `nextSlot` moves one
 *   slot on (a program deployed in slot N runs from slot N+1), keeping the time.
 * - `deployPrograms` puts programs on the runtime through the real upgradeable loader
 *   (buffer, writes, DeployWithMaxDataLen: the loader's ELF checks and verifier run), on every
 *   implementation, then moves on one slot. On bankrun that can happen once per runtime: deploy
 *   every program a test calls together, first.
 * - Identical transactions: LiteSVM gets a new blockhash for each; bankrun keeps one blockhash (it
 *   cannot move on slots), so it refuses a transaction identical to an earlier one as already
 *   processed: vary such a transaction (an amount, a fee payer).
 *
 * Fees: every implementation charges the fee payer 5,000 lamports a signature and the rent is
 * 6,960 lamports a byte-year (threshold included), so lamport results compare one to one.
 *
 * Implementations: `litesvm.ts` (LiteSVM 1.5, what the embedded chain runs) and `bankrun.ts`
 * (solana-bankrun: solana-program-test's BanksServer, Agave 1.18; a devDependency with no
 * linux-arm64 binary, so it is loaded on demand and may be unavailable: `loadBankrun`). The test
 * support adds the embedded chain behind its JSON-RPC (test/support/chain/embedded-runtime.ts).
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Transaction,
  type TransactionSigner,
} from '@solana/kit';
import { type DeployTarget, deployProgram } from '#server/chain/escrow-program/deploy';

export type RuntimeResult =
  | { ok: true; computeUnits: bigint; logs: string[] }
  | { ok: false; error: string; code: number | null; logs: string[] };

export interface RuntimeAccount {
  lamports: bigint;
  owner: Address;
  executable: boolean;
  data: Uint8Array;
}

export interface ProgramRuntime {
  /** 'litesvm' or 'bankrun': shown in test names and in a comparison's mismatch. */
  readonly name: string;
  /** A funded key that pays fees when a transaction names no other fee payer. */
  readonly payer: KeyPairSigner;
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
  sendTransaction(transaction: Transaction): Promise<RuntimeResult>;
  getAccount(address: Address): Promise<RuntimeAccount | null>;
  /** 0 for an address that holds nothing. */
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

/** One transaction of `instructions` on the runtime's latest blockhash, signed by their signers and `feePayer`. */
export async function signInstructions(
  runtime: ProgramRuntime,
  instructions: Instruction[],
  feePayer: TransactionSigner = runtime.payer,
): Promise<Transaction> {
  const lifetime = await blockhashLifetime(runtime);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return signTransactionMessageWithSigners(message);
}

/** One transaction of `instructions`, signed by their signers and `feePayer` (default: the runtime's). */
export async function sendInstructions(
  runtime: ProgramRuntime,
  instructions: Instruction[],
  feePayer: TransactionSigner = runtime.payer,
): Promise<RuntimeResult> {
  return runtime.sendTransaction(await signInstructions(runtime, instructions, feePayer));
}

/** The runtime as `deployProgram` reaches a chain (moving on a slot is left to `deploy`). */
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
 * Deploys each program through the upgradeable loader, `runtime.payer` paying and keeping the
 * upgrade authority (`program`, default a new key, becomes the program id), then moves on one
 * slot so they can run. Deploy every program a test invokes in one call, before invoking any:
 * bankrun cannot move on a slot twice (see `nextSlot` in bankrun.ts). `invoked: false` deploys a
 * program nobody will call (only an executable account is needed) without moving on a slot.
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
