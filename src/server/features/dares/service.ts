import {
  type CreateDareRequest,
  DARE_MESSAGES,
  type Dare,
  type DareBacker,
  type DareListQuery,
} from '#contract/dares';
import { lamportsToSol, normalizeSol, solToLamports } from '#contract/money';
import { networkLabel } from '#contract/network';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { badRequest, notFound } from '#server/errors';
import { requireWallet, type UserRow } from '#server/features/auth/user';
import { type Announce, noAnnouncements } from '#server/features/chat/announce';
import type { CreditPayment } from '#server/features/payments/crediting/credit-payment';
import { holdRefusedPayment } from '#server/features/payments/crediting/hold-refused-payment';
import { findDare, toDare } from './dare-view';
import { findDareRow, listDareBackers, listDares } from './repo';

type CreateDareBody = Required<
  Pick<CreateDareRequest, 'difficulty' | 'maxParticipants' | 'isPublic' | 'tags'>
> &
  Omit<CreateDareRequest, 'difficulty' | 'maxParticipants' | 'isPublic' | 'tags'>;

export interface DarePage {
  dares: Dare[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export function createDaresService({
  db,
  chain,
  clock,
  credit,
  announce = noAnnouncements,
}: {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  /** Step 7 (the payments feature): a verified payment credited to a new dare or a pool. */
  credit: CreditPayment;
  announce?: Announce;
}) {
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
      const dare = await findDare(db, id, clock());
      if (!dare) throw notFound(DARE_MESSAGES.dareNotFound);
      return dare;
    },

    /** Who backed the dare (the ledger's contributions), largest first; 404 for an unknown dare. */
    async listBackers(id: number): Promise<DareBacker[]> {
      if (!(await findDareRow(db, id))) throw notFound(DARE_MESSAGES.dareNotFound);
      const rows = await listDareBackers(db, id);
      return rows.map((row) => ({ ...row, amount: normalizeSol(row.amount) }));
    },

    /** Community dares, newest first, each with the status users see now. */
    async listDares(query: DareListQuery): Promise<DarePage> {
      const now = clock();
      const page = await listDares(db, query, now);
      return { dares: page.rows.map((row) => toDare(row, now)), nextCursor: page.nextCursor };
    },
  };

  async function createDare(user: UserRow, body: CreateDareBody): Promise<{ dare: Dare; created: boolean }> {
    const wallet = requireWallet(user, body.userWallet);
    if (body.network && body.network !== chain.cluster && body.network !== networkLabel(chain.cluster)) {
      throw badRequest(DARE_MESSAGES.networkMismatch(networkLabel(chain.cluster)));
    }
    // The deadline, and whether dares may be created now, are checked against the paid vault
    // (creditPayment): a vault that can never fund this dare is refunded at once.
    const deadline = new Date(body.deadline);
    const { dareId, created } = await credit({
      payer: user,
      wallet,
      signature: body.transactionSignature,
      escrowWallet: body.escrowWalletAddress,
      lamports: solToLamports(body.stakeAmount),
      amountMismatch: DARE_MESSAGES.stakeMismatch,
      credit: {
        kind: 'stake',
        dare: {
          title: body.title,
          description: body.description,
          difficulty: body.difficulty,
          category: body.category,
          deadline,
          maxParticipants: body.maxParticipants,
          isMajor: false,
          isPublic: body.isPublic,
          tags: body.tags,
          imageUrl: body.imageUrl || null,
        },
        ifEscrowFunded: 'join',
      },
    });
    return { dare: (await findDare(db, dareId))!, created };
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
    const lamports = solToLamports(body.amount);
    const { created } = await credit({
      payer: user,
      wallet,
      signature: body.transactionSignature,
      escrowWallet: dare.escrowWallet,
      lamports,
      amountMismatch: DARE_MESSAGES.contributionMismatch,
      credit: { kind: 'contribution', dareId },
    });
    if (created) announce(dareId, `${user.username} added ${lamportsToSol(lamports)} SOL to the pool`);
    return (await findDare(db, dareId))!;
  }
}

export type DaresService = ReturnType<typeof createDaresService>;
