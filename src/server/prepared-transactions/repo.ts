import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { preparedTransactions } from '#server/db/schema';

export type PreparedTransactionRow = typeof preparedTransactions.$inferSelect;
export type PreparedKind = PreparedTransactionRow['kind'];

export interface PreparedKey {
  kind: PreparedKind;
  vault: string;
  wallet: string;
}

const keyIs = (key: PreparedKey) =>
  and(
    eq(preparedTransactions.kind, key.kind),
    eq(preparedTransactions.vault, key.vault),
    eq(preparedTransactions.wallet, key.wallet),
  );

/** The one prepared transaction of this kind for a wallet and vault, if any. */
export async function findPrepared(
  db: DbOrTx,
  key: PreparedKey,
): Promise<PreparedTransactionRow | undefined> {
  const [row] = await db.select().from(preparedTransactions).where(keyIs(key));
  return row;
}

export interface NewPrepared extends PreparedKey {
  dareId: number;
  /** Null: a wallet with no account (its own refund). */
  userId: number | null;
  messageHash: string;
  wireTransaction: string;
  lastValidBlockHeight: bigint;
  /** What the transaction carries beyond its key: a v2 entry's proof fingerprint (hex). */
  proofHash?: string | null;
  now: Date;
}

/** Inserts the first prepared transaction of a key; undefined when another request did first. */
export async function insertPrepared(
  db: DbOrTx,
  row: NewPrepared,
): Promise<PreparedTransactionRow | undefined> {
  const [inserted] = await db
    .insert(preparedTransactions)
    .values({ ...row, proofHash: row.proofHash ?? null, createdAt: row.now })
    .onConflictDoNothing()
    .returning();
  return inserted;
}

/**
 * Replaces the prepared transaction `previousHash` (one that can no longer land) by a new one;
 * undefined when another request replaced it first.
 */
export async function replacePrepared(
  db: DbOrTx,
  previousHash: string,
  row: NewPrepared,
): Promise<PreparedTransactionRow | undefined> {
  const [updated] = await db
    .update(preparedTransactions)
    .set({
      dareId: row.dareId,
      userId: row.userId,
      messageHash: row.messageHash,
      wireTransaction: row.wireTransaction,
      lastValidBlockHeight: row.lastValidBlockHeight,
      proofHash: row.proofHash ?? null,
      createdAt: row.now,
    })
    .where(and(keyIs(row), eq(preparedTransactions.messageHash, previousHash)))
    .returning();
  return updated;
}
