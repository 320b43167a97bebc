import { sql } from 'drizzle-orm';
import { dares, poolContributions } from './schema';

/**
 * What went back to a dare's payers, as columns of a select over `dares`: the public dare and the
 * admin list read the same ones, so both say the same 'Refunded X SOL to N backers'.
 */
export const refundedColumns = {
  refundedAmount: sql<string>`(select coalesce(sum(${poolContributions.amount}), 0)::text from ${poolContributions} where ${poolContributions.dareId} = ${dares.id} and ${poolContributions.refundedAt} is not null)`,
  refundedBackers: sql<number>`(select count(distinct ${poolContributions.walletAddress})::int from ${poolContributions} where ${poolContributions.dareId} = ${dares.id} and ${poolContributions.refundedAt} is not null)`,
  /** Everything paid in, refunded or not: a partial refund says 'Refunding: 1 of 2 backers'. */
  paidAmount: sql<string>`(select coalesce(sum(${poolContributions.amount}), 0)::text from ${poolContributions} where ${poolContributions.dareId} = ${dares.id})`,
  paidBackers: sql<number>`(select count(distinct ${poolContributions.walletAddress})::int from ${poolContributions} where ${poolContributions.dareId} = ${dares.id})`,
};
