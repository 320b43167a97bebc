import { sql } from 'drizzle-orm';
import { normalizeSol } from '../../../contract/money';
import type { Stats } from '../../../contract/stats';
import type { DbOrTx } from '../../db/client';

interface StatsRow {
  total_dares: number;
  active_dares: number;
  total_rewards: string;
  daredevils: number;
  total_participants: number;
}

/** One round trip: the numbers of the Home stats strip, each defined in docs/decisions/007. */
export async function readStats(db: DbOrTx, now: Date): Promise<Stats> {
  const result = await db.execute(sql`
    select
      (select count(*)::int from dares where not is_major) as total_dares,
      (select count(*)::int from dares
        where not is_major and status = 'active' and (deadline is null or deadline > ${now.toISOString()}::timestamptz)) as active_dares,
      (select coalesce(sum(total_pool), 0)::text from dares where status <> 'cancelled') as total_rewards,
      (select count(*)::int from users) as daredevils,
      (select count(distinct user_id)::int from dare_submissions) as total_participants
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
