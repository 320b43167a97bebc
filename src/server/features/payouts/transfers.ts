import {
  address,
  type Base64EncodedWireTransaction,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
} from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import { ConfirmationError } from '#server/chain/confirmation';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import { type EscrowPrograms, programIds } from '#server/chain/escrow-program/any-program';
import type { VaultTransaction } from '#server/chain/escrow-program/app-transactions';
import { VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import { readVaultTransaction, type VaultTransactionEffects } from '#server/chain/payout-transactions';
import type { ChainPort } from '#server/chain/port';
import { confirmServerSigned, sendServerSigned, sendSignedTransaction } from '#server/chain/server-signed';
import type { Db, Tx } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import type { Clock } from '#server/deps';
import { describePayoutError } from './payout-errors';
import {
  closeSendingTransfer,
  escrowProgramVersion,
  findTransferBySignature,
  insertPayoutTransfer,
  type PayoutPurpose,
  type PayoutTransferRow,
} from './repo';
import { type BookedPayment, bookVaultTransaction, releaseFailedTransfer } from './settle';

/** What became of one transaction. 'unknown': sent, not yet confirmed; recovery settles it later. */
export type PayoutOutcome =
  | { status: 'confirmed'; signature: string; booked: BookedPayment[] }
  | { status: 'failed'; reason: string }
  | { status: 'unknown'; signature: string };

export interface PayoutsDeps {
  db: Db;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /** Both escrow programs: each vault is handled by the program that owns it. */
  escrowPrograms: EscrowPrograms;
  clock: Clock;
  /** How long to wait for a confirmation before leaving the transaction to recovery. */
  confirmTimeoutMs?: number;
}

/**
 * Thrown when a transaction is already on its way (a unique index said so): for this very claim
 * (`sameClaim`), or out of this vault (one transaction of a vault at a time).
 */
export class TransferAlreadyLive extends Error {
  constructor(readonly sameClaim: boolean) {
    super(sameClaim ? 'A payout of this claim is on its way' : 'A transaction of this vault is on its way');
  }
}

export const EXPIRED_REASON = 'The payout transaction expired before it reached the network';

/** What a recorded transaction is for; `claimIds` are the claims a settle pays. */
export interface VaultPayout {
  purpose: PayoutPurpose;
  /** The claim whose request sends a settle (a major dare's settle pays its other claim too). */
  claimId: number | null;
  dareId: number | null;
  escrowWallet: string;
}

/** Called in the database transaction that records a transaction, with its signature (a claim records it). */
export type BeforeRecord = (tx: Tx, signature: string) => Promise<void>;

/**
 * The machinery every transaction out of a vault goes through: each one that pays is signed,
 * stored with its signature and bytes ('sending'), then sent; a landed one is booked from what the
 * chain says it moved (ours or anyone's), a failed one released. Paying winners, refunds, recovery
 * and the notice job are built on it.
 */
export function createTransfers({
  db,
  chain,
  escrowKeys,
  escrowPrograms,
  clock,
  confirmTimeoutMs = 60_000,
}: PayoutsDeps) {
  const { rpc } = chain;

  async function signers() {
    return { moderator: await escrowKeys.moderator(), feePayer: await escrowKeys.feePayer() };
  }

  const vaultRentRequests = new Map<number, Promise<bigint>>();
  /**
   * The rent a vault keeps (the program records the rent-exempt minimum of its size; v2's vault
   * is larger). The version comes from the books: a closed vault can no longer be read.
   */
  async function vaultRent(escrowWallet: string): Promise<bigint> {
    const size = (await escrowProgramVersion(db, escrowWallet)) === 2 ? VAULT_V2_SIZE : VAULT_SIZE;
    let request = vaultRentRequests.get(size);
    if (!request) {
      request = rpc
        .getMinimumBalanceForRentExemption(BigInt(size), { commitment: 'confirmed' })
        .send()
        .catch((error: unknown) => {
          vaultRentRequests.delete(size);
          throw error;
        });
      vaultRentRequests.set(size, request);
    }
    return request;
  }

  /** The chain's record of a landed transaction; a node may need a moment to serve it. */
  async function effectsOf(signature: string, escrowWallet: string): Promise<VaultTransactionEffects | null> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const effects = await readVaultTransaction(rpc, signature, {
        programId: programIds(escrowPrograms),
        vault: address(escrowWallet),
        vaultRent: await vaultRent(escrowWallet),
      });
      if (effects) return effects;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
    return null;
  }

  /**
   * Books a landed transaction of this vault once: ours (its row moves from 'sending' to
   * 'confirmed' in the same database transaction) or anyone's.
   */
  async function bookLanded(
    signature: string,
    target: { escrowWallet: string; dareId: number | null },
    read?: VaultTransactionEffects,
  ): Promise<BookedPayment[] | null> {
    const effects = read ?? (await effectsOf(signature, target.escrowWallet));
    if (!effects) return null;
    return db.transaction(async (tx) => {
      const now = clock();
      const transfer = await findTransferBySignature(tx, signature);
      if (transfer?.status === 'sending') await closeSendingTransfer(tx, transfer.id, 'confirmed', now);
      return bookVaultTransaction(tx, {
        effects,
        escrowWallet: target.escrowWallet,
        dareId: transfer?.dareId ?? target.dareId,
        transfer,
        now,
      });
    });
  }

  async function settleFailed(
    transfer: PayoutTransferRow,
    reason: string,
    status: 'failed' | 'expired' = 'failed',
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const now = clock();
      if (await closeSendingTransfer(tx, transfer.id, status, now, reason))
        await releaseFailedTransfer(tx, transfer, reason, now);
    });
  }

  /** Waits for a sent transaction and settles it. */
  async function confirm(transfer: PayoutTransferRow): Promise<PayoutOutcome> {
    try {
      await confirmServerSigned(
        rpc,
        {
          base64: transfer.wireTransaction,
          signature: transfer.signature as Signature,
          lastValidBlockHeight: transfer.lastValidBlockHeight,
        },
        { timeoutMs: confirmTimeoutMs, intervalMs: 200 },
      );
    } catch (error) {
      if (error instanceof ConfirmationError && error.reason === 'failed') {
        const reason = describePayoutError(error.transactionError);
        await settleFailed(transfer, reason);
        return { status: 'failed', reason };
      }
      if (error instanceof ConfirmationError && error.reason === 'expired') {
        await settleFailed(transfer, EXPIRED_REASON, 'expired');
        return { status: 'failed', reason: EXPIRED_REASON };
      }
      return { status: 'unknown', signature: transfer.signature };
    }
    const booked = await bookLanded(transfer.signature, transfer);
    if (booked === null) return { status: 'unknown', signature: transfer.signature };
    return { status: 'confirmed', signature: transfer.signature, booked };
  }

  /** Sends stored bytes (again: the same bytes can never pay twice) and settles the outcome. */
  async function sendStored(transfer: PayoutTransferRow): Promise<PayoutOutcome> {
    try {
      await sendSignedTransaction(rpc, transfer.wireTransaction as Base64EncodedWireTransaction);
    } catch (error) {
      const reason = describePayoutError(error);
      if (/already sent/.test(reason)) return confirm(transfer);
      // A refused preflight means the node simulated it and it cannot land: nothing moved.
      if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)) {
        const expired = /expired/.test(reason);
        await settleFailed(transfer, expired ? EXPIRED_REASON : reason, expired ? 'expired' : 'failed');
        return { status: 'failed', reason: expired ? EXPIRED_REASON : reason };
      }
      // The node may or may not have it (network error): recovery decides from the signature.
      return { status: 'unknown', signature: transfer.signature };
    }
    return confirm(transfer);
  }

  /**
   * Records a signed transaction before anything is sent, in one database transaction with
   * `beforeRecord` (a claim records the signature that pays it). One per vault at a time.
   */
  async function record(
    payout: VaultPayout,
    transaction: VaultTransaction,
    expected: { recipient: string; lamports: bigint },
    beforeRecord?: BeforeRecord,
  ): Promise<PayoutTransferRow> {
    try {
      return await db.transaction(async (tx) => {
        await beforeRecord?.(tx, transaction.signature);
        return insertPayoutTransfer(tx, {
          purpose: payout.purpose,
          claimId: payout.claimId,
          contributionId: null,
          intentId: null,
          strayPaymentId: null,
          dareId: payout.dareId,
          escrowWallet: payout.escrowWallet,
          recipient: expected.recipient,
          // What the vault held for it when signed; the booking writes what the chain moved.
          amount: lamportsToSol(expected.lamports > 0n ? expected.lamports : 1n),
          surplus: '0',
          signature: transaction.signature,
          wireTransaction: transaction.base64,
          lastValidBlockHeight: transaction.lastValidBlockHeight,
          createdAt: clock(),
          updatedAt: clock(),
        });
      });
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (constraint === 'payout_transfers_one_live_per_claim') throw new TransferAlreadyLive(true);
      if (constraint === 'payout_transfers_one_sending_per_escrow') throw new TransferAlreadyLive(false);
      throw error;
    }
  }

  /** Sends one transaction and waits for it: whether it landed. */
  async function landed(transaction: VaultTransaction): Promise<boolean> {
    try {
      await sendServerSigned(rpc, transaction, { timeoutMs: confirmTimeoutMs, intervalMs: 200 });
      return true;
    } catch {
      // Closes are retried by the job: anyone may send them, and nothing is lost meanwhile.
      return false;
    }
  }

  /**
   * Sends a transaction that moves no pool money (closes of records), and waits for it. Packed
   * closes that cannot land go again one by one, so one record's refusal holds up only its own
   * close; whether every close landed.
   */
  async function sendAndConfirm(transaction: VaultTransaction): Promise<boolean> {
    if (await landed(transaction)) return true;
    if (!transaction.separately) return false;
    let all = true;
    for (const single of await transaction.separately()) if (!(await landed(single))) all = false;
    return all;
  }

  const memo = (payout: VaultPayout, what: string, attempt: number) =>
    `DarePool ${what}${payout.dareId === null ? '' : ` of dare ${payout.dareId}`}, attempt ${attempt}`;

  /**
   * Records, sends and books each paying transaction in order; stops at the first that does not
   * land. With `independentCloses` (each transaction closes records of its own), one that
   * closes records and failed does not stop the next: only a transaction closing nothing (the
   * cancel the refunds need) or one whose fate is unknown (one transaction of a vault on its way
   * at a time) does. A packed transaction that failed goes again as its steps one by one, each
   * recorded and booked on its own (decision 058): one payer unable to take its refund fails only
   * its own.
   */
  async function sendInOrder(
    payout: VaultPayout,
    transactions: VaultTransaction[],
    beforeRecord?: BeforeRecord,
    recipientOf: (transaction: VaultTransaction) => { recipient: string; lamports: bigint } | null = () =>
      null,
    { independentCloses = false }: { independentCloses?: boolean } = {},
  ): Promise<PayoutOutcome[]> {
    const outcomes: PayoutOutcome[] = [];
    // A transaction whose fate is unknown stops everything: one of a vault's on its way at a time.
    let unknown = false;
    /** Sends one transaction: false when what follows must wait (it did not land, or is unknown). */
    async function send(transaction: VaultTransaction, before?: BeforeRecord): Promise<boolean> {
      const goesOn = independentCloses && transaction.closes.length > 0;
      const expected = recipientOf(transaction);
      if (!expected) return (await sendAndConfirm(transaction)) || goesOn;
      const row = await record(payout, transaction, expected, before);
      const outcome = await sendStored(row);
      if (outcome.status === 'failed' && transaction.separately) {
        let all = true;
        for (const single of await transaction.separately()) {
          if (!(await send(single))) all = false;
          if (unknown) return false;
        }
        return all || goesOn;
      }
      outcomes.push(outcome);
      if (outcome.status === 'unknown') unknown = true;
      return !unknown && (outcome.status === 'confirmed' || goesOn);
    }
    for (const [index, transaction] of transactions.entries())
      if (!(await send(transaction, index === 0 ? beforeRecord : undefined))) break;
    return outcomes;
  }

  return {
    signers,
    effectsOf,
    bookLanded,
    settleFailed,
    confirm,
    sendStored,
    record,
    sendAndConfirm,
    sendInOrder,
    memo,
  };
}

export type Transfers = ReturnType<typeof createTransfers>;
