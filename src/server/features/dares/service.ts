import { eq, sql } from 'drizzle-orm';
import { type CreateDareRequest, DARE_LIMITS, DARE_MESSAGES, type Dare } from '../../../contract/dares';
import { lamportsToSol, solToLamports } from '../../../contract/money';
import { networkLabel } from '../../../contract/network';
import { PAYMENT_MESSAGES } from '../../../contract/payments';
import type { Clock } from '../../app';
import type { ChainPort } from '../../chain/port';
import type { Db, Tx } from '../../db/client';
import { violatedConstraint } from '../../db/errors';
import { dares, dareWallets, poolContributions } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { UserRow } from '../auth/repo';
import { type Announce, noAnnouncements } from '../chat/announce';
import { attachLedgerDare } from '../ledger/repo';
import { bookPayment } from '../payments/book-payment';
import { consumeIntent } from '../payments/payment-intents';
import { holdRefusedPayment } from '../payments/refused-payments';
import { requireDareCreationEnabled, requireWallet } from '../payments/service';
import { type VerifiedPayment, verifyPayment } from '../payments/verify-payment';
import {
  effectiveStatus,
  findContributionBySignature,
  findDareBySignature,
  findDareRow,
  getDare,
  lockDareRow,
} from './repo';

type CreateDareBody = Required<
  Pick<CreateDareRequest, 'difficulty' | 'maxParticipants' | 'isPublic' | 'tags'>
> &
  Omit<CreateDareRequest, 'difficulty' | 'maxParticipants' | 'isPublic' | 'tags'>;

/** Thrown inside a credit transaction when another request consumed the payment first. */
class AlreadyCredited extends Error {}

const DAY_MS = 24 * 3600 * 1000;

export function createDaresService({
  db,
  chain,
  clock,
  announce = noAnnouncements,
}: {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  announce?: Announce;
}) {
  /** What a signature that is already on our books answers: the same result again, or 409. */
  async function previousResult(
    signature: string,
    user: UserRow,
    expected: { dareId?: number; escrowWallet?: string; title?: string },
  ): Promise<Dare | undefined> {
    const staked = await findDareBySignature(db, signature);
    if (staked) {
      // Only the same request again gets the dare back; one payment never opens a second dare.
      const sameRequest =
        staked.creatorId === user.id &&
        expected.dareId === undefined &&
        staked.escrowWallet === expected.escrowWallet &&
        staked.title === expected.title;
      if (sameRequest) return getDare(db, staked.id);
      throw conflict(PAYMENT_MESSAGES.alreadyUsed);
    }
    const contribution = await findContributionBySignature(db, signature);
    if (contribution) {
      const sameRequest =
        contribution.userId === user.id &&
        (expected.dareId === undefined
          ? contribution.kind === 'stake'
          : contribution.dareId === expected.dareId);
      if (sameRequest) return getDare(db, contribution.dareId);
      throw conflict(PAYMENT_MESSAGES.alreadyUsed);
    }
    return undefined;
  }

  /**
   * Verifies a payment; when that fails because a concurrent request with the same signature has
   * just consumed the intent, answers like that request's replay instead.
   */
  async function verifyOrReplay(
    signature: string,
    user: UserRow,
    expected: { dareId?: number; escrowWallet?: string; title?: string },
    verify: () => Promise<VerifiedPayment>,
  ): Promise<VerifiedPayment | Dare> {
    try {
      return await verify();
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PAYMENT_NOT_VERIFIED') throw error;
      const previous = await previousResult(signature, user, expected);
      if (previous) return previous;
      throw error;
    }
  }

  /** Runs a credit; a lost race on the same signature answers like a replay, never credits twice. */
  async function creditOnce(
    signature: string,
    user: UserRow,
    expected: { dareId?: number; escrowWallet?: string; title?: string },
    credit: (tx: Tx) => Promise<number>,
  ): Promise<{ dare: Dare; created: boolean }> {
    let dareId: number;
    try {
      dareId = await db.transaction(credit);
    } catch (error) {
      const constraint = violatedConstraint(error);
      const replay =
        error instanceof AlreadyCredited ||
        constraint === 'dares_transaction_signature_unique' ||
        constraint === 'pool_contributions_signature_unique' ||
        constraint === 'payment_intents_signature_unique';
      if (!replay) throw error;
      const previous = await previousResult(signature, user, expected);
      if (previous) return { dare: previous, created: false };
      throw conflict(PAYMENT_MESSAGES.alreadyUsed);
    }
    return { dare: (await getDare(db, dareId))!, created: true };
  }

  /**
   * One verified payment credited: booked if the server had not seen it yet, the intent consumed,
   * its ledger line linked to the dare, and the contribution row, written together.
   */
  async function recordPayment(
    tx: Tx,
    payment: VerifiedPayment,
    signature: string,
    user: UserRow,
    dareId: number,
    kind: 'stake' | 'contribution',
  ) {
    const now = clock();
    if ((await bookPayment(tx, payment.intent, signature, now)) === 'paid-by-another')
      throw new AlreadyCredited();
    if (!(await consumeIntent(tx, payment.intent.id, signature, now))) throw new AlreadyCredited();
    await attachLedgerDare(tx, { signature, escrowWallet: payment.intent.escrowWallet }, dareId);
    await tx.insert(poolContributions).values({
      dareId,
      userId: user.id,
      walletAddress: payment.intent.fromWallet,
      kind,
      amount: lamportsToSol(payment.lamports),
      transactionSignature: signature,
      createdAt: now,
    });
  }

  async function addToDarePool(tx: Tx, dareId: number, lamports: bigint) {
    await tx
      .update(dares)
      .set({ totalPool: sql`${dares.totalPool} + ${lamportsToSol(lamports)}`, updatedAt: clock() })
      .where(eq(dares.id, dareId));
  }

  return {
    /** Create dare step 7: the dare exists only once its stake is verified on chain. */
    createDare: (user: UserRow, body: CreateDareBody): Promise<{ dare: Dare; created: boolean }> =>
      holdRefusedPayment({ db, clock }, user, body.transactionSignature, () => createDare(user, body)),

    /**
     * Credits a verified contribution while the dare is still active; after that it is refused and
     * the held payment refunded (a finished dare's payout is fixed).
     */
    addToPool: (
      user: UserRow,
      dareId: number,
      body: { amount: string; userWallet: string; transactionSignature: string },
    ): Promise<Dare> =>
      holdRefusedPayment({ db, clock }, user, body.transactionSignature, () => addToPool(user, dareId, body)),

    async getDare(id: number): Promise<Dare> {
      const dare = await getDare(db, id, clock());
      if (!dare) throw notFound(DARE_MESSAGES.dareNotFound);
      return dare;
    },
  };

  async function createDare(user: UserRow, body: CreateDareBody): Promise<{ dare: Dare; created: boolean }> {
    const wallet = requireWallet(user, body.userWallet);
    await requireDareCreationEnabled(db);
    const now = clock();
    const deadline = new Date(body.deadline);
    if (deadline <= now)
      throw badRequest(DARE_MESSAGES.deadlinePast, { fields: { deadline: DARE_MESSAGES.deadlinePast } });
    if (deadline.getTime() - now.getTime() > DARE_LIMITS.deadlineMaxDays * DAY_MS) {
      throw badRequest(DARE_MESSAGES.deadlineTooFar, {
        fields: { deadline: DARE_MESSAGES.deadlineTooFar },
      });
    }
    if (body.network && body.network !== chain.cluster && body.network !== networkLabel(chain.cluster)) {
      throw badRequest(DARE_MESSAGES.networkMismatch(networkLabel(chain.cluster)));
    }
    const signature = body.transactionSignature;
    const request = { escrowWallet: body.escrowWalletAddress, title: body.title };
    const previous = await previousResult(signature, user, request);
    if (previous) return { dare: previous, created: false };

    const payment = await verifyOrReplay(signature, user, request, () =>
      verifyPayment(
        { db, rpc: chain.rpc },
        {
          userId: user.id,
          wallet,
          signature,
          purpose: 'stake',
          escrowWallet: body.escrowWalletAddress,
          now,
        },
      ),
    );
    if (!('intent' in payment)) return { dare: payment, created: false };
    if (payment.lamports !== solToLamports(body.stakeAmount)) throw badRequest(DARE_MESSAGES.stakeMismatch);

    return creditOnce(signature, user, request, async (tx) => {
      const [escrow] = await tx
        .select()
        .from(dareWallets)
        .where(eq(dareWallets.publicKey, payment.intent.escrowWallet))
        .for('update');
      if (escrow?.dareId) {
        // A second stake paid into an escrow that already funds a dare (the user signed twice):
        // it joins that dare's pool, so no verified SOL is ever left off the books.
        await recordPayment(tx, payment, signature, user, escrow.dareId, 'contribution');
        await addToDarePool(tx, escrow.dareId, payment.lamports);
        return escrow.dareId;
      }
      const stake = lamportsToSol(payment.lamports);
      const [dare] = await tx
        .insert(dares)
        .values({
          title: body.title,
          description: body.description,
          creatorId: user.id,
          stakeAmount: stake,
          totalPool: stake,
          difficulty: body.difficulty,
          category: body.category,
          deadline,
          maxParticipants: body.maxParticipants,
          isPublic: body.isPublic,
          escrowWallet: payment.intent.escrowWallet,
          transactionSignature: signature,
          network: chain.cluster,
          tags: body.tags,
          imageUrl: body.imageUrl || null,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: dares.id });
      await tx
        .update(dareWallets)
        .set({ dareId: dare!.id, status: 'active', expiresAt: null, updatedAt: now })
        .where(eq(dareWallets.publicKey, payment.intent.escrowWallet));
      await recordPayment(tx, payment, signature, user, dare!.id, 'stake');
      return dare!.id;
    });
  }

  async function addToPool(
    user: UserRow,
    dareId: number,
    body: { amount: string; userWallet: string; transactionSignature: string },
  ): Promise<Dare> {
    const wallet = requireWallet(user, body.userWallet);
    const dare = await findDareRow(db, dareId);
    if (!dare) throw notFound(DARE_MESSAGES.dareNotFound);
    if (!dare.escrowWallet) throw notFound(PAYMENT_MESSAGES.escrowNotFound);
    const signature = body.transactionSignature;
    const previous = await previousResult(signature, user, { dareId });
    if (previous) return previous;

    const escrowWallet = dare.escrowWallet;
    const payment = await verifyOrReplay(signature, user, { dareId }, () =>
      verifyPayment(
        { db, rpc: chain.rpc },
        { userId: user.id, wallet, signature, purpose: 'contribution', escrowWallet, dareId, now: clock() },
      ),
    );
    if (!('intent' in payment)) return payment;
    if (payment.lamports !== solToLamports(body.amount)) throw badRequest(DARE_MESSAGES.contributionMismatch);
    const result = await creditOnce(signature, user, { dareId }, async (tx) => {
      // Once a winner is picked (or the dare is cancelled or past its deadline) the payout is
      // fixed: money credited now would never be paid out or refunded. Refused, it is refunded
      // to the payer after the hold (holdRefusedPayment).
      const current = await lockDareRow(tx, dareId);
      if (!current || effectiveStatus(current, clock()) !== 'active') {
        throw new AppError('CONFLICT', PAYMENT_MESSAGES.dareNotActive);
      }
      await recordPayment(tx, payment, signature, user, dareId, 'contribution');
      await addToDarePool(tx, dareId, payment.lamports);
      return dareId;
    });
    if (result.created) {
      announce(dareId, `${user.username} added ${lamportsToSol(payment.lamports)} SOL to the pool`);
    }
    return result.dare;
  }
}

export type DaresService = ReturnType<typeof createDaresService>;
