import { and, asc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { claims, dares, poolContributions } from '../../db/schema';

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

export async function hasRefunds(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: poolContributions.id })
    .from(poolContributions)
    .where(and(eq(poolContributions.dareId, dareId), isNotNull(poolContributions.refundedAt)))
    .limit(1);
  return row !== undefined;
}

/** The refund transfers that landed for these dares, oldest first, grouped by dare. */
export async function refundsOfDares(
  db: DbOrTx,
  dareIds: number[],
): Promise<Map<number, { signature: string; amount: string; walletAddress: string }[]>> {
  const byDare = new Map<number, { signature: string; amount: string; walletAddress: string }[]>();
  if (dareIds.length === 0) return byDare;
  const rows = await db
    .select({
      dareId: poolContributions.dareId,
      signature: poolContributions.refundSignature,
      amount: poolContributions.amount,
      walletAddress: poolContributions.walletAddress,
    })
    .from(poolContributions)
    .where(
      and(
        inArray(poolContributions.dareId, dareIds),
        isNotNull(poolContributions.refundedAt),
        isNotNull(poolContributions.refundSignature),
      ),
    )
    .orderBy(asc(poolContributions.refundedAt), asc(poolContributions.id));
  for (const { dareId, signature, amount, walletAddress } of rows) {
    const list = byDare.get(dareId) ?? [];
    list.push({ signature: signature!, amount, walletAddress });
    byDare.set(dareId, list);
  }
  return byDare;
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
