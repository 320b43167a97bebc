/**
 * Test support, never loaded by the server: the escrow program v1 instructions that make, fund,
 * enter and settle a vault. v1 is retired (docs/decisions/050-retire-v1.md): the app only reads,
 * cancels and refunds v1 vaults, so these builders serve only the program's tests, the benchmarks
 * and the tests that need a v1 vault on chain (the legacy data folder's, the retirement's). Their
 * bytes come from the same codecs as the product's (codec.ts), pinned by instruction-bytes.test.ts.
 */
import {
  type Address,
  createNoopSigner,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from '@solana/kit';
import {
  type AppTransaction,
  type buildDepositTransaction,
  createVaultTransaction,
  depositInstruction,
  walletTransaction,
} from '#server/chain/escrow-program/app-transactions';
import {
  type AccountMeta,
  createVaultParts,
  createVaultV1DataCodec,
  encoded,
  enterV1DataCodec,
  payingAccounts,
  readonly,
  signer,
  tagOnly,
  writable,
} from '#server/chain/escrow-program/codec';
import {
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
  getRefundInstruction,
  INSTRUCTION,
} from '#server/chain/escrow-program/instructions';
import type { DareKind } from '#server/chain/escrow-program/layout';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { getDepositV2Instruction } from '#server/chain/escrow-program/v2/instructions';

/** What a transaction for a wallet is built with: a blockhash and the fees paid lately. */
type WalletRpc = Parameters<typeof walletTransaction>[0];

/** deposit's accounts and data are the same in both versions: only `programId` tells them apart. */
export const getDepositInstruction = getDepositV2Instruction;

export interface CreateVaultInput {
  programId: Address;
  /** Signs and pays the stake. */
  creator: TransactionSigner;
  /** Signs and pays the rent of the vault and the creator's receipt; gets it back at the end. */
  rentPayer: TransactionSigner;
  /** 32 bytes the creator chooses once per dare: the vault's seed. */
  dareId: ReadonlyUint8Array;
  moderator: Address;
  deadline: bigint;
  refundAfter: bigint;
  amount: bigint;
  kind: DareKind;
}

export async function getCreateVaultInstruction(input: CreateVaultInput): Promise<Instruction> {
  const { accounts, derived } = await createVaultParts(input);
  const data = encoded(createVaultV1DataCodec, { ...input, ...derived, tag: INSTRUCTION.createVault });
  return { programAddress: input.programId, accounts, data };
}

export async function getEnterInstruction(input: {
  programId: Address;
  vault: Address;
  entrant: TransactionSigner;
  rentPayer: TransactionSigner;
}): Promise<Instruction> {
  const entry = await findEntryAddress(input.programId, input.vault, input.entrant.address);
  return {
    programAddress: input.programId,
    accounts: payingAccounts(
      signer(input.entrant, false),
      signer(input.rentPayer, true),
      input.vault,
      entry.address,
    ),
    data: encoded(enterV1DataCodec, { tag: INSTRUCTION.enter, entryBump: entry.bump }),
  };
}

/**
 * One winner for a community dare; two (first gets 70%, second 30%) for a major dare.
 * `winnerEntries`, when given, are the winners' entry accounts as found on chain (see getRefundInstruction).
 */
export async function getSettleInstruction(input: {
  programId: Address;
  vault: Address;
  moderator: TransactionSigner;
  winners: readonly Address[];
  winnerEntries?: readonly Address[];
}): Promise<Instruction> {
  const accounts: AccountMeta[] = [signer(input.moderator, false), writable(input.vault)];
  for (const [index, winner] of input.winners.entries()) {
    const entry =
      input.winnerEntries?.[index] ?? (await findEntryAddress(input.programId, input.vault, winner)).address;
    accounts.push(writable(winner), readonly(entry));
  }
  return { programAddress: input.programId, accounts, data: tagOnly(INSTRUCTION.settle) };
}

/**
 * A whole payout in one transaction: `settle`, then `close_receipt` for every receipt and
 * `close_entry` for every entry, so the vault closes and all rent goes back in the same step.
 * A dare with too many records for one transaction sends the rest with `getCloseInstructions`.
 */
export async function getSettleAndCloseInstructions(input: {
  programId: Address;
  vault: Address;
  moderator: TransactionSigner;
  winners: readonly Address[];
  vaultRentPayer: Address;
  receipts: readonly { payer: Address; rentPayer: Address }[];
  entries: readonly { entrant: Address; rentPayer: Address }[];
}): Promise<Instruction[]> {
  return [await getSettleInstruction(input), ...(await getCloseInstructions({ ...input, refund: false }))];
}

/**
 * Closes records of a vault that has ended: after a payout (`refund: false`) close_receipt and
 * close_entry; after cancel or refund-after (`refund: true`) every entry, then a refund per receipt
 * (the last one closes the vault). Anyone may send these.
 */
export async function getCloseInstructions(input: {
  programId: Address;
  vault: Address;
  vaultRentPayer: Address;
  receipts: readonly { payer: Address; rentPayer: Address }[];
  entries: readonly { entrant: Address; rentPayer: Address }[];
  refund: boolean;
}): Promise<Instruction[]> {
  const common = { programId: input.programId, vault: input.vault, vaultRentPayer: input.vaultRentPayer };
  const entries = await Promise.all(
    input.entries.map((e) =>
      getCloseEntryInstruction({ ...common, entrant: e.entrant, entryRentPayer: e.rentPayer }),
    ),
  );
  const receipts = await Promise.all(
    input.receipts.map((r) =>
      input.refund
        ? getRefundInstruction({ ...common, payer: r.payer, receiptRentPayer: r.rentPayer })
        : getCloseReceiptInstruction({ ...common, payer: r.payer, receiptRentPayer: r.rentPayer }),
    ),
  );
  return input.refund ? [...entries, ...receipts] : [...receipts, ...entries];
}

/** A v1 vault's create_vault for the creator's wallet to sign; `rentPayer` signs here. */
export async function buildCreateVaultTransaction(
  rpc: WalletRpc,
  input: Omit<CreateVaultInput, 'creator'> & { creator: Address; memo?: string },
): Promise<AppTransaction & { vault: Address; receipt: Address }> {
  const creator = createNoopSigner(input.creator);
  return createVaultTransaction(
    rpc,
    creator,
    await getCreateVaultInstruction({ ...input, creator }),
    input.memo,
  );
}

/**
 * A deposit as v1 took it: `rentPayer` (the platform) lends a new receipt's rent. The program
 * versions' deposits are alike, so a test may make one into a v2 vault too.
 */
export async function buildDepositV1Transaction(
  rpc: Parameters<typeof buildDepositTransaction>[0],
  input: Parameters<typeof buildDepositTransaction>[1] & { rentPayer: TransactionSigner },
): Promise<AppTransaction & { receipt: Address; newReceipt: boolean }> {
  const payer = createNoopSigner(input.payer);
  const { instruction, ...made } = await depositInstruction(rpc, { ...input, payer });
  return { ...(await walletTransaction(rpc, payer, instruction, input.memo)), ...made };
}

/** A v1 enter: the entrant's wallet is the fee payer, the entry's rent payer and the only signer. */
export async function buildEnterTransaction(
  rpc: WalletRpc,
  input: { programId: Address; vault: Address; entrant: Address; memo?: string },
): Promise<AppTransaction & { entry: Address }> {
  const entrant = createNoopSigner(input.entrant);
  const instruction = await getEnterInstruction({ ...input, entrant, rentPayer: entrant });
  const entry = (await findEntryAddress(input.programId, input.vault, input.entrant)).address;
  return { ...(await walletTransaction(rpc, entrant, instruction, input.memo)), entry };
}
