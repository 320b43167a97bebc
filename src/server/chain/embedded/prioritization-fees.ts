/**
 * The compute-unit price each processed transaction paid, read once per transaction: every
 * transaction the app builds asks `getRecentPrioritizationFees` (compute-budget.ts), and decoding
 * the last 150 slots' transactions afresh cost about 15 ms a call on the money path.
 */
import { getBase64Encoder, getTransactionDecoder } from '@solana/kit';
import { computeUnitPrice } from './cluster-info';
import { decodeMessage } from './embedded-ledger';
import type { TransactionRecord } from './history';

const prices = new WeakMap<TransactionRecord, bigint>();

export function recordedPrice(record: TransactionRecord): bigint {
  let price = prices.get(record);
  if (price === undefined) {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(record.transaction));
    price = computeUnitPrice(decodeMessage(transaction.messageBytes));
    prices.set(record, price);
  }
  return price;
}
