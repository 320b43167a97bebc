import { eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

/** Grants or takes admin rights by username (any case) or wallet address; returns who changed. */
export async function setAdminByUsernameOrWallet(db: DbOrTx, who: string, isAdmin: boolean, now: Date) {
  return db
    .update(users)
    .set({ isAdmin, updatedAt: now })
    .where(or(eq(sql`lower(${users.username})`, who.toLowerCase()), eq(users.walletAddress, who)))
    .returning({ id: users.id, username: users.username });
}

export async function setAdminById(db: DbOrTx, id: number, isAdmin: boolean, now: Date) {
  const [user] = await db.update(users).set({ isAdmin, updatedAt: now }).where(eq(users.id, id)).returning();
  return user;
}
