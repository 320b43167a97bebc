import type { EscrowKeys } from '#server/chain/escrow-keys';
import { escrowDerivationPath } from '#server/chain/escrow-keys';
import type { DbOrTx } from '#server/db/client';
import {
  type EscrowWalletRow,
  insertReservation,
  markLapsedReservationsExpired,
  nextEscrowIndex,
} from './repo/escrow-wallets';

/** An unused reservation lapses after this long (issue 4). */
export const ESCROW_RESERVATION_MS = 30 * 60 * 1000;

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
  const derivationIndex = await nextEscrowIndex(db);
  const signer = await keys.signerFor(derivationIndex);
  return insertReservation(db, {
    publicKey: signer.address,
    derivationPath: escrowDerivationPath(derivationIndex),
    derivationIndex,
    userId,
    expiresAt: new Date(now.getTime() + ESCROW_RESERVATION_MS),
  });
}

/** Marks lapsed reservations, so a stale address can no longer be paid into through us. */
export async function expireReservations(db: DbOrTx, now: Date): Promise<void> {
  await markLapsedReservationsExpired(db, now);
}
