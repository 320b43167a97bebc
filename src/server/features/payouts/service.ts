import {
  type Address,
  address,
  type Base64EncodedWireTransaction,
  isSolanaError,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
} from '@solana/kit';
import { lamportsToSol } from '#contract/money';
import type { Clock } from '#server/deps';
import { ConfirmationError, waitForConfirmation } from '../../chain/confirmation';
import type { EscrowKeys } from '../../chain/escrow-keys';
import { fetchVault } from '../../chain/escrow-program/accounts';
import type { EscrowPrograms } from '../../chain/escrow-program/any-program';
import {
  buildCancelAndRefundTransactions,
  buildCloseRecordsTransactions,
  buildExecuteTransaction,
  buildSettleTransactions,
  VaultStateError,
  type VaultTransaction,
} from '../../chain/escrow-program/app-transactions';
import { fetchChainTime } from '../../chain/escrow-program/chain-clock';
import { VAULT_SIZE } from '../../chain/escrow-program/layout';
import { VAULT_V2_SIZE } from '../../chain/escrow-program/v2/layout';
import {
  readVaultTransaction,
  sendSignedTransaction,
  type VaultTransactionEffects,
} from '../../chain/payout-transactions';
import type { ChainPort } from '../../chain/port';
import type { Db, Tx } from '../../db/client';
import { violatedConstraint } from '../../db/errors';
import { describePayoutError } from './payout-errors';
import {
  bookedSignatures,
  closeSendingTransfer,
  countVaultAttempts,
  escrowProgramVersion,
  findNoticeCursor,
  findSendingTransfers,
  findTransferBySignature,
  hasSendingTransfer,
  insertPayoutTransfer,
  markEscrowClosed,
  type PayoutPurpose,
  type PayoutTransferRow,
  saveNoticeCursor,
} from './repo';
import { type BookedPayment, bookVaultTransaction, releaseFailedTransfer } from './settle';

export type { BookedPayment } from './settle';

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

/** The vault cannot take this step now (closed, settled, a winner never entered...). */
export { VaultStateError };

/** A v2 proposal still in its window: nobody can pay it before `executesAt`. */
export class PayoutNotYetDue extends Error {
  constructor(readonly executesAt: Date) {
    super(`The payout window ends at ${executesAt.toISOString()}`);
  }
}

const EXPIRED_REASON = 'The payout transaction expired before it reached the network';

/** What a recorded transaction is for; `claimIds` are the claims a settle pays. */
export interface VaultPayout {
  purpose: PayoutPurpose;
  /** The claim whose request sends a settle (a major dare's settle pays its other claim too). */
  claimId: number | null;
  dareId: number | null;
  escrowWallet: string;
}

/** How a vault stands on chain, for the jobs that finish dares. */
/** `proposed`: a v2 vault whose named winners wait for the payout window (no refund, no cancel). */
export type VaultState = 'closed' | 'open' | 'settled' | 'refunding' | 'refundable' | 'proposed';

/**
 * Every lamport that leaves a dare's vault leaves through the escrow program, in transactions the
 * moderator key and the platform fee payer sign (no key can move a vault's SOL otherwise): `settle`
 * to the winners, `cancel` and a `refund` per receipt to the payers, then the closes that return
 * the records' rent to the fee payer. Each transaction that pays is signed, stored with its
 * signature and bytes ('sending'), then sent; a landed one is booked from what the chain says it
 * moved, a failed one released. Refunds sent by anyone else are found and booked the same way.
 */
export function createPayoutsService({
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
        programId: [escrowPrograms.v1, escrowPrograms.v2],
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
    beforeRecord?: (tx: Tx, signature: string) => Promise<void>,
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

  /** Sends a transaction that moves no pool money (closes of records), and waits for it. */
  async function sendAndConfirm(transaction: VaultTransaction): Promise<boolean> {
    try {
      await sendSignedTransaction(rpc, transaction.base64);
      await waitForConfirmation(rpc, transaction.signature, {
        commitment: 'confirmed',
        timeoutMs: confirmTimeoutMs,
        intervalMs: 200,
        lastValidBlockHeight: transaction.lastValidBlockHeight,
      });
      return true;
    } catch {
      // Closes are retried by the job: anyone may send them, and nothing is lost meanwhile.
      return false;
    }
  }

  const memo = (payout: VaultPayout, what: string, attempt: number) =>
    `DarePool ${what}${payout.dareId === null ? '' : ` of dare ${payout.dareId}`}, attempt ${attempt}`;

  /** Records, sends and books each paying transaction in order; stops at the first that does not land. */
  async function sendInOrder(
    payout: VaultPayout,
    transactions: VaultTransaction[],
    beforeRecord?: (tx: Tx, signature: string) => Promise<void>,
    recipientOf: (transaction: VaultTransaction) => { recipient: string; lamports: bigint } | null = () =>
      null,
  ): Promise<PayoutOutcome[]> {
    const outcomes: PayoutOutcome[] = [];
    for (const [index, transaction] of transactions.entries()) {
      const expected = recipientOf(transaction);
      if (!expected) {
        if (!(await sendAndConfirm(transaction))) break;
        continue;
      }
      const row = await record(payout, transaction, expected, index === 0 ? beforeRecord : undefined);
      const outcome = await sendStored(row);
      outcomes.push(outcome);
      if (outcome.status !== 'confirmed') break;
    }
    return outcomes;
  }

  const service = {
    sendStored,

    /** Whether a transaction out of this vault is on its way (recorded, not settled). */
    hasTransferOnItsWay: (escrowWallet: string) => hasSendingTransfer(db, escrowWallet),

    /**
     * Signs a dare's `settle` (the moderator signs; everything the vault holds above its rent goes
     * to the winners, 70/30 for a major dare) with as many record closes as fit, and records it
     * with `beforeRecord` before anything is sent. Throws VaultStateError when the vault cannot
     * be settled (closed, not open, a winner never entered). Returns the record and the closes
     * left for later transactions.
     */
    async prepareSettle(
      payout: Omit<VaultPayout, 'purpose'> & { winners: readonly string[] },
      beforeRecord?: (tx: Tx, signature: string) => Promise<void>,
    ): Promise<{ transfer: PayoutTransferRow; closes: VaultTransaction[] }> {
      const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
      if (!vault) throw new VaultStateError('The vault of this dare is closed');
      // Only v1 has settle: a v2 vault pays the winners its judges proposed, after the window.
      if (vault.version !== 1)
        throw new VaultStateError("This dare is paid by its judges' proposal, not settled");
      const attempt = (await countVaultAttempts(db, payout.escrowWallet)) + 1;
      const [settle, ...closes] = await buildSettleTransactions(rpc, {
        programId: vault.programId,
        vault: address(payout.escrowWallet),
        ...(await signers()),
        winners: payout.winners.map((winner) => address(winner)),
        memo: memo({ ...payout, purpose: 'claim' }, 'prize payout', attempt),
      });
      const transfer = await record(
        { ...payout, purpose: 'claim' },
        settle!,
        { recipient: payout.winners[0]!, lamports: vault.lamports - vault.rent },
        beforeRecord,
      );
      return { transfer, closes };
    },

    /**
     * Pays a dare's winners by its vault's program: v1's `settle` (the moderator signs), or v2's
     * `execute` of the winners the judges proposed, once the payout window has passed (throws
     * PayoutNotYetDue before). `winners` are who the books say won: a v2 vault pays only the
     * proposal's winners, so any other list is refused rather than sent.
     */
    async payWinners(
      payout: Omit<VaultPayout, 'purpose'> & { winners: readonly string[] },
      beforeRecord?: (tx: Tx, signature: string) => Promise<void>,
    ): Promise<PayoutOutcome> {
      const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
      if (!vault) throw new VaultStateError('The vault of this dare is closed');
      if (vault.version === 1) return service.settle(payout, beforeRecord);
      const proposal = vault.judging?.proposal;
      if (vault.status !== 'proposed' || !proposal)
        throw new VaultStateError(
          vault.status === 'settled'
            ? 'This dare was paid out already'
            : 'No winner of this dare is named on chain',
        );
      if (proposal.winners.join() !== payout.winners.join())
        throw new VaultStateError('The winners named on chain are not the ones recorded for this dare');
      // The program judges the window by the chain's clock, so that is the clock asked.
      const now = await fetchChainTime(rpc);
      if (now < proposal.executesAt) throw new PayoutNotYetDue(new Date(Number(proposal.executesAt) * 1000));
      const attempt = (await countVaultAttempts(db, payout.escrowWallet)) + 1;
      const execute = await buildExecuteTransaction(rpc, {
        programId: vault.programId,
        vault: vault.address,
        winners: proposal.winners,
        feePayer: await escrowKeys.feePayer(),
        memo: memo({ ...payout, purpose: 'claim' }, 'prize payout', attempt),
      });
      const transfer = await record(
        { ...payout, purpose: 'claim' },
        execute,
        { recipient: payout.winners[0]!, lamports: vault.lamports - vault.rent },
        beforeRecord,
      );
      const outcome = await sendStored(transfer);
      if (outcome.status === 'confirmed') await service.closeSettledRecords(payout.escrowWallet);
      return outcome;
    },

    /**
     * Pays a dare's winners (prepareSettle, then sends it); once it landed, the closes that did
     * not fit in it follow, so every record's rent returns to the fee payer (the job retries them).
     */
    async settle(
      payout: Omit<VaultPayout, 'purpose'> & { winners: readonly string[] },
      beforeRecord?: (tx: Tx, signature: string) => Promise<void>,
    ): Promise<PayoutOutcome> {
      const { transfer, closes } = await service.prepareSettle(payout, beforeRecord);
      const outcome = await sendStored(transfer);
      if (outcome.status !== 'confirmed') return outcome;
      for (const close of closes) if (!(await sendAndConfirm(close))) break;
      await service.vaultState(payout.escrowWallet);
      return outcome;
    },

    /**
     * Refunds every receipt of a vault: `cancel` while it is open (the moderator signs), then a
     * `refund` per receipt (each pays its payer exactly what they put in; the last also carries
     * any stray lamports) and `close_entry` per entry, so the vault closes and its rent returns.
     * Each transaction that refunds is recorded before it is sent and booked from the chain.
     */
    async refundVault(payout: { dareId: number | null; escrowWallet: string }): Promise<{
      state: VaultState;
      outcomes: PayoutOutcome[];
    }> {
      const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
      if (!vault) return { state: await service.vaultState(payout.escrowWallet), outcomes: [] };
      // A named winner's vault refuses cancel and refunds until the guardian vetoes the proposal.
      if (vault.status === 'settled' || vault.status === 'proposed')
        return { state: vault.status, outcomes: [] };
      const attempt = (await countVaultAttempts(db, payout.escrowWallet)) + 1;
      const refund: VaultPayout = { ...payout, purpose: 'refund', claimId: null };
      const transactions = await buildCancelAndRefundTransactions(rpc, {
        programId: vault.programId,
        vault: address(payout.escrowWallet),
        ...(await signers()),
        memo: memo(refund, 'refund', attempt),
      });
      const outcomes = await sendInOrder(refund, transactions, undefined, (transaction) => {
        const refunds = transaction.closes.flatMap((close) => (close.kind === 'refund' ? [close] : []));
        if (refunds.length === 0) return null;
        return { recipient: refunds[0]!.payer, lamports: refunds.reduce((sum, r) => sum + r.amount, 0n) };
      });
      return { state: await service.vaultState(payout.escrowWallet), outcomes };
    },

    /**
     * Closes what a settled vault still holds (receipts and entries created or left after the
     * payout), so their rent and the vault's return to the fee payer. Moves no pool money.
     */
    async closeSettledRecords(escrowWallet: string): Promise<VaultState> {
      const vault = await fetchVault(rpc, escrowPrograms, address(escrowWallet));
      const state = await service.vaultState(escrowWallet);
      if (state !== 'settled' || !vault) return state;
      const transactions = await buildCloseRecordsTransactions(rpc, {
        programId: vault.programId,
        vault: address(escrowWallet),
        feePayer: await escrowKeys.feePayer(),
      });
      for (const transaction of transactions) if (!(await sendAndConfirm(transaction))) break;
      return service.vaultState(escrowWallet);
    },

    /**
     * Where a vault stands: closed (then marked closed in the books), open, settled, refunding, or
     * open but past its refund_after by the chain's clock (anyone may refund it).
     */
    async vaultState(escrowWallet: string): Promise<VaultState> {
      const vault = await fetchVault(rpc, escrowPrograms, address(escrowWallet));
      if (!vault) {
        await markEscrowClosed(db, escrowWallet, clock());
        return 'closed';
      }
      if (vault.status !== 'open') return vault.status;
      return (await fetchChainTime(rpc)) >= vault.refundAfter ? 'refundable' : 'open';
    },

    /**
     * The ledger follows the chain: every landed transaction of this vault that paid something out
     * and is not booked yet (a payer's own 'Refund me', `npm run refund-dare`, a transaction of
     * ours whose booking was interrupted) is booked now. The vault's history is read from the
     * cursor on (decision 037): only signatures newer than the newest one a run read before, so a
     * stranger's thousands of transactions that merely mention the vault are read once. The
     * cursor moves past a signature only once it is read (and booked if it paid): one the node
     * cannot serve yet stops the run there, and the next run reads it again. Returns what was
     * booked.
     */
    async noticeVaultPayments(target: {
      escrowWallet: string;
      dareId: number | null;
    }): Promise<BookedPayment[]> {
      // Payments in are booked under their own signatures; entries and closes move nothing of the pool.
      const booked = await bookedSignatures(db, target.escrowWallet);
      const until = (await findNoticeCursor(db, target.escrowWallet)) as Signature | null;
      const unread: { signature: Signature; failed: boolean }[] = [];
      let before: Signature | undefined;
      for (;;) {
        const page = await rpc
          .getSignaturesForAddress(address(target.escrowWallet), {
            limit: 1000,
            commitment: 'confirmed',
            ...(before ? { before } : {}),
            ...(until ? { until } : {}),
          })
          .send();
        for (const entry of page) unread.push({ signature: entry.signature, failed: entry.err !== null });
        if (page.length < 1000) break;
        before = page[page.length - 1]!.signature;
      }
      const found: BookedPayment[] = [];
      let newestRead: string | null = null;
      try {
        // Oldest first, as the chain ran them.
        for (const { signature, failed } of unread.reverse()) {
          if (!failed && !booked.has(signature)) {
            const effects = await effectsOf(signature, target.escrowWallet);
            if (!effects) break;
            if (effects.refunds.length > 0 || effects.settle) {
              const result = await bookLanded(signature, target, effects);
              if (result === null) break;
              found.push(...result);
            }
          }
          newestRead = signature;
        }
      } finally {
        if (newestRead) await saveNoticeCursor(db, target.escrowWallet, newestRead, clock());
      }
      return found;
    },

    /**
     * Start-up recovery: every transaction still 'sending' (the process stopped between recording
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
