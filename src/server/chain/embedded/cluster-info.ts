import { getBase64Encoder, type Transaction } from '@solana/kit';
import { decodeMessage, type LegacyOrV0Message } from './embedded-ledger';
import { invalidParams, JsonRpcError } from './json-rpc';

export { epochOf } from './epochs';

const LAMPORTS_PER_SIGNATURE = 5_000n;
const MICRO_LAMPORTS_PER_LAMPORT = 1_000_000n;
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
// agave: without SetComputeUnitLimit, each builtin instruction reserves 3,000 units and any
// other 200,000, capped at 1.4 million (what LiteSVM charges priority fees on, measured).
const BUILTIN_INSTRUCTION_UNITS = 3_000n;
const DEFAULT_INSTRUCTION_UNITS = 200_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;
const BUILTIN_PROGRAMS = new Set([
  '11111111111111111111111111111111',
  COMPUTE_BUDGET_PROGRAM,
  'Vote111111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);
// Precompiles verify signatures counted in their data's first byte; each costs a signature fee.
const PRECOMPILES = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
]);

export function decodeBase64Message(encoded: string): LegacyOrV0Message {
  try {
    const bytes = new Uint8Array(getBase64Encoder().encode(encoded));
    return decodeMessage(bytes as unknown as Transaction['messageBytes']);
  } catch (error) {
    if (error instanceof JsonRpcError) throw error;
    throw invalidParams('invalid base64 encoded message');
  }
}

/** The compute-unit price (micro-lamports) and limit a message asks for, agave's way. */
function computeBudget(message: LegacyOrV0Message): { price: bigint; limit: bigint } {
  let price = 0n;
  let explicitLimit: bigint | null = null;
  let defaultLimit = 0n;
  for (const instruction of message.instructions) {
    const program = String(message.staticAccounts[instruction.programAddressIndex]);
    const data = instruction.data ?? new Uint8Array();
    if (program === COMPUTE_BUDGET_PROGRAM) {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      if (data[0] === 2 && data.length >= 5) explicitLimit = BigInt(view.getUint32(1, true));
      if (data[0] === 3 && data.length >= 9) price = view.getBigUint64(1, true);
    }
    defaultLimit += BUILTIN_PROGRAMS.has(program) ? BUILTIN_INSTRUCTION_UNITS : DEFAULT_INSTRUCTION_UNITS;
  }
  const limit = explicitLimit ?? defaultLimit;
  return { price, limit: limit < MAX_COMPUTE_UNITS ? limit : MAX_COMPUTE_UNITS };
}

export function computeUnitPrice(message: LegacyOrV0Message): bigint {
  return computeBudget(message).price;
}

/** getFeeForMessage: signatures (precompiles' included) plus the priority fee, rounded up. */
export function feeForMessage(message: LegacyOrV0Message): bigint {
  let signatures = BigInt(message.header.numSignerAccounts);
  for (const instruction of message.instructions) {
    const program = String(message.staticAccounts[instruction.programAddressIndex]);
    if (PRECOMPILES.has(program)) signatures += BigInt(instruction.data?.[0] ?? 0);
  }
  const { price, limit } = computeBudget(message);
  const priorityFee = (price * limit + MICRO_LAMPORTS_PER_LAMPORT - 1n) / MICRO_LAMPORTS_PER_LAMPORT;
  return signatures * LAMPORTS_PER_SIGNATURE + priorityFee;
}
