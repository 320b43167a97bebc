import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { SlotClock } from './chain-time';
import type { TransactionRecord } from './history';

/** Start-up refusal with a one-line reason: a damaged chain must not silently become a fresh one. */
export class ChainStateError extends Error {
  override name = 'ChainStateError';
}

export function chainStateError(dir: string, reason: string): ChainStateError {
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  return new ChainStateError(
    `Embedded chain state in ${dir} is unreadable: ${oneLine}. Move that folder aside to start a fresh chain.`,
  );
}

export interface ChainSnapshot {
  slot: number;
  /** Recent blockhashes with the slot each was made in, oldest first. */
  blockhashes: { blockhash: string; slot: number }[];
  /**
   * How slots follow the clock and what each slot's blockhash derives from; absent in a state saved
   * before slots followed the clock (its `blockhashes` are then LiteSVM's, honoured as they were).
   */
  timing?: ChainTiming;
  svm: Uint8Array;
}

/**
 * 2: the snapshot is svm-state.ts's encoding. 1: LiteSVM 1.5's own snapshot, which the LiteSVM used
 * now cannot read; such a chain is rebuilt from its log (ledger.ts).
 */
const FORMAT = 2;

export interface ChainTiming {
  clock: SlotClock;
  /** hex */
  blockhashSeed: string;
}

interface StateHeader {
  format: 1 | 2;
  slot: number;
  blockhashes: [string, number][];
  timing?: ChainTiming;
  historyBytes: number;
  historyCount: number;
  svmBytes: number;
  svmCrc32: number;
}

const STATE_FILE = 'state.bin';
const HISTORY_FILE = 'history.jsonl';
// Files that mean "a chain lived here" even when state.bin is missing.
const CHAIN_FILES = [HISTORY_FILE, 'svm.bin', 'meta.json'];

/** Whether a chain lived in `dir` already (a start there loads it rather than making a new one). */
export function chainStateExists(dir: string): boolean {
  return [STATE_FILE, ...CHAIN_FILES].some((name) => existsSync(path.join(dir, name)));
}

/**
 * The embedded chain on disk, as a write-ahead log: `history.jsonl` holds one transaction record
 * per line, appended and fsynced before the chain answers for them; `state.bin` holds a JSON header
 * line (slot, blockhash window, how much of the history it covers, a checksum) followed by a
 * LiteSVM snapshot, replaced atomically (temp file, fsync, rename) now and then. A start loads the
 * snapshot and executes the records past it again, so a crash at any point loses nothing that was
 * answered; a record cut off halfway (the crash came mid-append) was never answered and is dropped.
 */
export class ChainStateFiles {
  private readonly statePath: string;
  private readonly historyPath: string;
  /** What history.jsonl holds (complete records only). */
  private historyBytes = 0;
  private historyCount = 0;
  /** How many records the snapshot in state.bin covers. */
  private snapshotCount = 0;

  constructor(readonly dir: string) {
    this.statePath = path.join(dir, STATE_FILE);
    this.historyPath = path.join(dir, HISTORY_FILE);
  }

  /**
   * The saved chain, or null when there is none yet; throws ChainStateError when it is damaged.
   * `records` are the ones the snapshot covers; `replay` the complete ones appended after it, whose
   * effects the snapshot does not hold yet.
   */
  load(): {
    /** `svm` is null for a format 1 file: only the records can rebuild that state. */
    snapshot: Omit<ChainSnapshot, 'svm'> & { svm: Uint8Array | null };
    records: TransactionRecord[];
    replay: TransactionRecord[];
  } | null {
    if (!existsSync(this.statePath)) {
      const leftovers = CHAIN_FILES.filter((name) => existsSync(path.join(this.dir, name)));
      if (leftovers.length > 0) {
        throw chainStateError(
          this.dir,
          `${leftovers.join(', ')} without ${STATE_FILE} (an older format, or a state file deleted by hand)`,
        );
      }
      mkdirSync(this.dir, { recursive: true });
      return null;
    }
    const header = this.readState();
    const { records, replay } = this.readHistory(header);
    return {
      snapshot: {
        slot: header.slot,
        blockhashes: header.blockhashes.map(([blockhash, slot]) => ({ blockhash, slot })),
        ...(header.timing ? { timing: header.timing } : {}),
        svm: header.format === FORMAT ? header.svm : null,
      },
      records,
      replay,
    };
  }

  /** Durably appends records (the log); a failed append's tail is overwritten by the next one. */
  append(newRecords: readonly TransactionRecord[]): void {
    if (newRecords.length === 0) return;
    const lines = Buffer.from(newRecords.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const fd = openSync(this.historyPath, constants.O_WRONLY | constants.O_CREAT);
    try {
      // Writing at the logged length (not appending) overwrites a tail left by a failed append.
      ftruncateSync(fd, this.historyBytes);
      writeSync(fd, lines, 0, lines.length, this.historyBytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.historyBytes += lines.length;
    this.historyCount += newRecords.length;
  }

  /** How many appended records the last snapshot does not cover (replayed on the next start). */
  get recordsSinceSnapshot(): number {
    return this.historyCount - this.snapshotCount;
  }

  /** Atomically replaces the snapshot with one covering every record appended so far. */
  writeSnapshot(snapshot: ChainSnapshot): void {
    const header: StateHeader = {
      format: FORMAT,
      slot: snapshot.slot,
      blockhashes: snapshot.blockhashes.map(({ blockhash, slot }) => [blockhash, slot]),
      ...(snapshot.timing ? { timing: snapshot.timing } : {}),
      historyBytes: this.historyBytes,
      historyCount: this.historyCount,
      svmBytes: snapshot.svm.length,
      svmCrc32: crc32(snapshot.svm),
    };
    const tmp = `${this.statePath}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, `${JSON.stringify(header)}\n`);
      writeSync(fd, snapshot.svm);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.statePath);
    syncDirectory(this.dir);
    this.snapshotCount = this.historyCount;
  }

  private readState(): StateHeader & { svm: Uint8Array } {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.statePath);
    } catch (error) {
      throw chainStateError(this.dir, (error as Error).message);
    }
    const newline = bytes.indexOf(0x0a);
    let header: StateHeader;
    try {
      if (newline < 0) throw new Error('no header line');
      header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as StateHeader;
      if (
        (header.format !== FORMAT && header.format !== 1) ||
        !Number.isSafeInteger(header.slot) ||
        !Array.isArray(header.blockhashes) ||
        header.blockhashes.length === 0 ||
        !Number.isSafeInteger(header.historyBytes) ||
        !Number.isSafeInteger(header.historyCount) ||
        (header.timing !== undefined && !isTiming(header.timing))
      ) {
        throw new Error('unexpected header');
      }
    } catch (error) {
      throw chainStateError(this.dir, `${STATE_FILE}: ${(error as Error).message}`);
    }
    const svm = bytes.subarray(newline + 1);
    if (svm.length !== header.svmBytes || crc32(svm) !== header.svmCrc32) {
      throw chainStateError(
        this.dir,
        `${STATE_FILE}: the snapshot is truncated or damaged (checksum mismatch)`,
      );
    }
    return { ...header, svm: new Uint8Array(svm) };
  }

  private readHistory(header: StateHeader): { records: TransactionRecord[]; replay: TransactionRecord[] } {
    let bytes: Buffer;
    try {
      bytes =
        existsSync(this.historyPath) || header.historyBytes > 0
          ? readFileSync(this.historyPath)
          : Buffer.alloc(0);
    } catch (error) {
      throw chainStateError(this.dir, `${HISTORY_FILE}: ${(error as Error).message}`);
    }
    if (bytes.length < header.historyBytes) {
      throw chainStateError(
        this.dir,
        `${HISTORY_FILE} holds ${bytes.length} bytes but the saved state covers ${header.historyBytes}`,
      );
    }
    const records = this.parseLines(bytes.subarray(0, header.historyBytes));
    if (records.length !== header.historyCount) {
      throw chainStateError(
        this.dir,
        `${HISTORY_FILE} holds ${records.length} records but the saved state expects ${header.historyCount}`,
      );
    }
    // The log past the snapshot: complete lines are records answered for; the first line that is
    // not (cut off by a crash mid-append, never answered for) ends the log, and is cut off.
    const replay: TransactionRecord[] = [];
    let end = header.historyBytes;
    while (end < bytes.length) {
      const newline = bytes.indexOf(0x0a, end);
      if (newline < 0) break;
      const record = parseRecord(bytes.subarray(end, newline).toString('utf8'));
      if (!record) break;
      replay.push(record);
      end = newline + 1;
    }
    if (bytes.length > end) truncateSync(this.historyPath, end);
    this.historyBytes = end;
    this.historyCount = records.length + replay.length;
    this.snapshotCount = records.length;
    return { records, replay };
  }

  private parseLines(bytes: Buffer): TransactionRecord[] {
    const lines = bytes.toString('utf8').split('\n');
    lines.pop(); // the text ends with a newline
    return lines.map((line, index) => {
      const record = parseRecord(line);
      if (!record) {
        throw chainStateError(this.dir, `${HISTORY_FILE} line ${index + 1}: not a transaction record`);
      }
      return record;
    });
  }
}

function parseRecord(line: string): TransactionRecord | null {
  try {
    const record = JSON.parse(line) as TransactionRecord;
    return typeof record?.signature === 'string' && typeof record.transaction === 'string' ? record : null;
  } catch {
    return null;
  }
}

function isTiming(value: ChainTiming): boolean {
  const clock = value?.clock;
  return (
    typeof value?.blockhashSeed === 'string' &&
    /^[0-9a-f]{64}$/.test(value.blockhashSeed) &&
    [clock?.anchorSlot, clock?.anchorMs, clock?.offsetMs].every(Number.isSafeInteger)
  );
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
