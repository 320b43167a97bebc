import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { dareWallets, ledgerEntries, type RecordedVaultTerms } from '#server/db/schema';

export type EscrowWalletRow = typeof dareWallets.$inferSelect;

export async function insertReservation(
  db: DbOrTx,
  reservation: {
    publicKey: string;
    vaultSeed: string;
    programVersion: 1 | 2;
    userId: number;
    expiresAt: Date;
    vaultTerms: RecordedVaultTerms;
  },
): Promise<EscrowWalletRow> {
  const [row] = await db
    .insert(dareWallets)
    .values({
      publicKey: reservation.publicKey,
      vaultSeed: reservation.vaultSeed,
      programVersion: reservation.programVersion,
      reservedBy: reservation.userId,
      status: 'reserved',
      expiresAt: reservation.expiresAt,
      vaultTerms: reservation.vaultTerms,
    })
    .returning();
  return row!;
}

/** Reservations lapsing now (still 'reserved' past their time): the job looks at their address once. */
export async function findLapsingReservations(db: DbOrTx, now: Date): Promise<EscrowWalletRow[]> {
  return db
    .select()
    .from(dareWallets)
    .where(and(eq(dareWallets.status, 'reserved'), lt(dareWallets.expiresAt, now)));
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

/** A reservation whose vault was refused: it takes no further payment and never funds a dare. */
export async function closeReservation(db: DbOrTx, publicKey: string, now: Date): Promise<void> {
  await db
    .update(dareWallets)
    .set({ status: 'closed', updatedAt: now })
    .where(and(eq(dareWallets.publicKey, publicKey), isNull(dareWallets.dareId)));
}

/**
 * The vault at this address is not ours (`term` differs): recorded, and a reservation it took is
 * closed (it never funds a dare; the creator is offered a fresh one).
 */
export async function markForeignVault(
  db: DbOrTx,
  publicKey: string,
  term: string,
  now: Date,
): Promise<void> {
  await db
    .update(dareWallets)
    .set({
      foreignTerm: term,
      status: sql`case when ${dareWallets.dareId} is null then 'closed' else ${dareWallets.status} end`,
      updatedAt: now,
    })
    .where(eq(dareWallets.publicKey, publicKey));
}

/** Foreign vaults our ledger holds SOL in (payers booked into one before every term was checked). */
export async function foreignVaultsWithBookedSol(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ publicKey: dareWallets.publicKey })
    .from(dareWallets)
    .innerJoin(ledgerEntries, eq(ledgerEntries.escrowWallet, dareWallets.publicKey))
    .where(isNotNull(dareWallets.foreignTerm))
    .groupBy(dareWallets.publicKey)
    .having(sql`sum(${ledgerEntries.direction} * ${ledgerEntries.amount}) > 0`);
  return rows.map((row) => row.publicKey);
}
