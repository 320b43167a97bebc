import { randomBytes } from 'node:crypto';
import type { Address } from '@solana/kit';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import type { DbOrTx } from '#server/db/client';
import type { RecordedVaultTerms } from '#server/db/schema';
import {
  type EscrowWalletRow,
  insertReservation,
  markLapsedReservationsExpired,
} from '#server/features/payments/repo/escrow-wallets';

/** An unused reservation lapses after this long (issue 4). */
export const ESCROW_RESERVATION_MS = 30 * 60 * 1000;

/**
 * Reserves a fresh dare vault for a user (decision 021): a random 32-byte seed (the program's
 * dare_id) and the vault's address, the PDA ["vault", seed] of the escrow program, with the
 * judging terms its vault will be made with (decision 048). No key exists for it: only the program
 * moves what it will hold.
 */
export async function reserveEscrowWallet(
  db: DbOrTx,
  program: { programId: Address; version: 1 | 2; terms: RecordedVaultTerms },
  userId: number,
  now: Date,
): Promise<EscrowWalletRow> {
  const seed = randomBytes(32);
  const vault = await findVaultAddress(program.programId, seed);
  return insertReservation(db, {
    publicKey: vault.address,
    vaultSeed: seed.toString('hex'),
    programVersion: program.version,
    userId,
    expiresAt: new Date(now.getTime() + ESCROW_RESERVATION_MS),
    vaultTerms: program.terms,
  });
}

/** The vault's seed (dare_id) as the program takes it. */
export function vaultSeedBytes(row: Pick<EscrowWalletRow, 'vaultSeed'>): Uint8Array | null {
  return row.vaultSeed === null ? null : new Uint8Array(Buffer.from(row.vaultSeed, 'hex'));
}

/**
 * Marks lapsed reservations 'expired' (the payments job, each run). Bookkeeping only: building a
 * payment already refuses a reservation past its `expiresAt`, whatever its status says.
 */
export async function expireReservations(db: DbOrTx, now: Date): Promise<void> {
  await markLapsedReservationsExpired(db, now);
}
