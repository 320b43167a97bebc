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

/** A dare's vault: seeds ["vault", dareId], dareId being 32 bytes the creator chooses once. */
export async function findVaultAddress(programId: Address, dareId: ReadonlyUint8Array): Promise<Pda> {
  if (dareId.length !== 32) throw new Error('A dare id is 32 bytes');
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: programId,
    seeds: [text.encode('vault'), dareId],
  });
  return { address, bump };
}

/** What `payer` put into `vault`: seeds ["receipt", vault, payer]. */
export async function findReceiptAddress(programId: Address, vault: Address, payer: Address): Promise<Pda> {
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: programId,
    seeds: [text.encode('receipt'), addressBytes.encode(vault), addressBytes.encode(payer)],
  });
  return { address, bump };
}

/** `entrant`'s signed consent to be paid from `vault`: seeds ["entry", vault, entrant]. */
export async function findEntryAddress(programId: Address, vault: Address, entrant: Address): Promise<Pda> {
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: programId,
    seeds: [text.encode('entry'), addressBytes.encode(vault), addressBytes.encode(entrant)],
  });
  return { address, bump };
}
