/**
 * The one relay of transactions a wallet signed (docs/decisions/045-one-relay.md). Every relay
 * DarePool runs — a payment (payments), an entry or a 'Refund me' (prepared transactions), a
 * judges' propose (judging) — takes the same steps: decode the wallet's bytes, match the message
 * the server stored by its hash, verify the signatures, send, wait for the confirmation and tell
 * what went wrong. The steps live here; which message is the right one, whose signature counts and
 * the words of a failure stay with the caller.
 */
import { createHash } from 'node:crypto';
import {
  type Address,
  type Base64EncodedWireTransaction,
  getBase58Decoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  isSolanaError,
  type Rpc,
  type Signature,
  type SignatureBytes,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  type SolanaRpcApi,
  type Transaction,
  type TransactionError,
  verifySignature,
} from '@solana/kit';
import { AppError, badRequest } from '#server/errors';
import { ConfirmationError, waitForConfirmation } from './confirmation';
import { SEND_OPTIONS, whileRebroadcasting } from './rebroadcast';

/** How long a relay waits for a confirmation; a blockhash lives about a minute on a cluster. */
export const CONFIRM_TIMEOUT_MS = 90_000;

/** A relay compares messages by this digest: the server-built bytes, nothing else, are sent. */
export function messageHash(messageBytes: Uint8Array): string {
  return createHash('sha256').update(messageBytes).digest('hex');
}

/** A signed transaction as a wallet sent it, with its message and that message's hash. */
export interface SignedTransaction {
  transaction: Transaction;
  messageBytes: Uint8Array;
  messageHash: string;
}

/** Transaction bytes the server itself stored (base64 wire format). */
export function decodeWire(base64: string): Transaction {
  return getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
}

/** The wallet's base64 transaction; a 400 with `unreadable` when it is not one. */
export function decodeSigned(base64: string, unreadable: string): SignedTransaction {
  let transaction: Transaction;
  try {
    transaction = decodeWire(base64);
  } catch {
    throw badRequest(unreadable);
  }
  const messageBytes = new Uint8Array(transaction.messageBytes);
  return { transaction, messageBytes, messageHash: messageHash(messageBytes) };
}

/** Whether `signature` is `signer`'s over `messageBytes` (a missing one is not). */
export async function isValidSignature(
  signer: string,
  signature: SignatureBytes | null | undefined,
  messageBytes: Uint8Array,
): Promise<boolean> {
  if (!signature) return false;
  return verifySignature(await getPublicKeyFromAddress(signer as Address), signature, messageBytes);
}

/** Whether every signer of the transaction signed it, each signature valid. */
export async function allSignaturesValid(signed: SignedTransaction): Promise<boolean> {
  for (const [signer, signature] of Object.entries(signed.transaction.signatures))
    if (!(await isValidSignature(signer, signature, signed.messageBytes))) return false;
  return true;
}

/** A transaction's id: its fee payer's signature, the first one. */
export function transactionId(transaction: Transaction): Signature {
  const [, first] = Object.entries(transaction.signatures)[0]!;
  return getBase58Decoder().decode(first!) as Signature;
}

/** How a relayed transaction's failures are told, in the words of the feature that relays it. */
export interface RelayFailures {
  /** The node refused it before it ran (preflight, signatures): nothing landed. Thrown as answered. */
  refused(error: unknown): AppError | Promise<AppError>;
  /** Why it failed after landing with `transactionError` (its fee paid): a TRANSACTION_FAILED reason. */
  failed(transactionError: TransactionError | null): string;
  /** It can no longer land (its blockhash or nonce moved on) and did not. */
  expired(): AppError;
  /** Not confirmed within CONFIRM_TIMEOUT_MS: a CHAIN_UNAVAILABLE message. */
  unconfirmed: string;
}

export interface RelayOptions {
  /**
   * What a send answered 'already processed' means: `wait` for that copy (a retry, a parallel
   * relay or the wallet itself sent the very same transaction: the chain runs one), or `refuse`
   * it like any other refusal (the caller keeps its own record of what it sent).
   */
  sentBefore: 'wait' | 'refuse';
  /** The last block height its blockhash is valid at: past it, the wait ends at once. */
  lastValidBlockHeight?: bigint;
}

/**
 * Sends a signed transaction (base64 wire format) and waits until it is confirmed, sending it
 * again every 2 s meanwhile (rebroadcast.ts); past its blockhash it is `expired`.
 */
export async function sendAndConfirm(
  rpc: Rpc<SolanaRpcApi>,
  wire: string,
  signature: Signature,
  options: RelayOptions,
  failures: RelayFailures,
): Promise<void> {
  try {
    await rpc
      .sendTransaction(wire as Base64EncodedWireTransaction, {
        ...SEND_OPTIONS,
        preflightCommitment: 'confirmed',
      })
      .send();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (
      options.sentBefore === 'refuse' ||
      !isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)
    )
      throw await failures.refused(error);
  }
  await whileRebroadcasting(rpc, wire, confirmSent(rpc, signature, failures, options.lastValidBlockHeight));
}

/** Waits until a sent transaction is confirmed; its failure is the answer's reason. */
export async function confirmSent(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  failures: Omit<RelayFailures, 'refused'>,
  lastValidBlockHeight?: bigint,
): Promise<void> {
  try {
    await waitForConfirmation(rpc, signature, {
      commitment: 'confirmed',
      timeoutMs: CONFIRM_TIMEOUT_MS,
      ...(lastValidBlockHeight === undefined ? {} : { lastValidBlockHeight }),
    });
  } catch (error) {
    if (error instanceof ConfirmationError && error.reason === 'failed')
      throw new AppError('TRANSACTION_FAILED', failures.failed(error.transactionError), { signature });
    if (error instanceof ConfirmationError && error.reason === 'expired') throw failures.expired();
    throw new AppError('CHAIN_UNAVAILABLE', failures.unconfirmed, { signature });
  }
}
