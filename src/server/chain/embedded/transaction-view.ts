import {
  getBase58Decoder,
  getBase58Encoder,
  getBase64Encoder,
  getTransactionDecoder,
  type Transaction,
} from '@solana/kit';
import { decodeMessage, type LegacyOrV0Message } from './embedded-ledger';
import type { RecordedInstruction, TransactionRecord } from './history';
import { JsonRpcError, RPC_ERROR } from './json-rpc';
import { toJsonParsedInstruction } from './parse-instruction';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

const base58 = getBase58Decoder();
const base58Bytes = getBase58Encoder();
const base64Bytes = getBase64Encoder();

/**
 * getTransaction's answer for a recorded transaction, field for field as agave renders it for
 * each encoding: raw indices in `json`, named and parsed accounts and instructions in `jsonParsed`.
 */
export function renderTransaction(
  record: TransactionRecord,
  encoding: TransactionEncoding,
  maxSupportedTransactionVersion: number | undefined,
) {
  const { bytes, message, transaction } = decodeRecorded(record, maxSupportedTransactionVersion);
  const parsed = encoding === 'jsonParsed';
  const view: Record<string, unknown> = {
    slot: record.slot,
    blockTime: record.blockTime,
    meta: renderMeta(record, parsed),
    transaction:
      encoding === 'base64'
        ? [record.transaction, 'base64']
        : encoding === 'base58'
          ? [base58.decode(bytes), 'base58']
          : {
              signatures: signaturesOf(message, transaction),
              message: parsed ? renderParsedMessage(message, record) : renderRawMessage(message),
            },
  };
  // Like agave: the version appears only to clients that said which versions they understand.
  if (maxSupportedTransactionVersion !== undefined) view.version = message.version;
  return view;
}

function decodeRecorded(record: TransactionRecord, maxSupportedTransactionVersion: number | undefined) {
  const bytes = new Uint8Array(base64Bytes.encode(record.transaction));
  const transaction = getTransactionDecoder().decode(bytes);
  const message = decodeMessage(transaction.messageBytes);
  if (message.version === 0 && maxSupportedTransactionVersion === undefined) {
    throw new JsonRpcError(
      RPC_ERROR.unsupportedTransactionVersion,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  return { bytes, message, transaction };
}

function signaturesOf(message: LegacyOrV0Message, transaction: Transaction): string[] {
  return message.staticAccounts
    .slice(0, message.header.numSignerAccounts)
    .map((signer) => base58.decode(transaction.signatures[signer] ?? new Uint8Array(64)));
}

function renderMeta(record: TransactionRecord, parsed: boolean) {
  return {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: BigInt(record.fee),
    preBalances: record.preBalances.map(BigInt),
    postBalances: record.postBalances.map(BigInt),
    innerInstructions: record.innerInstructions.map((group) => ({
      index: group.index,
      instructions: group.instructions.map((instruction) =>
        parsed ? parseRecorded(instruction, record.accountKeys) : instruction,
      ),
    })),
    logMessages: record.logMessages,
    preTokenBalances: record.preTokenBalances ?? [],
    postTokenBalances: record.postTokenBalances ?? [],
    rewards: [],
    // jsonParsed lists loaded addresses among the account keys instead.
    ...(parsed ? {} : { loadedAddresses: record.loadedAddresses }),
    ...(record.returnData
      ? { returnData: { programId: record.returnData.programId, data: [record.returnData.data, 'base64'] } }
      : {}),
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
}

/**
 * A block's transaction with `transactionDetails: "accounts"`, as agave builds it: signatures and
 * the account keys with their roles, and the meta without instructions, logs or loaded addresses.
 */
export function renderTransactionAccounts(
  record: TransactionRecord,
  maxSupportedTransactionVersion: number | undefined,
  showRewards: boolean,
) {
  const { message, transaction } = decodeRecorded(record, maxSupportedTransactionVersion);
  const view: Record<string, unknown> = {
    transaction: {
      signatures: signaturesOf(message, transaction),
      accountKeys: parsedAccountKeys(message, record),
    },
    meta: {
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      fee: BigInt(record.fee),
      preBalances: record.preBalances.map(BigInt),
      postBalances: record.postBalances.map(BigInt),
      preTokenBalances: record.preTokenBalances ?? [],
      postTokenBalances: record.postTokenBalances ?? [],
      ...(showRewards ? { rewards: [] } : {}),
    },
  };
  if (maxSupportedTransactionVersion !== undefined) view.version = message.version;
  return view;
}

function parseRecorded(instruction: RecordedInstruction, accountKeys: readonly string[]) {
  return toJsonParsedInstruction(
    {
      programIdIndex: instruction.programIdIndex,
      accounts: instruction.accounts,
      data: new Uint8Array(base58Bytes.encode(instruction.data)),
    },
    accountKeys,
    instruction.stackHeight,
  );
}

function lookupsOf(message: LegacyOrV0Message) {
  if (message.version !== 0) return {};
  return {
    addressTableLookups: (message.addressTableLookups ?? []).map((lookup) => ({
      accountKey: lookup.lookupTableAddress,
      writableIndexes: lookup.writableIndexes,
      readonlyIndexes: lookup.readonlyIndexes,
    })),
  };
}

function renderRawMessage(message: LegacyOrV0Message) {
  return {
    accountKeys: message.staticAccounts,
    header: {
      numRequiredSignatures: message.header.numSignerAccounts,
      numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
    },
    recentBlockhash: message.lifetimeToken,
    instructions: message.instructions.map((instruction) => ({
      programIdIndex: instruction.programAddressIndex,
      accounts: instruction.accountIndices ?? [],
      data: base58.decode(instruction.data ?? new Uint8Array()),
      stackHeight: null,
    })),
    ...lookupsOf(message),
  };
}

/** Every account key with its roles and where it came from (jsonParsed and "accounts" details). */
function parsedAccountKeys(message: LegacyOrV0Message, record: TransactionRecord) {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  const staticCount = message.staticAccounts.length;
  const isStaticWritable = (index: number) =>
    index < numSignerAccounts
      ? index < numSignerAccounts - numReadonlySignerAccounts
      : index < staticCount - numReadonlyNonSignerAccounts;
  const writableLoaded = record.loadedAddresses.writable.length;
  return record.accountKeys.map((pubkey, index) => ({
    pubkey,
    writable: index < staticCount ? isStaticWritable(index) : index - staticCount < writableLoaded,
    signer: index < numSignerAccounts,
    source: index < staticCount ? 'transaction' : 'lookupTable',
  }));
}

function renderParsedMessage(message: LegacyOrV0Message, record: TransactionRecord) {
  return {
    accountKeys: parsedAccountKeys(message, record),
    recentBlockhash: message.lifetimeToken,
    instructions: message.instructions.map((instruction) =>
      toJsonParsedInstruction(
        {
          programIdIndex: instruction.programAddressIndex,
          accounts: instruction.accountIndices ?? [],
          data: new Uint8Array(instruction.data ?? new Uint8Array()),
        },
        record.accountKeys,
        null,
      ),
    ),
    ...lookupsOf(message),
  };
}

const MEMO_PROGRAMS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);
const memos = new WeakMap<TransactionRecord, string | null>();

/**
 * getSignaturesForAddress's `memo` as agave writes it: each top-level memo instruction's text as
 * "[byte length] text", joined with "; "; null when there is none.
 */
export function memoOf(record: TransactionRecord): string | null {
  const known = memos.get(record);
  if (known !== undefined) return known;
  const transaction = getTransactionDecoder().decode(new Uint8Array(base64Bytes.encode(record.transaction)));
  const message = decodeMessage(transaction.messageBytes);
  const texts = message.instructions
    .filter((instruction) =>
      MEMO_PROGRAMS.has(String(message.staticAccounts[instruction.programAddressIndex])),
    )
    .map((instruction) => {
      const data = instruction.data ?? new Uint8Array();
      return `[${data.length}] ${new TextDecoder().decode(new Uint8Array(data.buffer, data.byteOffset, data.length))}`;
    });
  const memo = texts.length > 0 ? texts.join('; ') : null;
  memos.set(record, memo);
  return memo;
}
