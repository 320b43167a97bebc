import { and, eq, sql } from 'drizzle-orm';
import type { Difficulty } from '#contract/limits';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { dares, poolContributions, users } from '#server/db/schema';

/** What a credit needs to know of a dare: whether it still takes money. */
export type DareStanding = { id: number; status: string; deadline: Date | null };

const standing = { id: dares.id, status: dares.status, deadline: dares.deadline };

export async function findDareStanding(db: DbOrTx, id: number): Promise<DareStanding | undefined> {
  const [row] = await db.select(standing).from(dares).where(eq(dares.id, id));
  return row;
}

/** The kind and deadline a dare's vault was made for (null: a dare without a deadline, from before vaults). */
export async function findDareVaultTarget(
  db: DbOrTx,
  id: number,
): Promise<{ kind: 'community' | 'major'; deadline: Date } | null> {
  const [row] = await db
    .select({ isMajor: dares.isMajor, deadline: dares.deadline })
    .from(dares)
    .where(eq(dares.id, id));
  if (!row?.deadline) return null;
  return { kind: row.isMajor ? 'major' : 'community', deadline: row.deadline };
}

/**
 * The dare a foreign vault funds, cancelled: it cannot be paid out by DarePool's rules, so it no
 * longer shows that vault as a pool (decision 048). Its refunds follow.
 */
export async function cancelDareOnVault(db: DbOrTx, escrowWallet: string, now: Date): Promise<void> {
  await db
    .update(dares)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(dares.escrowWallet, escrowWallet), eq(dares.status, 'active')));
}

/**
 * The dare, locked until the transaction ends: a winner pick or a cancellation waits for a
 * contribution being credited, or the contribution sees the dare they left behind.
 */
export async function lockDareStanding(db: DbOrTx, id: number): Promise<DareStanding | undefined> {
  const [row] = await db.select(standing).from(dares).where(eq(dares.id, id)).for('update');
  return row;
}

/** The dare a stake with this signature opened. */
export async function findDareBySignature(db: DbOrTx, signature: string) {
  const [row] = await db
    .select({
      id: dares.id,
      creatorId: dares.creatorId,
      escrowWallet: dares.escrowWallet,
      title: dares.title,
      isMajor: dares.isMajor,
    })
    .from(dares)
    .where(eq(dares.transactionSignature, signature));
  return row;
}

/** The pool row this signature was credited as. */
export async function findContributionBySignature(db: DbOrTx, signature: string) {
  const [row] = await db
    .select({
      dareId: poolContributions.dareId,
      userId: poolContributions.userId,
      kind: poolContributions.kind,
    })
    .from(poolContributions)
    .where(eq(poolContributions.transactionSignature, signature));
  return row;
}

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

export async function insertStakedDare(
  db: DbOrTx,
  dare: NewDare & {
    creatorId: number;
    stake: string;
    escrowWallet: string;
    signature: string;
    network: string;
    now: Date;
  },
): Promise<number> {
  const [row] = await db
    .insert(dares)
    .values({
      title: dare.title,
      description: dare.description,
      creatorId: dare.creatorId,
      stakeAmount: dare.stake,
      totalPool: dare.stake,
      difficulty: dare.difficulty,
      category: dare.category,
      deadline: dare.deadline,
      maxParticipants: dare.maxParticipants,
      isPublic: dare.isPublic,
      isMajor: dare.isMajor,
      escrowWallet: dare.escrowWallet,
      transactionSignature: dare.signature,
      network: dare.network,
      tags: dare.tags,
      imageUrl: dare.imageUrl,
      createdAt: dare.now,
      updatedAt: dare.now,
    })
    .returning({ id: dares.id });
  return row!.id;
}

export async function insertContribution(
  db: DbOrTx,
  contribution: {
    dareId: number;
    userId: number;
    walletAddress: string;
    kind: 'stake' | 'contribution';
    lamports: bigint;
    signature: string;
    now: Date;
  },
): Promise<void> {
  await db.insert(poolContributions).values({
    dareId: contribution.dareId,
    userId: contribution.userId,
    walletAddress: contribution.walletAddress,
    kind: contribution.kind,
    amount: lamportsToSol(contribution.lamports),
    transactionSignature: contribution.signature,
    createdAt: contribution.now,
  });
}

export async function addToDarePool(db: DbOrTx, dareId: number, lamports: bigint, now: Date): Promise<void> {
  await db
    .update(dares)
    .set({ totalPool: sql`${dares.totalPool} + ${lamportsToSol(lamports)}`, updatedAt: now })
    .where(eq(dares.id, dareId));
}

/** The account whose wallet this is, if any (a wallet belongs to one account at most). */
export async function findUserIdByWallet(db: DbOrTx, walletAddress: string): Promise<number | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.walletAddress, walletAddress));
  return row?.id ?? null;
}
