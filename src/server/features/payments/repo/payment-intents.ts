import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { paymentIntents } from '#server/db/schema';
import type {
  PaymentIntentRow,
  PaymentPurpose,
  ProgramInstruction,
} from '#server/features/payments/intents/intent';
import type { VaultTerms } from '#server/features/payments/intents/vault-terms';

export async function insertPaymentIntent(
  db: DbOrTx,
  intent: {
    purpose: PaymentPurpose;
    userId: number;
    dareId: number | null;
    fromWallet: string;
    escrowWallet: string;
    lamports: bigint;
    reference: string;
    instruction: ProgramInstruction;
    /** create_vault: the vault's terms. */
    terms: VaultTerms | null;
    messageHash: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<PaymentIntentRow> {
  const [row] = await db
    .insert(paymentIntents)
    .values({
      purpose: intent.purpose,
      userId: intent.userId,
      dareId: intent.dareId,
      fromWallet: intent.fromWallet,
      escrowWallet: intent.escrowWallet,
      amount: lamportsToSol(intent.lamports),
      reference: intent.reference,
      minSlot: 0n,
      programInstruction: intent.instruction,
      vaultDeadline: intent.terms?.deadline ?? null,
      vaultKind: intent.terms?.kind ?? null,
      deadlineRequested: intent.terms?.deadlineRequested ?? false,
      messageHash: intent.messageHash,
      expiresAt: intent.expiresAt,
      createdAt: intent.now,
    })
    .returning();
  return row!;
}

const open = (now: Date) => and(isNull(paymentIntents.usedAt), gt(paymentIntents.expiresAt, now));

/** The caller's open intent the server built exactly this message for. */
export async function findOpenIntentByMessage(
  db: DbOrTx,
  filter: { userId: number; messageHash: string; now: Date },
): Promise<PaymentIntentRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.userId, filter.userId),
        eq(paymentIntents.messageHash, filter.messageHash),
        open(filter.now),
      ),
    );
  return row;
}

/** The caller's open intents with one of these references (the memo texts of a message). */
export async function findOpenIntentsByReference(
  db: DbOrTx,
  filter: { userId: number; references: string[]; now: Date },
): Promise<PaymentIntentRow[]> {
  if (filter.references.length === 0) return [];
  return db
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.userId, filter.userId),
        inArray(paymentIntents.reference, filter.references),
        open(filter.now),
      ),
    );
}

/** The intent whose message this is (whoever's, open or not): a landed transaction's intent. */
export async function findIntentByMessage(db: DbOrTx, hash: string): Promise<PaymentIntentRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.messageHash, hash), isNotNull(paymentIntents.programInstruction)));
  return row;
}

/**
 * The paid `create_vault` intent that made this escrow's vault: what the vault fixed was asked
 * for there (a deposit into the same vault carries no terms).
 */
export async function findVaultCreation(
  db: DbOrTx,
  escrowWallet: string,
): Promise<PaymentIntentRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.escrowWallet, escrowWallet),
        eq(paymentIntents.programInstruction, 'create_vault'),
        isNotNull(paymentIntents.paidAt),
      ),
    )
    .orderBy(asc(paymentIntents.id))
    .limit(1);
  return row;
}

/** The kind and deadline of every create_vault the server built for this address (any could have landed). */
export async function vaultCreationTargets(
  db: DbOrTx,
  escrowWallet: string,
): Promise<{ kind: 'community' | 'major'; deadline: Date }[]> {
  const rows = await db
    .selectDistinct({ kind: paymentIntents.vaultKind, deadline: paymentIntents.vaultDeadline })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.escrowWallet, escrowWallet),
        eq(paymentIntents.programInstruction, 'create_vault'),
      ),
    );
  return rows.flatMap((row) =>
    row.deadline && (row.kind === 'community' || row.kind === 'major')
      ? [{ kind: row.kind, deadline: row.deadline }]
      : [],
  );
}

/** The intent this signature paid (booked), or was relayed for. */
export async function findIntentBySignature(
  db: DbOrTx,
  signature: string,
): Promise<PaymentIntentRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentIntents)
    .where(or(eq(paymentIntents.signature, signature), eq(paymentIntents.relaySignature, signature)));
  return row;
}

/**
 * Consumes an intent with the signature that paid it (booked first, see bookPayment): credited.
 * Only one caller can win: the row is matched on `used_at is null`, and a refund takes the intent
 * the same way, so an intent is either credited or refunded, never both.
 */
export async function consumeIntent(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'credit' })
    .where(
      and(
        eq(paymentIntents.id, intentId),
        isNull(paymentIntents.usedAt),
        eq(paymentIntents.signature, signature),
      ),
    )
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

/** Records the transfer that paid an intent; false when it was already recorded (by any signature). */
export async function markIntentPaid(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ signature, paidAt: now })
    // A lapsed intent closed by the stray-SOL sweep takes no payment: the sweep refunds it.
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.paidAt), isNull(paymentIntents.usedAt)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

export async function findIntent(db: DbOrTx, id: number): Promise<PaymentIntentRow | undefined> {
  const [row] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, id));
  return row;
}

/** The relay's claim: at most one transaction is ever sent for an intent. */
export async function claimRelay(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ relaySignature: signature, relayedAt: now })
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.relayedAt)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

/** The node refused the transaction before it was forwarded: nothing was sent, the claim is lifted. */
export async function releaseRelay(db: DbOrTx, intentId: number, signature: string): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ relaySignature: null, relayedAt: null })
    .where(and(eq(paymentIntents.id, intentId), eq(paymentIntents.relaySignature, signature)));
}

/**
 * Step 7 refused a payment the server holds for this user: the intent lapses soon, so the job
 * refunds it unless the user sends a corrected request in time.
 */
export async function shortenHold(db: DbOrTx, userId: number, signature: string, until: Date) {
  await db
    .update(paymentIntents)
    .set({ expiresAt: sql`least(${paymentIntents.expiresAt}, ${until.toISOString()}::timestamptz)` })
    .where(
      and(
        eq(paymentIntents.userId, userId),
        eq(paymentIntents.signature, signature),
        isNull(paymentIntents.usedAt),
        isNotNull(paymentIntents.paidAt),
      ),
    );
}

/**
 * Every paid payment into a vault that will never fund a dare, not yet credited: taken for a
 * refund (the same conditional update as a credit, so a credit racing it takes none of them).
 */
export async function takeVaultIntentsForRefund(db: DbOrTx, vault: string, now: Date): Promise<number[]> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'refund' })
    .where(
      and(
        eq(paymentIntents.escrowWallet, vault),
        isNull(paymentIntents.usedAt),
        isNotNull(paymentIntents.paidAt),
      ),
    )
    .returning({ id: paymentIntents.id });
  return rows.map((row) => row.id);
}

/** The vault's receipts were refunded: its intents taken for a refund are settled. */
export async function markVaultRefundsDone(db: DbOrTx, vault: string, now: Date): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ refundedAt: now })
    .where(
      and(
        eq(paymentIntents.escrowWallet, vault),
        eq(paymentIntents.usedFor, 'refund'),
        isNull(paymentIntents.refundedAt),
      ),
    );
}

/** Lapsed program payments nobody reported paying: the job looks each up on chain once. */
export async function lapsedUncheckedIntents(
  db: DbOrTx,
  now: Date,
  limit = 100,
): Promise<PaymentIntentRow[]> {
  return db
    .select()
    .from(paymentIntents)
    .where(
      and(
        lte(paymentIntents.expiresAt, now),
        isNull(paymentIntents.usedAt),
        isNull(paymentIntents.paidAt),
        isNull(paymentIntents.checkedAt),
        isNotNull(paymentIntents.programInstruction),
      ),
    )
    .orderBy(asc(paymentIntents.id))
    .limit(limit);
}

export async function markIntentChecked(db: DbOrTx, intentId: number, now: Date): Promise<void> {
  await db.update(paymentIntents).set({ checkedAt: now }).where(eq(paymentIntents.id, intentId));
}

/** Lapsed program payments that landed (booked) and were never credited nor refunded. */
export async function lapsedPaidIntents(db: DbOrTx, now: Date, limit = 100): Promise<PaymentIntentRow[]> {
  return db
    .select()
    .from(paymentIntents)
    .where(
      and(
        lte(paymentIntents.expiresAt, now),
        isNull(paymentIntents.usedAt),
        isNotNull(paymentIntents.paidAt),
        isNotNull(paymentIntents.programInstruction),
      ),
    )
    .orderBy(asc(paymentIntents.id))
    .limit(limit);
}

/** Vaults whose payments were taken for a refund that has not been done yet. */
export async function vaultsOwingRefunds(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ vault: paymentIntents.escrowWallet })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.usedFor, 'refund'),
        isNull(paymentIntents.refundedAt),
        isNotNull(paymentIntents.programInstruction),
      ),
    );
  return rows.map((row) => row.vault);
}

/** A payment its vault already returned (the dare was cancelled and refunded): settled as refunded. */
export async function markIntentRefundedWithVault(db: DbOrTx, intentId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'refund', refundedAt: now })
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.usedAt)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}
