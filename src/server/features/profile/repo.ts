import { and, count, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { lamportsToSol, normalizeSol, solToLamports } from '#contract/money';
import type { ActivityItem, Profile } from '#contract/profile';
import type { DbOrTx } from '#server/db/client';
import {
  claims,
  dareSubmissions,
  dares,
  ledgerEntries,
  poolContributions,
  submissionVotes,
  users,
} from '#server/db/schema';
import { walletOnlyContributionsOf, walletRefundSignature } from '#server/db/wallet-contributions';

const RECENT = 20;

/** The user's row as it is now: the session's copy was read before this request's payouts. */
export async function findProfileUser(db: DbOrTx, userId: number) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

/** The session user's counts and their 20 latest actions across submissions, votes, pool payments and prizes. */
export async function profileActivity(db: DbOrTx, userId: number): Promise<Omit<Profile, 'user'>> {
  const [submissionCounts] = await db
    .select({
      all: count(),
      approved: sql<number>`count(*) filter (where ${dareSubmissions.status} in ('approved', 'winner'))::int`,
    })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.userId, userId));
  const [votes] = await db
    .select({ n: count() })
    .from(submissionVotes)
    .where(eq(submissionVotes.userId, userId));
  const [contributionTotals] = await db
    .select({ n: count(), total: sql<string>`coalesce(sum(${poolContributions.amount}), 0)::text` })
    .from(poolContributions)
    .where(eq(poolContributions.userId, userId));
  const [walletTotals] = await db
    .select({ n: count(), total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(walletOnlyContributionsOf(userId));
  const [claimCounts] = await db
    .select({ n: count(), pending: sql<number>`count(*) filter (where ${claims.status} = 'pending')::int` })
    .from(claims)
    .where(eq(claims.userId, userId));

  const submissions = await db
    .select({ s: dareSubmissions, title: dares.title })
    .from(dareSubmissions)
    .leftJoin(dares, eq(dares.id, dareSubmissions.dareId))
    .where(eq(dareSubmissions.userId, userId))
    .orderBy(desc(dareSubmissions.createdAt))
    .limit(RECENT);
  const voteRows = await db
    .select({ v: submissionVotes, title: dares.title })
    .from(submissionVotes)
    .leftJoin(dares, eq(dares.id, submissionVotes.dareId))
    .where(eq(submissionVotes.userId, userId))
    .orderBy(desc(submissionVotes.createdAt))
    .limit(RECENT);
  const contributions = await db
    .select({ c: poolContributions, title: dares.title })
    .from(poolContributions)
    .leftJoin(dares, eq(dares.id, poolContributions.dareId))
    .where(eq(poolContributions.userId, userId))
    .orderBy(desc(poolContributions.createdAt))
    .limit(RECENT);
  const walletLines = await db
    .select({ l: ledgerEntries, title: dares.title, refundSignature: walletRefundSignature })
    .from(ledgerEntries)
    .leftJoin(dares, eq(dares.id, ledgerEntries.dareId))
    .where(and(walletOnlyContributionsOf(userId), isNotNull(ledgerEntries.dareId)))
    .orderBy(desc(ledgerEntries.createdAt))
    .limit(RECENT);
  const claimRows = await db
    .select({ c: claims, title: dares.title })
    .from(claims)
    .leftJoin(dares, eq(dares.id, claims.dareId))
    .where(and(eq(claims.userId, userId)))
    .orderBy(desc(claims.createdAt))
    .limit(RECENT);

  const items: ActivityItem[] = [
    ...submissions.map(({ s, title }) => ({
      key: `submission:${s.id}`,
      type: 'submission' as const,
      at: s.createdAt.toISOString(),
      dareId: s.dareId,
      dareTitle: title,
      amount: null,
      status: s.status,
      transactionSignature: null,
      refundSignature: null,
    })),
    ...voteRows.map(({ v, title }) => ({
      key: `vote:${v.id}`,
      type: 'vote' as const,
      at: v.createdAt.toISOString(),
      dareId: v.dareId,
      dareTitle: title,
      amount: null,
      status: null,
      transactionSignature: null,
      refundSignature: null,
    })),
    ...contributions.map(({ c, title }) => ({
      key: `contribution:${c.id}`,
      type: 'contribution' as const,
      at: c.createdAt.toISOString(),
      dareId: c.dareId,
      dareTitle: title,
      amount: normalizeSol(c.amount),
      status: c.refundedAt ? 'refunded' : c.kind,
      transactionSignature: c.transactionSignature,
      refundSignature: c.refundedAt ? c.refundSignature : null,
    })),
    ...walletLines.map(({ l, title, refundSignature }) => ({
      key: `wallet-contribution:${l.id}`,
      type: 'contribution' as const,
      at: l.createdAt.toISOString(),
      dareId: l.dareId!,
      dareTitle: title,
      amount: normalizeSol(l.amount),
      status: refundSignature ? 'refunded' : 'contribution',
      transactionSignature: l.signature,
      refundSignature,
    })),
    ...claimRows.map(({ c, title }) => ({
      key: `claim:${c.id}`,
      type: 'claim' as const,
      at: c.createdAt.toISOString(),
      dareId: c.dareId,
      dareTitle: title,
      amount: normalizeSol(c.amount),
      status: c.status,
      transactionSignature: c.status === 'paid' ? c.transactionHash : null,
      refundSignature: null,
    })),
  ];
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.key.localeCompare(b.key)));

  return {
    stats: {
      submissions: submissionCounts!.all,
      approvedSubmissions: Number(submissionCounts!.approved),
      votesCast: votes!.n,
      contributions: contributionTotals!.n + walletTotals!.n,
      totalContributed: lamportsToSol(
        solToLamports(contributionTotals!.total) + solToLamports(walletTotals!.total),
      ),
      claims: claimCounts!.n,
      pendingClaims: Number(claimCounts!.pending),
    },
    recentActivity: items.slice(0, RECENT),
  };
}
