import { address, type Signature } from '@solana/kit';
import { solToLamports } from '#contract/money';
import { expireReservations } from '#server/features/payments/escrow-wallets';
import { inboundSignatures, ledgerBalanceOf } from '#server/ledger/entries';
import {
  fetchParsedTransaction,
  type ParsedTransactionView,
  SYSTEM_PROGRAM,
} from '../../chain/verify-deposit';
import { AppError } from '../../errors';
import { type PayingServiceDeps, TransferAlreadyLive } from '../payouts/service';
import {
  bookStrayPayment,
  closeLapsedIntents,
  hasUnsettledIntents,
  strayPaymentsOwingRefunds,
  unusedExpiredEscrows,
} from './repo/stray-payments';

/** The most getSignaturesForAddress answers per call. */
const SIGNATURES_PER_PAGE = 1000;
/** The most getMultipleAccounts takes per call. */
const ACCOUNTS_PER_CALL = 100;

export interface StrayRefundsRun {
  /** Transfers found on chain that the ledger did not book, now booked for their senders. */
  found: number;
  refunded: number;
  failed: number;
  failureReasons: string[];
}

/** What each sender moved into `escrow` with System transfers in one successful transaction. */
export function inboundTransfers(tx: ParsedTransactionView, escrow: string): Map<string, bigint> {
  const bySender = new Map<string, bigint>();
  if (tx.err !== null && tx.err !== undefined) return bySender;
  for (const ix of tx.instructions) {
    if (ix.programId !== SYSTEM_PROGRAM) continue;
    if (ix.parsed?.type !== 'transfer' && ix.parsed?.type !== 'transferWithSeed') continue;
    const info = ix.parsed.info ?? {};
    const source = String(info.source);
    if (info.destination !== escrow || source === escrow) continue;
    const lamports = BigInt(info.lamports as number | bigint | string);
    if (lamports > 0n) bySender.set(source, (bySender.get(source) ?? 0n) + lamports);
  }
  return bySender;
}

/**
 * SOL sent straight to an escrow whose reservation lapsed without becoming a dare (another
 * amount, another escrow, no reference, a stranger): found on chain, booked for its sender and
 * refunded to it through the payout machinery, so no money is ever stranded (decision 011).
 */
export function createStrayPaymentRefunds({ db, chain, clock, payouts }: PayingServiceDeps) {
  const { rpc } = chain;

  async function onChainBalances(escrows: string[]): Promise<Map<string, bigint>> {
    const balances = new Map<string, bigint>();
    for (let start = 0; start < escrows.length; start += ACCOUNTS_PER_CALL) {
      const batch = escrows.slice(start, start + ACCOUNTS_PER_CALL);
      const { value } = await rpc
        .getMultipleAccounts(
          batch.map((key) => address(key)),
          { encoding: 'base64', commitment: 'confirmed' },
        )
        .send();
      for (const [index, key] of batch.entries()) balances.set(key, BigInt(value[index]?.lamports ?? 0n));
    }
    return balances;
  }

  /** Every confirmed inbound transfer to the escrow the ledger does not book, booked now. */
  async function findStrayPayments(escrow: string): Promise<number> {
    const booked = await inboundSignatures(db, escrow);
    let found = 0;
    let before: Signature | undefined;
    for (;;) {
      const page = await rpc
        .getSignaturesForAddress(address(escrow), {
          limit: SIGNATURES_PER_PAGE,
          commitment: 'confirmed',
          ...(before ? { before } : {}),
        })
        .send();
      for (const entry of page) {
        if (entry.err || booked.has(entry.signature)) continue;
        const tx = await fetchParsedTransaction(rpc, entry.signature);
        if (!tx) continue;
        const senders = inboundTransfers(tx, escrow);
        if (senders.size === 0) continue;
        // All senders of one transaction together: a crash books all of them or none.
        found += await db.transaction(async (dbTx) => {
          let booked = 0;
          for (const [fromWallet, lamports] of senders) {
            const now = clock();
            if (
              await bookStrayPayment(dbTx, {
                escrowWallet: escrow,
                signature: entry.signature,
                fromWallet,
                lamports,
                now,
              })
            )
              booked += 1;
          }
          return booked;
        });
      }
      if (page.length < SIGNATURES_PER_PAGE) return found;
      before = page[page.length - 1]!.signature;
    }
  }

  /**
   * Refunds what the escrow owes its stray senders, largest first. A refund that would leave the
   * escrow below the rent-exempt minimum (but not empty) instead takes the whole balance: the
   * dust that could not be refunded alone goes with it, and the escrow ends at exactly 0.
   */
  async function refundEscrow(escrow: string, run: StrayRefundsRun): Promise<void> {
    const owing = await strayPaymentsOwingRefunds(db, escrow);
    if (owing.length === 0) return;
    const rent = await rpc.getMinimumBalanceForRentExemption(0n, { commitment: 'confirmed' }).send();
    let remaining = await ledgerBalanceOf(db, escrow);
    for (const stray of owing) {
      if (remaining <= 0n) return;
      const amount = solToLamports(stray.amount);
      const last = remaining - amount < rent;
      const lamports = last ? remaining : amount;
      let reason: string;
      try {
        const outcome = await payouts.pay({
          target: { purpose: 'refund', strayPaymentId: stray.id },
          dareId: null,
          escrowWallet: escrow,
          recipient: stray.fromWallet,
          lamports,
        });
        if (outcome.status === 'confirmed') {
          run.refunded += 1;
          remaining -= lamports;
          if (last) return;
          continue;
        }
        reason =
          outcome.status === 'failed' ? outcome.reason : 'The network has not confirmed the refund yet';
      } catch (error) {
        reason =
          error instanceof TransferAlreadyLive
            ? 'A refund of this payment is already on its way'
            : error instanceof AppError
              ? error.message
              : String(error);
      }
      // The rest of this escrow waits for the next run: its balance is not what was counted.
      run.failed += 1;
      run.failureReasons.push(`stray payment ${stray.id}: ${reason}`);
      return;
    }
  }

  return {
    /** One run of the job, after the held payments: every unused escrow found, booked, emptied. */
    async run(): Promise<StrayRefundsRun> {
      const run: StrayRefundsRun = { found: 0, refunded: 0, failed: 0, failureReasons: [] };
      await expireReservations(db, clock());
      const escrows = await unusedExpiredEscrows(db);
      if (escrows.length === 0) return run;
      const balances = await onChainBalances(escrows);
      for (const escrow of escrows) {
        try {
          await closeLapsedIntents(db, escrow, clock());
          // A payment an intent can still take, or a held refund on its way, comes first.
          if (await hasUnsettledIntents(db, escrow)) continue;
          if (await payouts.hasTransferOnItsWay(escrow)) continue;
          if (balances.get(escrow) !== (await ledgerBalanceOf(db, escrow)))
            run.found += await findStrayPayments(escrow);
          await refundEscrow(escrow, run);
        } catch (error) {
          // The node did not answer: this escrow is looked at again on the next run.
          run.failureReasons.push(`escrow ${escrow}: ${(error as Error).message}`);
        }
      }
      return run;
    },
  };
}

export type StrayPaymentRefunds = ReturnType<typeof createStrayPaymentRefunds>;
