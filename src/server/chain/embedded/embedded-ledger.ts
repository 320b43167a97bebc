import {
  type Address,
  type EncodedAccount,
  getAddressDecoder,
  getBase58Decoder,
  getBase64Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type MaybeEncodedAccount,
  type Transaction,
} from '@solana/kit';
import type { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { liteSvm } from '#server/chain/litesvm-native';
import { blockhashOfSlot, newBlockhashSeed, SLOT_MS, type SlotClock } from './chain-time';
import { type EpochScheduleValues, epochOf } from './epochs';
import { Faucet, hasFaucetKey } from './faucet';
import { TransactionHistory, type TransactionRecord } from './history';
import { JsonRpcError, RPC_ERROR } from './json-rpc';
import { type ChainStateFiles, chainStateError } from './state-files';
import { decodeSvmState, restoreSvmState, SvmSnapshots } from './svm-state';
import { tokenBalancesOf } from './token-balances';
import {
  describeRpcTransactionError,
  type RpcTransactionError,
  toRpcTransactionError,
} from './transaction-errors';

/** How many slots a blockhash stays usable on a real cluster (agave MAX_PROCESSING_AGE). */
export const MAX_PROCESSING_AGE = 150;
const MAX_TRANSACTION_BYTES = 1232;
const FAUCET_LAMPORTS = 10n ** 18n; // a billion SOL: airdrops never run it dry in practice
/** A one-signature transaction's fee: what the legacy faucet keeps back to pay for its last transfer. */
const LEGACY_MOVE_FEE = 5_000n;
const LOOKUP_TABLE_META_SIZE = 56;
const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
/**
 * Records between two snapshots of the whole state. A snapshot (~1.4 MB) took ~5 ms per
 * transaction when it was written after each one; a start now replays at most this many records
 * (about 1 ms each) instead.
 */
export const SNAPSHOT_EVERY = 64;

const base58 = getBase58Decoder();
const base64 = getBase64Decoder();

type CompiledMessage = ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;
export type LegacyOrV0Message = Extract<CompiledMessage, { version: 'legacy' | 0 }>;

export interface DecodedTransaction {
  bytes: Uint8Array;
  transaction: Transaction;
  message: LegacyOrV0Message;
  /** The fee payer's signature, base58: the transaction's id. */
  signature: string;
  isFullySigned: boolean;
}

export interface SimulationResult {
  err: RpcTransactionError | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  innerInstructions: TransactionRecord['innerInstructions'];
  accountKeys: string[];
  postAccounts: Map<string, EncodedAccount>;
}

export type { EpochScheduleValues } from './epochs';

/** What an executed transaction changed, for subscriptions (signature, account and slot). */
export interface ExecutedTransaction {
  record: TransactionRecord;
  /** Accounts the transaction wrote: its writable keys, or only the fee payer when it failed. */
  written: string[];
}

export function decodeMessage(messageBytes: Transaction['messageBytes']): LegacyOrV0Message {
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  if (message.version !== 'legacy' && message.version !== 0) {
    throw new JsonRpcError(
      RPC_ERROR.invalidParams,
      'invalid transaction: Transaction version is unsupported',
    );
  }
  return message;
}

/**
 * The chain's state machine: LiteSVM plus what a node has and LiteSVM lacks — slots that move with
 * wall-clock time (one every SLOT_MS, and at least one per transaction), a blockhash per slot that
 * stays usable for MAX_PROCESSING_AGE slots, a faucet, and a transaction history. Every
 * method runs synchronously, so each change is one atomic step; saving to disk is batched behind
 * `whenSaved()`, which callers await before answering. What is saved before an answer is the
 * transaction's record (an append to the log); the whole state is snapshotted every
 * SNAPSHOT_EVERY records and at close, and a start executes the records past it again.
 */
export class EmbeddedLedger {
  private readonly faucet: Faucet;
  private unsaved: TransactionRecord[] = [];
  private dirty = false;
  private saving: Promise<void> | null = null;
  private failure: JsonRpcError | null = null;
  private closed = false;
  private readonly listeners = new Set<(executed: ExecutedTransaction) => void>();

  /** Usable blockhashes and the slot each belongs to (pruned as slots pass). */
  private readonly recentBlockhashes = new Map<string, number>();
  /** The slot up to which recentBlockhashes holds this chain's own per-slot hashes. */
  private hashedUpTo = -1;
  /** Unix seconds the Clock sysvar was last pointed at, so a read sets it only when it moved. */
  private clockSeconds = -1;

  private constructor(
    private readonly svm: LiteSVM,
    private slot: number,
    private readonly slotClock: SlotClock,
    private readonly blockhashSeed: Uint8Array,
    /** Blockhashes of a chain saved before slots followed the clock: honoured through their window. */
    legacyBlockhashes: { blockhash: string; slot: number }[],
    private readonly history: TransactionHistory,
    private readonly files: ChainStateFiles | null,
    private readonly clock: () => Date,
    /** Times the blockhash was expired since the fresh LiteSVM (a snapshot restores it so). */
    private blockhashesExpired: number,
    /** What a snapshot saves: every account recorded transactions wrote (svm-state.ts). */
    private readonly snapshots: SvmSnapshots,
  ) {
    this.faucet = Faucet.ofFolder(files?.dir ?? null);
    for (const { blockhash, slot: at } of legacyBlockhashes) this.recentBlockhashes.set(blockhash, at);
  }

  static open(files: ChainStateFiles | null, clock: () => Date): EmbeddedLedger {
    const saved = files?.load() ?? null;
    if (saved?.snapshot.svm === null) {
      // Written by litesvm 1.5, whose snapshots 1.4.1 cannot read: the log holds every transaction
      // since the fresh chain, so executing it again rebuilds the same state.
      const madeBeforeOwnFaucet = files !== null && !hasFaucetKey(files.dir);
      const ledger = EmbeddedLedger.genesis(files, clock, madeBeforeOwnFaucet);
      for (const record of [...saved.records, ...saved.replay]) ledger.replay(record);
      if (madeBeforeOwnFaucet) ledger.moveLegacyFaucet();
      ledger.saveNow({ snapshot: true });
      return ledger;
    }
    if (saved) {
      const svm = configure(new (liteSvm().LiteSVM)());
      let blockhashesExpired: number;
      let snapshots: SvmSnapshots;
      try {
        const state = decodeSvmState(saved.snapshot.svm);
        restoreSvmState(svm, state);
        blockhashesExpired = state.blockhashesExpired;
        snapshots = new SvmSnapshots(state);
      } catch (error) {
        throw chainStateError(files!.dir, `state.bin: ${(error as Error).message}`);
      }
      const history = new TransactionHistory();
      for (const record of saved.records) history.add(record);
      const { slot, blockhashes, timing } = saved.snapshot;
      // A chain saved before slots followed the clock starts its clock where it stopped, now.
      const slotClock = timing?.clock ?? { anchorSlot: slot, anchorMs: clock().getTime(), offsetMs: 0 };
      const seed = timing
        ? new Uint8Array(Buffer.from(timing.blockhashSeed, 'hex'))
        : newBlockhashSeed(blockhashes[0]?.blockhash ?? '');
      const ledger = new EmbeddedLedger(
        svm,
        slot,
        slotClock,
        seed,
        timing ? [] : blockhashes,
        history,
        files,
        clock,
        blockhashesExpired,
        snapshots,
      );
      for (const record of saved.replay) ledger.replay(record);
      ledger.tick();
      ledger.alignEpochStart();
      if (ledger.moveLegacyFaucet()) ledger.saveNow({ snapshot: true });
      // Replayed once: the next start begins from here. An older state gets its clock saved now,
      // so the slots handed out from here on never move back after a crash.
      if (saved.replay.length > 0 || !timing) ledger.saveNow({ snapshot: true });
      return ledger;
    }
    const ledger = EmbeddedLedger.genesis(files, clock);
    // Saved at once: blockhashes handed out before the first transaction must survive a restart.
    ledger.saveNow({ snapshot: true });
    return ledger;
  }

  /** A fresh chain: LiteSVM as it starts, at the app's time, with the faucet funded. */
  private static genesis(
    files: ChainStateFiles | null,
    clock: () => Date,
    /**
     * A chain rebuilt from saved records funds the key a folder made before decision 056 paid
     * airdrops from too, so those records replay as they ran.
     */
    fundLegacyFaucet = false,
  ): EmbeddedLedger {
    const svm = configure(new (liteSvm().LiteSVM)());
    // Start where LiteSVM's clock starts (a mainnet-like slot), at the app's time, not at 1970.
    const slot = Number(svm.getClock().slot);
    const ledger = new EmbeddedLedger(
      svm,
      slot,
      { anchorSlot: slot, anchorMs: clock().getTime(), offsetMs: 0 },
      newBlockhashSeed(),
      [],
      new TransactionHistory(),
      files,
      clock,
      0,
      new SvmSnapshots(),
    );
    ledger.setClock(slot);
    ledger.tick();
    ledger.fundFaucet(ledger.faucet.address);
    if (fundLegacyFaucet) ledger.fundFaucet(Faucet.legacy().address);
    return ledger;
  }

  /** The chain's time in milliseconds: the app's clock plus whatever tests moved it forward. */
  private nowMs(): number {
    return this.clock().getTime() + this.slotClock.offsetMs;
  }

  /** The slot wall-clock time has reached (transactions may have pushed the chain past it). */
  private slotByTime(): number {
    const { anchorSlot, anchorMs } = this.slotClock;
    return anchorSlot + Math.max(0, Math.floor((this.nowMs() - anchorMs) / SLOT_MS));
  }

  /**
   * Brings the chain up to the time: slots that passed without transactions are produced (empty),
   * and the Clock sysvar shows the current slot, epoch and time. Every read calls it first, so an
   * idle chain answers exactly as if it had been ticking all along.
   */
  private tick(): void {
    if (this.closed) return;
    const bySlot = this.slotByTime();
    const seconds = Math.floor(this.nowMs() / 1000);
    if (bySlot > this.slot) {
      this.slot = bySlot;
      this.setClock(this.slot, seconds);
    } else if (seconds > this.clockSeconds) {
      this.setClock(this.slot, seconds);
    }
    this.hashWindow();
  }

  /**
   * Chains saved before the Clock's epoch start followed the slots named the first start instead
   * (up to a day late); such a start is moved back to the epoch's first slot.
   */
  private alignEpochStart(): void {
    const clock = this.svm.getClock();
    const { slotIndex } = epochOf(this.epochSchedule(), clock.slot);
    const start = epochStartTime(Number(clock.unixTimestamp), slotIndex);
    if (clock.epochStartTimestamp - start <= 60n) return;
    clock.epochStartTimestamp = start;
    this.svm.setClock(clock);
  }

  /** Keeps recentBlockhashes to the slots whose blockhash can still land. */
  private hashWindow(): void {
    if (this.slot <= this.hashedUpTo) return;
    const oldest = this.slot - MAX_PROCESSING_AGE;
    for (let at = Math.max(this.hashedUpTo + 1, oldest); at <= this.slot; at += 1) {
      this.recentBlockhashes.set(blockhashOfSlot(this.blockhashSeed, at), at);
    }
    this.hashedUpTo = Math.max(this.hashedUpTo, this.slot);
    for (const [blockhash, at] of this.recentBlockhashes) {
      if (at < oldest) this.recentBlockhashes.delete(blockhash);
    }
  }

  /**
   * Moves the chain's clock forward by `seconds` (tests only: the server exposes it only with
   * EMBEDDED_CHAIN_TEST_CONTROLS=1): slots, the Clock sysvar and blockhash expiry all follow.
   */
  warp(seconds: number): void {
    this.assertUsable();
    if (!Number.isFinite(seconds) || seconds <= 0) throw new RangeError('warp: seconds must be positive');
    this.slotClock.offsetMs += Math.round(seconds * 1000);
    this.tick();
    // The offset is part of the chain's time: a restart must not move the Clock sysvar back.
    if (this.files) this.saveNow({ snapshot: true });
  }

  /** Unix seconds by the chain's clock (what the Clock sysvar shows now). */
  get unixTime(): number {
    this.tick();
    return Math.floor(this.nowMs() / 1000);
  }

  /** The blockhash of a slot (each slot has its own, derived from the chain's seed). */
  blockhashOf(slot: number): string {
    return blockhashOfSlot(this.blockhashSeed, slot);
  }

  /** Slots that hold a transaction, in order, within [from, to]. */
  slotsWithTransactions(from: number, to: number, limit: number): number[] {
    return this.history.slotsBetween(from, to, limit);
  }

  transactionInSlot(slot: number): TransactionRecord | undefined {
    return this.history.inSlot(slot);
  }

  /** The slot this chain's clock started from: blocks are served from here on. */
  get firstSlot(): number {
    return this.slotClock.anchorSlot;
  }

  get currentSlot(): number {
    this.tick();
    return this.slot;
  }

  get transactionCount(): number {
    return this.history.size;
  }

  /** Transactions of the last `slots` slots, oldest first (one transaction per slot here). */
  recentTransactions(slots: number): TransactionRecord[] {
    const current = this.currentSlot;
    return this.history.newest(slots).filter((record) => record.slot > current - slots);
  }

  epochOf(slot: number): bigint {
    return epochOf(this.epochSchedule(), BigInt(slot)).epoch;
  }

  epochSchedule(): EpochScheduleValues {
    const { slotsPerEpoch, leaderScheduleSlotOffset, warmup, firstNormalEpoch, firstNormalSlot } =
      this.svm.getEpochSchedule();
    return { slotsPerEpoch, leaderScheduleSlotOffset, warmup, firstNormalEpoch, firstNormalSlot };
  }

  /**
   * Calls `listener` synchronously after each executed transaction (airdrops included), in slot
   * order and before the change is on disk; returns the unsubscribe function.
   */
  onExecuted(listener: (executed: ExecutedTransaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const slot = this.currentSlot;
    return { blockhash: this.blockhashOf(slot), lastValidBlockHeight: slot + MAX_PROCESSING_AGE };
  }

  /**
   * Whether a transaction using this blockhash can still land (in the next slot): while the block
   * height has not passed lastValidBlockHeight. That is exactly when kit's blockheight check calls
   * a transaction expired, so a client never waits on one that can no longer land.
   */
  isBlockhashValid(blockhash: string): boolean {
    this.tick();
    const at = this.recentBlockhashes.get(blockhash);
    return at !== undefined && at + MAX_PROCESSING_AGE >= this.slot;
  }

  /**
   * Whether the transaction's lifetime can still land: a recent blockhash, or a durable nonce (its
   * first instruction advances a nonce account that holds its lifetime token now), as a node checks.
   */
  isLifetimeValid(message: LegacyOrV0Message): boolean {
    return this.isBlockhashValid(message.lifetimeToken) || this.isDurableNonceValid(message);
  }

  private isDurableNonceValid(message: LegacyOrV0Message): boolean {
    const first = message.instructions[0];
    if (!first || String(message.staticAccounts[first.programAddressIndex]) !== SYSTEM_PROGRAM_ID)
      return false;
    const data = first.data;
    // SystemInstruction::AdvanceNonceAccount is 4 (u32, little endian).
    if (data?.length !== 4 || Array.from(data).join(',') !== '4,0,0,0') return false;
    const nonceIndex = first.accountIndices?.[0];
    const nonceAddress = nonceIndex === undefined ? undefined : message.staticAccounts[nonceIndex];
    if (!nonceAddress) return false;
    const account = this.svm.getAccount(nonceAddress);
    if (!account.exists || String(account.programAddress) !== SYSTEM_PROGRAM_ID || account.data.length !== 80)
      return false;
    // Versions (u32), State (u32: 1 initialized), authority (32), durable nonce (32), fee.
    const view = new DataView(account.data.buffer, account.data.byteOffset, account.data.byteLength);
    if (view.getUint32(4, true) !== 1) return false;
    return base58.decode(account.data.subarray(40, 72)) === message.lifetimeToken;
  }

  balance(address: Address): bigint {
    return this.svm.getBalance(address) ?? 0n;
  }

  account(address: Address): MaybeEncodedAccount {
    // The Clock sysvar among them: it must show the time now, not the last transaction's.
    this.tick();
    return this.svm.getAccount(address);
  }

  /** Every live account `owner` owns (LiteSVM keeps them by owner; closed ones are gone). */
  programAccounts(owner: Address): EncodedAccount[] {
    return this.svm.getProgramAccounts(owner);
  }

  minimumBalanceForRentExemption(dataLength: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(dataLength);
  }

  transaction(signature: string): TransactionRecord | undefined {
    return this.history.get(signature);
  }

  signaturesFor(address: string, options: { before?: string; until?: string; limit: number }) {
    return this.history.forAddress(address, options);
  }

  decode(bytes: Uint8Array, encodedLength: number, encoding: string): DecodedTransaction {
    if (bytes.length > MAX_TRANSACTION_BYTES) {
      throw new JsonRpcError(
        RPC_ERROR.invalidParams,
        `${encoding} encoded solana_transaction::versioned::VersionedTransaction too large: ${encodedLength} bytes (max: raw ${MAX_TRANSACTION_BYTES} bytes)`,
      );
    }
    let transaction: Transaction;
    let message: LegacyOrV0Message;
    try {
      transaction = getTransactionDecoder().decode(bytes);
      message = decodeMessage(transaction.messageBytes);
    } catch (error) {
      if (error instanceof JsonRpcError) throw error;
      throw new JsonRpcError(
        RPC_ERROR.invalidParams,
        'failed to deserialize solana_transaction::versioned::VersionedTransaction',
      );
    }
    const feePayer = message.staticAccounts[0];
    const feePayerSignature = feePayer ? transaction.signatures[feePayer] : null;
    return {
      bytes,
      transaction,
      message,
      signature: base58.decode(feePayerSignature ?? new Uint8Array(64)),
      isFullySigned: Object.values(transaction.signatures).every((signature) => signature !== null),
    };
  }

  /**
   * Runs the transaction without keeping its effects, like simulateTransaction: errors come back
   * in the result, not thrown, except a bad signature when signatures are checked.
   */
  simulate(
    tx: DecodedTransaction,
    options: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): SimulationResult {
    this.assertUsable();
    const accountKeys = this.accountKeysOf(tx.message)?.all ?? tx.message.staticAccounts.map(String);
    const empty = { logs: [], unitsConsumed: 0n, returnData: null, innerInstructions: [], accountKeys };
    if (options.sigVerify && !tx.isFullySigned) throw signatureVerificationFailure();
    if (!options.replaceRecentBlockhash && !this.isLifetimeValid(tx.message)) {
      return { ...empty, err: 'BlockhashNotFound', postAccounts: new Map() };
    }
    const result = this.runSimulation(tx.transaction, options.sigVerify);
    if (isFailed(result)) {
      const err = toRpcTransactionError(result.err());
      if (err === 'SignatureFailure') throw signatureVerificationFailure();
      const meta = result.meta();
      return {
        ...empty,
        err,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        postAccounts: new Map(),
      };
    }
    const meta = result.meta();
    const postAccounts = new Map(
      result.postAccounts().map((account) => [account.address as string, account]),
    );
    return {
      err: null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData: returnDataOf(meta),
      innerInstructions: innerInstructionsOf(meta),
      accountKeys,
      postAccounts,
    };
  }

  private runSimulation(transaction: Transaction, sigVerify: boolean) {
    if (sigVerify) return this.simulateAtNextSlot(transaction);
    this.svm.withSigverify(false);
    try {
      return this.simulateAtNextSlot(transaction);
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /**
   * Simulates as the transaction would execute: in the next slot, at the app's time now. The Clock
   * sysvar otherwise still shows the last transaction's time, however long the chain sat idle, and
   * a refund already due (or a deposit already too late) would be judged by a stale clock.
   */
  private simulateAtNextSlot(transaction: Transaction) {
    this.tick();
    const previousClock = this.svm.getClock();
    this.setClock(this.slot + 1, Math.floor(this.nowMs() / 1000));
    try {
      return this.svm.simulateTransaction(transaction);
    } finally {
      this.svm.setClock(previousClock);
    }
  }

  /**
   * sendTransaction. With preflight (the default on real nodes), a transaction that would fail is
   * refused with -32002 and costs nothing. A transaction that is executed is recorded even when it
   * fails, because it paid its fee. With skipPreflight, one that cannot be executed at all is
   * dropped as a real leader drops it: the signature comes back and never gets a status.
   */
  send(tx: DecodedTransaction, options: { skipPreflight: boolean }): string {
    this.assertUsable();
    // Real nodes check signatures before anything else, preflight or not.
    if (!tx.isFullySigned) throw signatureVerificationFailure();
    const refuse = (err: RpcTransactionError, logs: string[] = [], unitsConsumed = 0n): string => {
      if (options.skipPreflight) return tx.signature;
      throw preflightFailure(err, logs, unitsConsumed);
    };
    if (!this.isLifetimeValid(tx.message)) return refuse('BlockhashNotFound');
    if (this.history.get(tx.signature)) return refuse('AlreadyProcessed');
    if (!options.skipPreflight) {
      const simulation = this.simulateAtNextSlot(tx.transaction);
      if (isFailed(simulation)) {
        const err = toRpcTransactionError(simulation.err());
        if (err === 'SignatureFailure') throw signatureVerificationFailure();
        const meta = simulation.meta();
        return refuse(err, meta.logs(), meta.computeUnitsConsumed());
      }
    }
    const outcome = this.execute(tx);
    if (outcome.recorded) return tx.signature;
    if (outcome.err === 'SignatureFailure') throw signatureVerificationFailure();
    return refuse(outcome.err, outcome.logs);
  }

  /** The address airdrops are paid from (its key is the data folder's own: faucet.ts). */
  get faucetAddress(): Address {
    return this.faucet.address;
  }

  /** requestAirdrop: a real transfer from the faucet, through the same path as any transaction. */
  airdrop(to: Address, lamports: bigint): string {
    this.assertUsable();
    if (lamports <= 0n)
      throw new JsonRpcError(RPC_ERROR.invalidParams, 'Invalid params: lamports must be positive');
    if (this.balance(this.faucet.address) < lamports + 10_000n) {
      throw new JsonRpcError(RPC_ERROR.internal, 'Airdrop failed: the faucet cannot cover this amount');
    }
    const bytes = this.faucet.airdropTransaction(to, lamports, this.latestBlockhash().blockhash);
    try {
      return this.send(this.decode(bytes, bytes.length, 'base64'), { skipPreflight: false });
    } catch (error) {
      if (!(error instanceof JsonRpcError) || error.code !== RPC_ERROR.preflightFailure) throw error;
      const { err } = error.data as { err: RpcTransactionError };
      throw new JsonRpcError(RPC_ERROR.internal, `Airdrop failed: ${describeRpcTransactionError(err)}`);
    }
  }

  /** Resolves once every change made so far is on disk; changes made meanwhile share the write. */
  whenSaved(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.files || !this.dirty) return Promise.resolve();
    this.saving ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.saving = null;
        try {
          this.saveNow();
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
    return this.saving;
  }

  /** Waits for pending writes and snapshots the state; the ledger refuses calls afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.whenSaved();
    this.saveNow({ snapshot: true });
    this.closed = true;
    this.failure = new JsonRpcError(RPC_ERROR.internal, 'The embedded chain is closed');
  }

  private assertUsable(): void {
    if (this.failure) throw this.failure;
  }

  /** Appends the unsaved records, and snapshots the state when asked or when the log has grown. */
  private saveNow(options: { snapshot?: boolean } = {}): void {
    this.assertUsable();
    if (!this.files) return;
    try {
      this.files.append(this.unsaved);
      this.unsaved = [];
      if (options.snapshot || this.files.recordsSinceSnapshot >= SNAPSHOT_EVERY) {
        const svm = this.snapshots.snapshot(this.svm, this.blockhashesExpired);
        this.files.writeSnapshot({
          slot: this.slot,
          blockhashes: [{ blockhash: this.blockhashOf(this.slot), slot: this.slot }],
          timing: {
            clock: { ...this.slotClock },
            blockhashSeed: Buffer.from(this.blockhashSeed).toString('hex'),
          },
          svm,
        });
      }
    } catch (error) {
      // Memory is now ahead of the disk; answering anything more would promise what a restart loses.
      this.failure = new JsonRpcError(
        RPC_ERROR.internal,
        `The embedded chain could not save its state in ${this.files.dir}: ${(error as Error).message}`,
      );
      throw this.failure;
    }
    this.dirty = false;
  }

  /**
   * Executes a logged record again at its own slot and time, on the state before it (a start
   * after the last snapshot). Execution is deterministic, so it must end as it ended the first
   * time; anything else means the files do not belong together, and the start is refused.
   */
  private replay(saved: TransactionRecord): void {
    const bytes = new Uint8Array(Buffer.from(saved.transaction, 'base64'));
    // Each record runs in its own slot: slots that passed empty between two of them are not logged.
    const replayed =
      saved.slot > this.slot
        ? this.runInSlot(this.decode(bytes, bytes.length, 'base64'), saved.slot, saved.blockTime)
        : null;
    const same =
      replayed?.recorded === true &&
      replayed.record.fee === saved.fee &&
      JSON.stringify(replayed.record.err) === JSON.stringify(saved.err) &&
      replayed.record.postBalances.join() === saved.postBalances.join();
    if (!same) {
      throw chainStateError(
        this.files!.dir,
        `history.jsonl: transaction ${saved.signature} (slot ${saved.slot}) ends differently when replayed on state.bin`,
      );
    }
    this.history.add(saved);
  }

  /** Executes in the next slot; only a transaction that paid its fee takes the slot and is recorded. */
  private execute(
    tx: DecodedTransaction,
  ): { recorded: true } | { recorded: false; err: RpcTransactionError; logs: string[] } {
    this.tick();
    // One transaction per slot: a second one in the same 400 ms takes the next slot.
    const outcome = this.runInSlot(tx, this.slot + 1, Math.floor(this.nowMs() / 1000));
    if (!outcome.recorded) return outcome;
    const { record, written } = outcome;
    this.history.add(record);
    if (this.files) {
      this.unsaved.push(record);
      this.dirty = true;
    }
    if (this.listeners.size > 0) {
      for (const listener of this.listeners) {
        try {
          listener({ record, written });
        } catch (error) {
          // The transaction has landed; a subscriber's bug must not make its sender think otherwise.
          process.emitWarning(`Embedded chain listener failed: ${(error as Error).message}`);
        }
      }
    }
    return { recorded: true };
  }

  /**
   * Runs the transaction in `slot` at `blockTime`. One that paid its fee takes the slot (failed or
   * not) and comes back as its record; one that did not leaves the chain unchanged.
   */
  private runInSlot(
    tx: DecodedTransaction,
    slot: number,
    blockTime: number,
  ):
    | { recorded: true; record: TransactionRecord; written: string[] }
    | { recorded: false; err: RpcTransactionError; logs: string[] } {
    const keys = this.accountKeysOf(tx.message);
    const accountKeys = keys?.all ?? tx.message.staticAccounts.map(String);
    const previousClock = this.svm.getClock();
    const previousSeconds = this.clockSeconds;
    this.setClock(slot, blockTime);
    const preBalances = accountKeys.map((key) => this.balance(key as Address));
    const invoked = new Set(tx.message.instructions.map((instruction) => instruction.programAddressIndex));
    const readAccount = (address: Address) => this.svm.getAccount(address);
    const preTokenBalances = tokenBalancesOf(accountKeys, invoked, readAccount);
    const result = this.svm.sendTransaction(tx.transaction);
    const postBalances = accountKeys.map((key) => this.balance(key as Address));
    // Lamports only leave the transaction's accounts as the fee, so the difference is the fee,
    // priority fees and precompile signatures included, without re-deriving LiteSVM's fee rules.
    const fee = sum(preBalances) - sum(postBalances);
    const failed = isFailed(result);
    if (failed && fee === 0n) {
      this.svm.setClock(previousClock);
      this.clockSeconds = previousSeconds;
      return { recorded: false, err: toRpcTransactionError(result.err()), logs: result.meta().logs() };
    }
    const meta: TransactionMetadata = failed ? result.meta() : result;
    this.slot = slot;
    // LiteSVM's own blockhash (what a durable nonce stores) moves on as it did before slots
    // followed the clock, so a logged transaction replays on exactly the state it first ran on.
    this.svm.expireBlockhash();
    this.blockhashesExpired += 1;
    this.hashWindow();
    const record: TransactionRecord = {
      signature: tx.signature,
      slot,
      blockTime,
      transaction: base64.decode(tx.bytes),
      accountKeys,
      loadedAddresses: keys
        ? { writable: keys.writable, readonly: keys.readonly }
        : { writable: [], readonly: [] },
      preBalances: preBalances.map(String),
      postBalances: postBalances.map(String),
      fee: String(fee),
      err: failed ? toRpcTransactionError(result.err()) : null,
      logMessages: meta.logs(),
      innerInstructions: innerInstructionsOf(meta),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataRecordOf(meta),
    };
    const postTokenBalances = tokenBalancesOf(accountKeys, invoked, readAccount);
    if (preTokenBalances.length > 0 || postTokenBalances.length > 0) {
      record.preTokenBalances = preTokenBalances;
      record.postTokenBalances = postTokenBalances;
    }
    const written = failed ? [accountKeys[0]!] : writableKeys(tx.message, keys);
    this.snapshots.markWritten(written);
    return { recorded: true, record, written };
  }

  /**
   * Points the Clock sysvar at `slot`, its epoch and `blockTime` (unix seconds; the chain's time by
   * default), as a validator's Clock reads in that slot.
   */
  private setClock(slot: number, blockTime = Math.floor(this.nowMs() / 1000)): number {
    this.svm.warpToSlot(BigInt(slot));
    const clock = this.svm.getClock();
    const { epoch, slotIndex } = epochOf(this.epochSchedule(), BigInt(slot));
    if (clock.epoch !== epoch) {
      clock.epoch = epoch;
      clock.leaderScheduleEpoch = epoch + 1n;
      clock.epochStartTimestamp = epochStartTime(blockTime, slotIndex);
    }
    clock.unixTimestamp = BigInt(blockTime);
    this.svm.setClock(clock);
    this.clockSeconds = blockTime;
    return blockTime;
  }

  /**
   * A data folder made before decision 056 funded the faucet whose key is derived from the source:
   * at its first start here, everything it holds moves to the folder's own faucet by an ordinary
   * transfer it signs (in the history like any other), and the old key holds nothing after.
   * Returns whether there was anything to move.
   */
  private moveLegacyFaucet(): boolean {
    const legacy = Faucet.legacy();
    const held = this.balance(legacy.address);
    if (held <= LEGACY_MOVE_FEE) return false;
    const bytes = legacy.transferTransaction(
      this.faucet.address,
      held - LEGACY_MOVE_FEE,
      this.latestBlockhash().blockhash,
    );
    this.send(this.decode(bytes, bytes.length, 'base64'), { skipPreflight: false });
    return true;
  }

  private fundFaucet(address: Address): void {
    this.snapshots.markWritten([address]);
    this.svm.setAccount({
      address,
      lamports: lamports(FAUCET_LAMPORTS),
      programAddress: '11111111111111111111111111111111' as Address,
      executable: false,
      data: new Uint8Array(),
      space: 0n,
    });
  }

  /**
   * Static keys plus addresses loaded from lookup tables, in the order instructions index them;
   * null when a table cannot be read (LiteSVM then refuses the transaction anyway).
   */
  private accountKeysOf(
    message: LegacyOrV0Message,
  ): { all: string[]; writable: string[]; readonly: string[] } | null {
    const writable: string[] = [];
    const readonly: string[] = [];
    const lookups = message.version === 0 ? (message.addressTableLookups ?? []) : [];
    const decoder = getAddressDecoder();
    for (const lookup of lookups) {
      const table = this.svm.getAccount(lookup.lookupTableAddress);
      if (!table.exists) return null;
      const at = (index: number) => {
        const start = LOOKUP_TABLE_META_SIZE + index * 32;
        if (start + 32 > table.data.length) return null;
        return decoder.decode(table.data.subarray(start, start + 32));
      };
      for (const [indexes, into] of [
        [lookup.writableIndexes, writable],
        [lookup.readonlyIndexes, readonly],
      ] as const) {
        for (const index of indexes) {
          const address = at(index);
          if (address === null) return null;
          into.push(address);
        }
      }
    }
    return { all: [...message.staticAccounts.map(String), ...writable, ...readonly], writable, readonly };
  }
}

/**
 * When the epoch began, by its slots: `slotIndex` slots of SLOT_MS before `blockTime`. A chain
 * starts (and a warp lands) in the middle of an epoch, and a validator's Clock names the time of
 * the epoch's first slot, not the moment it first looked.
 */
export function epochStartTime(blockTime: number, slotIndex: bigint): bigint {
  return BigInt(blockTime) - (slotIndex * BigInt(SLOT_MS)) / 1000n;
}

function configure(svm: LiteSVM): LiteSVM {
  // LiteSVM accepts only its latest blockhash; the ledger checks a real cluster's window itself.
  // Its capped signature history would be a second, silently diverging replay guard next to the
  // ledger's own, which never forgets and is saved with the chain.
  return svm.withBlockhashCheck(false).withTransactionHistory(0n);
}

function isFailed(result: object): result is FailedTransactionMetadata {
  return result instanceof liteSvm().FailedTransactionMetadata;
}

function writableKeys(message: LegacyOrV0Message, loaded: { writable: string[] } | null): string[] {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  const statics = message.staticAccounts.map(String);
  return [
    ...statics.slice(0, numSignerAccounts - numReadonlySignerAccounts),
    ...statics.slice(numSignerAccounts, statics.length - numReadonlyNonSignerAccounts),
    ...(loaded?.writable ?? []),
  ];
}

function sum(values: bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}

function innerInstructionsOf(meta: TransactionMetadata): TransactionRecord['innerInstructions'] {
  return meta
    .innerInstructions()
    .map((group, index) => ({
      index,
      instructions: group.map((inner) => {
        const instruction = inner.instruction();
        return {
          programIdIndex: instruction.programIdIndex(),
          accounts: Array.from(instruction.accounts()),
          data: base58.decode(instruction.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((group) => group.instructions.length > 0);
}

function returnDataRecordOf(meta: TransactionMetadata): TransactionRecord['returnData'] {
  const returnData = meta.returnData();
  const data = returnData.data();
  if (data.length === 0) return null;
  return { programId: getAddressDecoder().decode(returnData.programId()), data: base64.decode(data) };
}

function returnDataOf(meta: TransactionMetadata): SimulationResult['returnData'] {
  const record = returnDataRecordOf(meta);
  return record ? { programId: record.programId, data: [record.data, 'base64'] } : null;
}

function preflightFailure(err: RpcTransactionError, logs: string[], unitsConsumed: bigint): JsonRpcError {
  return new JsonRpcError(
    RPC_ERROR.preflightFailure,
    `Transaction simulation failed: ${describeRpcTransactionError(err)}`,
    { err, logs, accounts: null, unitsConsumed, returnData: null },
  );
}

function signatureVerificationFailure(): JsonRpcError {
  return new JsonRpcError(
    RPC_ERROR.signatureVerificationFailure,
    'Transaction signature verification failure',
  );
}
