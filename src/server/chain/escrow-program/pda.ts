import {
  type Address,
  getAddressEncoder,
  getProgramDerivedAddress,
  type ReadonlyUint8Array,
} from '@solana/kit';

const text = new TextEncoder();
const addressBytes = getAddressEncoder();

export interface Pda {
  address: Address;
  bump: number;
}

/**
 * Derived addresses, newest last. Finding one is a bump search with an off-curve test in BigInt
 * arithmetic, about 0.3 ms; a dare's money path asked for the same few a dozen times over (build,
 * relay, verify, record). Bounded: the oldest go first.
 */
const derived = new Map<string, Pda>();
const DERIVED_MAX = 4096;

async function derive(programId: Address, seeds: ReadonlyUint8Array[]): Promise<Pda> {
  const key = `${programId}:${seeds.map((seed) => Buffer.from(seed).toString('base64')).join(':')}`;
  const known = derived.get(key);
  if (known) return known;
  const [address, bump] = await getProgramDerivedAddress({ programAddress: programId, seeds });
  if (derived.size >= DERIVED_MAX) derived.delete(derived.keys().next().value!);
  const pda = Object.freeze({ address, bump });
  derived.set(key, pda);
  return pda;
}

/** A dare's vault: seeds ["vault", dareId], dareId being 32 bytes the creator chooses once. */
export async function findVaultAddress(programId: Address, dareId: ReadonlyUint8Array): Promise<Pda> {
  if (dareId.length !== 32) throw new Error('A dare id is 32 bytes');
  return derive(programId, [text.encode('vault'), dareId]);
}

/** What `payer` put into `vault`: seeds ["receipt", vault, payer]. */
export async function findReceiptAddress(programId: Address, vault: Address, payer: Address): Promise<Pda> {
  return derive(programId, [text.encode('receipt'), addressBytes.encode(vault), addressBytes.encode(payer)]);
}

/** `entrant`'s signed consent to be paid from `vault`: seeds ["entry", vault, entrant]. */
export async function findEntryAddress(programId: Address, vault: Address, entrant: Address): Promise<Pda> {
  return derive(programId, [text.encode('entry'), addressBytes.encode(vault), addressBytes.encode(entrant)]);
}
