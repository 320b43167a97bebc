/**
 * What every transaction DarePool builds asks of a busy cluster (docs/decisions/068-priority-fees-and-rebroadcast.md):
 * a compute-unit limit from the escrow program's measured CU table (no simulation round trip on
 * the money path) and a compute-unit price from `getRecentPrioritizationFees` over the
 * transaction's writable accounts, a percentile of the recent answers capped by
 * PRIORITY_FEE_MAX_MICROLAMPORTS, each answer kept for a moment so a burst asks once.
 */

import {
  AccountRole,
  type Address,
  type GetRecentPrioritizationFeesApi,
  type Instruction,
  type Rpc,
} from '@solana/kit';
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  getSetComputeUnitLimitInstruction,
  getSetComputeUnitPriceInstruction,
} from '@solana-program/compute-budget';
import { MEMO_PROGRAM } from './memo';

/** Solana's base fee per signature. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;
const MICRO_LAMPORTS_PER_LAMPORT = 1_000_000n;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/**
 * The escrow programs' worst measured compute units per instruction tag, v1 and v2 alike (they
 * share tags; docs/program.md, `npm run bench -- program`: five judges, a pre-funded vault address).
 */
export const ESCROW_COMPUTE_UNITS: Readonly<Record<number, number>> = {
  0: 9_283, // create_vault (at a pre-funded address)
  1: 4_087, // deposit creating the receipt
  2: 2_864, // enter
  3: 653, // settle (v1, major)
  4: 174, // cancel
  5: 472, // refund (the last one, closing the vault)
  6: 370, // close_entry (closing the vault)
  7: 341, // close_receipt
  8: 1_201, // propose (major, five judges)
  9: 337, // veto
  10: 439, // execute (major)
};
/** A builtin instruction (system transfer, nonce advance, compute budget) costs 150 units. */
const BUILTIN_UNITS = 150;
/** What agave reserves for an instruction of a program we have not measured. */
const UNKNOWN_PROGRAM_UNITS = 200_000;
const MAX_COMPUTE_UNITS = 1_400_000;
/** The margin over the table: PDA bump searches and account sizes vary a little per call. */
const MARGIN_RATIO = 1.3;
const MARGIN_UNITS = 1_000;

function instructionUnits(instruction: Instruction): number {
  const program = instruction.programAddress as string;
  if (program === SYSTEM_PROGRAM || program === COMPUTE_BUDGET_PROGRAM_ADDRESS) return BUILTIN_UNITS;
  // SPL Memo: about 600 units for our short texts (measured on LiteSVM), more for long ones.
  if (program === MEMO_PROGRAM) return 1_000 + 2 * (instruction.data?.length ?? 0);
  const tag = instruction.data?.[0];
  return (tag === undefined ? undefined : ESCROW_COMPUTE_UNITS[tag]) ?? UNKNOWN_PROGRAM_UNITS;
}

/** The limit a transaction of these instructions (compute-budget ones added) asks for. */
export function computeUnitLimit(instructions: readonly Instruction[]): number {
  const measured = instructions.reduce((sum, instruction) => sum + instructionUnits(instruction), 0);
  const units = Math.ceil(((measured + 2 * BUILTIN_UNITS) * MARGIN_RATIO + MARGIN_UNITS) / 100) * 100;
  return Math.min(units, MAX_COMPUTE_UNITS);
}

/** The priority fee in lamports a price and limit cost (agave rounds up). */
export function priorityFeeLamports(microLamports: bigint, units: number): bigint {
  return (microLamports * BigInt(units) + MICRO_LAMPORTS_PER_LAMPORT - 1n) / MICRO_LAMPORTS_PER_LAMPORT;
}

/** The two compute-budget instructions, first in the transaction as wallets and explorers expect. */
export function computeBudgetInstructions(
  instructions: readonly Instruction[],
  microLamports: bigint,
): Instruction[] {
  return [
    getSetComputeUnitLimitInstruction({ units: computeUnitLimit(instructions) }),
    getSetComputeUnitPriceInstruction({ microLamports }),
  ];
}

/** The accounts a transaction locks for writing: what a local fee market prices. */
export function writableAccounts(feePayer: Address, instructions: readonly Instruction[]): Address[] {
  const writable = new Set<Address>([feePayer]);
  for (const instruction of instructions)
    for (const account of instruction.accounts ?? [])
      if (account.role === AccountRole.WRITABLE || account.role === AccountRole.WRITABLE_SIGNER)
        writable.add(account.address);
  return [...writable];
}

export interface PriorityFeePolicy {
  /** Which percentile of the recent slots' fees to pay (0 to 100). */
  percentile: number;
  /** PRIORITY_FEE_MAX_MICROLAMPORTS: never more per compute unit. */
  maxMicroLamports: bigint;
  /** How long one answer is reused for the same accounts. */
  cacheMs: number;
}

export const DEFAULT_PRIORITY_FEE_POLICY: PriorityFeePolicy = {
  percentile: 75,
  maxMicroLamports: 1_000_000n,
  cacheMs: 1_500,
};

export interface PriorityFees {
  readonly policy: PriorityFeePolicy;
  /** The compute-unit price (micro-lamports) for a transaction locking these accounts. */
  microLamportsFor(writable: readonly Address[]): Promise<bigint>;
  /** The most a transaction of `units` can pay as priority fee under the cap, in lamports. */
  maxPriorityFeeLamports(units: number): bigint;
}

/** `percentile` of the fees (nearest rank); 0 when there are none. */
export function percentileFee(fees: readonly bigint[], percentile: number): bigint {
  if (fees.length === 0) return 0n;
  const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.max(1, Math.ceil((percentile / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

// A burst of new vaults asks with new account sets; expired answers go before the map grows past this.
const MAX_CACHED_ANSWERS = 1_000;
// getRecentPrioritizationFees takes at most 128 accounts.
const MAX_FEE_ACCOUNTS = 128;

export function createPriorityFees(
  rpc: Rpc<GetRecentPrioritizationFeesApi>,
  policy: PriorityFeePolicy = DEFAULT_PRIORITY_FEE_POLICY,
  now: () => number = Date.now,
): PriorityFees {
  const answers = new Map<string, { expires: number; price: Promise<bigint> }>();
  let lastKnown = 0n;
  const ask = async (accounts: readonly Address[]): Promise<bigint> => {
    try {
      const slots = await rpc.getRecentPrioritizationFees(accounts.slice(0, MAX_FEE_ACCOUNTS)).send();
      const price = percentileFee(
        slots.map((slot) => BigInt(slot.prioritizationFee)),
        policy.percentile,
      );
      // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min does not take
      lastKnown = price < policy.maxMicroLamports ? price : policy.maxMicroLamports;
      return lastKnown;
    } catch {
      // A node that cannot say now does not stop a payment: the last price it named stands.
      return lastKnown;
    }
  };
  return {
    policy,
    microLamportsFor(writable) {
      if (policy.maxMicroLamports === 0n) return Promise.resolve(0n);
      const key = [...writable].sort().join(',');
      const at = now();
      const cached = answers.get(key);
      if (cached && cached.expires > at) return cached.price;
      if (answers.size >= MAX_CACHED_ANSWERS)
        for (const [k, answer] of answers) if (answer.expires <= at) answers.delete(k);
      if (answers.size >= MAX_CACHED_ANSWERS) answers.clear();
      const price = ask(writable);
      answers.set(key, { expires: at + policy.cacheMs, price });
      return price;
    },
    maxPriorityFeeLamports(units) {
      return priorityFeeLamports(policy.maxMicroLamports, units);
    },
  };
}

/**
 * What a wallet transaction of one escrow instruction (`tag`) and a reference memo costs its one
 * signer now: the base fee and the priority fee at the price of the moment (no accounts named:
 * the cluster's own price; the transaction built later asks for its accounts' within the cap).
 * What the fees shown before signing and the balance checks count.
 */
export async function walletTransactionFee(
  rpc: Rpc<GetRecentPrioritizationFeesApi>,
  tag: number,
): Promise<bigint> {
  const units = computeUnitLimit([
    { programAddress: ESCROW_PLACEHOLDER, data: Uint8Array.of(tag) },
    { programAddress: MEMO_PROGRAM, data: new Uint8Array(REFERENCE_MEMO_BYTES) },
  ]);
  return LAMPORTS_PER_SIGNATURE + priorityFeeLamports(await priorityFeesOf(rpc).microLamportsFor([]), units);
}
// Any address that is not a builtin's: the CU table is keyed by the instruction's tag.
const ESCROW_PLACEHOLDER = 'Escrow1111111111111111111111111111111111111' as Address;
// A payment's memo carries its intent's reference (a base58 address).
const REFERENCE_MEMO_BYTES = 44;

const byRpc = new WeakMap<object, PriorityFees>();

/**
 * The priority fees of transactions built against `rpc`: the ones the app configured for its chain
 * (`configurePriorityFees`), else the default policy's, so a script or test building through the same
 * functions gets a price too.
 */
export function priorityFeesOf(rpc: Rpc<GetRecentPrioritizationFeesApi>): PriorityFees {
  let fees = byRpc.get(rpc);
  if (!fees) {
    fees = createPriorityFees(rpc);
    byRpc.set(rpc, fees);
  }
  return fees;
}

/** Sets the policy for every transaction built against `rpc` (called once, where the chain is made). */
export function configurePriorityFees(
  rpc: Rpc<GetRecentPrioritizationFeesApi>,
  policy: PriorityFeePolicy,
): PriorityFees {
  const fees = createPriorityFees(rpc, policy);
  byRpc.set(rpc, fees);
  return fees;
}
