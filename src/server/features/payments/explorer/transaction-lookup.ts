import type { Signature } from '@solana/kit';
import type { TransactionView } from '#contract/payments';
import type { InstructionDecoder } from '#server/chain/escrow-program/decode';
import type { ChainPort } from '#server/chain/port';
import { notFound } from '#server/errors';
import type { ExplorerNames } from '#server/features/payments/repo/explorer-names';
import { limit } from '#server/rate-limit/limit';
import type { RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { addressesOf, describeTransaction, toTransactionView } from './transaction-view';

/** Confirmed transactions kept in memory; the oldest-used goes first. */
const CACHE_ENTRIES = 1000;

/**
 * The local explorer's reads. A confirmed transaction never changes, so it is fetched from the
 * chain once and then served from memory; only lookups that reach the chain count against the
 * caller's limit. A signature not found is not cached: it may land a moment later.
 */
export function createTransactionLookup({
  rpc,
  limiter,
  decode,
  names,
  vaultSizes = new Map(),
}: {
  rpc: ChainPort['rpc'];
  limiter: RateLimiter;
  decode: InstructionDecoder;
  /** A vault's size (bytes) under each escrow program id: the rent a closing vault returns. */
  vaultSizes?: ReadonlyMap<string, number>;
  /** Users' names of wallets and dares of vaults, for the summary. */
  names: (addresses: readonly string[]) => Promise<ExplorerNames>;
}) {
  const cache = new Map<string, TransactionView>();
  let vaultRents: Promise<Map<string, bigint>> | null = null;
  function rentsOfVaults(): Promise<Map<string, bigint>> {
    vaultRents ??= Promise.all(
      [...vaultSizes].map(
        async ([programId, size]) =>
          [programId, await rpc.getMinimumBalanceForRentExemption(BigInt(size)).send()] as const,
      ),
    ).then(
      (rents) => new Map(rents),
      (error: unknown) => {
        vaultRents = null;
        throw error;
      },
    );
    return vaultRents;
  }

  return async function lookUp(signature: string, ip: string): Promise<TransactionView> {
    const cached = cache.get(signature);
    if (cached) {
      cache.delete(signature);
      cache.set(signature, cached);
      return cached;
    }
    await limit(
      limiter,
      `tx-lookup:${ip}`,
      RATE_LIMITS.transactionLookups,
      'Too many transaction lookups; wait a minute',
    );
    let view: TransactionView | null = null;
    try {
      const tx = await rpc
        .getTransaction(signature as Signature, {
          encoding: 'jsonParsed',
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        })
        .send();
      view = tx ? toTransactionView(signature, tx, decode) : null;
    } catch {
      view = null;
    }
    if (!view) throw notFound('Transaction not found');
    view.summary = describeTransaction(view, await names(addressesOf(view)), await rentsOfVaults());
    cache.set(signature, view);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    return view;
  };
}
