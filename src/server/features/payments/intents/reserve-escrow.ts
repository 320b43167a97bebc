/** Create Dare step 3: a vault address one user may fund for the next 30 minutes. */
import type { UserRow } from '#server/features/auth/user';
import { requireWallet } from '#server/features/auth/user';
import type { Payments } from '#server/features/payments/payment-deps';
import { requireDareCreationEnabled } from '#server/features/settings/switches';
import { RATE_LIMITS } from '#server/rate-limits';
import { reserveEscrowWallet } from './escrow-reservations';

/** Create Dare step 3: a dare vault's address only this user can fund for the next 30 minutes. */
export async function reserveEscrow(
  { db, clock, escrowProgramV2Id, ourVaults, limit }: Payments,
  user: UserRow,
) {
  requireWallet(user);
  await requireDareCreationEnabled(db);
  await limit(
    `escrow:${user.id}`,
    RATE_LIMITS.escrowWallets,
    'Too many escrow wallets requested; wait a minute',
  );
  // Every new dare's vault is one of program v2: judges name its winners (decision 036).
  const row = await reserveEscrowWallet(
    db,
    { programId: escrowProgramV2Id, version: 2, terms: await ourVaults.termsToRecord() },
    user.id,
    clock(),
  );
  return { publicKey: row.publicKey, expiresAt: row.expiresAt!.toISOString() };
}
