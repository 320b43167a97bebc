import type { Address, Signature } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { type EscrowPrograms, programOfVersion } from '#server/chain/escrow-program/any-program';
import { findReceiptAddress } from '#server/chain/escrow-program/pda';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import type { Clock } from '#server/deps';
import { bookPayment } from '#server/features/payments/crediting/book-payment';
import { creditLapsedPayment } from '#server/features/payments/crediting/credit-payment';
import { fetchLandedTransaction } from '#server/features/payments/crediting/landed-transactions';
import { expireReservations } from '#server/features/payments/intents/escrow-reservations';
import type { PaymentIntentRow } from '#server/features/payments/intents/intent';
import type { OurVaults } from '#server/features/payments/intents/our-vault';
import { cancelDareOnVault } from '#server/features/payments/repo/credits';
import {
  findEscrowWallet,
  findLapsingReservations,
  foreignVaultsWithBookedSol,
} from '#server/features/payments/repo/escrow-wallets';
import {
  lapsedPaidIntents,
  lapsedUncheckedIntents,
  markIntentChecked,
  markIntentRefundedWithVault,
  vaultsOwingRefunds,
} from '#server/features/payments/repo/payment-intents';
import { type RefusedVaults, refundVault, refuseVault, takeRefusedVault } from './refund-refused-vaults';

/** How many signatures of a receipt are searched for an unreported payment. */
const SIGNATURES_PER_RECEIPT = 50;

export interface LapsedPaymentsRun {
  /** Lapsed payments found landed on chain that nobody had reported. */
  found: number;
  /** Landed payments into a dare's vault credited to its pool without step 7. */
  credited: number;
  /** Vaults that will never fund a dare, handed over to be cancelled and refunded. */
  refused: number;
  failureReasons: string[];
}

export interface LapsedPaymentsDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  programs: EscrowPrograms;
  /** Every term of a vault ours (decision 048): nothing is credited into another. */
  ourVaults: OurVaults;
  refusedVaults: RefusedVaults;
}

/**
 * What becomes of payments nobody finished (decision 021), the chain being the truth:
 * - a lapsed payment nobody reported is looked up on chain once (the server-built message among
 *   the transactions of the payer's receipt) and booked if it landed;
 * - a landed payment into a vault that funds a dare is in that dare's pool on chain: credited as a
 *   contribution (or, if the vault was refunded meanwhile, settled as refunded with it);
 * - a landed payment into a vault that funds no dare (a create_vault never followed by step 7, or
 *   refused and not corrected in time): the vault is cancelled and every receipt refunded;
 * - vault refunds that could not be done yet are asked for again;
 * - a reservation lapsing is looked at once: a vault made there with other terms is recorded
 *   foreign (decision 048), and one whose canceller is ours and that holds our books' SOL refunded.
 */
export function createLapsedPayments(deps: LapsedPaymentsDeps) {
  const { db, chain, clock, programs } = deps;
  const { rpc } = chain;

  /** The signature of the intent's transaction if it landed without error, else null. */
  async function findLanded(intent: PaymentIntentRow): Promise<string | null> {
    const escrow = await findEscrowWallet(db, intent.escrowWallet);
    const receipt = await findReceiptAddress(
      programOfVersion(programs, escrow?.programVersion ?? 1),
      intent.escrowWallet as Address,
      intent.fromWallet as Address,
    );
    const entries = await rpc
      .getSignaturesForAddress(receipt.address, { limit: SIGNATURES_PER_RECEIPT, commitment: 'confirmed' })
      .send();
    for (const entry of [...entries].reverse()) {
      if (entry.err) continue;
      const landed = await fetchLandedTransaction(rpc, entry.signature as Signature);
      if (landed && landed.err === null && landed.messageHash === intent.messageHash) return entry.signature;
    }
    return null;
  }

  /**
   * Foreign vaults our canceller can cancel that hold SOL our books took from payers (a dare
   * opened on one before every term was checked): handed over to be cancelled and refunded, each
   * refund booked. A stranger's vault holding only its own SOL is left to it: refunding it would
   * make the platform pay fees for whatever anyone can repeat.
   */
  async function foreignVaultsToRefund({ db: database }: LapsedPaymentsDeps): Promise<string[]> {
    const due: string[] = [];
    const { canceller } = await deps.ourVaults.termsToRecord();
    for (const escrow of await foreignVaultsWithBookedSol(database)) {
      const vault = await fetchVault(rpc, programs, escrow as Address);
      const cancellable = vault?.status === 'open' || vault?.status === 'refunding';
      if (vault && vault.moderator === canceller && cancellable) due.push(escrow);
    }
    return due;
  }

  async function book(intent: PaymentIntentRow, signature: string): Promise<boolean> {
    try {
      const booked = await db.transaction((tx) => bookPayment(tx, intent, signature, clock()));
      return booked !== 'paid-by-another';
    } catch (error) {
      // A signature pays one intent; a second intent with the same message cannot exist.
      if (violatedConstraint(error) !== 'payment_intents_signature_unique') throw error;
      return false;
    }
  }

  /**
   * 'credited', 'refunded' (with its vault), 'refused' (the vault handed over), 'taken' by
   * another, or 'foreign' (its vault is not ours: nothing credited).
   */
  async function settle(intent: PaymentIntentRow & { signature: string }) {
    const escrow = await findEscrowWallet(db, intent.escrowWallet);
    if (escrow?.dareId == null) {
      // Refunded with the vault's other receipts below.
      await takeRefusedVault(deps, intent.escrowWallet);
      return 'refused';
    }
    const vault = await fetchVault(rpc, programs, intent.escrowWallet as Address);
    const checked = vault ? await deps.ourVaults.check(escrow) : null;
    // Never credited into a foreign vault: the payment stays held; the vault is refunded below
    // when our canceller can (foreignVaultsToRefund).
    if (checked?.state === 'foreign') return 'foreign';
    if (!vault || vault.status === 'refunding') {
      // The dare was cancelled: its vault's refunds returned this payment with the rest.
      return (await markIntentRefundedWithVault(db, intent.id, clock())) ? 'refunded' : 'taken';
    }
    return (await creditLapsedPayment(db, intent, escrow.dareId, clock())) ? 'credited' : 'taken';
  }

  return {
    async run(): Promise<LapsedPaymentsRun> {
      const run: LapsedPaymentsRun = { found: 0, credited: 0, refused: 0, failureReasons: [] };
      for (const reservation of await findLapsingReservations(db, clock())) {
        try {
          // A vault someone made at the address with other terms is recorded foreign (our-vault.ts),
          // so reconcile knows the SOL in it is not the ledger's.
          await deps.ourVaults.check(reservation);
        } catch (error) {
          run.failureReasons.push(`reservation ${reservation.publicKey}: ${(error as Error).message}`);
        }
      }
      await expireReservations(db, clock());
      for (const intent of await lapsedUncheckedIntents(db, clock())) {
        try {
          const signature = await findLanded(intent);
          if (signature && (await book(intent, signature))) run.found += 1;
          await markIntentChecked(db, intent.id, clock());
        } catch (error) {
          // The node did not answer: looked up again on the next run.
          run.failureReasons.push(`payment ${intent.id}: ${(error as Error).message}`);
        }
      }
      for (const intent of await lapsedPaidIntents(db, clock())) {
        try {
          const outcome = await settle(intent as PaymentIntentRow & { signature: string });
          if (outcome === 'credited') run.credited += 1;
          if (outcome === 'refused') run.refused += 1;
          if (outcome === 'foreign') run.failureReasons.push(`payment ${intent.id}: its vault is not ours`);
        } catch (error) {
          run.failureReasons.push(`payment ${intent.id}: ${(error as Error).message}`);
        }
      }
      for (const vault of await foreignVaultsToRefund(deps)) {
        await cancelDareOnVault(db, vault, clock());
        const failure = await refuseVault(deps, vault);
        if (failure) run.failureReasons.push(`vault ${vault}: ${failure}`);
        else run.refused += 1;
      }
      for (const vault of await vaultsOwingRefunds(db)) {
        const failure = await refundVault(deps, vault);
        if (failure) run.failureReasons.push(`vault ${vault}: ${failure}`);
      }
      return run;
    },
  };
}

export type LapsedPayments = ReturnType<typeof createLapsedPayments>;
