/**
 * The escrow transactions DarePool's server builds. Who pays what:
 * - create_vault and deposit (program v2): the user's wallet is the fee payer, the rent payer of
 *   what the transaction creates (returned to it when those accounts close) and the only signer.
 *   v1 vaults take no new money (decision 050): nothing here makes, funds or enters one.
 * - enter (v2/enter-transaction.ts): the entrant's wallet pays the network fee and the entry's rent (returned to it when
 *   the entry closes) and is the only signer. The platform signs no transaction it hands out that
 *   locks none of the client's own SOL: a free account could broadcast such a transaction without
 *   ever submitting a proof (docs/decisions/034-entrants-pay-their-entry.md).
 * - refund ('Refund me'): the refunding payer's wallet pays the fee; nothing of DarePool signs.
 * - cancel and the closes after it (or after a payout): the platform fee payer pays, the moderator
 *   signs cancel; every transaction is fully signed, its signature known before it is sent. The
 *   server builds no v1 `settle` (retired: docs/decisions/050-retire-v1.md).
 * Wallet-signed transactions come back with the server's signatures in place and an empty slot
 * for the wallet (its signature over `messageBytes`).
 */
import {
  type Address,
  createNoopSigner,
  type GetAccountInfoApi,
  type GetLatestBlockhashApi,
  type GetProgramAccountsApi,
  type GetRecentPrioritizationFeesApi,
  type Instruction,
  type ReadonlyUint8Array,
  type Rpc,
  type TransactionSigner,
} from '@solana/kit';
import { priorityFeesOf } from '#server/chain/compute-budget';
import { fetchReceipt, fetchVault } from './accounts';
import type { AnyVault } from './any-program';
import {
  getCancelInstruction,
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
  getRefundInstruction,
} from './instructions';
import type { Vault } from './layout';
import { findReceiptAddress } from './pda';
import {
  getCreateVaultV2Instruction,
  getDepositV2Instruction,
  getExecuteInstruction,
  type VaultTerms as VaultTermsV2,
} from './v2/instructions';
import { listVaultRecords, type VaultRecords } from './vault-records';
import {
  type AppTransaction,
  type Lifetime,
  packSignedTransactions,
  partiallySigned,
  type SignedAppTransaction,
} from './wire-transactions';

export type { AppTransaction, SignedAppTransaction } from './wire-transactions';

/** Every builder reads a blockhash and prices its transaction (compute-budget.ts). */
type BlockhashRpc = Rpc<GetLatestBlockhashApi & GetRecentPrioritizationFeesApi>;
type AccountRpc = Rpc<GetLatestBlockhashApi & GetRecentPrioritizationFeesApi & GetAccountInfoApi>;
type VaultRpc = Rpc<
  GetLatestBlockhashApi & GetRecentPrioritizationFeesApi & GetAccountInfoApi & GetProgramAccountsApi
>;

/** The vault cannot take this step (absent, already ended, no receipt of that payer...). */
export class VaultStateError extends Error {
  override name = 'VaultStateError';
}

/** What one transaction of a batch closes, so a caller can book each refund or rent return. */
export type RecordClose =
  | { kind: 'refund'; receipt: Address; payer: Address; amount: bigint }
  | { kind: 'closeReceipt'; receipt: Address; payer: Address }
  | { kind: 'closeEntry'; entry: Address; entrant: Address };

export interface VaultTransaction extends SignedAppTransaction {
  closes: RecordClose[];
  /**
   * A v2 vault's refunds and closes go out packed (one fee for many, decisions 047, 058); this
   * signs the same steps each alone (same blockhash), to send when the packed transaction cannot
   * land: one payer's or entrant's account refusing its lamports must not hold up the others.
   * Signed only when asked for.
   */
  separately?: () => Promise<VaultTransaction[]>;
}

async function lifetimeOf(rpc: BlockhashRpc): Promise<Lifetime> {
  return (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
}

/**
 * One instruction in a transaction for the wallet `feePayer` to sign later (a no-op signer here):
 * the server's own signers, if any, sign now.
 */
export async function walletTransaction(
  rpc: BlockhashRpc,
  feePayer: TransactionSigner,
  instruction: Instruction,
  memo: string | undefined,
): Promise<AppTransaction> {
  const { base64, messageBytes, lastValidBlockHeight } = await partiallySigned({
    feePayer,
    lifetime: await lifetimeOf(rpc),
    fees: priorityFeesOf(rpc),
    instructions: [instruction],
    memo,
  });
  return { base64, messageBytes, lastValidBlockHeight };
}

/** Either program's create_vault, for the creator's wallet to sign as fee payer. */
export async function createVaultTransaction(
  rpc: BlockhashRpc,
  creator: TransactionSigner,
  instruction: Instruction,
  memo: string | undefined,
): Promise<AppTransaction & { vault: Address; receipt: Address }> {
  // The instruction's accounts (both programs): creator, rent payer, vault, receipt.
  const vault = instruction.accounts![2]!.address;
  const receipt = instruction.accounts![3]!.address;
  return { ...(await walletTransaction(rpc, creator, instruction, memo)), vault, receipt };
}

/**
 * A new dare's vault of program v2: the creator's wallet is the only signer, fee payer and rent
 * payer of the vault and its receipt (the rent comes back to it when the vault closes), so the
 * transaction costs the platform nothing whoever broadcasts it. The terms (judges, threshold,
 * guardian, canceller, window, deadline) are recorded by the program for the vault's life.
 */
export async function buildCreateVaultV2Transaction(
  rpc: BlockhashRpc,
  input: {
    programId: Address;
    creator: Address;
    dareId: ReadonlyUint8Array;
    terms: VaultTermsV2;
    amount: bigint;
    memo?: string;
  },
): Promise<AppTransaction & { vault: Address; receipt: Address }> {
  const creator = createNoopSigner(input.creator);
  const instruction = await getCreateVaultV2Instruction({
    ...input.terms,
    programId: input.programId,
    creator,
    rentPayer: creator,
    dareId: input.dareId,
    amount: input.amount,
  });
  return createVaultTransaction(rpc, creator, instruction, input.memo);
}

/**
 * A deposit by `payer`, whose new receipt's rent `rentPayer` lends (returned to it when the
 * receipt closes): it signs only when this deposit creates the receipt. A receipt never closes
 * while its vault takes deposits, so "exists" cannot turn false before this lands; one created
 * meanwhile only makes the rent payer's signature unneeded.
 */
export async function depositInstruction(
  rpc: Rpc<GetAccountInfoApi>,
  input: {
    programId: Address;
    vault: Address;
    payer: TransactionSigner;
    rentPayer: TransactionSigner;
    amount: bigint;
  },
): Promise<{ instruction: Instruction; receipt: Address; newReceipt: boolean }> {
  const receipt = (await findReceiptAddress(input.programId, input.vault, input.payer.address)).address;
  const newReceipt = (await fetchReceipt(rpc, input.programId, receipt)) === null;
  const instruction = await getDepositV2Instruction({
    ...input,
    rentPayer: newReceipt ? input.rentPayer : input.rentPayer.address,
  });
  return { instruction, receipt, newReceipt };
}

/**
 * A deposit for the payer's wallet to sign as fee payer: the payer lends its own new receipt's
 * rent (program v2: returned to it when the receipt closes) and is the only signer, so nothing of
 * DarePool signs a transaction handed to a client (decision 058).
 */
export async function buildDepositTransaction(
  rpc: AccountRpc,
  input: {
    programId: Address;
    vault: Address;
    /** The user's wallet: fee payer and depositor; it signs later. */
    payer: Address;
    amount: bigint;
    memo?: string;
  },
): Promise<AppTransaction & { receipt: Address; newReceipt: boolean }> {
  const payer = createNoopSigner(input.payer);
  const { instruction, receipt, newReceipt } = await depositInstruction(rpc, {
    programId: input.programId,
    vault: input.vault,
    payer,
    rentPayer: payer,
    amount: input.amount,
  });
  return { ...(await walletTransaction(rpc, payer, instruction, input.memo)), receipt, newReceipt };
}

/**
 * 'Refund me': the payer's own receipt, refunded in a transaction their wallet pays for. The
 * program decides whether it is due (refunding, or open past refund_after).
 */
export async function buildRefundTransaction(
  rpc: AccountRpc,
  input: { programId: Address; vault: Address; payer: Address; memo?: string },
): Promise<AppTransaction & { amount: bigint }> {
  const vault = await endableVault(rpc, input.programId, input.vault);
  if (vault.status === 'settled') throw new VaultStateError('This dare was paid out: nothing to refund');
  const receiptAddress = (await findReceiptAddress(input.programId, input.vault, input.payer)).address;
  const receipt = await fetchReceipt(rpc, input.programId, receiptAddress);
  if (!receipt) throw new VaultStateError('This wallet has nothing to refund in this dare');
  const instruction = await getRefundInstruction({
    programId: input.programId,
    vault: input.vault,
    payer: input.payer,
    receiptRentPayer: receipt.rentPayer,
    vaultRentPayer: vault.rentPayer,
    receipt: receiptAddress,
  });
  return {
    ...(await walletTransaction(rpc, createNoopSigner(input.payer), instruction, input.memo)),
    amount: receipt.amount,
  };
}

/**
 * Program v2's `execute`, alone in its transaction (one unpayable record must never hold up the
 * payout; docs/program.md): pays the winners the judges proposed, once the window has passed.
 * Anyone may send it; the platform fee payer signs only as the fee payer. The record closes
 * follow in their own transactions (buildCloseRecordsTransactions).
 */
export async function buildExecuteTransaction(
  rpc: BlockhashRpc,
  input: {
    programId: Address;
    vault: Address;
    winners: readonly Address[];
    feePayer: TransactionSigner;
    memo?: string;
  },
): Promise<VaultTransaction> {
  const [transaction] = await pack(rpc, input, [
    {
      instruction: getExecuteInstruction({
        programId: input.programId,
        vault: input.vault,
        winners: input.winners,
      }),
    },
  ]);
  return transaction!;
}

/**
 * cancel (when the vault is still open), then a refund per receipt and close_entry per entry,
 * packed as full as a packet allows (a v2 vault's cancel alone; see `pack`).
 */
export async function buildCancelAndRefundTransactions(
  rpc: VaultRpc,
  input: {
    programId: Address;
    vault: Address;
    moderator: TransactionSigner;
    feePayer: TransactionSigner;
    memo?: string;
  },
): Promise<VaultTransaction[]> {
  const vault = await endableVault(rpc, input.programId, input.vault);
  if (vault.status === 'settled') throw new VaultStateError('The vault was settled: it cannot be cancelled');
  const records = await listVaultRecords(rpc, input.programId, input.vault);
  const cancel = vault.status === 'open' ? [{ instruction: getCancelInstruction(input) }] : [];
  return pack(rpc, input, [...cancel, ...(await closeSteps(input, vault, records, true))], vault.version);
}

/**
 * Closes what is left of a vault, signed only by `feePayer` (any wallet: no DarePool key): a
 * refund per receipt and close_entry per entry when it is refunding or open (the program refuses
 * the refunds of an open vault before refund_after), close_receipt and close_entry when settled.
 * Packed as full as a packet allows (see `pack`).
 */
export async function buildCloseRecordsTransactions(
  rpc: VaultRpc,
  input: { programId: Address; vault: Address; feePayer: TransactionSigner; memo?: string },
): Promise<VaultTransaction[]> {
  const vault = await endableVault(rpc, input.programId, input.vault);
  const records = await listVaultRecords(rpc, input.programId, input.vault);
  return pack(rpc, input, await closeSteps(input, vault, records, vault.status !== 'settled'), vault.version);
}

async function endableVault(
  rpc: Rpc<GetAccountInfoApi>,
  programId: Address,
  address: Address,
): Promise<AnyVault> {
  const vault = await fetchVault(rpc, programId, address);
  if (!vault)
    throw new VaultStateError(`No vault of program ${programId} at ${address} (closed or never created)`);
  return vault;
}

interface Step {
  instruction: Instruction;
  close?: RecordClose;
}

/**
 * `refund`: a refund per receipt (after cancel or refund_after), else close_receipt (after settle).
 * Receipts come before entries: close_entry needs a refunding vault, and an open vault past
 * refund_after becomes refunding with its first refund. Each record is named by its own address,
 * rent payer included, as found on chain.
 */
async function closeSteps(
  input: { programId: Address; vault: Address },
  vault: Vault,
  records: VaultRecords,
  refund: boolean,
): Promise<Step[]> {
  const common = { programId: input.programId, vault: input.vault, vaultRentPayer: vault.rentPayer };
  const receipts = await Promise.all(
    records.receipts.map(async (r): Promise<Step> => {
      const args = { ...common, payer: r.payer, receiptRentPayer: r.rentPayer, receipt: r.address };
      return refund
        ? {
            instruction: await getRefundInstruction(args),
            close: { kind: 'refund', receipt: r.address, payer: r.payer, amount: r.amount },
          }
        : {
            instruction: await getCloseReceiptInstruction(args),
            close: { kind: 'closeReceipt', receipt: r.address, payer: r.payer },
          };
    }),
  );
  const entries = await Promise.all(
    records.entries.map(
      async (e): Promise<Step> => ({
        instruction: await getCloseEntryInstruction({
          ...common,
          entrant: e.entrant,
          entryRentPayer: e.rentPayer,
          entry: e.address,
        }),
        close: { kind: 'closeEntry', entry: e.address, entrant: e.entrant },
      }),
    ),
  );
  return [...receipts, ...entries];
}

/**
 * The steps in signed transactions sharing one blockhash. A v1 vault's are packed as full as a
 * packet allows (its records' rent payers are the platform and DarePool's users). A v2 vault's
 * cancel and payout go alone; its refunds, receipt closes and entry closes are packed as full as a
 * packet allows, receipts first (close_entry needs a refunding vault, which the first refund of an
 * overdue open vault makes): a stranger's receipt or entry cost it at least a fee to make, and one
 * fee now closes a dozen (decisions 047, 058). Each packed transaction carries its closes signed
 * one by one for when it cannot land (a payer or entrant whose account cannot be credited fails
 * every transaction paying it): only that record's refund or close then fails.
 */
async function pack(
  rpc: BlockhashRpc,
  input: { feePayer: TransactionSigner; memo?: string },
  steps: Step[],
  version: 1 | 2 = 1,
): Promise<VaultTransaction[]> {
  if (steps.length === 0) return [];
  const lifetime = await lifetimeOf(rpc);
  const signed = async (group: Step[]): Promise<VaultTransaction[]> =>
    (
      await packSignedTransactions({
        feePayer: input.feePayer,
        lifetime,
        steps: group,
        fees: priorityFeesOf(rpc),
        memo: input.memo,
      })
    ).map(({ steps: carried, ...transaction }) => ({
      ...transaction,
      closes: carried.flatMap((step) => (step.close ? [step.close] : [])),
    }));
  if (version === 1) return signed(steps);
  const records = steps.filter((step) => step.close !== undefined);
  const alone = (
    await Promise.all(steps.filter((step) => !records.includes(step)).map((step) => signed([step])))
  ).flat();
  const withFallback = (await signed(records)).map((transaction) => {
    if (transaction.closes.length < 2) return transaction;
    const carried = records.filter((step) => transaction.closes.includes(step.close!));
    const separately = async () => (await Promise.all(carried.map((step) => signed([step])))).flat();
    return { ...transaction, separately };
  });
  // The records after the cancel: refunds need a refunding vault, which the cancel makes.
  return [...alone, ...withFallback];
}
