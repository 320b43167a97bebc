/**
 * The instructions of Solana's upgradeable BPF loader (loader v3) that a deploy needs, encoded
 * here: `@solana-program/loader-v3` 0.3 requires @solana/kit 6, and this app is on kit 8 (see
 * docs/decisions/015-escrow-program.md). Layouts follow agave `loader_v3_instruction.rs`
 * (bincode: a u32 tag, then fields little-endian; a byte vector is a u64 length then its bytes).
 */
import {
  AccountRole,
  type Address,
  address,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';

export const LOADER_V3_PROGRAM_ADDRESS = address('BPFLoaderUpgradeab1e11111111111111111111111');
export const SYSTEM_PROGRAM_ADDRESS = address('11111111111111111111111111111111');
const SYSVAR_RENT = address('SysvarRent111111111111111111111111111111111');
const SYSVAR_CLOCK = address('SysvarC1ock11111111111111111111111111111111');

/** Bytes before the program in a buffer account: state tag u32, Option<authority>. */
export const BUFFER_METADATA_SIZE = 37;
/** A program account: tag u32 + its programdata address. */
export const PROGRAM_ACCOUNT_SIZE = 36;
/** Bytes before the program in a programdata account: tag u32, slot u64, Option<authority>. */
export const PROGRAMDATA_METADATA_SIZE = 45;

function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
}

function u64(value: bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export async function getProgramDataAddress(programAddress: Address): Promise<Address> {
  const [programData] = await getProgramDerivedAddress({
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    seeds: [getAddressEncoder().encode(programAddress)],
  });
  return programData;
}

export function getInitializeBufferInstruction(buffer: Address, authority: Address): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: buffer, role: AccountRole.WRITABLE },
      { address: authority, role: AccountRole.READONLY },
    ],
    data: u32(0),
  };
}

export function getWriteInstruction(
  buffer: Address,
  authority: TransactionSigner,
  offset: number,
  bytes: Uint8Array,
): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: buffer, role: AccountRole.WRITABLE },
      { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
    ] as Instruction['accounts'],
    data: concat(u32(1), u32(offset), u64(BigInt(bytes.length)), bytes),
  };
}

export function getDeployWithMaxDataLenInstruction(input: {
  payer: TransactionSigner;
  programData: Address;
  program: Address;
  buffer: Address;
  authority: TransactionSigner;
  maxDataLen: bigint;
}): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: input.payer.address, role: AccountRole.WRITABLE_SIGNER, signer: input.payer },
      { address: input.programData, role: AccountRole.WRITABLE },
      { address: input.program, role: AccountRole.WRITABLE },
      { address: input.buffer, role: AccountRole.WRITABLE },
      { address: SYSVAR_RENT, role: AccountRole.READONLY },
      { address: SYSVAR_CLOCK, role: AccountRole.READONLY },
      { address: SYSTEM_PROGRAM_ADDRESS, role: AccountRole.READONLY },
      { address: input.authority.address, role: AccountRole.READONLY_SIGNER, signer: input.authority },
    ] as Instruction['accounts'],
    data: concat(u32(2), u64(input.maxDataLen)),
  };
}

/** Replaces a deployed program's bytes with a buffer's; the buffer's lamports go to `spill`. */
export function getUpgradeInstruction(input: {
  programData: Address;
  program: Address;
  buffer: Address;
  spill: Address;
  authority: TransactionSigner;
}): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: input.programData, role: AccountRole.WRITABLE },
      { address: input.program, role: AccountRole.WRITABLE },
      { address: input.buffer, role: AccountRole.WRITABLE },
      { address: input.spill, role: AccountRole.WRITABLE },
      { address: SYSVAR_RENT, role: AccountRole.READONLY },
      { address: SYSVAR_CLOCK, role: AccountRole.READONLY },
      { address: input.authority.address, role: AccountRole.READONLY_SIGNER, signer: input.authority },
    ] as Instruction['accounts'],
    data: u32(3),
  };
}

/** SetAuthority with no new authority: the program can never be upgraded again. */
export function getMakeImmutableInstruction(programData: Address, authority: TransactionSigner): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: programData, role: AccountRole.WRITABLE },
      { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
    ] as Instruction['accounts'],
    data: u32(4),
  };
}

/**
 * SetAuthority to another key, which need not sign (e.g. an offline key or a multisig): from then
 * on only it can upgrade the program or make it immutable.
 */
export function getSetUpgradeAuthorityInstruction(
  programData: Address,
  authority: TransactionSigner,
  newAuthority: Address,
): Instruction {
  return {
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    accounts: [
      { address: programData, role: AccountRole.WRITABLE },
      { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
      { address: newAuthority, role: AccountRole.READONLY },
    ] as Instruction['accounts'],
    data: u32(4),
  };
}
