import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { ledgerEntries, users } from './schema';

/**
 * Contributions the ledger books to a bare wallet (a blink deposit from a wallet with no
 * account), read as the user's who holds that wallet now: the ledger is append-only, so a wallet
 * that registers later is attributed here, at read time, not written into old lines (decision 066).
 */
export const walletOnlyContributionsOf = (userId: number): SQL =>
  and(
    eq(ledgerEntries.kind, 'contribution'),
    eq(ledgerEntries.direction, 1),
    isNull(ledgerEntries.userId),
    sql`${ledgerEntries.counterparty} = (select ${users.walletAddress} from ${users} where ${users.id} = ${userId})`,
  ) as SQL;

/** The refund that returned this line's wallet's receipt in its dare, if one did (null otherwise). */
export const walletRefundSignature = sql<
  string | null
>`(select r.signature from ledger_entries r where r.kind = 'refund' and r.direction = -1 and r.dare_id = ${ledgerEntries.dareId} and r.counterparty = ${ledgerEntries.counterparty} order by r.id limit 1)`;
