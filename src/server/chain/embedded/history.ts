import type { TokenBalance } from './token-balances';
import type { RpcTransactionError } from './transaction-errors';

export interface RecordedInstruction {
  programIdIndex: number;
  accounts: number[];
  /** base58, as the `json` encoding shows it */
  data: string;
  stackHeight: number;
}

/**
 * One executed transaction as a node keeps it. LiteSVM keeps only logs and compute units, so
 * everything getTransaction and getSignaturesForAddress answer with is captured here.
 */
export interface TransactionRecord {
  signature: string;
  slot: number;
  blockTime: number;
  /** The wire transaction, base64. */
  transaction: string;
  /** Static keys, then addresses loaded from lookup tables (writable, then readonly). */
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  /** u64 as decimal strings: JSON numbers lose precision above 2^53 on the way to disk. */
  preBalances: string[];
  postBalances: string[];
  fee: string;
  err: RpcTransactionError | null;
  logMessages: string[];
  innerInstructions: { index: number; instructions: RecordedInstruction[] }[];
  computeUnitsConsumed: number;
  returnData: { programId: string; data: string } | null;
  /** Token accounts among the keys before and after; absent when none (and in older records). */
  preTokenBalances?: TokenBalance[];
  postTokenBalances?: TokenBalance[];
}

/** Every transaction by signature, and per address its transactions in slot order. */
export class TransactionHistory {
  private readonly bySignature = new Map<string, TransactionRecord>();
  /** In slot order, for the newest few (recent prioritization fees). */
  private readonly ordered: TransactionRecord[] = [];
  private readonly byAddress = new Map<string, TransactionRecord[]>();

  get size(): number {
    return this.bySignature.size;
  }

  add(record: TransactionRecord): void {
    this.bySignature.set(record.signature, record);
    this.ordered.push(record);
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key);
      if (list) list.push(record);
      else this.byAddress.set(key, [record]);
    }
  }

  /** The transaction of a slot (one per slot here), if any. */
  inSlot(slot: number): TransactionRecord | undefined {
    const index = this.firstAtOrAfter(slot);
    const record = this.ordered[index];
    return record?.slot === slot ? record : undefined;
  }

  /** Slots in [from, to] that hold a transaction, ascending, at most `limit`. */
  slotsBetween(from: number, to: number, limit: number): number[] {
    const slots: number[] = [];
    for (let index = this.firstAtOrAfter(from); index < this.ordered.length; index += 1) {
      const { slot } = this.ordered[index]!;
      if (slot > to || slots.length >= limit) break;
      slots.push(slot);
    }
    return slots;
  }

  /** Binary search: records are added in slot order. */
  private firstAtOrAfter(slot: number): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.ordered[middle]!.slot < slot) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The newest `count` records, oldest first. */
  newest(count: number): TransactionRecord[] {
    return this.ordered.slice(-count);
  }

  get(signature: string): TransactionRecord | undefined {
    return this.bySignature.get(signature);
  }

  /**
   * Newest first, like getSignaturesForAddress: `before` and `until` are exclusive bounds given as
   * signatures of any transaction; an unknown `before` yields nothing, an unknown `until` no bound.
   */
  forAddress(
    address: string,
    options: { before?: string; until?: string; limit: number },
  ): TransactionRecord[] {
    const list = this.byAddress.get(address) ?? [];
    let beforeSlot = Number.POSITIVE_INFINITY;
    if (options.before !== undefined) {
      const before = this.bySignature.get(options.before);
      if (!before) return [];
      beforeSlot = before.slot;
    }
    const untilSlot = options.until === undefined ? -1 : (this.bySignature.get(options.until)?.slot ?? -1);
    const found: TransactionRecord[] = [];
    for (let index = list.length - 1; index >= 0 && found.length < options.limit; index -= 1) {
      const record = list[index]!;
      if (record.slot <= untilSlot) break;
      if (record.slot < beforeSlot) found.push(record);
    }
    return found;
  }
}
