import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChainPort } from '../../chain/port';
import type { ClaimsService } from '../claims/service';
import type { RefundsService } from '../refunds/service';
import { ensureFeePayerFunded } from './fee-payer';
import type { PayoutsService } from './service';

/** How often the in-process job refunds expired dares and settles unconfirmed transfers. */
export const PAYOUT_JOB_INTERVAL_MS = 60_000;

export interface PayoutLifecycleOptions {
  chain: ChainPort;
  payouts: PayoutsService;
  claims: ClaimsService;
  refunds: RefundsService;
  intervalMs?: number;
}

/**
 * Start-up: fund the fee payer (embedded chain), then recover every transfer a previous process
 * left 'sending' before the server takes requests; a claim whose transfer expired unsent is paid
 * again with a new blockhash. Then a periodic job refunds dares past deadline + grace.
 */
export async function runStartupRecovery(
  app: FastifyInstance,
  options: PayoutLifecycleOptions,
): Promise<void> {
  const { chain, payouts, claims } = options;
  try {
    const feePayer = await ensureFeePayerFunded(chain, payouts);
    if (!chain.embedded && feePayer.lamports < 10_000_000n)
      app.log.warn(
        `Payout fee payer ${feePayer.address} holds ${feePayer.lamports} lamports: fund it (docs/operations.md)`,
      );
  } catch (error) {
    app.log.error({ err: error }, 'could not check the payout fee payer');
  }
  const { settled, outcomes } = await payouts.recover();
  const released = await claims.releaseOrphanedClaims();
  if (released.length > 0)
    app.log.warn({ claimIds: released }, 'claims interrupted before sending are claimable again');
  for (const [index, transfer] of settled.entries()) {
    const outcome = outcomes[index]!;
    app.log.info({ signature: transfer.signature, outcome: outcome.status }, 'recovered payout transfer');
    if (transfer.purpose === 'claim' && transfer.claimId !== null && outcome.status === 'failed') {
      await claims.payClaim(transfer.claimId).catch((error) => {
        app.log.warn({ err: error, claimId: transfer.claimId }, 'claim retry after recovery failed');
      });
    }
  }
}

export const payoutLifecycle = fp(async (app: FastifyInstance, options: PayoutLifecycleOptions) => {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const tick = () => {
    if (running) return;
    running = (async () => {
      try {
        // Each part on its own: a chain error while recovering must not hold up the refunds.
        await options.payouts
          .recover()
          .catch((error) => app.log.error({ err: error }, 'payout recovery failed'));
        const run = await options.refunds.refundDue();
        if (run.held.failureReasons.length > 0)
          app.log.warn({ reasons: run.held.failureReasons }, 'some held payments could not be refunded yet');
        if (run.stray.failureReasons.length > 0)
          app.log.warn(
            { reasons: run.stray.failureReasons },
            'some stray payments could not be refunded yet',
          );
      } catch (error) {
        app.log.error({ err: error }, 'refund job failed');
      } finally {
        running = null;
      }
    })();
  };

  app.addHook('onReady', async () => {
    await runStartupRecovery(app, options).catch((error) =>
      app.log.error({ err: error }, 'payout recovery failed'),
    );
    timer = setInterval(tick, options.intervalMs ?? PAYOUT_JOB_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
});
