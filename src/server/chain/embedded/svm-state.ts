/**
 * LiteSVM's state as bytes, without LiteSVM's own snapshots: those (toBytes/fromBytes) exist only
 * in litesvm 1.5, which ships a native binary for linux-x64 alone; 1.4.1 runs on macOS and Linux,
 * x64 and arm64 (docs/decisions/030-platforms.md).
 *
 * Everything the embedded chain changes goes through transactions on a fresh LiteSVM, so its state
 * is: the accounts those transactions named (no instruction can write any other), the sysvars the
 * ledger moves, and the blockhash chain. LiteSVM derives each blockhash from the one before it,
 * starting from a fixed one, so the chain is restored by expiring as many times as it was expired,
 * and checked against the blockhash it had.
 */
import {
  type Address,
  type EncodedAccount,
  getAddressDecoder,
  getAddressEncoder,
  lamports,
  type MaybeEncodedAccount,
} from '@solana/kit';
import type { LiteSVM } from 'litesvm';

/** Builtin programs: part of every fresh LiteSVM, and no transaction can change them. */
const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
/** The sysvars LiteSVM keeps and the ledger or a slot change moves; saved whether named or not. */
export const SAVED_SYSVARS = [
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111',
  'SysvarEpochRewards1111111111111111111111111',
  'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
] as const;

const FORMAT = 1;
const ACCOUNT_FIXED_BYTES = 32 + 32 + 8 + 1 + 4;

export interface SvmState {
  /** How many times the blockhash was expired since the fresh LiteSVM. */
  blockhashesExpired: number;
  latestBlockhash: string;
  accounts: EncodedAccount[];
}

function isSaved(account: MaybeEncodedAccount): account is Extract<MaybeEncodedAccount, { exists: true }> {
  if (!account.exists || account.programAddress === NATIVE_LOADER) return false;
  // Other sysvars (RecentBlockhashes, Fees) follow the blockhash chain; LiteSVM refuses them.
  return (
    account.programAddress !== SYSVAR_OWNER || (SAVED_SYSVARS as readonly string[]).includes(account.address)
  );
}

/**
 * Keeps each saved account's encoding between snapshots, so a snapshot reads from LiteSVM only
 * what transactions wrote since the last one (LiteSVM's getAccount costs ~0.5 ms: reading
 * thousands of accounts for every snapshot took seconds).
 */
export class SvmSnapshots {
  private readonly records = new Map<string, Uint8Array>();
  private readonly written = new Set<string>(SAVED_SYSVARS);

  /** After a restore: the accounts as saved, unchanged since. */
  constructor(saved: SvmState | null = null) {
    for (const account of saved?.accounts ?? []) this.records.set(account.address, encodeAccount(account));
  }

  /** Accounts a transaction may have changed (its writable keys; a failed one's fee payer). */
  markWritten(addresses: Iterable<string>): void {
    for (const address of addresses) this.written.add(address);
  }

  snapshot(svm: LiteSVM, blockhashesExpired: number): Uint8Array {
    for (const address of this.written) {
      const account = svm.getAccount(address as Address);
      if (isSaved(account)) this.records.set(address, encodeAccount(account));
      else this.records.delete(address);
    }
    this.written.clear();
    // The ledger moves the Clock (and LiteSVM may move the others) without a transaction naming them.
    for (const sysvar of SAVED_SYSVARS) this.written.add(sysvar);
    return withHeader({ blockhashesExpired, latestBlockhash: svm.latestBlockhash() }, [
      ...this.records.values(),
    ]);
  }
}

/**
 * Writes `state` onto a fresh LiteSVM. Plain accounts first: a program account is loaded (and
 * verified) when it is set, and an upgradeable one needs its programdata account already there.
 */
export function restoreSvmState(svm: LiteSVM, state: SvmState): void {
  const ordered = [
    ...state.accounts.filter((account) => !account.executable),
    ...state.accounts.filter((account) => account.executable),
  ];
  for (const account of ordered) svm.setAccount(account);
  for (let i = 0; i < state.blockhashesExpired; i++) svm.expireBlockhash();
  if (svm.latestBlockhash() !== state.latestBlockhash) {
    throw new Error(
      `the blockhash after ${state.blockhashesExpired} expirations is ${svm.latestBlockhash()}, not ${state.latestBlockhash}`,
    );
  }
}

/** Binary: a JSON header line, then per account address, owner, lamports, executable, data. */
export function encodeSvmState(state: SvmState): Uint8Array {
  return withHeader(state, state.accounts.map(encodeAccount));
}

function withHeader(
  state: { blockhashesExpired: number; latestBlockhash: string },
  accounts: Uint8Array[],
): Uint8Array {
  const { blockhashesExpired, latestBlockhash } = state;
  const header = `${JSON.stringify({ format: FORMAT, blockhashesExpired, latestBlockhash, accounts: accounts.length })}\n`;
  const out = Buffer.concat([Buffer.from(header), ...accounts]);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

function encodeAccount(account: EncodedAccount): Uint8Array {
  const addresses = getAddressEncoder();
  const out = Buffer.alloc(ACCOUNT_FIXED_BYTES + account.data.length);
  out.set(addresses.encode(account.address), 0);
  out.set(addresses.encode(account.programAddress), 32);
  out.writeBigUInt64LE(account.lamports, 64);
  out.writeUInt8(account.executable ? 1 : 0, 72);
  out.writeUInt32LE(account.data.length, 73);
  out.set(account.data, ACCOUNT_FIXED_BYTES);
  return out;
}

/** Throws when the bytes are not a whole state of this format. */
export function decodeSvmState(bytes: Uint8Array): SvmState {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const newline = buffer.indexOf(0x0a);
  if (newline < 0) throw new Error('no header line');
  const header = JSON.parse(buffer.subarray(0, newline).toString('utf8')) as {
    format: number;
    blockhashesExpired: number;
    latestBlockhash: string;
    accounts: number;
  };
  if (
    header.format !== FORMAT ||
    !Number.isSafeInteger(header.blockhashesExpired) ||
    header.blockhashesExpired < 0 ||
    typeof header.latestBlockhash !== 'string' ||
    !Number.isSafeInteger(header.accounts)
  ) {
    throw new Error('unexpected header');
  }
  const addresses = getAddressDecoder();
  const accounts: EncodedAccount[] = [];
  let at = newline + 1;
  for (let i = 0; i < header.accounts; i++) {
    if (at + ACCOUNT_FIXED_BYTES > buffer.length) throw new Error('truncated');
    const dataLength = buffer.readUInt32LE(at + 73);
    const end = at + ACCOUNT_FIXED_BYTES + dataLength;
    if (end > buffer.length) throw new Error('truncated');
    const data = new Uint8Array(buffer.subarray(at + ACCOUNT_FIXED_BYTES, end));
    accounts.push({
      address: addresses.decode(buffer.subarray(at, at + 32)),
      programAddress: addresses.decode(buffer.subarray(at + 32, at + 64)),
      lamports: lamports(buffer.readBigUInt64LE(at + 64)),
      executable: buffer.readUInt8(at + 72) === 1,
      data,
      space: BigInt(dataLength),
    });
    at = end;
  }
  if (at !== buffer.length) throw new Error('trailing bytes');
  return { blockhashesExpired: header.blockhashesExpired, latestBlockhash: header.latestBlockhash, accounts };
}
