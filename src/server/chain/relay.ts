/**
 * The one relay of transactions a wallet signed (docs/decisions/045-one-relay.md). Every relay
 * DarePool runs — a payment (payments), an entry or a 'Refund me' (prepared transactions), a
 * judges' propose (judging) — is `relaySigned`: decode the wallet's bytes, match the message the
 * server stored by its hash, verify the signatures, add the server's own, send, wait for the
 * confirmation, book what landed and tell what went wrong. The flow lives here; which message is
 * the right one, whose signature counts, what is booked and the words of a failure stay with the
 * caller, passed in as a `RelayFlow`.
 */
import { createHash } from 'node:crypto';
import {
  type Address,
  type Base64EncodedWireTransaction,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
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
import { confirmServerSigned, sendSignedTransaction } from './server-signed';

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

/** Whether each of `signers` signed the message, each signature valid. */
async function signedBy(signed: SignedTransaction, signers: readonly string[]): Promise<boolean> {
  for (const signer of signers)
    if (
      !(await isValidSignature(signer, signed.transaction.signatures[signer as Address], signed.messageBytes))
    )
      return false;
  return true;
}

/** Every signer of the transaction, the fee payer first. */
export function everySigner(signed: SignedTransaction): string[] {
  return Object.keys(signed.transaction.signatures);
}

/** Whether every signer of the transaction signed it, each signature valid. */
export function allSignaturesValid(signed: SignedTransaction): Promise<boolean> {
  return signedBy(signed, everySigner(signed));
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
 * again every 2 s meanwhile (the server-signed path's two steps); past its blockhash it is `expired`.
 */
export async function sendAndConfirm(
  rpc: Rpc<SolanaRpcApi>,
  wire: string,
  signature: Signature,
  options: RelayOptions,
  failures: RelayFailures,
): Promise<void> {
  try {
    await sendSignedTransaction(rpc, wire as Base64EncodedWireTransaction);
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    if (
      options.sentBefore === 'refuse' ||
      !isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)
    )
      throw await failures.refused(error);
  }
  const sent = { base64: wire, signature, lastValidBlockHeight: options.lastValidBlockHeight };
  await told(confirmServerSigned(rpc, sent, { timeoutMs: CONFIRM_TIMEOUT_MS }), signature, failures);
}

/** Waits until a sent transaction is confirmed; its failure is the answer's reason. */
export async function confirmSent(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  failures: Omit<RelayFailures, 'refused'>,
  lastValidBlockHeight?: bigint,
): Promise<void> {
  const confirmation = waitForConfirmation(rpc, signature, {
    commitment: 'confirmed',
    timeoutMs: CONFIRM_TIMEOUT_MS,
    ...(lastValidBlockHeight === undefined ? {} : { lastValidBlockHeight }),
  });
  await told(confirmation, signature, failures);
}

/** A confirmation's failure in the caller's words. */
async function told(
  confirmation: Promise<unknown>,
  signature: Signature,
  failures: Omit<RelayFailures, 'refused'>,
): Promise<void> {
  try {
    await confirmation;
  } catch (error) {
    if (error instanceof ConfirmationError && error.reason === 'failed')
      throw new AppError('TRANSACTION_FAILED', failures.failed(error.transactionError), { signature });
    if (error instanceof ConfirmationError && error.reason === 'expired') throw failures.expired();
    throw new AppError('CHAIN_UNAVAILABLE', failures.unconfirmed, { signature });
  }
}

const ANSWER: unique symbol = Symbol('relay answer');

/** What a step of a relay answers instead of going on: nothing (more) is sent. */
export interface Answer<Result> {
  readonly [ANSWER]: Result;
}

/** Ends a relay at this step with `result` (it landed before; more signatures are wanted). */
export function answer<Result>(result: Result): Answer<Result> {
  return { [ANSWER]: result };
}

function isAnswer<Result>(value: unknown): value is Answer<Result> {
  return typeof value === 'object' && value !== null && ANSWER in value;
}

/** A relay's transaction once matched, verified and completed: what its later steps are told. */
export interface Relayed<Match> {
  /** What the caller's `match` found: the stored row this message is. */
  match: Match;
  /** The transaction as the wallet signed it. */
  signed: SignedTransaction;
  /** What is sent: the wallet's transaction, with the server's own signatures where it adds any. */
  transaction: Transaction;
  wire: string;
  /** Its id: the fee payer's signature. */
  signature: Signature;
}

/** What one relay is: the steps' rules and words, the caller's. */
export interface RelayFlow<Match, Result> {
  rpc: Rpc<SolanaRpcApi>;
  /** The wallet's signed transaction (base64 wire format). */
  signedBase64: string;
  /** The 400's message when those bytes are not a transaction. */
  unreadable: string;
  /**
   * The stored transaction this message must be (matched by its hash), or the answer when there
   * is nothing to send. Throws the caller's refusal: nothing is sent.
   */
  match(signed: SignedTransaction): Promise<Match | Answer<Result>>;
  /** Whose signatures count: each must be there and valid over the message. */
  signers(signed: SignedTransaction, match: Match): readonly string[];
  /** The 400's message when one of them is missing or invalid. */
  badSignature: string;
  /**
   * The transaction to send with the server's own signatures added, or the answer when it is not
   * to be sent yet. Without it the wallet's bytes are sent as they came.
   */
  complete?(signed: SignedTransaction, match: Match): Promise<Transaction | Answer<Result>>;
  /**
   * Claims the send before anything goes: `send` it, or it was `sent` before by this very flow
   * (then it is only confirmed). Throws the caller's refusal.
   */
  claim?(relayed: Relayed<Match>): Promise<'send' | 'sent'>;
  /** How the send treats a copy sent before, and the blockhash's last valid height if known. */
  options(match: Match): RelayOptions;
  /** The failures in the caller's words. */
  failures(relayed: Relayed<Match>): RelayFailures;
  /** What is booked once it is confirmed, and the relay's answer. */
  landed(relayed: Relayed<Match>): Promise<Result>;
}

/**
 * Relays a transaction a wallet signed: decoded, matched to what the server stored, every
 * signature that counts verified and the server's own added, all before anything is sent; then
 * sent, confirmed and booked. A refusal at any step before the send sends nothing.
 */
export async function relaySigned<Match, Result>(flow: RelayFlow<Match, Result>): Promise<Result> {
  const signed = decodeSigned(flow.signedBase64, flow.unreadable);
  const match = await flow.match(signed);
  if (isAnswer<Result>(match)) return match[ANSWER];
  if (!(await signedBy(signed, flow.signers(signed, match)))) throw badRequest(flow.badSignature);
  const completed = flow.complete ? await flow.complete(signed, match) : signed.transaction;
  if (isAnswer<Result>(completed)) return completed[ANSWER];
  const relayed: Relayed<Match> = {
    match,
    signed,
    transaction: completed,
    wire: flow.complete ? getBase64EncodedWireTransaction(completed) : flow.signedBase64,
    signature: transactionId(completed),
  };
  const options = flow.options(match);
  const failures = flow.failures(relayed);
  if ((await flow.claim?.(relayed)) === 'sent')
    await confirmSent(flow.rpc, relayed.signature, failures, options.lastValidBlockHeight);
  else await sendAndConfirm(flow.rpc, relayed.wire, relayed.signature, options, failures);
  return flow.landed(relayed);
}
