import {
  type Address,
  address,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type Signature,
  type Transaction,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import type { ChainFiles, ChainMeta, TransactionRecord } from './ledger-store';
import { parseInstruction } from './parse-instruction';
import { toRpcError } from './transaction-errors';

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const FEE_PER_SIGNATURE = 5_000;
/** Like a real cluster: a blockhash stays usable for about 150 slots. */
const BLOCKHASH_WINDOW = 150;
const b58 = getBase58Decoder();
const b58Encoder = getBase58Encoder();
const b64Encoder = getBase64Encoder();
const b64 = getBase64Decoder();

/**
 * The real Solana runtime (LiteSVM) behind the JSON-RPC methods an application server uses.
 * LiteSVM has no slots, blocks or account-level transaction history, so this class keeps them:
 * every executed transaction advances the slot, gets a block time from the clock, and is recorded
 * with its accounts and balances so getTransaction and getSignaturesForAddress answer like a node.
 */
export class EmbeddedSolana {
  private readonly history = new Map<string, TransactionRecord>();
  private readonly byAddress = new Map<string, string[]>();
  private slot: bigint;
  private recentBlockhashes: string[];

  private constructor(
    private readonly svm: LiteSVM,
    meta: ChainMeta,
    records: TransactionRecord[],
    private readonly files: ChainFiles | null,
    private readonly clock: () => Date,
  ) {
    this.slot = BigInt(meta.slot);
    this.recentBlockhashes = meta.recentBlockhashes;
    for (const record of records) this.index(record);
  }

  static open(files: ChainFiles | null, clock: () => Date): EmbeddedSolana {
    if (files?.exists()) {
      let svm: LiteSVM;
      try {
        svm = LiteSVM.loadFromFile(files.snapshot);
      } catch (error) {
        throw new Error(`Embedded chain state is corrupt (${files.snapshot}): ${(error as Error).message}`);
      }
      const chain = new EmbeddedSolana(
        svm.withBlockhashCheck(false),
        files.readMeta(),
        files.readHistory(),
        files,
        clock,
      );
      chain.svm.warpToSlot(chain.slot);
      return chain;
    }
    // Blockhash validity is checked here against a window, not by LiteSVM (which forgets a
    // blockhash as soon as it moves on): users sign for seconds while others transact.
    const svm = new LiteSVM().withBlockhashCheck(false);
    const chain = new EmbeddedSolana(
      svm,
      { slot: '1', recentBlockhashes: [svm.latestBlockhash()] },
      [],
      files,
      clock,
    );
    chain.svm.warpToSlot(chain.slot);
    chain.persist(null);
    return chain;
  }

  /** Answers one JSON-RPC call; throws JsonRpcError like a node's error object. */
  handle(method: string, params: unknown[]): unknown {
    const context = { slot: Number(this.slot) };
    switch (method) {
      case 'getHealth':
        return 'ok';
      case 'getVersion':
        return { 'solana-core': 'litesvm-embedded', 'feature-set': 0 };
      case 'getSlot':
      case 'getBlockHeight':
        return Number(this.slot);
      case 'getBalance':
        return { context, value: Number(this.svm.getBalance(this.address(params[0])) ?? 0n) };
      case 'getLatestBlockhash':
        return {
          context,
          value: {
            blockhash: this.latestBlockhash(),
            lastValidBlockHeight: Number(this.slot) + BLOCKHASH_WINDOW,
          },
        };
      case 'isBlockhashValid':
        return { context, value: this.recentBlockhashes.includes(String(params[0])) };
      case 'getMinimumBalanceForRentExemption':
        return Number(this.svm.minimumBalanceForRentExemption(BigInt(Number(params[0] ?? 0))));
      case 'getAccountInfo':
        return { context, value: this.accountInfo(this.address(params[0])) };
      case 'requestAirdrop':
        return this.airdrop(this.address(params[0]), BigInt(params[1] as number));
      case 'sendTransaction':
        return this.sendTransaction(
          String(params[0]),
          (params[1] ?? {}) as { encoding?: string; skipPreflight?: boolean },
        );
      case 'simulateTransaction':
        return this.simulate(String(params[0]), (params[1] ?? {}) as { encoding?: string });
      case 'getSignatureStatuses':
        return { context, value: (params[0] as string[]).map((signature) => this.status(signature)) };
      case 'getTransaction':
        return this.transaction(String(params[0]), (params[1] ?? {}) as { encoding?: string });
      case 'getSignaturesForAddress':
        return this.signaturesFor(
          String(params[0]),
          (params[1] ?? {}) as { limit?: number; before?: string; until?: string },
        );
      default:
        throw new JsonRpcError(-32601, `Method not found: ${method}`);
    }
  }

  latestBlockhash(): string {
    return this.recentBlockhashes[this.recentBlockhashes.length - 1]!;
  }

  private address(value: unknown): Address {
    try {
      return address(String(value));
    } catch {
      throw new JsonRpcError(-32602, `Invalid param: ${String(value)} is not a valid address`);
    }
  }

  private accountInfo(account: Address) {
    const info = this.svm.getAccount(account);
    if (!info.exists) return null;
    return {
      data: [b64.decode(info.data), 'base64'],
      executable: info.executable,
      lamports: Number(info.lamports),
      owner: info.programAddress,
      rentEpoch: 0,
      space: info.data.length,
    };
  }

  private decodeWire(text: string, encoding = 'base58'): { tx: Transaction; bytes: Uint8Array } {
    try {
      const bytes = new Uint8Array(encoding === 'base64' ? b64Encoder.encode(text) : b58Encoder.encode(text));
      return { tx: getTransactionDecoder().decode(bytes), bytes };
    } catch {
      throw new JsonRpcError(-32602, 'invalid transaction: failed to deserialize');
    }
  }

  private balances(keys: string[]): string[] {
    return keys.map((key) => String(this.svm.getBalance(address(key)) ?? 0n));
  }

  private simulate(wire: string, config: { encoding?: string }) {
    const { tx } = this.decodeWire(wire, config.encoding);
    const result = this.svm.simulateTransaction(tx);
    const meta = result instanceof FailedTransactionMetadata ? result.meta() : result.meta();
    return {
      context: { slot: Number(this.slot) },
      value: {
        err: result instanceof FailedTransactionMetadata ? toRpcError(result.err()) : null,
        logs: meta.logs(),
        unitsConsumed: Number(meta.computeUnitsConsumed()),
        accounts: null,
        returnData: null,
      },
    };
  }

  private sendTransaction(wire: string, config: { encoding?: string; skipPreflight?: boolean }): string {
    const { tx, bytes } = this.decodeWire(wire, config.encoding);
    const firstSignature = Object.values(tx.signatures)[0];
    if (!firstSignature) throw new JsonRpcError(-32602, 'invalid transaction: no signatures');
    const signature = b58.decode(firstSignature);
    const preflightFailure = (err: unknown, logs: string[] = []) =>
      new JsonRpcError(-32002, `Transaction simulation failed: ${describe(err)}`, {
        err,
        logs,
        accounts: null,
        unitsConsumed: 0,
        returnData: null,
      });
    if (this.history.has(signature)) throw preflightFailure('AlreadyProcessed');
    const message = decodeMessage(tx.messageBytes);
    if (!this.recentBlockhashes.includes(message.lifetimeToken)) throw preflightFailure('BlockhashNotFound');

    const simulation = this.svm.simulateTransaction(tx);
    if (simulation instanceof FailedTransactionMetadata) {
      // Preflight (on by default on real nodes) refuses failing transactions before they cost a fee.
      if (!config.skipPreflight)
        throw preflightFailure(toRpcError(simulation.err()), simulation.meta().logs());
    }
    const accountKeys = message.staticAccounts.map(String);
    const preBalances = this.balances(accountKeys);
    const result = this.svm.sendTransaction(tx);
    const failed = result instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? result.meta() : result;
    const err = failed ? toRpcError(result.err()) : null;
    // Failures before execution (bad signature, duplicate) never reach a block on a real cluster.
    if (failed && (err === 'AlreadyProcessed' || err === 'SignatureFailure' || err === 'BlockhashNotFound')) {
      throw preflightFailure(err, meta.logs());
    }
    this.record({
      signature,
      wire: b64.decode(bytes),
      accountKeys,
      preBalances,
      postBalances: this.balances(accountKeys),
      fee: FEE_PER_SIGNATURE * message.header.numSignerAccounts,
      err,
      logs: meta.logs(),
      innerInstructions: innerOf(meta),
      computeUnits: Number(meta.computeUnitsConsumed()),
    });
    return signature;
  }

  private airdrop(to: Address, amount: bigint): string {
    const pre = this.balances([to]);
    const result = this.svm.airdrop(to, lamports(amount));
    if (!result || result instanceof FailedTransactionMetadata) {
      throw new JsonRpcError(
        -32603,
        `Airdrop failed: ${result ? describe(toRpcError(result.err())) : 'unknown error'}`,
      );
    }
    const signature = b58.decode(result.signature());
    this.record({
      signature,
      wire: null,
      accountKeys: [to],
      preBalances: pre,
      postBalances: this.balances([to]),
      fee: FEE_PER_SIGNATURE,
      err: null,
      logs: result.logs(),
      innerInstructions: [],
      computeUnits: Number(result.computeUnitsConsumed()),
    });
    return signature;
  }

  /** Records an executed transaction in a new slot and makes a new blockhash, then persists. */
  private record(entry: Omit<TransactionRecord, 'slot' | 'blockTime'>) {
    this.slot += 1n;
    const now = this.clock();
    const record: TransactionRecord = {
      ...entry,
      slot: Number(this.slot),
      blockTime: Math.floor(now.getTime() / 1000),
    };
    this.svm.warpToSlot(this.slot);
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(record.blockTime);
    this.svm.setClock(clock);
    // A fresh blockhash per slot lets two identical transfers or airdrops both land (notes §5).
    this.svm.expireBlockhash();
    this.recentBlockhashes = [...this.recentBlockhashes, this.svm.latestBlockhash()].slice(-BLOCKHASH_WINDOW);
    this.index(record);
    this.persist(record);
  }

  private index(record: TransactionRecord) {
    this.history.set(record.signature, record);
    for (const key of new Set(record.accountKeys)) {
      const list = this.byAddress.get(key);
      if (list) list.push(record.signature);
      else this.byAddress.set(key, [record.signature]);
    }
  }

  private persist(record: TransactionRecord | null) {
    if (!this.files) return;
    const files = this.files;
    files.atomicWrite(files.snapshot, (tmp) => this.svm.saveToFile(tmp));
    if (record) files.appendHistory(record);
    files.writeMeta({ slot: this.slot.toString(), recentBlockhashes: this.recentBlockhashes });
  }

  private status(signature: string) {
    const record = this.history.get(signature);
    if (!record) return null;
    return {
      slot: record.slot,
      confirmations: null,
      err: record.err,
      status: record.err ? { Err: record.err } : { Ok: null },
      confirmationStatus: 'finalized',
    };
  }

  private transaction(signature: string, config: { encoding?: string }) {
    const record = this.history.get(signature);
    if (!record) return null;
    const encoding = config.encoding ?? 'json';
    const meta = {
      err: record.err,
      status: record.err ? { Err: record.err } : { Ok: null },
      fee: record.fee,
      preBalances: record.preBalances.map(Number),
      postBalances: record.postBalances.map(Number),
      logMessages: record.logs,
      innerInstructions: record.innerInstructions.map((group) => ({
        index: group.index,
        instructions: group.instructions.map((ix) =>
          encoding === 'jsonParsed'
            ? parseInstruction(
                { ...ix, data: b58Encoder.encode(ix.data) as Uint8Array },
                record.accountKeys,
                ix.stackHeight,
              )
            : ix,
        ),
      })),
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: record.computeUnits,
    };
    const base = { slot: record.slot, blockTime: record.blockTime, meta };
    if (!record.wire) {
      // Airdrops: the faucet's own transaction; shown with just the recipient.
      return {
        ...base,
        version: 'legacy',
        transaction: {
          signatures: [record.signature],
          message: { accountKeys: record.accountKeys, instructions: [] },
        },
      };
    }
    const { tx } = this.decodeWire(record.wire, 'base64');
    const message = decodeMessage(tx.messageBytes);
    const version = message.version === 'legacy' ? 'legacy' : Number(message.version);
    if (encoding === 'base64') return { ...base, version, transaction: [record.wire, 'base64'] };
    const signatures = Object.values(tx.signatures).map((sig) => (sig ? b58.decode(sig) : ''));
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
    const total = message.staticAccounts.length;
    const isWritable = (index: number) =>
      index < numSignerAccounts
        ? index < numSignerAccounts - numReadonlySignerAccounts
        : index < total - numReadonlyNonSignerAccounts;
    if (encoding === 'jsonParsed') {
      return {
        ...base,
        version,
        transaction: {
          signatures,
          message: {
            accountKeys: record.accountKeys.map((pubkey, index) => ({
              pubkey,
              signer: index < numSignerAccounts,
              writable: isWritable(index),
              source: 'transaction',
            })),
            recentBlockhash: message.lifetimeToken,
            instructions: message.instructions.map((ix) => parseInstruction(ix, record.accountKeys, null)),
          },
        },
      };
    }
    return {
      ...base,
      version,
      transaction: {
        signatures,
        message: {
          accountKeys: record.accountKeys,
          header: {
            numRequiredSignatures: numSignerAccounts,
            numReadonlySignedAccounts: numReadonlySignerAccounts,
            numReadonlyUnsignedAccounts: numReadonlyNonSignerAccounts,
          },
          recentBlockhash: message.lifetimeToken,
          instructions: message.instructions.map((ix) => ({
            programIdIndex: ix.programAddressIndex,
            accounts: ix.accountIndices ?? [],
            data: b58.decode(ix.data ?? new Uint8Array()),
          })),
        },
      },
    };
  }

  private signaturesFor(account: string, options: { limit?: number; before?: string; until?: string }) {
    const all = [...(this.byAddress.get(account) ?? [])].reverse();
    let start = 0;
    if (options.before) start = all.indexOf(options.before) + 1 || all.length;
    let end = all.length;
    if (options.until)
      end = Math.max(start, all.indexOf(options.until) === -1 ? all.length : all.indexOf(options.until));
    const limit = Math.min(Math.max(Number(options.limit ?? 1000), 1), 1000);
    return all
      .slice(start, end)
      .slice(0, limit)
      .map((signature) => {
        const record = this.history.get(signature)!;
        return {
          signature,
          slot: record.slot,
          err: record.err,
          memo: null,
          blockTime: record.blockTime,
          confirmationStatus: 'finalized',
        };
      });
  }

  /** Keeps the state on disk; called on close (state is also written after every change). */
  flush() {
    this.persist(null);
  }
}

function innerOf(meta: TransactionMetadata): TransactionRecord['innerInstructions'] {
  return meta
    .innerInstructions()
    .map((group, index) => ({
      index,
      instructions: group.map((inner) => {
        const ix = inner.instruction();
        return {
          programAddressIndex: ix.programIdIndex(),
          accountIndices: Array.from(ix.accounts()),
          data: b58.decode(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((group) => group.instructions.length > 0);
}

/** Legacy and v0 messages; v1 (not yet on any cluster) is refused like an unsupported version. */
function decodeMessage(bytes: Transaction['messageBytes']) {
  const message = getCompiledTransactionMessageDecoder().decode(bytes);
  if (message.version === 1)
    throw new JsonRpcError(-32602, 'invalid transaction: unsupported message version');
  return message;
}

function describe(err: unknown): string {
  return typeof err === 'string' ? err : JSON.stringify(err);
}

export type { Signature };
