import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import { ledgerEntries, poolContributions, users } from './schema';

/**
 * Contributions made straight on chain by the user's wallet (a blink deposit): ledger lines with
 * no pool row of their own (decision 058), booked to the wallet's account or, made before the
 * wallet had one, to the bare wallet. Read as the user's who holds that wallet now: the ledger is
 * append-only, so a wallet that registers later is attributed here, at read time, not written into
 * old lines (decision 066).
 */
export const walletOnlyContributionsOf = (userId: number): SQL =>
  and(
    eq(ledgerEntries.kind, 'contribution'),
    eq(ledgerEntries.direction, 1),
    or(isNull(ledgerEntries.userId), eq(ledgerEntries.userId, userId)),
    sql`${ledgerEntries.counterparty} = (select ${users.walletAddress} from ${users} where ${users.id} = ${userId})`,
    sql`not exists (select 1 from ${poolContributions} where ${poolContributions.transactionSignature} = ${ledgerEntries.signature})`,
  ) as SQL;

/** The refund that returned this line's wallet's receipt in its dare, if one did (null otherwise). */
export const walletRefundSignature = sql<
  string | null
>`(select r.signature from ledger_entries r where r.kind = 'refund' and r.direction = -1 and r.dare_id = ${ledgerEntries.dareId} and r.counterparty = ${ledgerEntries.counterparty} order by r.id limit 1)`;
