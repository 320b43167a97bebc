/**
 * What entering a dare takes from the entrant's wallet: the entry account's rent (returned to the
 * entrant when the entry closes) and the network fee of the one signature the entry carries, its
 * priority fee at the price of the moment included (compute-budget.ts).
 */
import type { GetMinimumBalanceForRentExemptionApi, GetRecentPrioritizationFeesApi, Rpc } from '@solana/kit';
import { walletTransactionFee } from '#server/chain/compute-budget';
import { INSTRUCTION } from './instructions';
import { ENTRY_SIZE } from './layout';

export { LAMPORTS_PER_SIGNATURE } from '#server/chain/compute-budget';

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
 * The cost on this chain: the rent read once (rent parameters do not change while a cluster runs;
 * a failed read is not kept, so the next call asks again), the fee at the price of the moment.
 */
export function createEntryCost(
  rpc: Rpc<GetMinimumBalanceForRentExemptionApi & GetRecentPrioritizationFeesApi>,
  /** The entry account's size: v1's by default (v2's entry also holds the proof's hash). */
  entrySize: number = ENTRY_SIZE,
): () => Promise<EntryCost> {
  let rents: Promise<{ rent: bigint; walletMinimum: bigint }> | undefined;
  return async () => {
    rents ??= Promise.all([
      rpc.getMinimumBalanceForRentExemption(BigInt(entrySize)).send(),
      rpc.getMinimumBalanceForRentExemption(0n).send(),
    ])
      .then(([rent, walletMinimum]) => ({ rent, walletMinimum }))
      .catch((error: unknown) => {
        rents = undefined;
        throw error;
      });
    const [{ rent, walletMinimum }, fee] = await Promise.all([
      rents,
      walletTransactionFee(rpc, INSTRUCTION.enter),
    ]);
    return { rent, fee, total: rent + fee, walletMinimum };
  };
}
