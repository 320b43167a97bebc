/**
 * Builders of escrow v2's instructions (account order and data exactly as
 * program/src/darepool_escrow_v2.c reads them; docs/program.md lists them). PDAs use the same
 * seeds as version 1 under v2's program id. Results are plain kit `Instruction`s.
 */
import type { Address, Instruction, ReadonlyUint8Array, TransactionSigner } from '@solana/kit';
import { encodeProposeData, PROPOSE_TAG } from '#contract/propose-layout';
import {
  type AccountMeta,
  createVaultParts,
  createVaultV2DataCodec,
  depositDataCodec,
  encoded,
  enterV2DataCodec,
  payingAccounts,
  readonly,
  signer,
  signerOrAddress,
  signerOrWritable,
  tagOnly,
  writable,
} from '#server/chain/escrow-program/codec';
import { getCancelInstruction } from '#server/chain/escrow-program/instructions';
import { findEntryAddress, findReceiptAddress } from '#server/chain/escrow-program/pda';
import { type DareKind, MAX_JUDGES } from './layout';

export const INSTRUCTION_V2 = {
  createVault: 0,
  deposit: 1,
  enter: 2,
  cancel: 4,
  refund: 5,
  closeEntry: 6,
  closeReceipt: 7,
  propose: PROPOSE_TAG,
  veto: 9,
  execute: 10,
} as const;

/** The terms a vault keeps for life (docs/program.md lists their bounds). */
export interface VaultTerms {
  kind: DareKind;
  deadline: bigint;
  refundAfter: bigint;
  /** 1 to 5 distinct wallets; `threshold` of them must sign a proposal. */
  judges: readonly Address[];
  threshold: number;
  guardian: Address;
  /** May only cancel: DarePool's moderator key. */
  canceller: Address;
  /** Seconds between a proposal and its execution: 1 hour to 7 days. */
  payoutWindow: bigint;
}

export interface CreateVaultV2Input extends VaultTerms {
  programId: Address;
  creator: TransactionSigner;
  rentPayer: TransactionSigner;
  dareId: ReadonlyUint8Array;
  amount: bigint;
}

export async function getCreateVaultV2Instruction(input: CreateVaultV2Input): Promise<Instruction> {
  // The program checks the terms too; the judges are written as given, whatever their number.
  const { accounts, derived } = await createVaultParts(input);
  const data = encoded(createVaultV2DataCodec, {
    ...input,
    ...derived,
    tag: INSTRUCTION_V2.createVault,
    judgeCount: input.judges.length,
    judges: [...input.judges],
  });
  return { programAddress: input.programId, accounts, data };
}

export async function getDepositV2Instruction(input: {
  programId: Address;
  vault: Address;
  payer: TransactionSigner;
  /** Must sign when this deposit creates the payer's receipt (the first one). */
  rentPayer: TransactionSigner | Address;
  amount: bigint;
}): Promise<Instruction> {
  const receipt = await findReceiptAddress(input.programId, input.vault, input.payer.address);
  return {
    programAddress: input.programId,
    accounts: payingAccounts(
      signer(input.payer, true),
      signerOrWritable(input.rentPayer),
      input.vault,
      receipt.address,
    ),
    data: encoded(depositDataCodec, {
      tag: INSTRUCTION_V2.deposit,
      amount: input.amount,
      receiptBump: receipt.bump,
    }),
  };
}

/**
 * The entrant signs and, unless another `rentPayer` is given, pays the entry's rent, which comes
 * back to it when the entry closes. `proofHash`: 32 bytes fixing the proof being judged.
 */
export async function getEnterV2Instruction(input: {
  programId: Address;
  vault: Address;
  entrant: TransactionSigner;
  proofHash: ReadonlyUint8Array;
  rentPayer?: TransactionSigner;
}): Promise<Instruction> {
  if (input.proofHash.length !== 32) throw new Error('A proof hash is 32 bytes');
  const entry = await findEntryAddress(input.programId, input.vault, input.entrant.address);
  const rentPayer = input.rentPayer ?? input.entrant;
  return {
    programAddress: input.programId,
    accounts: payingAccounts(
      signer(input.entrant, rentPayer.address === input.entrant.address),
      signer(rentPayer, true),
      input.vault,
      entry.address,
    ),
    data: encoded(enterV2DataCodec, {
      tag: INSTRUCTION_V2.enter,
      entryBump: entry.bump,
      proofHash: input.proofHash,
    }),
  };
}

/**
 * Names the winners (one for community, two for major: first 70%, second 30%; the same wallet may
 * be both). `judges` sign: a `TransactionSigner` signs when the transaction is signed, an
 * `Address` leaves its signature to be added later (a judge's own wallet; see propose-transaction.ts).
 * `winnerEntries`, when given, are the winners' entry accounts as found on chain.
 */
export async function getProposeInstruction(input: {
  programId: Address;
  vault: Address;
  winners: readonly Address[];
  judges: readonly (TransactionSigner | Address)[];
  winnerEntries?: readonly Address[];
}): Promise<Instruction> {
  if (input.judges.length < 1 || input.judges.length > MAX_JUDGES) throw new Error('1 to 5 judges sign');
  const accounts: AccountMeta[] = [writable(input.vault)];
  for (const [index, winner] of input.winners.entries()) {
    const entry =
      input.winnerEntries?.[index] ?? (await findEntryAddress(input.programId, input.vault, winner)).address;
    accounts.push(readonly(winner), readonly(entry));
  }
  for (const judge of input.judges) accounts.push(signerOrAddress(judge, false));
  return {
    programAddress: input.programId,
    accounts,
    data: encodeProposeData(input.winners.length),
  };
}

export function getVetoInstruction(input: {
  programId: Address;
  vault: Address;
  guardian: TransactionSigner | Address;
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [signerOrAddress(input.guardian, false), writable(input.vault)],
    data: tagOnly(INSTRUCTION_V2.veto),
  };
}

/**
 * Anyone, once the window has passed: `winners` exactly as proposed (the vault's `proposal`).
 * Send it alone: never in a transaction with closes of records a stranger paid for (one
 * unpayable record must not hold up the payout; see payout-plan.ts).
 */
export function getExecuteInstruction(input: {
  programId: Address;
  vault: Address;
  winners: readonly Address[];
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [writable(input.vault), ...input.winners.map(writable)],
    data: tagOnly(INSTRUCTION_V2.execute),
  };
}

/** cancel keeps v1's tag, accounts and data: the canceller signs where v1's moderator did. */
export function getCancelV2Instruction(input: {
  programId: Address;
  vault: Address;
  canceller: TransactionSigner;
}): Instruction {
  return getCancelInstruction({ programId: input.programId, vault: input.vault, moderator: input.canceller });
}

/**
 * refund, close_entry and close_receipt keep v1's tags, accounts and data in v2 (docs/program.md),
 * so v1's builders serve both programs: only `programId` tells them apart.
 */
export {
  getCloseEntryInstruction as getCloseEntryV2Instruction,
  getCloseReceiptInstruction as getCloseReceiptV2Instruction,
  getRefundInstruction as getRefundV2Instruction,
} from '#server/chain/escrow-program/instructions';
