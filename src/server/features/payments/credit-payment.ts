import { effectiveStatus } from '#contract/dare-rules';
import type { Difficulty } from '#contract/limits';
import { lamportsToSol } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { ChainPort } from '#server/chain/port';
import type { Db, Tx } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { attachLedgerDare } from '#server/ledger/entries';
import { bookPayment } from './book-payment';
import {
  addToDarePool,
  findContributionBySignature,
  findDareBySignature,
  insertContribution,
  insertStakedDare,
  lockDareStanding,
} from './repo/credits';
import { assignEscrowToDare, lockEscrowWallet } from './repo/escrow-wallets';
import { consumeIntent } from './repo/payment-intents';
import { type VerifiedPayment, verifyPayment } from './verify-payment';

/** The dare a stake opens, as the request describes it; the money columns come from the payment. */
export interface NewDare {
  title: string;
  description: string;
  difficulty: Difficulty;
  category: string;
  deadline: Date;
  maxParticipants: number;
  isMajor: boolean;
  isPublic?: boolean;
  tags?: string[];
  imageUrl?: string | null;
}

/** What a verified payment pays for. */
export type Credit =
  | {
      kind: 'stake';
      dare: NewDare;
      /**
       * A stake paid into an escrow that already funds a dare (the payer signed twice): 'join'
       * credits it to that dare's pool, so no verified SOL is left off the books; 'refuse' answers
       * 409 (a prize opens a new dare or nothing), and the held payment is refunded.
       */
      ifEscrowFunded: 'join' | 'refuse';
    }
  /** Joins the pool of a dare that is still active; after that its payout is fixed. */
  | { kind: 'contribution'; dareId: number };

export interface PaymentToCredit {
  payer: UserRow;
  /** The payer's registered wallet: the transfer must come from it. */
  wallet: string;
  signature: string;
  escrowWallet: string;
  /** What the request says was paid; a payment of another amount is refused with `amountMismatch`. */
  lamports: bigint;
  amountMismatch: string;
  credit: Credit;
}

export interface CreditedPayment {
  dareId: number;
  /** False when this very request was credited before (a replay): nothing was written now. */
  created: boolean;
}

export interface CreditDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
}

/** Thrown inside a credit transaction when another request consumed the payment first. */
class AlreadyCredited extends Error {}

/** The unique indexes a second credit of one signature runs into. */
const CREDITED_SIGNATURE_CONSTRAINTS = new Set([
  'dares_transaction_signature_unique',
  'pool_contributions_signature_unique',
  'payment_intents_signature_unique',
]);

/**
 * Step 7 of every payment (a stake, a pool addition, a major prize): the one place a payment
 * becomes money on a dare. Verified on chain first (reads only); then, in one database
 * transaction, the payment is booked if the server had not seen it yet (ledger line, escrow
 * balance), its intent consumed, and the dare opened or its pool increased, with the pool row
 * and the ledger line linked to the dare. A signature credits once: the same request again
 * answers the same dare (`created: false`), any other use of it 409.
 */
export async function creditPayment(deps: CreditDeps, request: PaymentToCredit): Promise<CreditedPayment> {
  const { db, chain, clock } = deps;
  const now = clock();
  const previous = await previousCredit(db, request);
  if (previous) return previous;

  let payment: VerifiedPayment;
  try {
    payment = await verifyPayment(
      { db, rpc: chain.rpc },
      {
        userId: request.payer.id,
        wallet: request.wallet,
        signature: request.signature,
        purpose: request.credit.kind,
        escrowWallet: request.escrowWallet,
        dareId: request.credit.kind === 'contribution' ? request.credit.dareId : undefined,
        now,
      },
    );
  } catch (error) {
    // A concurrent request with the same signature may have consumed the intent just now.
    if (!(error instanceof AppError) || error.code !== 'PAYMENT_NOT_VERIFIED') throw error;
    const replay = await previousCredit(db, request);
    if (replay) return replay;
    throw error;
  }
  if (payment.lamports !== request.lamports) throw badRequest(request.amountMismatch);

  try {
    const dareId = await db.transaction((tx) => writeCredit(tx, deps, payment, request, now));
    return { dareId, created: true };
  } catch (error) {
    const constraint = violatedConstraint(error);
    const lostRace =
      error instanceof AlreadyCredited ||
      (constraint !== undefined && CREDITED_SIGNATURE_CONSTRAINTS.has(constraint));
    if (!lostRace) throw error;
    const replay = await previousCredit(db, request);
    if (replay) return replay;
    throw conflict(PAYMENT_MESSAGES.alreadyUsed);
  }
}

/** What a signature already on our books answers: this same request's dare again, or 409. */
async function previousCredit(db: Db, request: PaymentToCredit): Promise<CreditedPayment | undefined> {
  const { payer, signature, credit } = request;
  const staked = await findDareBySignature(db, signature);
  if (staked) {
    // Only the same request again gets the dare back; one payment never opens a second dare.
    const sameRequest =
      credit.kind === 'stake' &&
      staked.creatorId === payer.id &&
      staked.escrowWallet === request.escrowWallet &&
      staked.title === credit.dare.title &&
      staked.isMajor === credit.dare.isMajor;
    if (sameRequest) return { dareId: staked.id, created: false };
    throw conflict(PAYMENT_MESSAGES.alreadyUsed);
  }
  const contribution = await findContributionBySignature(db, signature);
  if (contribution) {
    const sameRequest =
      contribution.userId === payer.id &&
      (credit.kind === 'stake' ? contribution.kind === 'stake' : contribution.dareId === credit.dareId);
    if (sameRequest) return { dareId: contribution.dareId, created: false };
    throw conflict(PAYMENT_MESSAGES.alreadyUsed);
  }
  return undefined;
}

/** The credit's writes, inside its transaction; returns the dare the money went to. */
async function writeCredit(
  tx: Tx,
  { chain, clock }: CreditDeps,
  payment: VerifiedPayment,
  request: PaymentToCredit,
  now: Date,
): Promise<number> {
  const { credit } = request;
  if (credit.kind === 'contribution') {
    // Once a winner is picked (or the dare is cancelled or past its deadline) the payout is
    // fixed: money credited now would never be paid out or refunded. Refused, it is refunded
    // to the payer after the hold (holdRefusedPayment).
    const dare = await lockDareStanding(tx, credit.dareId);
    if (!dare || effectiveStatus(dare, clock()) !== 'active') {
      throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
    }
    await recordPayment(tx, clock, payment, request, credit.dareId, 'contribution');
    await addToDarePool(tx, credit.dareId, payment.lamports, clock());
    return credit.dareId;
  }

  const escrow = await lockEscrowWallet(tx, payment.intent.escrowWallet);
  if (credit.ifEscrowFunded === 'refuse' && (!escrow || escrow.dareId !== null))
    throw conflict(PAYMENT_MESSAGES.alreadyUsed);
  if (escrow?.dareId) {
    await recordPayment(tx, clock, payment, request, escrow.dareId, 'contribution');
    await addToDarePool(tx, escrow.dareId, payment.lamports, clock());
    return escrow.dareId;
  }
  const dareId = await insertStakedDare(tx, {
    ...credit.dare,
    creatorId: request.payer.id,
    stake: lamportsToSol(payment.lamports),
    escrowWallet: payment.intent.escrowWallet,
    signature: request.signature,
    network: chain.cluster,
    now,
  });
  await assignEscrowToDare(tx, payment.intent.escrowWallet, dareId, now);
  await recordPayment(tx, clock, payment, request, dareId, 'stake');
  return dareId;
}

/**
 * The payment taken by this credit: booked if the server had not seen it yet, its intent consumed
 * (only one credit or refund can win it), its ledger line linked to the dare, and its pool row.
 */
async function recordPayment(
  tx: Tx,
  clock: Clock,
  payment: VerifiedPayment,
  { payer, signature }: PaymentToCredit,
  dareId: number,
  kind: 'stake' | 'contribution',
): Promise<void> {
  const now = clock();
  if ((await bookPayment(tx, payment.intent, signature, now)) === 'paid-by-another')
    throw new AlreadyCredited();
  if (!(await consumeIntent(tx, payment.intent.id, signature, now))) throw new AlreadyCredited();
  await attachLedgerDare(tx, { signature, escrowWallet: payment.intent.escrowWallet }, dareId);
  await insertContribution(tx, {
    dareId,
    userId: payer.id,
    walletAddress: payment.intent.fromWallet,
    kind,
    lamports: payment.lamports,
    signature,
    now,
  });
}
