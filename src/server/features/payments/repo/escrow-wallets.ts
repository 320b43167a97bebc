import { and, eq, lt, sql } from 'drizzle-orm';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { dareWallets, escrowIndexSequence } from '#server/db/schema';

export type EscrowWalletRow = typeof dareWallets.$inferSelect;

/** The next unused derivation index: every escrow has its own key. */
export async function nextEscrowIndex(db: DbOrTx): Promise<number> {
  const result = await db.execute(sql`select nextval(${escrowIndexSequence.seqName}) as index`);
  return Number((result as unknown as { rows: { index: string | number }[] }).rows[0]!.index);
}

export async function insertReservation(
  db: DbOrTx,
  reservation: {
    publicKey: string;
    derivationPath: string;
    derivationIndex: number;
    userId: number;
    expiresAt: Date;
  },
): Promise<EscrowWalletRow> {
  const [row] = await db
    .insert(dareWallets)
    .values({
      publicKey: reservation.publicKey,
      privateKey: reservation.derivationPath,
      derivationIndex: reservation.derivationIndex,
      reservedBy: reservation.userId,
      status: 'reserved',
      expiresAt: reservation.expiresAt,
    })
    .returning();
  return row!;
}

export async function markLapsedReservationsExpired(db: DbOrTx, now: Date): Promise<void> {
  await db
    .update(dareWallets)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(dareWallets.status, 'reserved'), lt(dareWallets.expiresAt, now)));
}

export async function findEscrowWallet(db: DbOrTx, publicKey: string): Promise<EscrowWalletRow | undefined> {
  const [row] = await db.select().from(dareWallets).where(eq(dareWallets.publicKey, publicKey));
  return row;
}

/** The escrow's row, locked until the transaction ends: two stakes paid into it credit one at a time. */
export async function lockEscrowWallet(db: DbOrTx, publicKey: string): Promise<EscrowWalletRow | undefined> {
  const [row] = await db.select().from(dareWallets).where(eq(dareWallets.publicKey, publicKey)).for('update');
  return row;
}

export async function addToEscrowBalance(
  db: DbOrTx,
  publicKey: string,
  lamports: bigint,
  now: Date,
): Promise<void> {
  await db
    .update(dareWallets)
    .set({ balance: sql`${dareWallets.balance} + ${lamportsToSol(lamports)}`, updatedAt: now })
    .where(eq(dareWallets.publicKey, publicKey));
}

/** The reservation now funds a dare: it stays that dare's escrow and never lapses. */
export async function assignEscrowToDare(
  db: DbOrTx,
  publicKey: string,
  dareId: number,
  now: Date,
): Promise<void> {
  await db
    .update(dareWallets)
    .set({ dareId, status: 'active', expiresAt: null, updatedAt: now })
    .where(eq(dareWallets.publicKey, publicKey));
}
