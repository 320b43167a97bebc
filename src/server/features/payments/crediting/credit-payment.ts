import { deadlineProblem } from '#contract/dare-rules';
import { lamportsToSol, solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { EscrowPrograms } from '#server/chain/escrow-program/any-program';
import type { ChainPort } from '#server/chain/port';
import type { Db, Tx } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { notifyMajorDareStarted } from '#server/features/notifications/emit';
import type { PaymentIntentRow } from '#server/features/payments/intents/intent';
import type { OurVaults } from '#server/features/payments/intents/our-vault';
import { type PlatformKeys, wholeSeconds } from '#server/features/payments/intents/vault-terms';
import { type RefusedVaults, refuseVault } from '#server/features/payments/jobs/refund-refused-vaults';
import {
  addToDarePool,
  findContributionBySignature,
  findDareBySignature,
  insertContribution,
  insertStakedDare,
  lockDareStanding,
  type NewDare,
} from '#server/features/payments/repo/credits';
import {
  assignEscrowToDare,
  findEscrowWallet,
  lockEscrowWallet,
} from '#server/features/payments/repo/escrow-wallets';
import { consumeIntent, findVaultCreation } from '#server/features/payments/repo/payment-intents';
import { requireDareCreationEnabled } from '#server/features/settings/switches';
import { attachLedgerDare } from '#server/ledger/entries';
import { bookPayment } from './book-payment';
import { type VerifiedPayment, verifyPayment } from './verify-payment';

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
  /** Both escrow programs (a vault is read under whichever owns it). */
  programs: EscrowPrograms;
  platform: () => Promise<PlatformKeys>;
  /** Every term of a vault ours (decision 048). */
  ourVaults: OurVaults;
  /** Cancels and refunds a vault the server refuses (the refunds feature). */
  refusedVaults: RefusedVaults;
}

/** Step 7 as the dare features call it: creditPayment with the app's dependencies. */
export type CreditPayment = (request: PaymentToCredit) => Promise<CreditedPayment>;

export function createPaymentCredits(deps: CreditDeps): CreditPayment {
  return (request) => creditPayment(deps, request);
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
 * becomes money on a dare. Verified on chain first (reads only: the landed transaction is the
 * server-built one, the vault and the payer's receipt hold it); then, in one database
 * transaction, the payment is booked if the server had not seen it yet (ledger line, escrow
 * balance), its intent consumed, and the dare opened or its pool increased, with the pool row
 * and the ledger line linked to the dare. A signature credits once: the same request again
 * answers the same dare (`created: false`), any other use of it 409.
 *
 * A stake whose vault can never fund this dare (its deadline or kind differ from the vault's, the
 * deadline it was built with has passed, dare creation is off) is refused and its vault cancelled
 * and refunded at once (decision 021); other refusals (a form to correct) leave the payment held.
 */
export async function creditPayment(deps: CreditDeps, request: PaymentToCredit): Promise<CreditedPayment> {
  const { db, chain, clock } = deps;
  const now = clock();
  const previous = await previousCredit(db, request);
  if (previous) return previous;

  let payment: VerifiedPayment;
  try {
    const platform = await deps.platform();
    payment = await verifyPayment(
      {
        db,
        rpc: chain.rpc,
        programs: deps.programs,
        platform: { moderator: platform.moderator, rentPayer: platform.rentPayer.address },
        ourVaults: deps.ourVaults,
      },
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
  if (request.credit.kind === 'stake') await checkNewDareTerms(deps, payment, request, request.credit.dare);

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

/**
 * A stake opening a dare: the dare must fit the vault the chain holds. What the vault fixed (its
 * kind; the deadline the client chose when it was built) cannot change, so a dare that does not
 * fit it, or a deadline that passed while the wallet signed, refuses the vault for good: it is
 * cancelled and refunded now. A deadline the vault did not fix only has to fall before the vault's.
 * A stake into a vault that already funds a dare joins it (writeCredit) and is not checked here.
 */
async function checkNewDareTerms(
  deps: CreditDeps,
  payment: VerifiedPayment,
  request: PaymentToCredit,
  dare: NewDare,
): Promise<void> {
  const escrow = await findEscrowWallet(deps.db, payment.intent.escrowWallet);
  if (!escrow || escrow.dareId !== null) return;
  const fixedDeadline = await deadlineFixed(deps.db, payment.intent);
  const vaultDeadline = new Date(Number(payment.vault.deadline) * 1000);
  let final: AppError | undefined;
  let held: AppError | undefined;
  try {
    if (!dare.isMajor) await requireDareCreationEnabled(deps.db);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    final = error;
  }
  const problem = deadlineProblem(dare.deadline, deps.clock());
  const deadlineError = (message: string) => badRequest(message, { fields: { deadline: message } });
  if (final) {
    // Dare creation is off: nothing can open a dare from this vault.
  } else if (payment.vault.kind !== (dare.isMajor ? 'major' : 'community')) {
    final = badRequest(PAYMENT_MESSAGES.kindMismatch);
  } else if (problem) {
    if (fixedDeadline) final = deadlineError(problem);
    else held = deadlineError(problem);
  } else if (fixedDeadline && wholeSeconds(dare.deadline).getTime() !== vaultDeadline.getTime()) {
    final = deadlineError(PAYMENT_MESSAGES.deadlineMismatch);
  } else if (wholeSeconds(dare.deadline) > vaultDeadline) {
    held = deadlineError(PAYMENT_MESSAGES.deadlineMismatch);
  }
  if (held) throw held;
  if (!final) return;
  await refuseVault(deps, payment.intent.escrowWallet, {
    intent: payment.intent,
    signature: request.signature,
  });
  throw final;
}

/**
 * Whether the vault's deadline is the dare's own (decision 037): it is for every vault built since
 * create-transaction requires the deadline, whichever payment (the create_vault or a later deposit
 * into the same reservation) is brought to step 7. Only a vault built for an older client without
 * one (a year ahead) lets the dare's deadline be anything up to it.
 */
async function deadlineFixed(db: Db, intent: PaymentIntentRow): Promise<boolean> {
  const creation =
    intent.programInstruction === 'create_vault' ? intent : await findVaultCreation(db, intent.escrowWallet);
  return creation?.deadlineRequested ?? true;
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
    // A deposit that landed is in the vault's pool on chain (verifyPayment: the vault is still
    // open), whatever the dare's row says now: it goes to the winner as every receipt does, or
    // back to its payer with every other one if the dare is cancelled (decision 021). The dare's
    // row is locked so a winner pick or a cancellation waits for this credit.
    const dare = await lockDareStanding(tx, credit.dareId);
    if (!dare) throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
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
  if (credit.dare.isMajor) await notifyMajorDareStarted(tx, dareId, now);
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
  { signature }: PaymentToCredit,
  dareId: number,
  kind: 'stake' | 'contribution',
): Promise<void> {
  const now = clock();
  if ((await bookPayment(tx, payment.intent, signature, now)) === 'paid-by-another')
    throw new AlreadyCredited();
  if (!(await takeIntoDare(tx, payment.intent, signature, dareId, kind, now))) throw new AlreadyCredited();
}

/** Consumes a booked intent for the dare: the ledger line linked to it, and its pool row. */
async function takeIntoDare(
  tx: Tx,
  intent: PaymentIntentRow,
  signature: string,
  dareId: number,
  kind: 'stake' | 'contribution',
  now: Date,
): Promise<boolean> {
  if (!(await consumeIntent(tx, intent.id, signature, now))) return false;
  await attachLedgerDare(tx, { signature, escrowWallet: intent.escrowWallet }, dareId);
  await insertContribution(tx, {
    dareId,
    userId: intent.userId,
    walletAddress: intent.fromWallet,
    kind,
    lamports: solToLamports(intent.amount),
    signature,
    now,
  });
  return true;
}

/**
 * A landed, booked payment nobody brought to step 7 in time, into a vault that funds a dare: the
 * chain holds it in the dare's pool (the payer's receipt), so the books follow: credited as a
 * contribution. False when a credit or a refund took it first.
 */
export async function creditLapsedPayment(
  db: Db,
  intent: PaymentIntentRow & { signature: string },
  dareId: number,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockDareStanding(tx, dareId);
    if (!(await takeIntoDare(tx, intent, intent.signature, dareId, 'contribution', now))) return false;
    await addToDarePool(tx, dareId, solToLamports(intent.amount), now);
    return true;
  });
}
