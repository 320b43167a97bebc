/**
 * The proposals standing on escrow v2's vaults, read from any JSON-RPC node with no DarePool
 * server and no database: what the guardian reviews before a window ends (`npm run guardian`).
 * Everything shown comes from the chain: the vault's terms and proposal, each winner's entries
 * (their proof hashes) and the memo of the transaction that created the vault.
 */
import {
  type Address,
  type Base58EncodedBytes,
  type Base64EncodedBytes,
  type GetProgramAccountsApi,
  type GetSignaturesForAddressApi,
  type GetTransactionApi,
  getBase58Encoder,
  getBase64Encoder,
  type ReadonlyUint8Array,
  type Rpc,
  type Signature,
} from '@solana/kit';
import { majorShares } from '#server/chain/payout-transactions';
import { INSTRUCTION_V2 } from './instructions';
import {
  type DareKind,
  decodeEntryV2,
  decodeVaultV2,
  ENTRY_V2_SIZE,
  VAULT_V2_SIZE,
  type VaultV2,
} from './layout';

/** Byte offsets in a vault (docs/program.md, v2 accounts). */
const VAULT_STATUS_OFFSET = 3n;
/** The canceller (DarePool: its moderator key) follows the 32-byte dare id. */
const VAULT_CANCELLER_OFFSET = 40n;
const VAULT_GUARDIAN_OFFSET = 160n;
const STATUS_PROPOSED = 3;
/** Byte offsets in an entry. */
const ENTRY_VAULT_OFFSET = 8n;
const ENTRY_ENTRANT_OFFSET = 40n;

const MEMO_PROGRAMS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);

const toHex = (bytes: ReadonlyUint8Array) => Buffer.from(bytes as Uint8Array).toString('hex');

/**
 * What execute pays each winner of a pot, in share order (program/src/darepool_escrow_v2.c,
 * execute): 100% for a community dare; 70/30 for a major one, 30% rounded down, so the odd
 * lamport goes to the first share.
 */
export function payoutSharesV2(kind: DareKind, pot: bigint): bigint[] {
  return kind === 'major' ? majorShares(pot) : [pot];
}

export interface WinnerEntry {
  address: Address;
  /** The proof fingerprint the entrant fixed on chain, hex. */
  proofHash: string;
}

export interface ProposedWinner {
  wallet: Address;
  /** What execute would pay this share if it ran now. */
  lamports: bigint;
  /**
   * The wallet's entries in this vault. Normally one; the program accepts any valid bump, so an
   * entrant can hold a second entry with another proof hash, and the proposal does not say which
   * one the judges looked at: more than one is worth a guardian's look.
   */
  entries: WinnerEntry[];
}

export interface StandingProposal {
  vault: Address;
  terms: VaultV2;
  /** The vault's balance; the pot is everything above the rent it keeps. */
  lamports: bigint;
  pot: bigint;
  executesAt: bigint;
  winners: ProposedWinner[];
}

const memcmp = (offset: bigint, bytes: string, encoding: 'base58' | 'base64') =>
  ({
    memcmp:
      encoding === 'base58'
        ? { offset, bytes: bytes as Base58EncodedBytes, encoding }
        : { offset, bytes: bytes as Base64EncodedBytes, encoding },
  }) as const;

const decodeBase64 = (data: string) => new Uint8Array(getBase64Encoder().encode(data));

/**
 * Every vault of `programId` with a proposal standing (its window may have passed if nobody has
 * executed it yet: the caller compares `executesAt` with its clock). `guardian` / `canceller`
 * keep only vaults naming that key: anyone can make a vault naming any guardian or canceller, so
 * neither proves a vault is DarePool's, but a canceller that is DarePool's moderator key leaves
 * out the lookalikes that do not bother to copy it (a v2 vault's rent payer is its creator).
 */
export async function listStandingProposals(
  rpc: Rpc<GetProgramAccountsApi>,
  programId: Address,
  options: { guardian?: Address; canceller?: Address } = {},
): Promise<StandingProposal[]> {
  const accounts = await rpc
    .getProgramAccounts(programId, {
      encoding: 'base64',
      commitment: 'confirmed',
      filters: [
        { dataSize: BigInt(VAULT_V2_SIZE) },
        memcmp(VAULT_STATUS_OFFSET, Buffer.from([STATUS_PROPOSED]).toString('base64'), 'base64'),
        ...(options.guardian ? [memcmp(VAULT_GUARDIAN_OFFSET, options.guardian, 'base58')] : []),
        ...(options.canceller ? [memcmp(VAULT_CANCELLER_OFFSET, options.canceller, 'base58')] : []),
      ],
    })
    .send();
  const proposals: StandingProposal[] = [];
  for (const { pubkey, account } of accounts) {
    // The filters are the node's promise; the decoder and these checks are ours.
    const terms = decodeVaultV2(decodeBase64(account.data[0]));
    if (terms?.status !== 'proposed' || !terms.proposal) continue;
    if (options.guardian && terms.guardian !== options.guardian) continue;
    if (options.canceller && terms.canceller !== options.canceller) continue;
    const lamports = account.lamports;
    const pot = lamports > terms.rent ? lamports - terms.rent : 0n;
    const shares = payoutSharesV2(terms.kind, pot);
    const entriesOf = new Map<Address, Promise<WinnerEntry[]>>();
    const winners = await Promise.all(
      terms.proposal.winners.map(async (wallet, index) => {
        // A major dare may name one wallet for both shares: its entries are read once.
        let entries = entriesOf.get(wallet);
        if (!entries) {
          entries = winnerEntries(rpc, programId, pubkey, wallet);
          entriesOf.set(wallet, entries);
        }
        return { wallet, lamports: shares[index] ?? 0n, entries: await entries };
      }),
    );
    proposals.push({
      vault: pubkey,
      terms,
      lamports,
      pot,
      executesAt: terms.proposal.executesAt,
      winners,
    });
  }
  return proposals.sort((a, b) => (a.executesAt < b.executesAt ? -1 : a.executesAt > b.executesAt ? 1 : 0));
}

async function winnerEntries(
  rpc: Rpc<GetProgramAccountsApi>,
  programId: Address,
  vault: Address,
  wallet: Address,
): Promise<WinnerEntry[]> {
  const accounts = await rpc
    .getProgramAccounts(programId, {
      encoding: 'base64',
      commitment: 'confirmed',
      filters: [
        { dataSize: BigInt(ENTRY_V2_SIZE) },
        memcmp(ENTRY_VAULT_OFFSET, vault, 'base58'),
        memcmp(ENTRY_ENTRANT_OFFSET, wallet, 'base58'),
      ],
    })
    .send();
  const entries: WinnerEntry[] = [];
  for (const { pubkey, account } of accounts) {
    const entry = decodeEntryV2(decodeBase64(account.data[0]));
    if (entry && entry.vault === vault && entry.entrant === wallet)
      entries.push({ address: pubkey, proofHash: toHex(entry.proofHash) });
  }
  return entries;
}

export interface VaultCreation {
  signature: Signature;
  /** The memo texts of the creating transaction, joined by '; ' (null with none). */
  memo: string | null;
  blockTime: bigint | null;
}

/**
 * The transaction that created `vault` (a successful create_vault of `programId` naming it) and
 * its memo, which is where DarePool says which dare a vault is for. Not simply the oldest
 * transaction mentioning the vault: anyone can mention an address before it exists (a transfer
 * with a memo of their choosing), so each candidate, oldest first, must be the create itself.
 * null when the node's history does not reach it within the bounds (a stranger's thousands of
 * mentions, or a node that keeps no old history).
 */
export async function findVaultCreation(
  rpc: Rpc<GetSignaturesForAddressApi & GetTransactionApi>,
  programId: Address,
  vault: Address,
  bounds: { maxSignatures?: number; maxTransactions?: number } = {},
): Promise<VaultCreation | null> {
  const maxSignatures = bounds.maxSignatures ?? 5000;
  const maxTransactions = bounds.maxTransactions ?? 10;
  const page = 1000;
  const signatures: { signature: Signature; err: unknown; blockTime: bigint | null }[] = [];
  let before: Signature | undefined;
  for (;;) {
    const batch = await rpc
      .getSignaturesForAddress(vault, { limit: page, commitment: 'confirmed', ...(before ? { before } : {}) })
      .send();
    signatures.push(...batch.map((s) => ({ signature: s.signature, err: s.err, blockTime: s.blockTime })));
    if (batch.length < page) break;
    // Past the bound the oldest (the create) is out of reach: better no answer than a wrong one.
    if (signatures.length >= maxSignatures) return null;
    before = batch[batch.length - 1]!.signature;
  }
  let looked = 0;
  // Newest first from the node: the create is among the oldest.
  for (const candidate of signatures.reverse()) {
    if (candidate.err !== null) continue;
    if (looked++ >= maxTransactions) return null;
    const transaction = await rpc
      .getTransaction(candidate.signature, {
        encoding: 'json',
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    if (!transaction || transaction.meta?.err) continue;
    const { message } = transaction.transaction;
    const loaded = transaction.meta?.loadedAddresses;
    const keys: string[] = [
      ...message.accountKeys,
      ...(loaded ? [...loaded.writable, ...loaded.readonly] : []),
    ];
    const base58 = getBase58Encoder();
    let creates = false;
    const memos: string[] = [];
    for (const instruction of message.instructions) {
      const program = keys[instruction.programIdIndex];
      const data = new Uint8Array(base58.encode(instruction.data));
      if (program && MEMO_PROGRAMS.has(program)) memos.push(new TextDecoder().decode(data));
      // create_vault's accounts: creator, rent payer, vault, receipt, System program.
      const vaultIndex = instruction.accounts[2];
      if (
        program === programId &&
        data[0] === INSTRUCTION_V2.createVault &&
        vaultIndex !== undefined &&
        keys[vaultIndex] === vault
      )
        creates = true;
    }
    if (creates)
      return {
        signature: candidate.signature,
        memo: memos.length > 0 ? memos.join('; ') : null,
        blockTime: candidate.blockTime,
      };
  }
  return null;
}

/**
 * The dare a memo names, when it reads "… dare <id>" (DarePool's own memos do); null otherwise.
 * Only the creating transaction's memo is read, and that transaction carries the signature of
 * the vault's rent payer (DarePool's fee payer for its own vaults).
 */
export function dareIdOfMemo(memo: string | null): string | null {
  const match = memo === null ? null : /\bdare #?([A-Za-z0-9_-]{1,64})\b/i.exec(memo);
  return match ? match[1]! : null;
}
