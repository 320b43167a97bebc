import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { claims, dares, dareWallets, poolContributions } from '#server/db/schema';

/** How many contributions of a dare are not refunded yet. */
export async function countUnrefundedContributions(db: DbOrTx, dareId: number): Promise<number> {
  return db.$count(
    poolContributions,
    and(eq(poolContributions.dareId, dareId), isNull(poolContributions.refundedAt)),
  );
}

/** How many contributions of a dare these transactions refunded. */
export async function countRefundedBy(db: DbOrTx, dareId: number, signatures: string[]): Promise<number> {
  if (signatures.length === 0) return 0;
  return db.$count(
    poolContributions,
    and(eq(poolContributions.dareId, dareId), inArray(poolContributions.refundSignature, signatures)),
  );
}

const vaultOpenOnChain = (escrowWallet: typeof dares.escrowWallet) =>
  sql`exists (select 1 from ${dareWallets} where ${dareWallets.publicKey} = ${escrowWallet} and ${dareWallets.status} <> 'closed')`;

const hasClaims = (dareId: typeof dares.id) =>
  sql`exists (select 1 from ${claims} where ${claims.dareId} = ${dareId})`;

/** Claims that pay or may still pay (a retired v1 dare's unpaid claims are 'failed': they never will). */
const hasLiveClaims = (dareId: typeof dares.id) =>
  sql`exists (select 1 from ${claims} where ${claims.dareId} = ${dareId} and ${claims.status} <> 'failed')`;

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

/**
 * Cancelled dares (by an admin or by expiry) that still hold unrefunded contributions, or whose
 * vault is not closed yet (receipts or entries left on chain).
 */
export async function daresOwingRefunds(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .select({ id: dares.id })
    .from(dares)
    .where(
      and(
        eq(dares.status, 'cancelled'),
        sql`not ${hasLiveClaims(dares.id)}`,
        or(
          sql`exists (select 1 from ${poolContributions} where ${poolContributions.dareId} = ${dares.id} and ${poolContributions.refundedAt} is null)`,
          vaultOpenOnChain(dares.escrowWallet),
        ),
      ),
    )
    .orderBy(dares.id);
  return rows.map((row) => row.id);
}

/** Completed dares whose every prize is paid and whose vault is not closed yet: records to close. */
export async function paidDaresWithOpenVaults(db: DbOrTx): Promise<{ id: number; escrowWallet: string }[]> {
  const rows = await db
    .select({ id: dares.id, escrowWallet: dares.escrowWallet })
    .from(dares)
    .where(
      and(
        eq(dares.status, 'completed'),
        sql`${hasClaims(dares.id)}`,
        sql`not exists (select 1 from ${claims} where ${claims.dareId} = ${dares.id} and ${claims.status} <> 'paid')`,
        vaultOpenOnChain(dares.escrowWallet),
      ),
    )
    .orderBy(dares.id);
  return rows.flatMap((row) => (row.escrowWallet ? [{ id: row.id, escrowWallet: row.escrowWallet }] : []));
}

/**
 * Dares past deadline + grace whose vault is not closed, whatever their status: from its
 * refund_after anyone may refund such a vault, and the ledger must notice it.
 */
export async function overdueDaresWithOpenVaults(
  db: DbOrTx,
  cutoff: Date,
): Promise<{ id: number; escrowWallet: string }[]> {
  const rows = await db
    .select({ id: dares.id, escrowWallet: dares.escrowWallet })
    .from(dares)
    .where(and(lt(dares.deadline, cutoff), vaultOpenOnChain(dares.escrowWallet)))
    .orderBy(dares.id);
  return rows.flatMap((row) => (row.escrowWallet ? [{ id: row.id, escrowWallet: row.escrowWallet }] : []));
}

/**
 * Dares whose vault may still take deposits, or took its last ones since `since` (their
 * deadline is later), and is not closed: deposits made straight on chain into them are credited
 * by the notice (decision 058).
 */
export async function daresTakingDeposits(
  db: DbOrTx,
  since: Date,
): Promise<{ id: number; escrowWallet: string }[]> {
  const rows = await db
    .select({ id: dares.id, escrowWallet: dares.escrowWallet })
    .from(dares)
    .where(and(gte(dares.deadline, since), vaultOpenOnChain(dares.escrowWallet)))
    .orderBy(dares.id);
  return rows.flatMap((row) => (row.escrowWallet ? [{ id: row.id, escrowWallet: row.escrowWallet }] : []));
}

/** Where a dare's refunds are paid from. */
export async function findDareEscrow(db: DbOrTx, dareId: number): Promise<string | null | undefined> {
  const [row] = await db.select({ escrowWallet: dares.escrowWallet }).from(dares).where(eq(dares.id, dareId));
  return row?.escrowWallet;
}

/** The dare a vault funds, if any: a refunded vault's lines are booked to it. */
export async function findEscrowDareId(db: DbOrTx, escrowWallet: string): Promise<number | null | undefined> {
  const [row] = await db
    .select({ dareId: dareWallets.dareId })
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, escrowWallet));
  return row?.dareId;
}
