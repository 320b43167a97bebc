/**
 * getProgramAccounts as agave answers it: filters checked the way agave checks them (at most 4;
 * `dataSize`, and `memcmp` with base58 or base64 bytes of at most 128 bytes), accounts sorted by
 * address bytes (agave's default `sortResults: true`). The accounts themselves come from LiteSVM,
 * which enumerates every live account by owner, so closed accounts are simply absent.
 */
import {
  type EncodedAccount,
  getAddressEncoder,
  getBase58Encoder,
  getBase64Encoder,
  type ReadonlyUint8Array,
} from '@solana/kit';
import { invalidParams, u64Param } from './json-rpc';

const MAX_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
// agave refuses longer encoded strings before decoding them (MAX_DATA_BASE58_SIZE / BASE64_SIZE).
const MAX_MEMCMP_BASE58_CHARS = 175;
const MAX_MEMCMP_BASE64_CHARS = 172;
// Encodings renderAccount can write; base64+zstd would need a zstd compressor Node 20 lacks.
const SUPPORTED_ENCODINGS = new Set([undefined, 'base58', 'base64', 'jsonParsed']);

export type AccountFilter =
  | { kind: 'dataSize'; size: bigint }
  | { kind: 'memcmp'; offset: number; bytes: Uint8Array };

export function parseProgramAccountsConfig(config: Record<string, unknown>): {
  filters: AccountFilter[];
  withContext: boolean;
} {
  if (!SUPPORTED_ENCODINGS.has(config.encoding as string | undefined)) {
    throw invalidParams(
      `unsupported encoding: ${String(config.encoding)}. Supported encodings: base58, base64, jsonParsed`,
    );
  }
  const filters = config.filters ?? [];
  if (!Array.isArray(filters)) throw invalidParams('filters must be an array');
  if (filters.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  return { filters: filters.map(parseFilter), withContext: config.withContext === true };
}

function parseFilter(filter: unknown): AccountFilter {
  const keys = typeof filter === 'object' && filter !== null ? Object.keys(filter) : [];
  if (keys.length !== 1) throw invalidParams('each filter is one of dataSize or memcmp');
  const value = (filter as Record<string, unknown>)[keys[0]!];
  switch (keys[0]) {
    case 'dataSize':
      return { kind: 'dataSize', size: u64Param(value, 'dataSize') };
    case 'memcmp':
      return parseMemcmp(value);
    default:
      throw invalidParams(`unsupported filter ${keys[0]}: the embedded chain knows dataSize and memcmp`);
  }
}

function parseMemcmp(value: unknown): AccountFilter {
  if (typeof value !== 'object' || value === null) throw invalidParams('memcmp must be an object');
  const { offset, bytes, encoding = 'base58' } = value as Record<string, unknown>;
  const at = u64Param(offset, 'memcmp offset');
  if (typeof bytes !== 'string') throw invalidParams('memcmp bytes must be a string');
  if (encoding !== 'base58' && encoding !== 'base64') {
    throw invalidParams(`unsupported memcmp encoding ${String(encoding)}: base58 or base64`);
  }
  const maxChars = encoding === 'base58' ? MAX_MEMCMP_BASE58_CHARS : MAX_MEMCMP_BASE64_CHARS;
  if (bytes.length > maxChars) throw invalidParams('Invalid param: DataTooLarge');
  let decoded: ReadonlyUint8Array;
  try {
    decoded = (encoding === 'base58' ? getBase58Encoder() : getBase64Encoder()).encode(bytes);
  } catch {
    throw invalidParams(`Invalid param: memcmp bytes are not ${encoding}`);
  }
  if (decoded.length > MAX_MEMCMP_BYTES) throw invalidParams('Invalid param: DataTooLarge');
  // An offset past any account's data matches nothing; capping it keeps it a safe number.
  return { kind: 'memcmp', offset: Number(at > 2n ** 32n ? 2n ** 32n : at), bytes: new Uint8Array(decoded) };
}

function matches(account: EncodedAccount, filter: AccountFilter): boolean {
  const data = account.data;
  if (filter.kind === 'dataSize') return BigInt(data.length) === filter.size;
  if (filter.offset + filter.bytes.length > data.length) return false;
  return filter.bytes.every((byte, index) => data[filter.offset + index] === byte);
}

/** The accounts every filter accepts, in address byte order. */
export function selectAccounts(
  accounts: readonly EncodedAccount[],
  filters: readonly AccountFilter[],
): EncodedAccount[] {
  const addressBytes = getAddressEncoder();
  return accounts
    .filter((account) => filters.every((filter) => matches(account, filter)))
    .map((account) => ({ account, key: Buffer.from(addressBytes.encode(account.address)) }))
    .sort((a, b) => Buffer.compare(a.key, b.key))
    .map(({ account }) => account);
}
