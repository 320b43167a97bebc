import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { claims, dares, poolContributions } from '#server/db/schema';

export type ContributionRow = typeof poolContributions.$inferSelect;

/**
 * What a dare still owes its contributors, in refund order: pool additions first, the stake last.
 * The stake (at least 0.01 SOL) is then what remains in the escrow until the final transfer, so
 * no refund leaves the escrow between 0 and the rent-exempt minimum.
 */
export async function unrefundedContributions(db: DbOrTx, dareId: number): Promise<ContributionRow[]> {
  return db
    .select()
    .from(poolContributions)
    .where(and(eq(poolContributions.dareId, dareId), isNull(poolContributions.refundedAt)))
    .orderBy(
      sql`(${poolContributions.kind} = 'stake')`,
      asc(poolContributions.amount),
      asc(poolContributions.id),
    );
}

const hasClaims = (dareId: typeof dares.id) =>
  sql`exists (select 1 from ${claims} where ${claims.dareId} = ${dareId})`;

/**
 * Active dares whose deadline plus the moderation grace has passed with no winner: each is moved
 * to cancelled in one conditional update, so a winner marked at the same moment wins or loses
 * cleanly (mark-winner needs 'active').
 */
export async function cancelExpiredDares(db: DbOrTx, cutoff: Date, now: Date): Promise<number[]> {
  const rows = await db
    .update(dares)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(dares.status, 'active'), lt(dares.deadline, cutoff), sql`not ${hasClaims(dares.id)}`))
    .returning({ id: dares.id });
  return rows.map((row) => row.id);
}

/** Cancelled dares (by an admin or by expiry) that still hold unrefunded contributions. */
export async function daresOwingRefunds(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: dares.id })
    .from(dares)
    .innerJoin(poolContributions, eq(poolContributions.dareId, dares.id))
    .where(
      and(
        eq(dares.status, 'cancelled'),
        isNull(poolContributions.refundedAt),
        sql`not ${hasClaims(dares.id)}`,
      ),
    );
  return rows.map((row) => row.id);
}

/** Where a dare's refunds are paid from. */
export async function findDareEscrow(db: DbOrTx, dareId: number): Promise<string | null | undefined> {
  const [row] = await db.select({ escrowWallet: dares.escrowWallet }).from(dares).where(eq(dares.id, dareId));
  return row?.escrowWallet;
}
