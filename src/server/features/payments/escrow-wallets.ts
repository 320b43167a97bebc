import { and, eq, lt, sql } from 'drizzle-orm';
import type { EscrowKeys } from '../../chain/escrow-keys';
import { escrowDerivationPath } from '../../chain/escrow-keys';
import type { DbOrTx } from '../../db/client';
import { dareWallets, escrowIndexSequence } from '../../db/schema';

/** An unused reservation lapses after this long (issue 4). */
export const ESCROW_RESERVATION_MS = 30 * 60 * 1000;

export type EscrowWalletRow = typeof dareWallets.$inferSelect;

/**
 * Reserves a fresh escrow for a user: the next derivation index, its address, and nothing secret
 * (the `privateKey` column only records the derivation path, the key is re-derived when needed).
 */
export async function reserveEscrowWallet(
  db: DbOrTx,
  keys: EscrowKeys,
  userId: number,
  now: Date,
): Promise<EscrowWalletRow> {
  await expireReservations(db, now);
  const result = await db.execute(sql`select nextval(${escrowIndexSequence.seqName}) as index`);
  const derivationIndex = Number(
    (result as unknown as { rows: { index: string | number }[] }).rows[0]!.index,
  );
  const signer = await keys.signerFor(derivationIndex);
  const [row] = await db
    .insert(dareWallets)
    .values({
      publicKey: signer.address,
      privateKey: escrowDerivationPath(derivationIndex),
      derivationIndex,
      reservedBy: userId,
      status: 'reserved',
      expiresAt: new Date(now.getTime() + ESCROW_RESERVATION_MS),
    })
    .returning();
  return row!;
}

/** Marks lapsed reservations, so a stale address can no longer be paid into through us. */
export async function expireReservations(db: DbOrTx, now: Date): Promise<void> {
  await db
    .update(dareWallets)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(dareWallets.status, 'reserved'), lt(dareWallets.expiresAt, now)));
}

export async function findEscrowWallet(db: DbOrTx, publicKey: string): Promise<EscrowWalletRow | undefined> {
  const [row] = await db.select().from(dareWallets).where(eq(dareWallets.publicKey, publicKey));
  return row;
}
