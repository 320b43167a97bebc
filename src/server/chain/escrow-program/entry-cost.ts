/**
 * What entering a dare takes from the entrant's wallet: the entry account's rent (returned to the
 * entrant when the entry closes) and the network fee of the one signature the entry carries.
 */
import type { GetMinimumBalanceForRentExemptionApi, Rpc } from '@solana/kit';
import { ENTRY_SIZE } from './layout';

/** Solana's base fee; an entry has one signature, the entrant's (no priority fee is added). */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

export interface EntryCost {
  rent: bigint;
  fee: bigint;
  total: bigint;
  /**
   * A wallet left with lamports must keep at least this (the rent-exempt minimum of an empty
   * account), else the chain refuses the transaction: it may be emptied, or keep this much.
   */
  walletMinimum: bigint;
}

/** What a wallet holding `balance` must hold to enter, or null when it can. */
export function entryShortfall(cost: EntryCost, balance: bigint): bigint | null {
  if (balance === cost.total || balance >= cost.total + cost.walletMinimum) return null;
  return balance < cost.total ? cost.total : cost.total + cost.walletMinimum;
}

/**
 * The cost on this chain, read once (rent parameters do not change while a cluster runs); a
 * failed read is not kept, so the next call asks again.
 */
export function createEntryCost(
  rpc: Rpc<GetMinimumBalanceForRentExemptionApi>,
  /** The entry account's size: v1's by default (v2's entry also holds the proof's hash). */
  entrySize: number = ENTRY_SIZE,
): () => Promise<EntryCost> {
  let cached: Promise<EntryCost> | undefined;
  return () => {
    cached ??= Promise.all([
      rpc.getMinimumBalanceForRentExemption(BigInt(entrySize)).send(),
      rpc.getMinimumBalanceForRentExemption(0n).send(),
    ])
      .then(([rent, walletMinimum]) => ({
        rent,
        fee: LAMPORTS_PER_SIGNATURE,
        total: rent + LAMPORTS_PER_SIGNATURE,
        walletMinimum,
      }))
      .catch((error: unknown) => {
        cached = undefined;
        throw error;
      });
    return cached;
  };
}
