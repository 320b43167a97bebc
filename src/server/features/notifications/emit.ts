import { randomUUID } from 'node:crypto';
import { lamportsToSol } from '#contract/money';
import type { NotificationKind, WebhookEvent } from '#contract/notifications';
import type { DbOrTx } from '#server/db/client';
import {
  dareAudience,
  dareTitle,
  type Emission,
  insertNotifications,
  insertWebhookEvent,
  majorDareSubscribers,
  someUsers,
  submissionForReview,
  takeOnce,
} from './repo';

/**
 * What other features call, each a one-line call with their own transaction handle, so a
 * notification is written exactly when (and only if) the event it reports is
 * (docs/decisions/074-notifications.md). Nothing here sends: the delivery job and the live sockets
 * read what was committed.
 */

const dareLink = (dareId: number) => `/dare/${dareId}`;

function emission(
  kind: NotificationKind,
  dareId: number,
  text: { title: string; body: string },
  data: Record<string, unknown>,
  now: Date,
): Emission & { kind: NotificationKind } {
  return { kind, dareId, title: text.title, body: text.body, link: dareLink(dareId), data, now };
}

async function webhook(
  tx: DbOrTx,
  event: WebhookEvent,
  body: {
    dareId: number | null;
    vault?: string | null;
    winners?: { wallet: string; amount: string }[];
    executesAt?: string | null;
    signature?: string | null;
    [key: string]: unknown;
  },
  now: Date,
): Promise<void> {
  const deliveryId = randomUUID();
  const title = body.dareId === null ? null : ((await dareTitle(tx, body.dareId))?.title ?? null);
  // `body` is what a JSON receiver gets, exactly; the title only goes into Slack's and Discord's text.
  const payload = { body: { id: deliveryId, event, ...body, at: now.toISOString() }, title };
  await insertWebhookEvent(tx, { deliveryId, event, dareId: body.dareId, payload, now });
}

/** An admin approved or rejected a proof: its author hears it (a rejection with its reason). */
export async function notifyProofReviewed(
  tx: DbOrTx,
  review: {
    submissionId: number;
    status: 'approved' | 'rejected';
    reason: string | null;
    mayResubmit: boolean;
    now: Date;
  },
): Promise<void> {
  const s = await submissionForReview(tx, review.submissionId);
  if (!s) return;
  const approved = review.status === 'approved';
  const title = approved
    ? `Your proof for “${s.title}” was approved`
    : `Your proof for “${s.title}” was rejected`;
  const body = approved
    ? 'It is now shown to everyone and can receive votes.'
    : `${review.reason ? `Reason: ${review.reason}. ` : ''}${review.mayResubmit ? 'You may submit a new proof.' : 'A new proof cannot be submitted for this dare.'}`;
  await insertNotifications(
    tx,
    someUsers([s.userId]),
    emission(
      approved ? 'proof-approved' : 'proof-rejected',
      s.dareId,
      { title, body },
      { submissionId: s.id, reason: review.reason, mayResubmit: review.mayResubmit },
      review.now,
    ),
  );
}

interface ProposalLike {
  dareId: number;
  vault: string;
  winners: { userId: number; walletAddress: string; lamports: string }[];
  executesAt: Date;
  signature: string | null;
}

const winnersOf = (proposal: ProposalLike) =>
  proposal.winners.map((w) => ({ wallet: w.walletAddress, amount: lamportsToSol(BigInt(w.lamports)) }));

/** A payout proposal landed on chain: the dare's people and the webhooks hear who, how much, and until when a veto can stop it. */
export async function notifyWinnerProposed(tx: DbOrTx, proposal: ProposalLike, now: Date): Promise<void> {
  const dare = await dareTitle(tx, proposal.dareId);
  const winners = winnersOf(proposal);
  const list = winners.map((w) => `${w.wallet} (${w.amount} SOL)`).join(', ');
  await insertNotifications(
    tx,
    dareAudience(proposal.dareId),
    emission(
      'winner-proposed',
      proposal.dareId,
      {
        title: `A winner was named for “${dare?.title ?? `dare ${proposal.dareId}`}”`,
        body: `Proposed payout: ${list}. It pays out at ${proposal.executesAt.toISOString()} unless the guardian vetoes it; to ask for a veto, contact the guardian before then (see the dare page).`,
      },
      {
        winners,
        executesAt: proposal.executesAt.toISOString(),
        signature: proposal.signature,
        vault: proposal.vault,
      },
      now,
    ),
  );
  await webhook(
    tx,
    'winner-proposed',
    {
      dareId: proposal.dareId,
      vault: proposal.vault,
      winners,
      executesAt: proposal.executesAt.toISOString(),
      signature: proposal.signature,
    },
    now,
  );
}

/** The guardian vetoed a proposal: the same people hear it; judging starts again. */
export async function notifyProposalVetoed(tx: DbOrTx, proposal: ProposalLike, now: Date): Promise<void> {
  const dare = await dareTitle(tx, proposal.dareId);
  const winners = winnersOf(proposal);
  await insertNotifications(
    tx,
    dareAudience(proposal.dareId),
    emission(
      'proposal-vetoed',
      proposal.dareId,
      {
        title: `The proposed payout of “${dare?.title ?? `dare ${proposal.dareId}`}” was vetoed`,
        body: 'The guardian stopped the proposed payout; nothing was paid and the judges can name a winner again.',
      },
      { winners, vault: proposal.vault, signature: proposal.signature },
      now,
    ),
  );
  await webhook(
    tx,
    'proposal-vetoed',
    {
      dareId: proposal.dareId,
      vault: proposal.vault,
      winners,
      executesAt: proposal.executesAt.toISOString(),
      signature: proposal.signature,
    },
    now,
  );
}

/**
 * A vault transaction was booked (payouts/settle.ts, once per transaction): each winner paid hears
 * `prize-paid`, each refunded payer with an account `refund-sent`, whoever sent it; a payout is a
 * `payout-executed` webhook.
 */
export async function notifyMoneyOut(
  tx: DbOrTx,
  booked: {
    dareId: number | null;
    escrowWallet: string;
    signature: string;
    lines: readonly { kind: 'payout' | 'refund'; wallet: string; lamports: bigint; userId: number | null }[];
    now: Date;
  },
): Promise<void> {
  const { dareId, signature, now } = booked;
  if (dareId === null || booked.lines.length === 0) return;
  const dare = await dareTitle(tx, dareId);
  const name = dare?.title ?? `dare ${dareId}`;
  for (const line of booked.lines) {
    if (line.userId === null) continue;
    const amount = lamportsToSol(line.lamports);
    const paid = line.kind === 'payout';
    await insertNotifications(
      tx,
      someUsers([line.userId]),
      emission(
        paid ? 'prize-paid' : 'refund-sent',
        dareId,
        paid
          ? {
              title: `You were paid ${amount} SOL for “${name}”`,
              body: `Your prize reached ${line.wallet}. Transaction: ${signature}`,
            }
          : {
              title: `${amount} SOL refunded from “${name}”`,
              body: `Your refund reached ${line.wallet}. Transaction: ${signature}`,
            },
        { amount, wallet: line.wallet, signature },
        now,
      ),
    );
  }
  const payouts = booked.lines.filter((line) => line.kind === 'payout');
  if (payouts.length > 0)
    await webhook(
      tx,
      'payout-executed',
      {
        dareId,
        vault: booked.escrowWallet,
        winners: payouts.map((line) => ({ wallet: line.wallet, amount: lamportsToSol(line.lamports) })),
        executesAt: null,
        signature,
      },
      now,
    );
}

/** 24 hours before a dare's deadline (the ending job): its people hear it, once per dare. */
export async function notifyDareEnding(
  tx: DbOrTx,
  dareId: number,
  deadline: Date | null,
  now: Date,
): Promise<boolean> {
  if (!(await takeOnce(tx, `dare-ending:${dareId}`, now))) return false;
  const dare = await dareTitle(tx, dareId);
  await insertNotifications(
    tx,
    dareAudience(dareId),
    emission(
      'dare-ending',
      dareId,
      {
        title: `“${dare?.title ?? `dare ${dareId}`}” ends within 24 hours`,
        body: deadline ? `The deadline is ${deadline.toISOString()}.` : 'The deadline is near.',
      },
      { deadline: deadline?.toISOString() ?? null },
      now,
    ),
  );
  return true;
}

/** A Major Dare opened (payments' crediting, in the transaction that records it): every user who opted in hears it. */
export async function notifyMajorDareStarted(tx: DbOrTx, dareId: number, now: Date): Promise<void> {
  if (!(await takeOnce(tx, `major-dare-started:${dareId}`, now))) return;
  const dare = await dareTitle(tx, dareId);
  await insertNotifications(
    tx,
    majorDareSubscribers(),
    emission(
      'major-dare-started',
      dareId,
      {
        title: `A new Major Dare is open: “${dare?.title ?? `dare ${dareId}`}”`,
        body: 'Submit a proof or back it before the deadline.',
      },
      {},
      now,
    ),
  );
}

/**
 * A platform wallet is below its minimum (the fee payer, the guardian): the webhooks hear it, at
 * most once a day per wallet.
 */
export async function notifyLowBalance(
  db: DbOrTx,
  low: {
    event: 'fee-payer-low' | 'guardian-low';
    wallet: string;
    balanceLamports: bigint;
    minimumLamports: bigint;
    now: Date;
  },
): Promise<boolean> {
  const day = low.now.toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    if (!(await takeOnce(tx, `${low.event}:${low.wallet}:${day}`, low.now))) return false;
    await webhook(
      tx,
      low.event,
      {
        dareId: null,
        vault: null,
        winners: [],
        executesAt: null,
        signature: null,
        wallet: low.wallet,
        balance: lamportsToSol(low.balanceLamports),
        minimum: lamportsToSol(low.minimumLamports),
      },
      low.now,
    );
    return true;
  });
}
