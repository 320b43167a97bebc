import type { Address } from '@solana/kit';
import { type DeliveryDeps, deliverDue } from './deliver';
import { notifyDareEnding, notifyLowBalance } from './emit';
import { dareDeadline, daresEndingSoon } from './repo';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Balances are read at most this often (each is an RPC call). */
const BALANCE_CHECK_MS = 5 * 60 * 1000;

export interface Balances {
  feePayer(): Promise<{ address: Address; lamports: bigint; minimum: bigint }>;
  guardian(): Promise<{ address: Address; lamports: bigint; minimum: bigint } | null>;
}

/**
 * What the notifications job does each run: the dares ending within 24 h get their notice (once),
 * a platform wallet below its minimum alerts the webhooks (once a day), then due deliveries go out.
 */
export function createNotificationJobs(
  deps: DeliveryDeps & { balances?: Balances; warn: (error: unknown, message: string) => void },
) {
  const { db, clock } = deps;
  let balancesCheckedAt = Number.NEGATIVE_INFINITY;

  async function endingNotices(now: Date): Promise<number> {
    let written = 0;
    for (const dareId of await daresEndingSoon(db, now, DAY_MS)) {
      const done = await db.transaction(async (tx) =>
        notifyDareEnding(tx, dareId, await dareDeadline(tx, dareId), now),
      );
      if (done) written++;
    }
    return written;
  }

  async function lowBalances(now: Date): Promise<void> {
    if (!deps.balances || now.getTime() - balancesCheckedAt < BALANCE_CHECK_MS) return;
    balancesCheckedAt = now.getTime();
    const feePayer = await deps.balances.feePayer();
    if (feePayer.lamports < feePayer.minimum)
      await notifyLowBalance(db, {
        event: 'fee-payer-low',
        wallet: feePayer.address,
        balanceLamports: feePayer.lamports,
        minimumLamports: feePayer.minimum,
        now,
      });
    const guardian = await deps.balances.guardian();
    if (guardian && guardian.lamports < guardian.minimum)
      await notifyLowBalance(db, {
        event: 'guardian-low',
        wallet: guardian.address,
        balanceLamports: guardian.lamports,
        minimumLamports: guardian.minimum,
        now,
      });
  }

  return {
    endingNotices: () => endingNotices(clock()),
    async runOnce(): Promise<number> {
      const now = clock();
      await endingNotices(now).catch((error) => deps.warn(error, 'dare-ending notices not written'));
      await lowBalances(now).catch((error) => deps.warn(error, 'low-balance check failed'));
      let delivered = 0;
      // Until nothing is due (a big batch goes out in runs of 100).
      for (let round = 0; round < 50; round++) {
        const { claimed, sent } = await deliverDue(deps);
        delivered += sent;
        if (claimed === 0) break;
      }
      return delivered;
    },
    deliverDue: () => deliverDue(deps),
    close: () => deps.mailer?.close(),
  };
}
export type NotificationJobs = ReturnType<typeof createNotificationJobs>;
