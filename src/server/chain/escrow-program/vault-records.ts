/**
 * Every receipt and entry of one vault, read from the chain itself (getProgramAccounts), so the
 * transactions that settle or refund a dare name every record the program holds for it, whatever
 * the server's database remembers. Works on the embedded chain and on any RPC node that serves
 * getProgramAccounts with filters.
 */
import {
  type Address,
  type Base58EncodedBytes,
  type GetProgramAccountsApi,
  getBase64Encoder,
  type Rpc,
} from '@solana/kit';
import { decodeEntry, decodeReceipt, ENTRY_SIZE, type Entry, RECEIPT_SIZE, type Receipt } from './layout';

export type ReceiptRecord = Receipt & { address: Address; lamports: bigint };
export type EntryRecord = Entry & { address: Address; lamports: bigint };

export interface VaultRecords {
  receipts: ReceiptRecord[];
  entries: EntryRecord[];
}

/** Receipts and entries both hold their vault's address at byte 8 (docs/program.md). */
const VAULT_FIELD_OFFSET = 8n;

async function accountsOfVault<T>(
  rpc: Rpc<GetProgramAccountsApi>,
  programId: Address,
  vault: Address,
  size: number,
  decode: (data: Uint8Array) => (T & { vault: Address }) | null,
): Promise<(T & { address: Address; lamports: bigint })[]> {
  const accounts = await rpc
    .getProgramAccounts(programId, {
      encoding: 'base64',
      commitment: 'confirmed',
      filters: [
        { dataSize: BigInt(size) },
        // An address is the base58 text of its 32 bytes: exactly what memcmp compares.
        {
          memcmp: {
            offset: VAULT_FIELD_OFFSET,
            bytes: vault as string as Base58EncodedBytes,
            encoding: 'base58',
          },
        },
      ],
    })
    .send();
  const records: (T & { address: Address; lamports: bigint })[] = [];
  for (const { pubkey, account } of accounts) {
    // Filters are the node's promise; the decoder is ours (size, type tag, and the vault again).
    const decoded = decode(new Uint8Array(getBase64Encoder().encode(account.data[0])));
    if (decoded && decoded.vault === vault)
      records.push({ ...decoded, address: pubkey, lamports: account.lamports });
  }
  return records;
}

export async function listVaultRecords(
  rpc: Rpc<GetProgramAccountsApi>,
  programId: Address,
  vault: Address,
): Promise<VaultRecords> {
  const [receipts, entries] = await Promise.all([
    accountsOfVault<Receipt>(rpc, programId, vault, RECEIPT_SIZE, decodeReceipt),
    accountsOfVault<Entry>(rpc, programId, vault, ENTRY_SIZE, decodeEntry),
  ]);
  return { receipts, entries };
}
