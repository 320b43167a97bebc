import { sql } from 'drizzle-orm';
import { normalizeSol } from '#contract/money';
import type { Stats, StatsQuery } from '#contract/stats';
import type { DbOrTx } from '#server/db/client';

interface StatsRow {
  total_dares: number;
  active_dares: number;
  total_rewards: string;
  daredevils: number;
  total_participants: number;
}

/**
 * One round trip: the numbers of the Home stats strip, each defined in docs/decisions/007. With
 * `major`, every dare number counts only major (true) or only community (false) dares.
 */
export async function readStats(db: DbOrTx, now: Date, { major }: StatsQuery = {}): Promise<Stats> {
  // The strip's dare counts are community dares; its pool and participants span every dare.
  const counted = major === undefined ? sql`not is_major` : sql`is_major = ${major}`;
  const scoped = major === undefined ? sql`true` : sql`is_major = ${major}`;
  const participants =
    major === undefined
      ? sql`(select count(distinct user_id)::int from dare_submissions)`
      : sql`(select count(distinct s.user_id)::int from dare_submissions s
          join dares on dares.id = s.dare_id where ${scoped})`;
  const result = await db.execute(sql`
    select
      (select count(*)::int from dares where ${counted}) as total_dares,
      (select count(*)::int from dares
        where ${counted} and status = 'active' and (deadline is null or deadline > ${now.toISOString()}::timestamptz)) as active_dares,
      (select coalesce(sum(total_pool), 0)::text from dares where ${scoped} and status <> 'cancelled') as total_rewards,
      (select count(*)::int from users) as daredevils,
      ${participants} as total_participants
  `);
  const row = (result as unknown as { rows: StatsRow[] }).rows[0]!;
  return {
    totalDares: Number(row.total_dares),
    activeDares: Number(row.active_dares),
    totalRewards: normalizeSol(row.total_rewards),
    daredevils: Number(row.daredevils),
    totalParticipants: Number(row.total_participants),
  };
}
