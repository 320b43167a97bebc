import { and, asc, desc, eq, gt, inArray, ne, or, sql } from 'drizzle-orm';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import {
  claims,
  dareSubmissions,
  dares,
  dareWallets,
  type ProposalWinnerRecord,
  payoutProposals,
  users,
} from '#server/db/schema';
import { notifyProposalVetoed, notifyWinnerProposed } from '#server/features/notifications/emit';

export type ProposalRow = typeof payoutProposals.$inferSelect;
export type { ProposalWinnerRecord };

/** The dare and the program its vault lives in (null version: no vault recorded). */
export async function findDareForNaming(db: DbOrTx, dareId: number) {
  const [row] = await db
    .select({
      id: dares.id,
      title: dares.title,
      status: dares.status,
      isMajor: dares.isMajor,
      escrowWallet: dares.escrowWallet,
      programVersion: dareWallets.programVersion,
    })
    .from(dares)
    .leftJoin(dareWallets, eq(dareWallets.dareId, dares.id))
    .where(eq(dares.id, dareId));
  return row;
}

/** A submission with its author's wallet (where the program pays). */
export async function findSubmissionForNaming(db: DbOrTx, submissionId: number) {
  const [row] = await db
    .select({
      id: dareSubmissions.id,
      dareId: dareSubmissions.dareId,
      userId: dareSubmissions.userId,
      status: dareSubmissions.status,
      walletAddress: users.walletAddress,
    })
    .from(dareSubmissions)
    .innerJoin(users, eq(users.id, dareSubmissions.userId))
    .where(eq(dareSubmissions.id, submissionId));
  return row;
}

/** A major dare's recorded picks (pending claims), admin pick first. */
export async function findMajorPicks(db: DbOrTx, dareId: number) {
  return db
    .select({
      claimType: claims.claimType,
      submissionId: claims.submissionId,
      userId: claims.userId,
      status: claims.status,
    })
    .from(claims)
    .where(and(eq(claims.dareId, dareId), inArray(claims.claimType, ['major_admin', 'major_community'])))
    .orderBy(sql`${claims.claimType} = 'major_community'`);
}

const LIVE = ['collecting', 'proposed'] as const;

export async function findLiveProposal(db: DbOrTx, dareId: number): Promise<ProposalRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutProposals)
    .where(and(eq(payoutProposals.dareId, dareId), inArray(payoutProposals.status, [...LIVE])));
  return row;
}

/** The dare's latest proposal that reached the chain (proposed, vetoed or executed). */
export async function findLatestLandedProposal(db: DbOrTx, dareId: number): Promise<ProposalRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutProposals)
    .where(and(eq(payoutProposals.dareId, dareId), sql`${payoutProposals.signature} is not null`))
    .orderBy(desc(payoutProposals.id))
    .limit(1);
  return row;
}

/** Whether a proposal stands on chain for the dare (in its window or waiting for execute). */
export async function hasStandingProposal(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payoutProposals.id })
    .from(payoutProposals)
    .where(and(eq(payoutProposals.dareId, dareId), eq(payoutProposals.status, 'proposed')))
    .limit(1);
  return row !== undefined;
}

export interface CollectingProposal {
  dareId: number;
  vault: string;
  winners: ProposalWinnerRecord[];
  wireTransaction: string;
  messageHash: string;
  lastValidBlockHeight: bigint;
  signers: string[];
  signaturesNeeded: number;
  executesAt: Date;
  vetoCount: number;
  createdBy: number;
  now: Date;
}

/** A new collecting proposal; null when the dare already has a live one (the unique index). */
export async function insertCollecting(db: DbOrTx, row: CollectingProposal): Promise<ProposalRow | null> {
  const { now, ...values } = row;
  const [inserted] = await db
    .insert(payoutProposals)
    .values({ ...values, status: 'collecting', createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return inserted ?? null;
}

/** Replaces a collecting proposal's transaction (expired, or other winners); null when it changed meanwhile. */
export async function replaceCollecting(
  db: DbOrTx,
  id: number,
  previousHash: string,
  row: CollectingProposal,
): Promise<ProposalRow | null> {
  const { now, dareId: _dareId, ...values } = row;
  const [updated] = await db
    .update(payoutProposals)
    .set({ ...values, signedBy: [], updatedAt: now })
    .where(
      and(
        eq(payoutProposals.id, id),
        eq(payoutProposals.status, 'collecting'),
        eq(payoutProposals.messageHash, previousHash),
      ),
    )
    .returning();
  return updated ?? null;
}

/** Stores the partly signed transaction (more judge signatures on the same message). */
export async function saveSignatures(
  db: DbOrTx,
  id: number,
  messageHash: string,
  update: { wireTransaction: string; signedBy: string[]; now: Date },
): Promise<void> {
  await db
    .update(payoutProposals)
    .set({ wireTransaction: update.wireTransaction, signedBy: update.signedBy, updatedAt: update.now })
    .where(
      and(
        eq(payoutProposals.id, id),
        eq(payoutProposals.status, 'collecting'),
        eq(payoutProposals.messageHash, messageHash),
      ),
    );
}

/**
 * The propose landed: the proposal becomes `proposed` (once: only from collecting with this
 * message), the dare completed, the winners' submissions 'winner', and each winner's pending
 * prize claim written (a major dare's picks already have theirs: their amounts follow the pool the
 * program will pay). False when another relay recorded it first.
 */
export async function recordProposed(
  db: DbOrTx,
  input: {
    proposalId: number;
    messageHash: string;
    signature: string;
    executesAt: Date;
    vetoCount: number;
    wireTransaction: string;
    signedBy: string[];
    now: Date;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [proposal] = await tx
      .update(payoutProposals)
      .set({
        status: 'proposed',
        signature: input.signature,
        executesAt: input.executesAt,
        vetoCount: input.vetoCount,
        wireTransaction: input.wireTransaction,
        signedBy: input.signedBy,
        proposedAt: input.now,
        updatedAt: input.now,
      })
      .where(
        and(
          eq(payoutProposals.id, input.proposalId),
          eq(payoutProposals.status, 'collecting'),
          eq(payoutProposals.messageHash, input.messageHash),
        ),
      )
      .returning();
    if (!proposal) return false;
    await tx
      .update(dares)
      .set({ status: 'completed', updatedAt: input.now })
      .where(and(eq(dares.id, proposal.dareId), inArray(dares.status, ['active', 'completed'])));
    for (const winner of proposal.winners) {
      await tx
        .insert(claims)
        .values({
          userId: winner.userId,
          amount: lamportsToSol(BigInt(winner.lamports)),
          claimType: winner.claimType,
          status: 'pending',
          dareId: proposal.dareId,
          submissionId: winner.submissionId,
          createdAt: input.now,
          updatedAt: input.now,
        })
        .onConflictDoUpdate({
          target: [claims.dareId, claims.claimType],
          set: { amount: lamportsToSol(BigInt(winner.lamports)), updatedAt: input.now },
          setWhere: sql`${claims.status} = 'pending' and ${claims.submissionId} = ${winner.submissionId}`,
        });
      await tx
        .update(dareSubmissions)
        .set({ status: 'winner', updatedAt: input.now })
        .where(eq(dareSubmissions.id, winner.submissionId));
    }
    await notifyWinnerProposed(tx, proposal, input.now);
    return true;
  });
}

/**
 * The guardian vetoed: the proposal is `vetoed`, the prize claims it named (still unpaid) are
 * removed, its submissions are approved again and the dare active, so judging starts again.
 * False when it was no longer proposed (another reader recorded the veto first).
 */
export async function recordVetoed(db: DbOrTx, proposalId: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [proposal] = await tx
      .update(payoutProposals)
      .set({ status: 'vetoed', endedAt: now, updatedAt: now })
      .where(and(eq(payoutProposals.id, proposalId), eq(payoutProposals.status, 'proposed')))
      .returning();
    if (!proposal) return false;
    for (const winner of proposal.winners) {
      await tx
        .delete(claims)
        .where(
          and(
            eq(claims.dareId, proposal.dareId),
            eq(claims.claimType, winner.claimType),
            eq(claims.status, 'pending'),
          ),
        );
      await tx
        .update(dareSubmissions)
        .set({ status: 'approved', updatedAt: now })
        .where(and(eq(dareSubmissions.id, winner.submissionId), eq(dareSubmissions.status, 'winner')));
    }
    await tx
      .update(dares)
      .set({ status: 'active', updatedAt: now })
      .where(and(eq(dares.id, proposal.dareId), eq(dares.status, 'completed')));
    await notifyProposalVetoed(tx, proposal, now);
    return true;
  });
}

/**
 * For the payout (execute) side: the dare's standing proposal was executed on chain. Idempotent;
 * true when this call changed it.
 */
export async function markProposalExecuted(db: DbOrTx, dareId: number, now: Date): Promise<boolean> {
  const updated = await db
    .update(payoutProposals)
    .set({ status: 'executed', endedAt: now, updatedAt: now })
    .where(and(eq(payoutProposals.dareId, dareId), eq(payoutProposals.status, 'proposed')))
    .returning({ id: payoutProposals.id });
  return updated.length === 1;
}

/** Whether the claims a proposal wrote were paid (its execute landed and was booked). */
export async function proposalClaimsPaid(db: DbOrTx, proposal: ProposalRow): Promise<boolean> {
  const rows = await db
    .select({ status: claims.status })
    .from(claims)
    .where(
      and(
        eq(claims.dareId, proposal.dareId),
        inArray(
          claims.claimType,
          proposal.winners.map((w) => w.claimType),
        ),
      ),
    );
  return rows.length === proposal.winners.length && rows.every((row) => row.status === 'paid');
}

/** Every live proposal (what the chain may have changed under: a relay that crashed, a veto). */
export async function listLiveProposals(db: DbOrTx): Promise<ProposalRow[]> {
  return db
    .select()
    .from(payoutProposals)
    .where(inArray(payoutProposals.status, [...LIVE]))
    .orderBy(asc(payoutProposals.id));
}

/** GET /api/admin/proposals: collecting ones, and proposed ones still in their window. */
export async function listAdminProposals(db: DbOrTx, now: Date) {
  return db
    .select({ proposal: payoutProposals, dareTitle: dares.title })
    .from(payoutProposals)
    .innerJoin(dares, eq(dares.id, payoutProposals.dareId))
    .where(
      or(
        // A cancelled dare's unfinished proposal can no longer be signed into anything.
        and(eq(payoutProposals.status, 'collecting'), ne(dares.status, 'cancelled')),
        and(eq(payoutProposals.status, 'proposed'), gt(payoutProposals.executesAt, now)),
      ),
    )
    .orderBy(asc(payoutProposals.executesAt), asc(payoutProposals.id));
}
