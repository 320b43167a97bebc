import {
  address,
  type Base64EncodedWireTransaction,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
} from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import type { Clock } from '#server/deps';
import { ledgerBalanceOf } from '#server/ledger/entries';
import { ConfirmationError, waitForConfirmation } from '../../chain/confirmation';
import type { EscrowKeys } from '../../chain/escrow-keys';
import { sendSignedTransaction, signPayoutTransaction } from '../../chain/payout-transactions';
import type { ChainPort } from '../../chain/port';
import type { Db, Tx } from '../../db/client';
import { violatedConstraint } from '../../db/errors';
import { AppError } from '../../errors';
import { describePayoutError } from './payout-errors';
import {
  closeSendingTransfer,
  countAttempts,
  findEscrowDerivationIndex,
  findSendingTransfers,
  hasSendingTransfer,
  insertPayoutTransfer,
  type PayoutTarget,
  type PayoutTransferRow,
} from './repo';
import { bookLandedTransfer, releaseFailedTransfer } from './settle';

export type { PayoutTarget } from './repo';

export interface PayoutRequest {
  target: PayoutTarget;
  dareId: number | null;
  escrowWallet: string;
  recipient: string;
  lamports: bigint;
}

/** What became of one transfer. 'unknown': sent, not yet confirmed; recovery settles it later. */
export type PayoutOutcome =
  | { status: 'confirmed'; signature: string }
  | { status: 'failed'; reason: string }
  | { status: 'unknown'; signature: string };

export interface PayoutsDeps {
  db: Db;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  clock: Clock;
  /** How long to wait for a confirmation before leaving the transfer to recovery. */
  confirmTimeoutMs?: number;
}

/** Thrown when the claim or contribution already has a live transfer (the unique index said so). */
export class TransferAlreadyLive extends Error {}

const EXPIRED_REASON = 'The payout transaction expired before it reached the network';

function memoFor(target: PayoutTarget, attempt: number): string {
  const what =
    'claimId' in target
      ? `prize claim ${target.claimId}`
      : 'contributionId' in target
        ? `refund of contribution ${target.contributionId}`
        : 'intentId' in target
          ? `refund of payment ${target.intentId}`
          : `refund of stray payment ${target.strayPaymentId}`;
  return `DarePool ${what}, attempt ${attempt}`;
}

/**
 * Moves SOL out of escrows, each transfer exactly once: it is signed, stored with its signature
 * and bytes ('sending'), then sent; a landed transfer is booked, a failed one released. Nothing
 * else in the app signs with an escrow key.
 */
export function createPayoutsService({
  db,
  chain,
  escrowKeys,
  clock,
  confirmTimeoutMs = 60_000,
}: PayoutsDeps) {
  const { rpc } = chain;

  async function settleLanded(transfer: PayoutTransferRow): Promise<void> {
    await db.transaction(async (tx) => {
      const now = clock();
      if (await closeSendingTransfer(tx, transfer.id, 'confirmed', now))
        await bookLandedTransfer(tx, transfer, now);
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

  /** Waits for a sent transfer and settles it. */
  async function confirm(transfer: PayoutTransferRow): Promise<PayoutOutcome> {
    try {
      await waitForConfirmation(rpc, transfer.signature as Signature, {
        commitment: 'confirmed',
        timeoutMs: confirmTimeoutMs,
        intervalMs: 200,
        lastValidBlockHeight: transfer.lastValidBlockHeight,
      });
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
    await settleLanded(transfer);
    return { status: 'confirmed', signature: transfer.signature };
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
   * SOL in the escrow beyond the books (sent from outside DarePool, say 1 lamport) that the
   * transfer emptying the escrow's books must take along: leaving it behind would leave the
   * escrow below the rent-exempt minimum, and the transfer would fail. Only when nothing else is
   * on its way out of the escrow; then the next emptying transfer sweeps it.
   */
  async function surplusToSweep(request: PayoutRequest): Promise<bigint> {
    if (await hasSendingTransfer(db, request.escrowWallet)) return 0n;
    const booked = await ledgerBalanceOf(db, request.escrowWallet);
    if (booked !== request.lamports) return 0n;
    const { value: onChain } = await rpc
      .getBalance(address(request.escrowWallet), { commitment: 'confirmed' })
      .send();
    return onChain > booked ? onChain - booked : 0n;
  }

  const service = {
    /**
     * Signs and records the transfer (and, for a claim, its signature on the claim) in one
     * database transaction, before anything is sent. `beforeRecord` runs inside that transaction.
     */
    async prepare(request: PayoutRequest, beforeRecord?: (tx: Tx, signature: string) => Promise<void>) {
      const derivationIndex = await findEscrowDerivationIndex(db, request.escrowWallet);
      if (derivationIndex === undefined) throw new AppError('INTERNAL', 'The escrow of this dare is unknown');
      const attempt = (await countAttempts(db, request.target)) + 1;
      const surplus = await surplusToSweep(request);
      const signed = await signPayoutTransaction(rpc, {
        escrow: await escrowKeys.signerFor(derivationIndex),
        feePayer: await escrowKeys.feePayer(),
        recipient: address(request.recipient),
        lamports: request.lamports + surplus,
        memo: memoFor(request.target, attempt),
      });
      try {
        return await db.transaction(async (tx) => {
          await beforeRecord?.(tx, signed.signature);
          return insertPayoutTransfer(tx, {
            purpose: request.target.purpose,
            claimId: 'claimId' in request.target ? request.target.claimId : null,
            contributionId: 'contributionId' in request.target ? request.target.contributionId : null,
            intentId: 'intentId' in request.target ? request.target.intentId : null,
            strayPaymentId: 'strayPaymentId' in request.target ? request.target.strayPaymentId : null,
            dareId: request.dareId,
            escrowWallet: request.escrowWallet,
            recipient: request.recipient,
            amount: lamportsToSol(request.lamports),
            surplus: lamportsToSol(surplus),
            signature: signed.signature,
            wireTransaction: signed.wire,
            lastValidBlockHeight: signed.lastValidBlockHeight,
            createdAt: clock(),
            updatedAt: clock(),
          });
        });
      } catch (error) {
        const constraint = violatedConstraint(error);
        if (
          constraint === 'payout_transfers_one_live_per_claim' ||
          constraint === 'payout_transfers_one_live_per_contribution' ||
          constraint === 'payout_transfers_one_live_per_intent' ||
          constraint === 'payout_transfers_one_live_per_stray_payment'
        )
          throw new TransferAlreadyLive();
        throw error;
      }
    },

    sendStored,

    /** Whether a transfer out of this escrow is on its way (recorded, not settled). */
    hasTransferOnItsWay: (escrowWallet: string) => hasSendingTransfer(db, escrowWallet),

    async pay(request: PayoutRequest, beforeRecord?: (tx: Tx, signature: string) => Promise<void>) {
      return sendStored(await service.prepare(request, beforeRecord));
    },

    /**
     * Start-up recovery: every transfer still 'sending' (the process stopped between recording
     * and settling) is decided by its signature. Landed: booked. Failed on chain: released. Not
     * seen and its blockhash expired: looked up once more (it may have landed after the first
     * look, or the node lagged), and only then released as expired (the caller pays again with a
     * new transaction). Not seen but still valid: the same bytes are sent again.
     */
    async recover(): Promise<{ settled: PayoutTransferRow[]; outcomes: PayoutOutcome[] }> {
      const pending = await findSendingTransfers(db);
      const outcomes: PayoutOutcome[] = [];
      for (const transfer of pending) {
        const { value } = await rpc
          .getSignatureStatuses([transfer.signature as Signature], { searchTransactionHistory: true })
          .send();
        if (value[0]) {
          outcomes.push(await confirm(transfer));
          continue;
        }
        const height = await rpc.getBlockHeight({ commitment: 'confirmed' }).send();
        if (height > transfer.lastValidBlockHeight) {
          const { value: again } = await rpc
            .getSignatureStatuses([transfer.signature as Signature], { searchTransactionHistory: true })
            .send();
          if (again[0]) {
            outcomes.push(await confirm(transfer));
            continue;
          }
          await settleFailed(transfer, EXPIRED_REASON, 'expired');
          outcomes.push({ status: 'failed', reason: EXPIRED_REASON });
          continue;
        }
        outcomes.push(await sendStored(transfer));
      }
      return { settled: pending, outcomes };
    },

    /** The platform fee payer's address and balance (lamports). */
    async feePayerBalance(): Promise<{ address: string; lamports: bigint }> {
      const signer = await escrowKeys.feePayer();
      const { value } = await rpc.getBalance(signer.address, { commitment: 'confirmed' }).send();
      return { address: signer.address, lamports: value };
    },
  };
  return service;
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;

/** What every service that moves money out through the payout machinery needs (claims, refunds). */
export interface PayingServiceDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  payouts: PayoutsService;
}
