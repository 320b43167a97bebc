import { and, desc, eq, sql } from 'drizzle-orm';
import type { Dare } from '../../../contract/dares';
import type { DareStatus, Difficulty } from '../../../contract/limits';
import { normalizeSol } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { dareSubmissions, dares, poolContributions, users } from '../../db/schema';

export type DareRow = typeof dares.$inferSelect;

/** Page size until the dares issue adds cursors. */
const LIST_LIMIT = 100;

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

/** A dare as the API shows it, with the snake-case variants of spec section 3. */
export function toDare({ dare, creator, submissionCount, participantCount }: DareSelection): Dare {
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
    status: dare.status as DareStatus,
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

export async function getDare(db: DbOrTx, id: number): Promise<Dare | undefined> {
  const [row] = await db
    .select(dareColumns)
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(eq(dares.id, id));
  return row ? toDare(row) : undefined;
}

export async function listDares(db: DbOrTx, filter: 'all' | 'active' | 'completed'): Promise<Dare[]> {
  const rows = await db
    .select(dareColumns)
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(and(eq(dares.isMajor, false), filter === 'all' ? undefined : eq(dares.status, filter)))
    .orderBy(desc(dares.createdAt), desc(dares.id))
    .limit(LIST_LIMIT);
  return rows.map(toDare);
}
