import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { claims, dares, dareWallets, payoutTransfers } from '#server/db/schema';

/**
 * Retires escrow program v1 in the books (docs/decisions/050-retire-v1.md): every dare whose vault
 * is v1's and not closed, still active or completed but not paid out (no claim paid or being
 * paid), and with no transaction of its vault on its way, becomes cancelled with the reason
 * 'escrow_retired', in one conditional update (a second run finds nothing). Its refunds are then
 * the refund job's, as any cancelled dare's. Returns the dares it retired.
 */
export async function retireV1Dares(db: DbOrTx, now: Date): Promise<number[]> {
  const rows = await db
    .update(dares)
    .set({ status: 'cancelled', cancelReason: 'escrow_retired', updatedAt: now })
    .where(
      and(
        inArray(dares.status, ['active', 'completed']),
        sql`exists (select 1 from ${dareWallets} where ${dareWallets.publicKey} = ${dares.escrowWallet} and ${dareWallets.programVersion} = 1 and ${dareWallets.status} <> 'closed')`,
        sql`not exists (select 1 from ${claims} where ${claims.dareId} = ${dares.id} and ${claims.status} in ('processing', 'paid'))`,
        sql`not exists (select 1 from ${payoutTransfers} where ${payoutTransfers.escrowWallet} = ${dares.escrowWallet} and ${payoutTransfers.status} = 'sending')`,
      ),
    )
    .returning({ id: dares.id });
  return rows.map((row) => row.id);
}

/**
 * The prize claims of retired dares that were never paid become failed, with the reason. Run on
 * every pass, not only with the retirement: a claim a Claim Prize held 'processing' meanwhile is
 * released to pending by its own (refused) payout, and is failed on the next pass.
 */
export async function failClaimsOfRetiredDares(db: DbOrTx, reason: string, now: Date): Promise<number> {
  const rows = await db
    .update(claims)
    .set({ status: 'failed', failureReason: reason, updatedAt: now })
    .where(
      and(
        eq(claims.status, 'pending'),
        sql`${claims.dareId} in (select ${dares.id} from ${dares} where ${dares.cancelReason} = 'escrow_retired')`,
      ),
    )
    .returning({ id: claims.id });
  return rows.length;
}
