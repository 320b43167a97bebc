import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Claim, ClaimType, WinningSubmission } from '#contract/claims';
import { normalizeSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { claims, dareSubmissions, dares, dareWallets, users } from '#server/db/schema';

export type ClaimRow = typeof claims.$inferSelect;

/** A claim as the API shows it; the explorer link comes from the chain's template. */
export function toClaim(row: ClaimRow, dareTitle: string | null, explorerUrlTemplate: string): Claim {
  return {
    id: row.id,
    userId: row.userId,
    amount: normalizeSol(row.amount),
    claimType: row.claimType,
    status: row.status,
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
    claimType: claim.claimType,
    claimStatus: claim.status,
    dareId: claim.dareId,
    dareTitle,
  }));
}

/**
 * A major dare's two claims, pending -> processing together (its one execute pays both): 'missing'
 * while a winner is not picked yet, 'busy' when they are not both pending (being paid, or paid).
 * Of concurrent claimers exactly one gets them. Admin's pick first (the program's 70% share).
 */
export async function startProcessingMajor(
  db: DbOrTx,
  dareId: number,
  now: Date,
): Promise<ClaimRow[] | 'missing' | 'busy'> {
  const both = await db
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.dareId, dareId), inArray(claims.claimType, ['major_admin', 'major_community'])));
  if (both.length < 2) return 'missing';
  const taken = await db
    .update(claims)
    .set({ status: 'processing', failureReason: null, updatedAt: now })
    .where(
      and(
        eq(claims.dareId, dareId),
        inArray(claims.claimType, ['major_admin', 'major_community']),
        eq(claims.status, 'pending'),
        // Both or none: the update runs only while neither is taken.
        sql`not exists (select 1 from ${claims} c2 where c2.dare_id = ${dareId} and c2.claim_type in ('major_admin', 'major_community') and c2.status <> 'pending')`,
      ),
    )
    .returning();
  if (taken.length < 2) return 'busy';
  return taken.sort((a, b) => (a.claimType === 'major_admin' ? -1 : b.claimType === 'major_admin' ? 1 : 0));
}

/**
 * Start-up only: claims left 'processing' by a crash before their transfer was recorded have no
 * transfer to recover; nothing was sent for them, so they become claimable again. (A major dare's
 * second claim is paid by the transfer its signature names.)
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
        sql`not exists (select 1 from payout_transfers t where (t.claim_id = ${claims.id} or t.signature = ${claims.transactionHash}) and t.status in ('sending', 'confirmed'))`,
      ),
    )
    .returning({ id: claims.id });
  return rows.map((row) => row.id);
}

/** Claims whose transaction was never sent are claimable again, with the reason shown. */
export async function releaseClaims(
  db: DbOrTx,
  claimIds: number[],
  /** Why the payout did not go out (shown with the claim); null: nothing went wrong, it is not due yet. */
  reason: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(claims)
    .set({ status: 'pending', failureReason: reason, transactionHash: null, updatedAt: now })
    .where(and(inArray(claims.id, claimIds), eq(claims.status, 'processing')));
}

/** The signature of the execute paying the claims, recorded with the transaction itself. */
export async function setClaimsTransaction(db: DbOrTx, claimIds: number[], signature: string): Promise<void> {
  await db.update(claims).set({ transactionHash: signature }).where(inArray(claims.id, claimIds));
}

/** Where a claim is paid to: the winner's registered wallet. */
export async function findPayeeWallet(db: DbOrTx, userId: number): Promise<string | null | undefined> {
  const [row] = await db
    .select({ walletAddress: users.walletAddress })
    .from(users)
    .where(eq(users.id, userId));
  return row?.walletAddress;
}

/** Where a claim is paid from: the dare's vault. */
export async function findDareEscrow(db: DbOrTx, dareId: number) {
  const [row] = await db
    .select({ id: dares.id, escrowWallet: dares.escrowWallet, isMajor: dares.isMajor })
    .from(dares)
    .where(eq(dares.id, dareId));
  return row;
}

export async function submissionExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: dareSubmissions.id })
    .from(dareSubmissions)
    .where(eq(dareSubmissions.id, id));
  return row !== undefined;
}

/**
 * The dare becomes completed, only from the given statuses (so a refund that cancelled it first
 * wins the race); false when it was in none of them.
 */
export async function completeDare(
  db: DbOrTx,
  dareId: number,
  fromStatuses: ('active' | 'completed')[],
  now: Date,
): Promise<boolean> {
  const completed = await db
    .update(dares)
    .set({ status: 'completed', updatedAt: now })
    .where(and(eq(dares.id, dareId), inArray(dares.status, fromStatuses)))
    .returning({ id: dares.id });
  return completed.length === 1;
}

export async function insertPendingClaim(
  db: DbOrTx,
  claim: {
    userId: number;
    amount: string;
    claimType: ClaimType;
    dareId: number;
    submissionId: number;
    now: Date;
  },
): Promise<number> {
  const [row] = await db
    .insert(claims)
    .values({
      userId: claim.userId,
      amount: claim.amount,
      claimType: claim.claimType,
      status: 'pending',
      dareId: claim.dareId,
      submissionId: claim.submissionId,
      createdAt: claim.now,
      updatedAt: claim.now,
    })
    .returning({ id: claims.id });
  return row!.id;
}

export async function markSubmissionWinner(db: DbOrTx, submissionId: number, now: Date): Promise<void> {
  await db
    .update(dareSubmissions)
    .set({ status: 'winner', updatedAt: now })
    .where(eq(dareSubmissions.id, submissionId));
}

/**
 * Pending claims of dares whose vault is one of program v2 (the payout job pays them once their
 * proposal's window has passed), oldest first.
 */
export async function pendingClaimsOfJudgedDares(db: DbOrTx): Promise<ClaimRow[]> {
  return db
    .select({ claim: claims })
    .from(claims)
    .innerJoin(dares, eq(dares.id, claims.dareId))
    .innerJoin(dareWallets, eq(dareWallets.publicKey, dares.escrowWallet))
    .where(
      and(
        eq(claims.status, 'pending'),
        eq(dareWallets.programVersion, 2),
        // Picks whose propose is still being signed, or a Major Dare's first pick alone, have
        // their claims before anything is named on chain: nothing to execute yet.
        sql`not exists (select 1 from payout_proposals p where p.dare_id = ${claims.dareId} and p.status = 'collecting')`,
        sql`(not ${dares.isMajor} or (select count(*) from ${claims} c2 where c2.dare_id = ${claims.dareId} and c2.claim_type in ('major_admin', 'major_community')) = 2)`,
      ),
    )
    .orderBy(claims.id)
    .then((rows) => rows.map((row) => row.claim));
}

/** Whether the dare's vault is one of program v2 (judged: paid by `execute` after its window). */
export async function isJudgedDare(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ version: dareWallets.programVersion })
    .from(dares)
    .innerJoin(dareWallets, eq(dareWallets.publicKey, dares.escrowWallet))
    .where(eq(dares.id, dareId));
  return row?.version === 2;
}

/**
 * Whether a dare's vault is escrow program v1's: retired, it names no winner any more (its payers
 * are refunded instead: docs/decisions/050-retire-v1.md).
 */
export async function isRetiredEscrowDare(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ version: dareWallets.programVersion })
    .from(dares)
    .innerJoin(dareWallets, eq(dareWallets.publicKey, dares.escrowWallet))
    .where(eq(dares.id, dareId));
  return row?.version === 1;
}
