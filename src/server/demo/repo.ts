import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { dares, users } from '#server/db/schema';

/** The demo seed's own queries (decision 078: SQL only in repos). */

/** How many accounts exist: the seed runs only on an empty database. */
export async function countUsers(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users);
  return row?.value ?? 0;
}

/** Writes what the demo sets on a dare once it is funded (what makes the Major Dare one). */
export async function setDemoDareColumns(
  db: DbOrTx,
  dareId: number,
  columns: { isMajor?: boolean; maxParticipants?: number; category?: string },
): Promise<void> {
  await db.update(dares).set(columns).where(eq(dares.id, dareId));
}
