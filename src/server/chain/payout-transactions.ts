/**
 * Reading back what a landed escrow program transaction (settle, cancel, refunds, closes, sent
 * through server-signed.ts) did to a vault: whom the program paid and how much left the vault,
 * straight from the chain's record of it. The same reading books the server's own payouts
 * and refunds anyone else sent (a payer's 'Refund me', `npm run refund-dare`), so the ledger
 * follows the chain.
 */
import { type Address, getBase58Encoder, type Rpc, type Signature, type SolanaRpcApi } from '@solana/kit';
import { INSTRUCTION } from './escrow-program/instructions';
import { INSTRUCTION_V2 } from './escrow-program/v2/instructions';

/** What one landed transaction did to one vault. */
export interface VaultTransactionEffects {
  signature: string;
  /** The transaction failed on chain: nothing moved but its fee. */
  failed: boolean;
  /**
   * The instruction that pays the pot to the winners (v1's `settle`; v2's `execute` reads the same
   * way): its winners in the program's order (the 70% share first).
   */
  settle: { winners: Address[] } | null;
  cancelled: boolean;
  /** Every `refund` of a receipt of this vault, in the order the chain ran them: the payer each paid. */
  refunds: { receipt: Address; payer: Address }[];
  /** Receipts and entries closed without a payment (after a settle). */
  closedRecords: Address[];
  /**
   * Every `deposit` into this vault, in the order the chain ran them: the payer and the amount
   * the program added to its receipt (the instruction's own amount: the program adds exactly that
   * or fails the whole transaction). Read from the instruction, never from a balance change.
   */
  deposits: { payer: Address; amount: bigint }[];
  /**
   * Lamports the program paid out of the vault's pool in this transaction (to winners or payers;
   * never the rent, which goes back to the rent payer when the vault closes). Read from the vault
   * alone (decision 037): only the program can take lamports out of it, so this is what it held
   * above its rent before, less what it holds after, plus what System transfers put into it during
   * the transaction. No other wallet's balance is read: a transfer sent alongside to a payer or a
   * winner changes nothing here.
   */
  vaultOut: bigint;
}

interface RawInstruction {
  programIdIndex: number;
  accounts: readonly number[];
  data: string;
}

const base58 = getBase58Encoder();
const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;
/** The System program's `Transfer` (u32 2, then u64 lamports) and `TransferWithSeed` (u32 11). */
const SYSTEM_TRANSFER = 2;
const SYSTEM_TRANSFER_WITH_SEED = 11;

/** Lamports a System program instruction moves into `target`, if it is a transfer to it. */
function systemTransferInto(instruction: RawInstruction, keys: readonly Address[], target: Address): bigint {
  if (keys[instruction.programIdIndex] !== SYSTEM_PROGRAM) return 0n;
  const data = new Uint8Array(base58.encode(instruction.data));
  if (data.length < 12) return 0n;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const kind = view.getUint32(0, true);
  const destination =
    kind === SYSTEM_TRANSFER
      ? instruction.accounts[1]
      : kind === SYSTEM_TRANSFER_WITH_SEED
        ? instruction.accounts[2]
        : undefined;
  if (destination === undefined || keys[destination] !== target) return 0n;
  return view.getBigUint64(4, true);
}

/**
 * The instructions as the chain ran them: each top-level instruction, then the ones it invoked
 * (CPIs), so a program wrapped in a stranger's program counts too, in its place.
 */
function executionOrder(
  top: readonly RawInstruction[],
  inner: readonly { index: number; instructions: readonly RawInstruction[] }[],
): RawInstruction[] {
  const byIndex = new Map(inner.map((group) => [group.index, group.instructions]));
  return top.flatMap((instruction, index) => [instruction, ...(byIndex.get(index) ?? [])]);
}

/**
 * Reads a landed transaction (json encoding: raw account indexes and balances) and returns what it
 * did to `vault` of `programId`, or null when the node does not know it (yet). `vaultRent` is what
 * the vault keeps as rent (the rent-exempt minimum of its size, which the program records): the
 * part of its balance that is never the pool's.
 */
export async function readVaultTransaction(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  /** `programId`: the vault's program, or both (a vault's address belongs to one program only). */
  target: { programId: Address | readonly Address[]; vault: Address; vaultRent: bigint },
): Promise<VaultTransactionEffects | null> {
  const programs: readonly Address[] =
    typeof target.programId === 'string' ? [target.programId] : target.programId;
  const landed = await rpc
    .getTransaction(signature as Signature, {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    })
    .send();
  if (!landed?.meta) return null;
  const { meta } = landed;
  const keys: Address[] = [
    ...(landed.transaction.message.accountKeys as readonly Address[]),
    ...((meta.loadedAddresses?.writable ?? []) as readonly Address[]),
    ...((meta.loadedAddresses?.readonly ?? []) as readonly Address[]),
  ];
  const effects: VaultTransactionEffects = {
    signature,
    failed: meta.err !== null,
    settle: null,
    cancelled: false,
    refunds: [],
    closedRecords: [],
    deposits: [],
    vaultOut: 0n,
  };
  if (effects.failed) return effects;
  const instructions = executionOrder(
    landed.transaction.message.instructions as readonly RawInstruction[],
    (meta.innerInstructions ?? []) as readonly { index: number; instructions: readonly RawInstruction[] }[],
  );
  let sentIn = 0n;
  for (const instruction of instructions) {
    sentIn += systemTransferInto(instruction, keys, target.vault);
    if (!programs.includes(keys[instruction.programIdIndex]!)) continue;
    const accounts = instruction.accounts;
    const data = new Uint8Array(base58.encode(instruction.data));
    const tag = data[0];
    // deposit: [payer, rent payer, vault, receipt, System program]; data: tag, amount u64, bump.
    if (tag === INSTRUCTION.deposit && keys[accounts[2]!] === target.vault && data.length === 10) {
      const amount = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true);
      effects.deposits.push({ payer: keys[accounts[0]!]!, amount });
      continue;
    }
    if (keys[accounts[0]!] !== target.vault && keys[accounts[1]!] !== target.vault) continue;
    if (tag === INSTRUCTION.settle && keys[accounts[1]!] === target.vault) {
      const winnerIndexes = accounts.length >= 6 ? [accounts[2]!, accounts[4]!] : [accounts[2]!];
      effects.settle = { winners: winnerIndexes.map((index) => keys[index]!) };
    } else if (tag === INSTRUCTION_V2.execute && keys[accounts[0]!] === target.vault) {
      // Program v2 pays a proposal's winners with `execute` (anyone sends it), as v1's settle did.
      effects.settle = { winners: accounts.slice(1).map((index) => keys[index]!) };
    } else if (tag === INSTRUCTION.cancel && keys[accounts[1]!] === target.vault) {
      effects.cancelled = true;
    } else if (tag === INSTRUCTION.refund && keys[accounts[0]!] === target.vault) {
      effects.refunds.push({ receipt: keys[accounts[1]!]!, payer: keys[accounts[2]!]! });
    } else if (
      (tag === INSTRUCTION.closeReceipt || tag === INSTRUCTION.closeEntry) &&
      keys[accounts[0]!] === target.vault
    ) {
      effects.closedRecords.push(keys[accounts[1]!]!);
    }
  }
  const vaultIndex = keys.indexOf(target.vault);
  if (vaultIndex >= 0) {
    // A vault never holds less than its rent while it exists; below it, it was closed (emptied)
    // and what is left is plain lamports sent to the address afterwards.
    const held = (lamports: bigint) =>
      lamports >= target.vaultRent ? lamports - target.vaultRent : lamports;
    const before = held(BigInt(meta.preBalances[vaultIndex]!));
    const after = held(BigInt(meta.postBalances[vaultIndex]!));
    const out = before - after + sentIn;
    effects.vaultOut = out > 0n ? out : 0n;
  }
  return effects;
}

/**
 * The program's split of a major dare's pot (docs/program.md, settle): 30% to the second winner
 * rounded down, the rest (the odd lamport included) to the first.
 */
export function majorShares(pot: bigint): [bigint, bigint] {
  const second = (pot / 100n) * 30n + ((pot % 100n) * 30n) / 100n;
  return [pot - second, second];
}
