import { and, desc, eq, gt, ilike, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { DARE_BACKERS_LIMIT, DARE_LIST_LIMITS, type DareListQuery } from '#contract/dares';
import type { DbOrTx } from '#server/db/client';
import { likePattern } from '#server/db/like';
import { refundedColumns } from '#server/db/refunded-columns';
import { dareSubmissions, dares, ledgerEntries, users } from '#server/db/schema';

export type DareRow = typeof dares.$inferSelect;

export async function findDareRow(db: DbOrTx, id: number): Promise<DareRow | undefined> {
  const [row] = await db.select().from(dares).where(eq(dares.id, id));
  return row;
}

const dareColumns = {
  dare: dares,
  creator: { id: users.id, username: users.username, walletAddress: users.walletAddress },
  submissionCount: sql<number>`(select count(*)::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
  participantCount: sql<number>`(select count(distinct ${dareSubmissions.userId})::int from ${dareSubmissions} where ${dareSubmissions.dareId} = ${dares.id})`,
  ...refundedColumns,
};

export type DareSelection = {
  dare: DareRow;
  creator: { id: number; username: string; walletAddress: string | null } | null;
  submissionCount: number;
  participantCount: number;
  /** SOL (decimal) of the contributions that went back, and to how many wallets. */
  refundedAmount: string;
  refundedBackers: number;
  /** SOL (decimal) of every contribution, and how many wallets paid. */
  paidAmount: string;
  paidBackers: number;
};

/** One dare with its creator and counts, as toDare (dare-view.ts) shows it. */
export async function selectDare(db: DbOrTx, id: number): Promise<DareSelection | undefined> {
  const [row] = await db
    .select(dareColumns)
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(eq(dares.id, id));
  return row;
}

export interface DareSelectionPage {
  rows: DareSelection[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * Community dares (major ones are shown on their own page), newest first, keyset-paged by id so
 * a page does not shift when new dares arrive. 'active' means still open at `now`.
 */
export async function listDares(db: DbOrTx, query: DareListQuery, now: Date): Promise<DareSelectionPage> {
  // The SQL form of effectiveStatus (#contract/dare-rules): past its deadline, active reads completed.
  const open = and(eq(dares.status, 'active'), or(isNull(dares.deadline), gt(dares.deadline, now)));
  const status =
    query.filter === 'active'
      ? open
      : query.filter === 'completed'
        ? or(eq(dares.status, 'completed'), and(eq(dares.status, 'active'), lte(dares.deadline, now)))
        : undefined;
  const q = query.q?.trim();
  const limit = query.limit ?? DARE_LIST_LIMITS.defaultLimit;
  const rows = await db
    .select(dareColumns)
    .from(dares)
    .leftJoin(users, eq(users.id, dares.creatorId))
    .where(
      and(
        eq(dares.isMajor, false),
        // A private dare is reached by its link only (issue 37, item 13).
        eq(dares.isPublic, true),
        status,
        q ? or(ilike(dares.title, likePattern(q)), ilike(dares.description, likePattern(q))) : undefined,
        query.category ? eq(dares.category, query.category) : undefined,
        query.difficulty ? eq(dares.difficulty, query.difficulty) : undefined,
        query.cursor ? lt(dares.id, Number(query.cursor)) : undefined,
      ),
    )
    .orderBy(desc(dares.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    rows: page,
    nextCursor: rows.length > limit ? String(page.at(-1)!.dare.id) : null,
  };
}

export interface BackerRow {
  username: string | null;
  walletAddress: string;
  /** SOL, decimal as PostgreSQL sums it. */
  amount: string;
}

/**
 * A dare's contributions from the ledger, per backer, largest first. A line names its user, or
 * only its paying wallet (a blink deposit from a wallet with no account): such a line belongs to
 * the user who holds that wallet now, read here rather than written back into the append-only
 * ledger (decision 066).
 */
export async function listDareBackers(db: DbOrTx, dareId: number): Promise<BackerRow[]> {
  const total = sql<string>`sum(${ledgerEntries.amount})::text`;
  return db
    .select({
      username: users.username,
      walletAddress: sql<string>`coalesce(${users.walletAddress}, min(${ledgerEntries.counterparty}))`,
      amount: total,
    })
    .from(ledgerEntries)
    .leftJoin(
      users,
      sql`${users.id} = coalesce(${ledgerEntries.userId}, (select ${users.id} from ${users} where ${users.walletAddress} = ${ledgerEntries.counterparty}))`,
    )
    .where(
      and(
        eq(ledgerEntries.dareId, dareId),
        eq(ledgerEntries.kind, 'contribution'),
        eq(ledgerEntries.direction, 1),
      ),
    )
    .groupBy(
      users.id,
      users.username,
      users.walletAddress,
      sql`case when ${users.id} is null then ${ledgerEntries.counterparty} end`,
    )
    .orderBy(desc(total))
    .limit(DARE_BACKERS_LIMIT);
}
