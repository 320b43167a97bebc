import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { Leaderboard, LeaderboardEntry } from '#contract/leaderboard';
import { LEADERBOARD_SIZE } from '#contract/limits';
import { lamportsToSol, normalizeSol, solToLamports } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { users } from '#server/db/schema';

const entryColumns = {
  id: users.id,
  username: users.username,
  dareWins: users.dareWins,
  totalEarnings: users.totalEarnings,
  walletAddress: users.walletAddress,
  reputation: users.reputation,
};

const toEntry = (
  row: { totalEarnings: string } & Omit<LeaderboardEntry, 'totalEarnings'>,
): LeaderboardEntry => ({
  ...row,
  totalEarnings: normalizeSol(row.totalEarnings),
});

/**
 * Submissions + votes + pool contributions on public dares (a private one is left out of the
 * leaderboard's counts: issue 37, item 13): what "most active" counts. Written with qualified
 * names: drizzle prints a single-table select's columns unqualified, which inside these
 * subqueries would bind to the inner table.
 */
const activity = sql<number>`(
  (select count(*) from dare_submissions s join dares d on d.id = s.dare_id
    where s.user_id = "users"."id" and d.is_public)
  + (select count(*) from submission_votes v join dares d on d.id = v.dare_id
    where v.user_id = "users"."id" and d.is_public)
  + (select count(*) from pool_contributions c join dares d on d.id = c.dare_id
    where c.user_id = "users"."id" and d.is_public)
)::int`;

/** Admins run the platform (and the demo's admin pays the major prize): they are not ranked. */
const player = eq(users.isAdmin, false);

export async function leaderboard(db: DbOrTx): Promise<Leaderboard> {
  const byEarnings = [desc(users.totalEarnings), desc(users.dareWins), asc(users.createdAt), asc(users.id)];
  const top = await db
    .select(entryColumns)
    .from(users)
    .where(player)
    .orderBy(...byEarnings)
    .limit(LEADERBOARD_SIZE);
  const [mostWins] = await db
    .select(entryColumns)
    .from(users)
    .where(and(player, gt(users.dareWins, 0)))
    .orderBy(desc(users.dareWins), desc(users.totalEarnings), asc(users.createdAt), asc(users.id))
    .limit(1);
  const [highestEarner] = await db
    .select(entryColumns)
    .from(users)
    .where(and(player, gt(users.totalEarnings, '0')))
    .orderBy(...byEarnings)
    .limit(1);
  const [mostActive] = await db
    .select({ ...entryColumns, activityCount: activity })
    .from(users)
    .where(and(player, sql`${activity} > 0`))
    .orderBy(desc(activity), asc(users.createdAt), asc(users.id))
    .limit(1);
  const [totals] = await db
    .select({
      totalUsers: count(),
      totalWinnings: sql<string>`coalesce(sum(${users.totalEarnings}), 0)::text`,
      totalWins: sql<number>`coalesce(sum(${users.dareWins}), 0)::int`,
    })
    .from(users);
  return {
    topEarners: top.map(toEntry),
    stats: {
      totalUsers: totals!.totalUsers,
      totalWinnings: lamportsToSol(solToLamports(totals!.totalWinnings)),
      totalWins: Number(totals!.totalWins),
    },
    categories: {
      mostWins: mostWins ? toEntry(mostWins) : null,
      highestEarner: highestEarner ? toEntry(highestEarner) : null,
      mostActive: mostActive
        ? { ...toEntry(mostActive), activityCount: Number(mostActive.activityCount) }
        : null,
    },
  };
}
