/** Whether the vault a payment goes to takes it: an open vault of ours, or none yet (a stake). */
import { PAYMENT_MESSAGES } from '#contract/payments';
import { VAULT_TERM_WORDS } from '#server/chain/escrow-program/our-vault';
import { AppError } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { Payments } from '#server/features/payments/payment-deps';
import type { EscrowWalletRow } from '#server/features/payments/repo/escrow-wallets';
import { reserveEscrowWallet } from './escrow-reservations';
import { v1RetiredError } from './our-vault';

/**
 * Whether the escrow's vault takes a deposit now: null when it does not exist yet (a stake then
 * creates it); 409 when it is not ours in every term (naming the term), is v1's (retired), or no
 * longer open.
 */
export async function openVault({ ourVaults }: Payments, escrow: EscrowWalletRow): Promise<'open' | null> {
  const vault = await ourVaults.requireOurs(escrow);
  if (!vault) return null;
  if (vault.status !== 'open') throw new AppError('CONFLICT', PAYMENT_MESSAGES.vaultNotOpen);
  return 'open';
}

/**
 * A stake whose reserved address already holds a vault: ours (a stake paid, not yet recorded as
 * a dare) takes a deposit. A foreign one (someone made a vault there first, with other terms) is
 * never paid into: the reservation is abandoned and a fresh one offered in the 409, so
 * front-running costs the front-runner its rent and the creator one retry, never SOL.
 */
export async function stakeVault(
  { db, clock, escrowProgramV2Id, ourVaults }: Payments,
  user: UserRow,
  escrow: EscrowWalletRow,
): Promise<'open' | null> {
  const found = await ourVaults.check(escrow);
  if (found.state === 'none') return null;
  if (found.state === 'v1') throw v1RetiredError();
  if (found.state === 'ours') {
    if (found.vault.status !== 'open') throw new AppError('CONFLICT', PAYMENT_MESSAGES.vaultNotOpen);
    return 'open';
  }
  const fresh = await reserveEscrowWallet(
    db,
    { programId: escrowProgramV2Id, version: 2, terms: await ourVaults.termsToRecord() },
    user.id,
    clock(),
  );
  throw new AppError('CONFLICT', PAYMENT_MESSAGES.foreignReservation(VAULT_TERM_WORDS[found.term]), {
    foreignTerm: found.term,
    escrowWallet: { publicKey: fresh.publicKey, expiresAt: fresh.expiresAt!.toISOString() },
  });
}
