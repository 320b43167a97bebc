/**
 * Program transactions DarePool builds for a user's wallet to sign and then relays for them: the
 * entry of a dare (`enter`) and 'Refund me' (`refund`), both paid by the user's wallet and signed
 * by nothing of DarePool. docs/decisions/025-entering-and-refund-me.md, 034.
 *
 * - One per kind, vault and wallet at a time: asked again while it can still land, the same bytes
 *   come back; a new one replaces it only once its blockhash expired. Two copies of one
 *   transaction have one id, so the chain runs it at most once, however often it is sent.
 * - The relay sends only the exact message prepared for this user (its hash is kept), signed by
 *   the user's wallet (checked here), every other signature valid as it was, and waits for it
 *   (the steps of src/server/chain/relay.ts, in the words of the feature that asks).
 *
 * Not a feature: it has no routes and no rule of its own; submissions (entries) and refund-me use
 * it, as every money feature uses the ledger.
 */
import {
  isSolanaError,
  type Rpc,
  type Signature,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT,
  type SolanaRpcApi,
} from '@solana/kit';
import { customErrorCode, escrowErrorMessage } from '#server/chain/escrow-program/errors';
import type { AppTransaction } from '#server/chain/escrow-program/wire-transactions';
import { everySigner, messageHash, type RelayFailures, relaySigned } from '#server/chain/relay';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest } from '#server/errors';
import {
  findPrepared,
  insertPrepared,
  type PreparedKey,
  type PreparedKind,
  type PreparedTransactionRow,
  replacePrepared,
} from './repo';

export type { PreparedKind, PreparedTransactionRow } from './repo';

/**
 * Whether a prepared transaction is this request's to hand out and relay: its user's. A refund is
 * the exception: it is the same transaction whoever asks for it (the dare's vault paying the
 * wallet's own receipt back to that wallet, which alone signs), so a stranger asking for a
 * registered wallet's refund by address cannot keep its owner from the one prepared for it.
 */
function sameHolder(
  row: { kind: PreparedKind; userId: number | null },
  key: { kind: PreparedKind; userId: number | null },
) {
  return row.kind === 'refund' || row.userId === key.userId;
}

/** The relay's refusals and failures, in the words of the feature that uses it. */
export interface RelayMessages {
  unreadable: string;
  notPrepared: string;
  notAsPrepared: string;
  badSignature: string;
  expired: string;
  failed: (reason: string) => string;
  unconfirmed: string;
  /**
   * The wallet (the fee payer) cannot pay: the network fee, or the rent of an account the
   * transaction creates (the System program's Custom(1) inside the escrow program, which never
   * answers 1 to an instruction the server built).
   */
  noFee: string;
  /** The prepared transaction carries another proof fingerprint than the caller's (v2 entries). */
  otherProof?: string;
}

/** SystemError::ResultWithNegativeLamports: a transfer or account creation its payer cannot fund. */
const SYSTEM_INSUFFICIENT_LAMPORTS = 1;

export function createPreparedTransactions({
  db,
  rpc,
  clock,
}: {
  db: Db;
  rpc: Rpc<SolanaRpcApi>;
  clock: Clock;
}) {
  const blockHeight = () => rpc.getBlockHeight({ commitment: 'confirmed' }).send();

  /**
   * The transaction of `key` for `userId`: the live one if there is one, else `build()`'s, stored.
   * `stillNeeded` runs after the previous one is known to be expired (it can no longer land), so
   * what it reads on chain cannot change because of that one; it throws to refuse.
   * `key.proofHash` is what a v2 entry carries: a live one carrying another fingerprint is replaced
   * at once (the relay then takes only the new one). Both could be broadcast, but only one can
   * land: they create the same entry account (decision 038).
   */
  async function prepare(
    key: PreparedKey & { dareId: number; userId: number | null; proofHash?: string | null },
    build: () => Promise<AppTransaction>,
    stillNeeded: () => Promise<void>,
  ): Promise<PreparedTransactionRow> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const current = await findPrepared(db, key);
      if (current && current.lastValidBlockHeight >= (await blockHeight())) {
        // Only its own user may have it (a wallet belongs to one account).
        if (!sameHolder(current, key)) break;
        if (current.proofHash === (key.proofHash ?? null)) return current;
      }
      await stillNeeded();
      const built = await build();
      const row = {
        ...key,
        messageHash: messageHash(built.messageBytes),
        wireTransaction: built.base64,
        lastValidBlockHeight: built.lastValidBlockHeight,
        now: clock(),
      };
      const stored = current
        ? await replacePrepared(db, current.messageHash, row)
        : await insertPrepared(db, row);
      if (stored) return stored;
      // Another request stored one first: hand out that one (next turn) rather than a second.
    }
    throw new AppError('CONFLICT', 'This transaction is being prepared elsewhere; try again in a moment');
  }

  /**
   * Checks `signedBase64` is the transaction prepared for this user under `key`, signed by their
   * wallet; sends it (a copy already sent is fine: same id) and waits until it is confirmed.
   */
  async function relay(
    key: PreparedKey & { userId: number | null; proofHash?: string | null },
    signedBase64: string,
    messages: RelayMessages,
  ): Promise<Signature> {
    return relaySigned({
      rpc,
      signedBase64,
      unreadable: messages.unreadable,
      async match(signed) {
        const prepared = await findPrepared(db, key);
        if (!prepared || !sameHolder(prepared, key)) throw badRequest(messages.notPrepared);
        // Checked before anything is sent: an entry, once landed, holds its fingerprint for good.
        if (key.proofHash !== undefined && prepared.proofHash !== key.proofHash)
          throw badRequest(messages.otherProof ?? messages.notAsPrepared);
        if (signed.messageHash !== prepared.messageHash) throw badRequest(messages.notAsPrepared);
        return prepared;
      },
      // Every signer's signature must be valid: the wallet's, and the server's left as they were.
      signers: everySigner,
      badSignature: messages.badSignature,
      // Sent before (a retry, or the wallet sent it itself): the chain runs one copy; wait for it.
      options: (prepared) => ({ sentBefore: 'wait', lastValidBlockHeight: prepared.lastValidBlockHeight }),
      failures: () => relayFailures(messages),
      landed: async ({ signature }) => signature,
    });
  }

  return { prepare, relay };
}

/** A prepared relay's failures in its feature's words. */
function relayFailures(messages: RelayMessages): RelayFailures {
  return {
    refused: (error) => sendFailure(error, messages),
    failed(transactionError) {
      const code = customErrorCode(transactionError);
      if (code === SYSTEM_INSUFFICIENT_LAMPORTS) return messages.noFee;
      return messages.failed(code === null ? 'the network refused it' : escrowErrorMessage(code));
    },
    expired: () => new AppError('TRANSACTION_FAILED', messages.expired),
    unconfirmed: messages.unconfirmed,
  };
}

/** A send refused before anything ran (preflight, signatures): nothing landed, nothing was paid. */
function sendFailure(error: unknown, messages: RelayMessages): AppError {
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE))
    return badRequest(messages.badSignature);
  if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
    const cause = (error as { cause?: unknown }).cause;
    if (isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND))
      return new AppError('TRANSACTION_FAILED', messages.expired);
    if (
      // An emptied fee payer no longer exists: the node says so instead of 'insufficient funds'.
      isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND) ||
      isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE) ||
      isSolanaError(cause, SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT) ||
      (isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM) &&
        cause.context.code === SYSTEM_INSUFFICIENT_LAMPORTS)
    )
      return new AppError('TRANSACTION_FAILED', messages.noFee);
    if (isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM))
      return new AppError('TRANSACTION_FAILED', messages.failed(escrowErrorMessage(cause.context.code)));
    return new AppError('TRANSACTION_FAILED', messages.failed('the network refused it'));
  }
  return new AppError('CHAIN_UNAVAILABLE', messages.unconfirmed);
}

export type PreparedTransactions = ReturnType<typeof createPreparedTransactions>;
