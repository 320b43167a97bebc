import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Claim, ClaimType, WinningSubmission } from '../../../contract/claims';
import type { ClaimStatus } from '../../../contract/limits';
import { normalizeSol } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { claims, dareSubmissions, dares } from '../../db/schema';

export type ClaimRow = typeof claims.$inferSelect;

/** A claim as the API shows it; the explorer link comes from the chain's template. */
export function toClaim(row: ClaimRow, dareTitle: string | null, explorerUrlTemplate: string): Claim {
  return {
    id: row.id,
    userId: row.userId,
    amount: normalizeSol(row.amount),
    claimType: row.claimType as ClaimType,
    status: row.status as ClaimStatus,
    transactionHash: row.transactionHash,
    failureReason: row.failureReason,
    explorerUrl:
      row.status === 'paid' && row.transactionHash
        ? explorerUrlTemplate.replace('{signature}', row.transactionHash)
        : null,
    dareId: row.dareId,
    dareTitle,
    submissionId: row.submissionId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findClaim(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ claim: claims, dareTitle: dares.title })
    .from(claims)
    .leftJoin(dares, eq(dares.id, claims.dareId))
    .where(eq(claims.id, id));
  return row;
}

export async function listUserClaims(db: DbOrTx, userId: number) {
  return db
    .select({ claim: claims, dareTitle: dares.title })
    .from(claims)
    .leftJoin(dares, eq(dares.id, claims.dareId))
    .where(eq(claims.userId, userId))
    .orderBy(desc(claims.createdAt), desc(claims.id));
}

export async function findClaimsForSubmission(db: DbOrTx, submissionId: number): Promise<ClaimRow[]> {
  return db.select().from(claims).where(eq(claims.submissionId, submissionId)).orderBy(claims.id);
}

/** pending -> processing in one conditional update: of concurrent claimers exactly one gets the row. */
export async function startProcessing(db: DbOrTx, claimId: number, now: Date): Promise<ClaimRow | undefined> {
  const [row] = await db
    .update(claims)
    .set({ status: 'processing', failureReason: null, updatedAt: now })
    .where(and(eq(claims.id, claimId), eq(claims.status, 'pending')))
    .returning();
  return row;
}

export async function listWinningSubmissions(db: DbOrTx, userId: number): Promise<WinningSubmission[]> {
  const rows = await db
    .select({ claim: claims, description: dareSubmissions.description, dareTitle: dares.title })
    .from(claims)
    .innerJoin(dareSubmissions, eq(dareSubmissions.id, claims.submissionId))
    .leftJoin(dares, eq(dares.id, claims.dareId))
    .where(
      and(
        eq(claims.userId, userId),
        inArray(claims.claimType, ['dare_winner', 'major_admin', 'major_community']),
      ),
    )
    .orderBy(desc(claims.createdAt), desc(claims.id));
  return rows.map(({ claim, description, dareTitle }) => ({
    id: claim.submissionId!,
    description,
    prizeAmount: normalizeSol(claim.amount),
    claimId: claim.id,
    claimType: claim.claimType as ClaimType,
    claimStatus: claim.status as ClaimStatus,
    dareId: claim.dareId,
    dareTitle,
  }));
}

/**
 * Start-up only: claims left 'processing' by a crash before their transfer was recorded have no
 * transfer to recover; nothing was sent for them, so they become claimable again.
 */
export async function releaseOrphanedClaims(db: DbOrTx, now: Date): Promise<number[]> {
  const rows = await db
    .update(claims)
    .set({
      status: 'pending',
      failureReason: 'The payout was interrupted; please claim again',
      updatedAt: now,
    })
    .where(
      and(
        eq(claims.status, 'processing'),
        sql`not exists (select 1 from payout_transfers t where t.claim_id = ${claims.id} and t.status in ('sending', 'confirmed'))`,
      ),
    )
    .returning({ id: claims.id });
  return rows.map((row) => row.id);
}
