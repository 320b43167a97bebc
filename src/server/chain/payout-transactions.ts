/**
 * Sending the escrow program transactions the server signed (settle, cancel, refunds, closes),
 * and reading back what a landed one did to a vault: whom it paid and how much, straight from the
 * chain's record of it. The same reading books the server's own payouts and refunds anyone else
 * sent (a payer's 'Refund me', `npm run refund-dare`), so the ledger follows the chain.
 */
import {
  type Address,
  type Base64EncodedWireTransaction,
  getBase58Encoder,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { INSTRUCTION } from './escrow-program/instructions';
import { INSTRUCTION_V2 } from './escrow-program/v2/instructions';

/**
 * Sends signed bytes with preflight: the node simulates first, so a transaction that would fail
 * (a vault already settled, an empty fee payer) is refused without costing anything.
 */
export async function sendSignedTransaction(
  rpc: Rpc<SolanaRpcApi>,
  wire: Base64EncodedWireTransaction,
): Promise<Signature> {
  return rpc.sendTransaction(wire, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
}

/** What one landed transaction did to one vault. */
export interface VaultTransactionEffects {
  signature: string;
  /** The transaction failed on chain: nothing moved but its fee. */
  failed: boolean;
  /** v1's `settle` (the moderator's) or v2's `execute` (anyone's): the winners in share order (70% first). */
  settle: { winners: Address[] } | null;
  cancelled: boolean;
  /** Every `refund` of a receipt of this vault: the payer it paid. */
  refunds: { receipt: Address; payer: Address }[];
  /** Receipts and entries closed without a payment (after a settle). */
  closedRecords: Address[];
  /**
   * Lamports each paid wallet (winner or refunded payer) received from the vault: its balance
   * change, with the fee it paid as fee payer added back and the rent of records it got back as
   * their rent payer taken out.
   */
  paid: Map<Address, bigint>;
}

interface RawInstruction {
  programIdIndex: number;
  accounts: readonly number[];
  data: string;
}

const base58 = getBase58Encoder();

/**
 * Reads a landed transaction (json encoding: raw account indexes and balances) and returns what it
 * did to `vault` of `programId`, or null when the node does not know it (yet). Instructions the
 * program ran as a CPI of another program count too: a stranger may wrap a refund in their own.
 */
export async function readVaultTransaction(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
  /** `programId`: the vault's program, or both (a vault's address belongs to one program only). */
  target: { programId: Address | readonly Address[]; vault: Address },
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
    paid: new Map(),
  };
  if (effects.failed) return effects;
  const instructions: RawInstruction[] = [
    ...(landed.transaction.message.instructions as readonly RawInstruction[]),
    ...(meta.innerInstructions ?? []).flatMap((group) => group.instructions as readonly RawInstruction[]),
  ];
  const balanceChange = (index: number) =>
    BigInt(meta.postBalances[index]!) - BigInt(meta.preBalances[index]!);
  /** Rent of records closed in this transaction, by the wallet it went back to. */
  const rentBack = new Map<Address, bigint>();
  const closed = (recordIndex: number, rentPayerIndex: number) => {
    const rentPayer = keys[rentPayerIndex]!;
    rentBack.set(rentPayer, (rentBack.get(rentPayer) ?? 0n) + BigInt(meta.preBalances[recordIndex]!));
  };
  const paidIndexes = new Set<number>();
  for (const instruction of instructions) {
    if (!programs.includes(keys[instruction.programIdIndex]!)) continue;
    const accounts = instruction.accounts;
    if (keys[accounts[0]!] !== target.vault && keys[accounts[1]!] !== target.vault) continue;
    const tag = new Uint8Array(base58.encode(instruction.data))[0];
    if (tag === INSTRUCTION.settle && keys[accounts[1]!] === target.vault) {
      const winnerIndexes = accounts.length >= 6 ? [accounts[2]!, accounts[4]!] : [accounts[2]!];
      effects.settle = { winners: winnerIndexes.map((index) => keys[index]!) };
      for (const index of winnerIndexes) paidIndexes.add(index);
    } else if (tag === INSTRUCTION_V2.execute && keys[accounts[0]!] === target.vault) {
      // Program v2 pays a proposal's winners with `execute` (anyone sends it), as v1's settle did.
      const winnerIndexes = accounts.slice(1);
      effects.settle = { winners: winnerIndexes.map((index) => keys[index]!) };
      for (const index of winnerIndexes) paidIndexes.add(index);
    } else if (tag === INSTRUCTION.cancel && keys[accounts[1]!] === target.vault) {
      effects.cancelled = true;
    } else if (tag === INSTRUCTION.refund && keys[accounts[0]!] === target.vault) {
      effects.refunds.push({ receipt: keys[accounts[1]!]!, payer: keys[accounts[2]!]! });
      paidIndexes.add(accounts[2]!);
      closed(accounts[1]!, accounts[3]!);
    } else if (
      (tag === INSTRUCTION.closeReceipt || tag === INSTRUCTION.closeEntry) &&
      keys[accounts[0]!] === target.vault
    ) {
      effects.closedRecords.push(keys[accounts[1]!]!);
      closed(accounts[1]!, accounts[2]!);
    }
  }
  for (const index of paidIndexes) {
    const wallet = keys[index]!;
    if (effects.paid.has(wallet)) continue;
    const fee = index === 0 ? BigInt(meta.fee) : 0n;
    effects.paid.set(wallet, balanceChange(index) + fee - (rentBack.get(wallet) ?? 0n));
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
