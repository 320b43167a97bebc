import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One executed transaction (or airdrop) as a real node would keep it. */
export interface TransactionRecord {
  signature: string;
  slot: number;
  blockTime: number;
  /** base64 wire transaction; null for airdrops (the faucet's transaction is LiteSVM-internal). */
  wire: string | null;
  accountKeys: string[];
  preBalances: string[];
  postBalances: string[];
  fee: number;
  err: unknown;
  logs: string[];
  innerInstructions: {
    index: number;
    instructions: {
      programAddressIndex: number;
      accountIndices: number[];
      data: string;
      stackHeight: number;
    }[];
  }[];
  computeUnits: number;
}

export interface ChainMeta {
  slot: string;
  /** Blockhashes handed out recently, newest last; a transaction must use one of them. */
  recentBlockhashes: string[];
}

/**
 * Files of the embedded chain in its state folder: `svm.bin` (LiteSVM snapshot), `history.jsonl`
 * (append-only transaction records) and `meta.json`. Snapshots are written to a temporary file
 * and renamed, so a crash leaves the previous complete state.
 */
export class ChainFiles {
  readonly snapshot: string;
  private readonly history: string;
  private readonly meta: string;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.snapshot = path.join(dir, 'svm.bin');
    this.history = path.join(dir, 'history.jsonl');
    this.meta = path.join(dir, 'meta.json');
  }

  exists(): boolean {
    return existsSync(this.snapshot) && existsSync(this.meta);
  }

  readMeta(): ChainMeta {
    try {
      const meta = JSON.parse(readFileSync(this.meta, 'utf8')) as ChainMeta;
      if (typeof meta.slot !== 'string' || !Array.isArray(meta.recentBlockhashes))
        throw new Error('bad shape');
      return meta;
    } catch (error) {
      throw new Error(`Embedded chain state is corrupt (${this.meta}): ${(error as Error).message}`);
    }
  }

  readHistory(): TransactionRecord[] {
    if (!existsSync(this.history)) return [];
    const lines = readFileSync(this.history, 'utf8').split('\n');
    const records: TransactionRecord[] = [];
    for (const [index, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        records.push(JSON.parse(line) as TransactionRecord);
      } catch (error) {
        // Only the last line can be cut short by a crash mid-append; anything else is corruption.
        if (index >= lines.length - 2) break;
        throw new Error(
          `Embedded chain history is corrupt (${this.history}, line ${index + 1}): ${(error as Error).message}`,
        );
      }
    }
    return records;
  }

  appendHistory(record: TransactionRecord): void {
    appendFileSync(this.history, `${JSON.stringify(record)}\n`);
  }

  writeMeta(meta: ChainMeta): void {
    this.atomicWrite(this.meta, (tmp) => writeFileSync(tmp, JSON.stringify(meta)));
  }

  atomicWrite(target: string, write: (tmp: string) => void): void {
    const tmp = `${target}.tmp`;
    write(tmp);
    renameSync(tmp, target);
  }
}
