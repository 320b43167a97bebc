/** Claims as their winner sees them, with the explorer link of the transaction that paid them. */
import type { Claim } from '#contract/claims';
import type { UserRow } from '#server/features/auth/user';
import type { PayingServiceDeps } from '#server/features/payouts/service';
import { findClaim, listUserClaims, toClaim } from './repo';

/** A claim known to exist (its id came from the database). */
export async function showClaim({ db, chain }: PayingServiceDeps, id: number): Promise<Claim> {
  const row = (await findClaim(db, id))!;
  return toClaim(row.claim, row.dareTitle, chain.explorerUrlTemplate);
}

export async function listClaims({ db, chain }: PayingServiceDeps, user: UserRow): Promise<Claim[]> {
  const rows = await listUserClaims(db, user.id);
  return rows.map((row) => toClaim(row.claim, row.dareTitle, chain.explorerUrlTemplate));
}
