import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import {
  type Address,
  type EncodedAccount,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  isAddress,
  type MaybeEncodedAccount,
} from '@solana/kit';
import { accountMethods } from './account-methods';
import { mintDecimals, parseAccountData } from './account-parsers';
import { blockMethods } from './block-methods';
import { decodeBase64Message, epochOf, feeForMessage } from './cluster-info';
import { clusterMethods } from './cluster-methods';
import type { DecodedTransaction, EmbeddedLedger } from './embedded-ledger';
import { configParam, invalidParams, JsonRpcError, RPC_ERROR, stringParam, u64Param } from './json-rpc';
import { toJsonParsedInstruction } from './parse-instruction';
import { recordedPrice } from './prioritization-fees';
import { parseProgramAccountsConfig, selectAccounts } from './program-accounts';
import { tokenMethods } from './token-methods';
import { memoOf, renderTransaction, type TransactionEncoding } from './transaction-view';

const LITESVM_VERSION = (createRequire(import.meta.url)('litesvm/package.json') as { version: string })
  .version;
/**
 * What getVersion names: the agave line LiteSVM's runtime is built from, because clients compare it
 * as a version number; the feature set is a fixed number per LiteSVM release. LiteSVM's own version
 * is added under its name, which clients ignore.
 */
const SOLANA_CORE_VERSION = '2.3.0';
const FEATURE_SET = crc32(`litesvm-${LITESVM_VERSION}`);
// agave's answer for accounts that are rent-exempt, which all accounts are now.
const RENT_EXEMPT_RENT_EPOCH = 2n ** 64n - 1n;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const MAX_BASE58_ACCOUNT_BYTES = 128;
const MAX_PRIORITIZATION_FEE_ACCOUNTS = 128;
const RECENT_PRIORITIZATION_FEE_SLOTS = 150;

const base58 = getBase58Decoder();
const base58Bytes = getBase58Encoder();
const base64 = getBase64Decoder();
const base64Bytes = getBase64Encoder();

/**
 * What getGenesisHash answers: a fixed hash naming the embedded chain, different from every public
 * cluster's, so explorers and wallets treat it as a custom localnet.
 */
export const EMBEDDED_GENESIS_HASH = base58.decode(
  createHash('sha256').update('DarePool embedded localnet').digest(),
);

export type RpcHandler = (method: string, params: readonly unknown[]) => unknown;

/**
 * The JSON-RPC methods an application server uses, answering with the shapes agave answers with
 * (u64 values as bigints, which the transport writes as JSON numbers). Everything is final as soon
 * as it is executed, so commitment levels are accepted and all report 'finalized'.
 */
export function createRpcHandler(
  ledger: EmbeddedLedger,
  options: {
    /**
     * The served RPC's cap on account data one answer may carry, checked before anything is
     * rendered; the app's in-process handler has none (its own reads are not an attack).
     */
    maxAccountBytes?: number;
  } = {},
): RpcHandler {
  const context = () => ({ slot: BigInt(ledger.currentSlot) });
  const checkSize = (accounts: readonly (EncodedAccount | null)[], config: Record<string, unknown>) => {
    if (options.maxAccountBytes === undefined) return;
    const slice = config.dataSlice as { length?: number } | undefined;
    let bytes = 0;
    for (const account of accounts) {
      if (account) bytes += Math.min(account.data.length, Number(slice?.length ?? account.data.length)) + 200;
    }
    // base64 writes 4 characters per 3 bytes.
    if ((bytes * 4) / 3 > options.maxAccountBytes) {
      throw invalidParams(
        `the answer would exceed ${options.maxAccountBytes / 1024 / 1024} MiB; narrow it with filters or dataSlice`,
      );
    }
  };
  const lookup: AccountLookup = (address) => existing(ledger.account(address));

  const methods: Record<string, (params: readonly unknown[]) => unknown> = {
    getHealth: () => 'ok',
    getVersion: () => ({
      'solana-core': SOLANA_CORE_VERSION,
      'feature-set': FEATURE_SET,
      litesvm: LITESVM_VERSION,
    }),
    getSlot: () => BigInt(ledger.currentSlot),
    // One block per slot: block height and slot are the same number here.
    getBlockHeight: () => BigInt(ledger.currentSlot),
    getGenesisHash: () => EMBEDDED_GENESIS_HASH,
    getTransactionCount: () => BigInt(ledger.transactionCount),
    // Every slot since genesis counts as available: nothing is ever pruned (blocks are not served).
    getFirstAvailableBlock: () => 0n,
    minimumLedgerSlot: () => 0n,
    getEpochSchedule: () => ledger.epochSchedule(),
    getEpochInfo: () => {
      const slot = BigInt(ledger.currentSlot);
      return {
        absoluteSlot: slot,
        blockHeight: slot,
        ...epochOf(ledger.epochSchedule(), slot),
        transactionCount: BigInt(ledger.transactionCount),
      };
    },
    getFeeForMessage: (params) => {
      const message = decodeBase64Message(stringParam(params, 0, 'a base64 encoded message'));
      // Like agave: no fee for a message whose blockhash could no longer land.
      const value = ledger.isBlockhashValid(message.lifetimeToken) ? feeForMessage(message) : null;
      return { context: context(), value };
    },
    getRecentPrioritizationFees: (params) => {
      const addresses = params[0] ?? [];
      if (!Array.isArray(addresses) || addresses.length > MAX_PRIORITIZATION_FEE_ACCOUNTS) {
        throw invalidParams(`expected up to ${MAX_PRIORITIZATION_FEE_ACCOUNTS} addresses`);
      }
      for (const index of addresses.keys()) addressParam(addresses, index);
      // One transaction per slot: its price is the slot's minimum, for any set of locked accounts.
      return ledger.recentTransactions(RECENT_PRIORITIZATION_FEE_SLOTS).map((record) => ({
        slot: BigInt(record.slot),
        prioritizationFee: recordedPrice(record),
      }));
    },
    getBalance: (params) => ({ context: context(), value: ledger.balance(addressParam(params, 0)) }),
    getLatestBlockhash: () => {
      const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash();
      return { context: context(), value: { blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) } };
    },
    isBlockhashValid: (params) => ({
      context: context(),
      value: ledger.isBlockhashValid(stringParam(params, 0, 'a blockhash')),
    }),
    getMinimumBalanceForRentExemption: (params) =>
      ledger.minimumBalanceForRentExemption(u64Param(params[0] ?? 0, 'data length')),
    getAccountInfo: (params) => {
      const account = existing(ledger.account(addressParam(params, 0)));
      const config = configParam(params, 1);
      checkSize([account], config);
      return { context: context(), value: renderAccount(account, config, lookup) };
    },
    getMultipleAccounts: (params) => {
      const addresses = params[0];
      if (!Array.isArray(addresses) || addresses.length > 100)
        throw invalidParams('expected up to 100 addresses');
      const config = configParam(params, 1);
      const accounts = addresses.map((_, index) => existing(ledger.account(addressParam(addresses, index))));
      checkSize(accounts, config);
      return { context: context(), value: accounts.map((account) => renderAccount(account, config, lookup)) };
    },
    getProgramAccounts: (params) => {
      const config = configParam(params, 1);
      const { filters, withContext } = parseProgramAccountsConfig(config);
      const accounts = selectAccounts(ledger.programAccounts(addressParam(params, 0)), filters);
      checkSize(accounts, config);
      // base64 and jsonParsed cannot fail to render (the encoding was checked above), so each
      // account is rendered only when its turn comes to be written: the served RPC writes an
      // answer in pieces (json-pieces.ts), and a scan's megabytes are not rendered in one block.
      const lazy = config.encoding === 'base64' || config.encoding === 'jsonParsed';
      const value = accounts.map((account) => ({
        pubkey: account.address,
        account: lazy
          ? { toJSON: () => renderAccount(account, config, lookup) }
          : renderAccount(account, config, lookup),
      }));
      return withContext ? { context: context(), value } : value;
    },
    requestAirdrop: (params) => ledger.airdrop(addressParam(params, 0), u64Param(params[1], 'lamports')),
    sendTransaction: (params) => {
      const config = configParam(params, 1);
      return ledger.send(decodeParam(ledger, params, config), {
        skipPreflight: config.skipPreflight === true,
      });
    },
    simulateTransaction: (params) => {
      const config = configParam(params, 1);
      const sigVerify = config.sigVerify === true;
      const replaceRecentBlockhash = config.replaceRecentBlockhash === true;
      if (sigVerify && replaceRecentBlockhash) {
        throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      }
      const result = ledger.simulate(decodeParam(ledger, params, config), {
        sigVerify,
        replaceRecentBlockhash,
      });
      const accounts = config.accounts as { addresses?: unknown[]; encoding?: string } | undefined;
      return {
        context: context(),
        value: {
          err: result.err,
          logs: result.logs,
          accounts: accounts?.addresses
            ? accounts.addresses.map((_, index) => {
                const address = addressParam(accounts.addresses!, index);
                const account = result.postAccounts.get(address) ?? existing(ledger.account(address));
                return renderAccount(account, { encoding: accounts.encoding ?? 'base64' });
              })
            : null,
          unitsConsumed: result.unitsConsumed,
          returnData: result.returnData,
          innerInstructions:
            config.innerInstructions === true
              ? result.innerInstructions.map((group) => ({
                  index: group.index,
                  instructions: group.instructions.map((instruction) =>
                    toJsonParsedInstruction(
                      { ...instruction, data: new Uint8Array(base58Bytes.encode(instruction.data)) },
                      result.accountKeys,
                      instruction.stackHeight,
                    ),
                  ),
                }))
              : null,
          replacementBlockhash: replaceRecentBlockhash
            ? {
                blockhash: ledger.latestBlockhash().blockhash,
                lastValidBlockHeight: BigInt(ledger.latestBlockhash().lastValidBlockHeight),
              }
            : null,
        },
      };
    },
    getSignatureStatuses: (params) => {
      const signatures = params[0];
      if (!Array.isArray(signatures) || signatures.length > MAX_SIGNATURE_STATUSES) {
        throw invalidParams(`expected up to ${MAX_SIGNATURE_STATUSES} signatures`);
      }
      return {
        context: context(),
        value: signatures.map((_, index) => {
          const record = ledger.transaction(signatureParam(signatures, index));
          if (!record) return null;
          return {
            slot: BigInt(record.slot),
            // null means rooted: nothing here can be rolled back.
            confirmations: null,
            err: record.err,
            status: record.err === null ? { Ok: null } : { Err: record.err },
            confirmationStatus: 'finalized',
          };
        }),
      };
    },
    getTransaction: (params) => {
      const record = ledger.transaction(stringParam(params, 0, 'a signature'));
      const config = configParam(params, 1);
      const encoding = (config.encoding ?? 'json') as TransactionEncoding;
      if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) {
        throw invalidParams(`unsupported encoding ${String(encoding)}`);
      }
      const maxVersion = config.maxSupportedTransactionVersion;
      if (maxVersion !== undefined && maxVersion !== 0) {
        throw invalidParams('maxSupportedTransactionVersion must be 0');
      }
      return record ? renderTransaction(record, encoding, maxVersion) : null;
    },
    getSignaturesForAddress: (params) => {
      const address = addressParam(params, 0);
      const config = configParam(params, 1);
      const limit = config.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : Number(config.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) {
        throw invalidParams(`limit must be between 1 and ${MAX_SIGNATURES_FOR_ADDRESS}`);
      }
      const optionalSignature = (value: unknown) => (typeof value === 'string' ? value : undefined);
      return ledger
        .signaturesFor(address, {
          before: optionalSignature(config.before),
          until: optionalSignature(config.until),
          limit,
        })
        .map((record) => ({
          signature: record.signature,
          slot: BigInt(record.slot),
          err: record.err,
          memo: memoOf(record),
          blockTime: BigInt(record.blockTime),
          confirmationStatus: 'finalized',
        }));
    },
  };

  Object.assign(
    methods,
    blockMethods(ledger),
    accountMethods(ledger, lookup),
    tokenMethods(ledger, lookup),
    clusterMethods(ledger),
  );

  return (method, params) => {
    const run = methods[method];
    if (!run) throw new JsonRpcError(RPC_ERROR.methodNotFound, 'Method not found');
    return run(params);
  };
}

/** A base58 signature of 64 bytes; agave refuses anything else with -32602. */
export function signatureParam(params: readonly unknown[], index: number): string {
  const value = params[index];
  if (typeof value === 'string' && value.length >= 64 && value.length <= 88) {
    try {
      if (base58Bytes.encode(value).length === 64) return value;
    } catch {
      // not base58: refused below
    }
  }
  throw invalidParams(`Invalid param: ${String(value)}`);
}

export function addressParam(params: readonly unknown[], index: number): Address {
  const value = params[index];
  if (typeof value !== 'string' || !isAddress(value))
    throw invalidParams(`Invalid address: ${String(value)}`);
  return value;
}

function decodeParam(
  ledger: EmbeddedLedger,
  params: readonly unknown[],
  config: Record<string, unknown>,
): DecodedTransaction {
  const wire = stringParam(params, 0, 'an encoded transaction');
  // base58 is the documented default, kept for old clients; kit always says base64.
  const encoding = config.encoding ?? 'base58';
  if (encoding !== 'base58' && encoding !== 'base64') {
    throw invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(encoding === 'base64' ? base64Bytes.encode(wire) : base58Bytes.encode(wire));
  } catch {
    throw invalidParams(`invalid ${encoding} encoding`);
  }
  return ledger.decode(bytes, wire.length, encoding);
}

export function existing(account: MaybeEncodedAccount): EncodedAccount | null {
  return account.exists ? account : null;
}

/** Reads another account (a token account's mint, for its decimals) while rendering jsonParsed. */
export type AccountLookup = (address: Address) => EncodedAccount | null;

export function renderAccount(
  account: EncodedAccount | null,
  config: Record<string, unknown>,
  lookup: AccountLookup = () => null,
) {
  if (!account) return null;
  const encoding = config.encoding;
  const slice = config.dataSlice as { offset?: number; length?: number } | undefined;
  let data: Uint8Array = account.data as Uint8Array;
  if (slice) {
    const offset = Number(slice.offset ?? 0);
    data = data.subarray(offset, offset + Number(slice.length ?? data.length));
  }
  let rendered: unknown;
  switch (encoding) {
    case undefined:
    case 'base58':
      if (data.length > MAX_BASE58_ACCOUNT_BYTES) {
        throw invalidParams(
          `Encoded binary (base 58) data should be less than ${MAX_BASE58_ACCOUNT_BYTES} bytes, please use Base64 encoding.`,
        );
      }
      // Without an encoding agave answers with the legacy bare base58 string.
      rendered = encoding === undefined ? base58.decode(data) : [base58.decode(data), 'base58'];
      break;
    case 'jsonParsed': {
      // agave parses whole accounts only; a slice, or an account it has no parser for, is base64.
      const parsed = slice
        ? null
        : parseAccountData(account, (mint) => mintDecimals(lookup(mint as Address)));
      rendered = parsed ?? [base64.decode(data), 'base64'];
      break;
    }
    case 'base64':
      rendered = [base64.decode(data), 'base64'];
      break;
    default:
      throw invalidParams(`unsupported encoding: ${String(encoding)}`);
  }
  const { executable, lamports, programAddress, space } = account;
  return {
    data: rendered,
    executable,
    lamports,
    owner: programAddress,
    rentEpoch: RENT_EXEMPT_RENT_EPOCH,
    space,
  };
}
