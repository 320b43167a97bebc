import { eq } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { dares } from '#server/db/schema';

/** The dare's vault (its `escrowWallet`), or undefined for an unknown dare. */
export async function findDareVault(db: DbOrTx, dareId: number) {
  const [row] = await db
    .select({ id: dares.id, escrowWallet: dares.escrowWallet })
    .from(dares)
    .where(eq(dares.id, dareId));
  return row;
}
