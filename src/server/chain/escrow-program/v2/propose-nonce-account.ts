import { type Address, createAddressWithSeed } from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';

/**
 * Where a v2 vault's propose nonce lives (decision 042): a System account derived from the fee
 * payer and the vault, no key of its own. Here, not in the judging feature, so the chain-only
 * `npm run refund-dare` can find it. The seed is at most 32 characters: the vault address's
 * first 32 are unique enough per fee payer.
 */
export function proposeNonceAddress(feePayer: Address, vault: Address): Promise<Address> {
  return createAddressWithSeed({
    baseAddress: feePayer,
    programAddress: SYSTEM_PROGRAM_ADDRESS,
    seed: vault.slice(0, 32),
  });
}
