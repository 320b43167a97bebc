import { and, desc, eq, gt, ilike, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { DARE_LIST_LIMITS, type Dare, type DareListQuery } from '../../../contract/dares';
import type { DareStatus, Difficulty } from '../../../contract/limits';
import { normalizeSol } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { dareSubmissions, dares, poolContributions, users } from '../../db/schema';

export type DareRow = typeof dares.$inferSelect;

export async function findDareRow(db: DbOrTx, id: number): Promise<DareRow | undefined> {
  const [row] = await db.select().from(dares).where(eq(dares.id, id));
  return row;
}

export async function findDareBySignature(db: DbOrTx, signature: string): Promise<DareRow | undefined> {
  const [row] = await db.select().from(dares).where(eq(dares.transactionSignature, signature));
  return row;
}

export async function findContributionBySignature(db: DbOrTx, signature: string) {
  const [row] = await db
    .select()
    .from(poolContributions)
    .where(eq(poolContributions.transactionSignature, signature));
  return row;
}

const dareColumns = {
  dare: dares,
  creator: { id: users.id, username: users.username, walletAddress: users.walletAddress },
  submissionCount: sql<number>`(select count(*)::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
  participantCount: sql<number>`(select count(distinct ${dareSubmissions.userId})::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
};

type DareSelection = {
  dare: DareRow;
  creator: { id: number; username: string; walletAddress: string | null } | null;
  submissionCount: number;
  participantCount: number;
};

/**
 * The status users see: an active dare past its deadline takes no more submissions and reads as
 * completed. Its row stays 'active' until a winner is marked or the refund job cancels it.
 */
export function effectiveStatus(dare: DareRow, now: Date | undefined): DareStatus {
  if (now && dare.status === 'active' && dare.deadline && dare.deadline <= now) return 'completed';
  return dare.status as DareStatus;
}

/** A dare as the API shows it, with the snake-case variants of spec section 3. */
export function toDare(
  { dare, creator, submissionCount, participantCount }: DareSelection,
  now?: Date,
): Dare {
  const stakeAmount = normalizeSol(dare.stakeAmount);
  const totalPool = normalizeSol(dare.totalPool);
  return {
    id: dare.id,
    title: dare.title,
    description: dare.description,
    creatorId: dare.creatorId,
    stakeAmount,
    totalPool,
    difficulty: dare.difficulty as Difficulty,
    category: dare.category,
    deadline: dare.deadline?.toISOString() ?? null,
    maxParticipants: dare.maxParticipants,
    isPublic: dare.isPublic,
    isMajor: dare.isMajor,
    status: effectiveStatus(dare, now),
    escrowWallet: dare.escrowWallet,
    transactionSignature: dare.transactionSignature,
    network: dare.network,
    tags: dare.tags,
    imageUrl: dare.imageUrl,
    createdAt: dare.createdAt.toISOString(),
    updatedAt: dare.updatedAt.toISOString(),
    participantCount: Number(participantCount),
    submissionCount: Number(submissionCount),
    creator,
    is_major: dare.isMajor,
    total_pool: totalPool,
    stake_amount: stakeAmount,
    escrow_wallet: dare.escrowWallet,
    submission_count: Number(submissionCount),
  };
}

/** One dare; with `now`, its status as users see it (see effectiveStatus). */
export async function getDare(db: DbOrTx, id: number, now?: Date): Promise<Dare | undefined> {
  const [row] = await db
    .select(dareColumns)
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(eq(dares.id, id));
  return row ? toDare(row, now) : undefined;
}

/** `%`, `_` and `\` match themselves in a search. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface DarePage {
  dares: Dare[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * Community dares (major ones are shown on their own page), newest first, keyset-paged by id so
 * a page does not shift when new dares arrive. 'active' means still open at `now`.
 */
export async function listDares(db: DbOrTx, query: DareListQuery, now: Date): Promise<DarePage> {
  const open = and(eq(dares.status, 'active'), or(isNull(dares.deadline), gt(dares.deadline, now)));
  const status =
    query.filter === 'active'
      ? open
      : query.filter === 'completed'
        ? or(eq(dares.status, 'completed'), and(eq(dares.status, 'active'), lte(dares.deadline, now)))
        : undefined;
  const q = query.q?.trim();
  const limit = query.limit ?? DARE_LIST_LIMITS.defaultLimit;
  const rows = await db
    .select(dareColumns)
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(
      and(
        eq(dares.isMajor, false),
        status,
        q ? or(ilike(dares.title, likePattern(q)), ilike(dares.description, likePattern(q))) : undefined,
        query.category ? eq(dares.category, query.category) : undefined,
        query.difficulty ? eq(dares.difficulty, query.difficulty) : undefined,
        query.cursor ? lt(dares.id, Number(query.cursor)) : undefined,
      ),
    )
    .orderBy(desc(dares.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    dares: page.map((row) => toDare(row, now)),
    nextCursor: rows.length > limit ? String(page.at(-1)!.dare.id) : null,
  };
}

/**
 * Whether the user ever backed a dare: a stake or contribution credited to one (a pool row). A
 * payment only booked on the ledger may yet be refused and refunded, so it does not count; a
 * credited one still does after its dare is refunded or deleted (the money was put at stake).
 */
export async function hasBackedADare(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: poolContributions.id })
    .from(poolContributions)
    .where(eq(poolContributions.userId, userId))
    .limit(1);
  return row !== undefined;
}

/**
 * The dare, locked until the transaction ends: a winner pick or a cancellation waits for a
 * contribution being credited, or the contribution sees the dare they left behind.
 */
export async function lockDareRow(tx: DbOrTx, id: number): Promise<DareRow | undefined> {
  const [row] = await tx.select().from(dares).where(eq(dares.id, id)).for('update');
  return row;
}
