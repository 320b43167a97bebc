/**
 * A payment asked for: its program transaction built and the payment intent it must satisfy
 * recorded (decision 021), for a stake (a new dare's vault) or a contribution (an active dare's pool).
 */
import { address } from '@solana/kit';
import { deadlineProblem, effectiveStatus } from '#contract/dare-rules';
import { DARE_MESSAGES } from '#contract/dares';
import { POOL_ADD_MIN_SOL, STAKE_MIN_SOL } from '#contract/limits';
import { MAJOR_DARE_MESSAGES } from '#contract/major-dare';
import { solToLamports } from '#contract/money';
import { type CreateTransactionRequest, PAYMENT_MESSAGES, type VaultKind } from '#contract/payments';
import { messageHash } from '#server/chain/relay';
import { AppError, badRequest, forbidden, notFound } from '#server/errors';
import { requireWallet, type UserRow } from '#server/features/auth/user';
import type { Payments } from '#server/features/payments/payment-deps';
import { findDareStanding } from '#server/features/payments/repo/credits';
import { findEscrowWallet } from '#server/features/payments/repo/escrow-wallets';
import { insertPaymentIntent } from '#server/features/payments/repo/payment-intents';
import { requireDareCreationEnabled } from '#server/features/settings/switches';
import { RATE_LIMITS } from '#server/rate-limits';
import { newReferenceKey, PAYMENT_INTENT_TTL_MS, type ProgramInstruction } from './intent';
import { buildPayment, platformRent } from './payment-transaction';
import { type VaultTerms, vaultTerms } from './vault-terms';
import { openVault, stakeVault } from './vault-to-pay';

/** The amount limits of a new dare's vault: a stake, or an admin's Major Dare prize. */
export function checkStake(
  { stakeMax, prizeMax, majorPrizeMaxSol }: Payments,
  user: UserRow,
  kind: VaultKind,
  lamports: bigint,
  amount: string,
) {
  if (kind === 'major') {
    if (!user.isAdmin) throw forbidden(PAYMENT_MESSAGES.majorForAdmins);
    if (lamports > prizeMax) throw badRequest(MAJOR_DARE_MESSAGES.prizeMax(majorPrizeMaxSol));
  } else if (lamports > stakeMax) {
    throw badRequest(DARE_MESSAGES.stakeMax(amount));
  }
  if (lamports < solToLamports(STAKE_MIN_SOL)) throw badRequest(DARE_MESSAGES.stakeMin);
}

/**
 * Builds the program transaction of a payment and records the payment intent it must satisfy
 * (decision 021). The escrow decides the purpose: the caller's own reservation is a stake
 * (`create_vault`, with the deadline and kind asked for, while its vault does not exist;
 * `deposit` after), an active dare's vault a contribution to its pool (`deposit`). The wallet
 * pays the fee and the rent of what the transaction creates, and is its only signer.
 */
export async function createTransaction(payments: Payments, user: UserRow, body: CreateTransactionRequest) {
  const { db, clock, feePayerFunds, limit, requireNoLiveMajorDare } = payments;
  const from = requireWallet(user, body.fromWallet);
  await limit(`intent:${user.id}`, RATE_LIMITS.paymentIntents, 'Too many payment requests; wait a minute');
  const now = clock();
  const lamports = solToLamports(body.amount);
  const escrow = await findEscrowWallet(db, body.toWallet);
  if (!escrow) throw notFound(PAYMENT_MESSAGES.escrowNotFound);

  let purpose: 'stake' | 'contribution';
  let dareId: number | null = null;
  let terms: VaultTerms | null = null;
  if (escrow.dareId === null) {
    if (escrow.reservedBy !== user.id) throw notFound(PAYMENT_MESSAGES.escrowNotFound);
    if (escrow.status !== 'reserved' || !escrow.expiresAt || escrow.expiresAt <= now) {
      throw new AppError('CONFLICT', PAYMENT_MESSAGES.escrowExpired);
    }
    await requireDareCreationEnabled(db);
    terms = vaultTerms(body, now);
    checkStake(payments, user, terms.kind, lamports, body.amount);
    // Refused before the admin's wallet pays anything (issue 37, item 2).
    if (terms.kind === 'major') await requireNoLiveMajorDare?.(now);
    if (terms.deadlineRequested) {
      const problem = deadlineProblem(terms.deadline, now);
      if (problem) throw badRequest(problem, { fields: { deadline: problem } });
    }
    purpose = 'stake';
    // A vault created already (a stake paid, not yet recorded as a dare) takes a deposit.
    if ((await stakeVault(payments, user, escrow)) === 'open') terms = null;
    // A new vault fixes the dare's deadline on chain: the dare must be made with that very one.
    else if (!terms.deadlineRequested)
      throw badRequest(PAYMENT_MESSAGES.vaultDeadlineRequired, {
        fields: { deadline: PAYMENT_MESSAGES.vaultDeadlineRequired },
      });
  } else {
    if (lamports < solToLamports(POOL_ADD_MIN_SOL)) throw badRequest(PAYMENT_MESSAGES.invalidAmount);
    const dare = await findDareStanding(db, escrow.dareId);
    if (!dare || effectiveStatus(dare, now) !== 'active') {
      throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
    }
    if ((await openVault(payments, escrow)) === null)
      throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
    purpose = 'contribution';
    dareId = dare.id;
  }

  const reference = newReferenceKey();
  const built = await buildPayment(payments, escrow, address(from), lamports, terms, reference);
  // Refused before the wallet signs: a transaction the platform cannot fund would fail anyway.
  const rent = await platformRent(payments, built);
  if (rent > 0n) await feePayerFunds.requireCanPay(rent);
  await insertPaymentIntent(db, {
    purpose,
    userId: user.id,
    dareId,
    fromWallet: from,
    escrowWallet: escrow.publicKey,
    lamports,
    reference,
    instruction: built.instruction satisfies ProgramInstruction,
    terms,
    messageHash: messageHash(built.messageBytes),
    expiresAt: new Date(now.getTime() + PAYMENT_INTENT_TTL_MS),
    now,
  });
  return {
    transaction: built.base64,
    reference,
    lamports: lamports.toString(),
    lastValidBlockHeight: built.lastValidBlockHeight.toString(),
  };
}
