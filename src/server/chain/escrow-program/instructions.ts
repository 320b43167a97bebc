/**
 * The escrow instructions that end a vault, the same in both program versions (v2 keeps v1's
 * tags, accounts and data for them: docs/program.md): v1's `cancel`, and `refund`, `close_entry`
 * and `close_receipt`, which only `programId` tells apart. What makes, funds, enters or settles a
 * v1 vault is no longer built by the app (decision 050): test/support/chain/v1-vaults.ts has it for tests.
 * Accounts in the order program/src/darepool_escrow.c reads them; data from codec.ts.
 */
import type { Address, Instruction, TransactionSigner } from '@solana/kit';
import { signer, tagOnly, writable } from './codec';
import { findEntryAddress, findReceiptAddress } from './pda';

/** v1's instruction tags (the first data byte), as the explorer reads old transactions by. */
export const INSTRUCTION = {
  createVault: 0,
  deposit: 1,
  enter: 2,
  settle: 3,
  cancel: 4,
  refund: 5,
  closeEntry: 6,
  closeReceipt: 7,
} as const;

/** v1's cancel: the moderator signs. */
export function getCancelInstruction(input: {
  programId: Address;
  vault: Address;
  moderator: TransactionSigner;
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [signer(input.moderator, false), writable(input.vault)],
    data: tagOnly(INSTRUCTION.cancel),
  };
}

interface ReceiptClose {
  programId: Address;
  vault: Address;
  payer: Address;
  receiptRentPayer: Address;
  vaultRentPayer: Address;
  /** The receipt's address as found on chain (see getRefundInstruction); derived when absent. */
  receipt?: Address;
}

/** refund and close_receipt: the vault, the receipt, (refund: the payer,) the two rent payers. */
async function receiptClose(input: ReceiptClose, tag: number, paid: Address[]): Promise<Instruction> {
  const receipt =
    input.receipt ?? (await findReceiptAddress(input.programId, input.vault, input.payer)).address;
  return {
    programAddress: input.programId,
    accounts: [input.vault, receipt, ...paid, input.receiptRentPayer, input.vaultRentPayer].map(writable),
    data: tagOnly(tag),
  };
}

/**
 * Permissionless: whoever sends it only pays the fee. `receipt`, when given, is the receipt's
 * address as found on chain: the program accepts a receipt at any valid bump, so one made by
 * another client need not sit at the canonical address this would derive.
 */
export function getRefundInstruction(input: ReceiptClose): Promise<Instruction> {
  return receiptClose(input, INSTRUCTION.refund, [input.payer]);
}

/** Closes a paid-out vault's receipt: its rent goes back to whoever lent it. */
export function getCloseReceiptInstruction(input: ReceiptClose): Promise<Instruction> {
  return receiptClose(input, INSTRUCTION.closeReceipt, []);
}

/** `entry`, when given, is the entry's address as found on chain (see getRefundInstruction). */
export async function getCloseEntryInstruction(input: {
  programId: Address;
  vault: Address;
  entrant: Address;
  entryRentPayer: Address;
  vaultRentPayer: Address;
  entry?: Address;
}): Promise<Instruction> {
  const entry = input.entry ?? (await findEntryAddress(input.programId, input.vault, input.entrant)).address;
  return {
    programAddress: input.programId,
    accounts: [input.vault, entry, input.entryRentPayer, input.vaultRentPayer].map(writable),
    data: tagOnly(INSTRUCTION.closeEntry),
  };
}
