/**
 * A busy cluster played by the localnet (`npm run localnet -- --drop-rate 0.3 --min-priority-fee
 * N`; decision 068): `sendTransaction` answers every transaction with its signature, as a node that
 * forwarded it does, but a leader never lands one paying less than N micro-lamports per compute
 * unit, nor a `dropRate` share of the others, drawn anew at each send. The fee market says so:
 * `getRecentPrioritizationFees` answers no slot below N, as a cluster where only such
 * transactions land. Everything else is the chain's own answer.
 */
import { getBase58Decoder, getBase58Encoder, getBase64Encoder, getTransactionDecoder } from '@solana/kit';
import { computeUnitPrice } from './cluster-info';
import { decodeMessage } from './embedded-ledger';
import { configParam, stringParam } from './json-rpc';
import type { RpcHandler } from './rpc-handler';

export interface Congestion {
  /** The share of sent transactions that never land (0 to 1). */
  dropRate: number;
  /** Transactions paying less per compute unit never land. */
  minPriorityFee: bigint;
  random?: () => number;
}

/** The transaction's id and price, or null when it cannot be read (the chain then answers it). */
function readSent(params: readonly unknown[]): { signature: string; price: bigint } | null {
  try {
    const encoding = configParam(params, 1).encoding === 'base64' ? 'base64' : 'base58';
    const text = stringParam(params, 0, 'a transaction');
    const bytes = encoding === 'base64' ? getBase64Encoder().encode(text) : getBase58Encoder().encode(text);
    const transaction = getTransactionDecoder().decode(bytes);
    const first = Object.values(transaction.signatures)[0];
    if (!first) return null;
    return {
      signature: getBase58Decoder().decode(first),
      price: computeUnitPrice(decodeMessage(transaction.messageBytes)),
    };
  } catch {
    return null;
  }
}

/** `handle` playing a busy cluster; itself when there is no congestion. */
export function withCongestion(handle: RpcHandler, congestion: Congestion | undefined): RpcHandler {
  if (!congestion) return handle;
  const random = congestion.random ?? Math.random;
  return (method, params) => {
    if (method === 'sendTransaction') {
      const sent = readSent(params);
      if (sent && (sent.price < congestion.minPriorityFee || random() < congestion.dropRate))
        return sent.signature;
      return handle(method, params);
    }
    if (method === 'getRecentPrioritizationFees' && congestion.minPriorityFee > 0n) {
      const answer = handle(method, params) as { slot: bigint; prioritizationFee: bigint }[];
      const floor = congestion.minPriorityFee;
      if (answer.length === 0) return [{ slot: handle('getSlot', []) as bigint, prioritizationFee: floor }];
      return answer.map((slot) => ({
        ...slot,
        // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
        prioritizationFee: slot.prioritizationFee > floor ? slot.prioritizationFee : floor,
      }));
    }
    return handle(method, params);
  };
}
