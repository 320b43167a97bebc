import { address, type Signature } from '@solana/kit';
import { solToLamports } from '#contract/money';
import { bookPayment } from '#server/features/payments/book-payment';
import type { PaymentIntentRow } from '#server/features/payments/payment-intents';
import { checkDeposit, fetchParsedTransaction } from '../../chain/verify-deposit';
import { violatedConstraint } from '../../db/errors';
import { AppError } from '../../errors';
import type { PayingServiceDeps, PayoutOutcome } from '../payouts/service';
import {
  expiredUncheckedIntents,
  markIntentChecked,
  takeLapsedForRefund,
  vaultsOwingHeldRefunds,
} from './repo/held-payments';

/** How many signatures one reference is searched for; a server-built payment has one. */
const SIGNATURES_PER_REFERENCE = 20;

export interface HeldRefundsRun {
  /** Lapsed intents found paid on chain that nobody had reported. */
  found: number;
  refunded: number;
  failed: number;
  failureReasons: string[];
}

/**
 * Money held for payers whose payment never became a dare: found, then refunded to the paying
 * wallet by the program (cancel, then a refund per receipt of the vault).
 */
export function createHeldPaymentRefunds({
  db,
  chain,
  clock,
  refundVault,
}: Omit<PayingServiceDeps, 'payouts'> & {
  refundVault: (target: { escrowWallet: string; dareId: null }) => Promise<{ outcomes: PayoutOutcome[] }>;
}) {
  const { rpc } = chain;

  /**
   * A lapsed intent nobody reported paying may still have been paid (sent straight to the chain,
   * or a client that never came back): its reference key finds the transaction. Looked up once.
   */
  async function findPayment(intent: PaymentIntentRow): Promise<boolean> {
    const entries = await rpc
      .getSignaturesForAddress(address(intent.reference), { limit: SIGNATURES_PER_REFERENCE })
      .send();
    // Oldest first: the first transfer that satisfies the intent is its payment.
    for (const entry of [...entries].reverse()) {
      if (entry.err) continue;
      const tx = await fetchParsedTransaction(rpc, entry.signature as Signature);
      if (!tx) continue;
      const problem = checkDeposit(tx, {
        from: intent.fromWallet,
        escrow: intent.escrowWallet,
        lamports: solToLamports(intent.amount),
        reference: intent.reference,
        minSlot: intent.minSlot,
      });
      if (problem) continue;
      try {
        const booked = await db.transaction((tx) => bookPayment(tx, intent, entry.signature, clock()));
        if (booked !== 'paid-by-another') return true;
      } catch (error) {
        // One transaction paying two intents pays only the first one booked.
        if (violatedConstraint(error) !== 'payment_intents_signature_unique') throw error;
      }
    }
    return false;
  }

  return {
    /**
     * One run of the job: find unreported payments of lapsed intents; then every vault that holds
     * only money held for payers (no dare: a refused or lapsed stake) is cancelled and refunded,
     * each receipt to its payer (the program's refund pays exactly what the receipt holds).
     */
    async run(): Promise<HeldRefundsRun> {
      const run: HeldRefundsRun = { found: 0, refunded: 0, failed: 0, failureReasons: [] };
      for (const intent of await expiredUncheckedIntents(db, clock())) {
        try {
          if (await findPayment(intent)) run.found += 1;
          await markIntentChecked(db, intent.id, clock());
        } catch (error) {
          // The node did not answer: the intent is looked up again on the next run.
          run.failureReasons.push(`payment ${intent.id}: ${(error as Error).message}`);
        }
      }
      await takeLapsedForRefund(db, clock());
      for (const escrowWallet of await vaultsOwingHeldRefunds(db)) {
        try {
          const { outcomes } = await refundVault({ escrowWallet, dareId: null });
          for (const outcome of outcomes) {
            if (outcome.status === 'confirmed')
              run.refunded += outcome.booked.filter((booked) => booked.kind === 'refund').length;
            else {
              run.failed += 1;
              run.failureReasons.push(
                `vault ${escrowWallet}: ${outcome.status === 'failed' ? outcome.reason : 'The network has not confirmed the refund yet'}`,
              );
            }
          }
        } catch (error) {
          run.failed += 1;
          run.failureReasons.push(
            `vault ${escrowWallet}: ${error instanceof AppError ? error.message : (error as Error).message}`,
          );
        }
      }
      return run;
    },
  };
}

export type HeldPaymentRefunds = ReturnType<typeof createHeldPaymentRefunds>;
