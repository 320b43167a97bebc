/**
 * Every receipt and entry of one vault, read from the chain itself (getProgramAccounts), so the
 * transactions that settle or refund a dare name every record the program holds for it, whatever
 * the server's database remembers. Works on the embedded chain and on any RPC node that serves
 * getProgramAccounts with filters, for either escrow program (v2's entries are longer: they hold
 * the proof's fingerprint).
 */
import {
  type Address,
  type Base58EncodedBytes,
  type GetProgramAccountsApi,
  getBase64Encoder,
  type Rpc,
} from '@solana/kit';
import { type AnyEntry, decodeAnyEntry } from './any-program';
import { decodeReceipt, type Receipt } from './layout';

export type ReceiptRecord = Receipt & { address: Address; lamports: bigint };
export type EntryRecord = AnyEntry & { address: Address; lamports: bigint };

export interface VaultRecords {
  receipts: ReceiptRecord[];
  entries: EntryRecord[];
}

/** Receipts and entries both hold their vault's address at byte 8 (docs/program.md). */
const VAULT_FIELD_OFFSET = 8n;

/** One query for both kinds of record: every account of the program naming this vault at byte 8. */
export async function listVaultRecords(
  rpc: Rpc<GetProgramAccountsApi>,
  programId: Address,
  vault: Address,
): Promise<VaultRecords> {
  const accounts = await rpc
    .getProgramAccounts(programId, {
      encoding: 'base64',
      commitment: 'confirmed',
      filters: [
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
  const records: VaultRecords = { receipts: [], entries: [] };
  for (const { pubkey, account } of accounts) {
    // Filters are the node's promise; the decoders are ours (size, type tag, and the vault again).
    const data = new Uint8Array(getBase64Encoder().encode(account.data[0]));
    const at = { address: pubkey, lamports: account.lamports };
    const receipt = decodeReceipt(data);
    if (receipt?.vault === vault) records.receipts.push({ ...receipt, ...at });
    const entry = receipt ? null : decodeAnyEntry(data);
    if (entry?.vault === vault) records.entries.push({ ...entry, ...at });
  }
  return records;
}
