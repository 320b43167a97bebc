import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChainPort } from '#server/chain/port';
import type { JobLock } from '#server/jobs/job-lock';
import { type PeriodicJob, periodicJob } from '#server/jobs/periodic-job';
import { ensureFeePayerFunded } from './fee-payer';
import type { PayoutsService } from './service';

/**
 * What the job needs of the claims feature. Declared here, not imported: claims and refunds pay
 * through this feature, so it must not depend on them.
 */
export interface ClaimsRecovery {
  /** Claims left 'processing' with no transfer become claimable again; returns their ids. */
  releaseOrphanedClaims(): Promise<number[]>;
  payClaim(claimId: number): Promise<unknown>;
  /** Program v2: pays every named winner whose payout window has passed. */
  payDueProposals(): Promise<{ paid: number; failures: string[] }>;
}

/** What the job needs of the refunds feature (see ClaimsRecovery). */
export interface RefundsJob {
  refundDue(): Promise<{ retired: number[]; finished: { failureReasons: string[] } }>;
}

/** How often the in-process job refunds expired dares, settles unconfirmed transactions and closes ended vaults. */
export const PAYOUT_JOB_INTERVAL_MS = 60_000;

export interface PayoutLifecycleOptions {
  chain: ChainPort;
  payouts: PayoutsService;
  claims: ClaimsRecovery;
  refunds: RefundsJob;
  /** One run at a time in the whole deployment (the start-up recovery and the periodic job alike). */
  jobLock: JobLock;
  intervalMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The refund and payout-recovery job: `runNow()` is how tests and the drain drive it. */
    payoutJob: PeriodicJob;
  }
}

async function checkFeePayer(app: FastifyInstance, { chain, payouts }: PayoutLifecycleOptions) {
  try {
    const feePayer = await ensureFeePayerFunded(chain, payouts);
    if (!chain.embedded && feePayer.lamports < 10_000_000n)
      app.log.warn(
        `Payout fee payer ${feePayer.address} holds ${feePayer.lamports} lamports: fund it (docs/operations.md)`,
      );
  } catch (error) {
    app.log.error({ err: error }, 'could not check the payout fee payer');
  }
}

/**
 * Start-up: recover every transfer a previous process left 'sending' before the server takes
 * requests; a claim whose transfer expired unsent is paid again with a new blockhash.
 */
async function recoverAtStart(app: FastifyInstance, options: PayoutLifecycleOptions): Promise<void> {
  const { payouts, claims } = options;
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

/** Settles unconfirmed transactions, then refunds what is due (expired and cancelled dares) and finishes ended vaults. */
async function refundRun(app: FastifyInstance, options: PayoutLifecycleOptions): Promise<void> {
  try {
    // Each part on its own: a chain error while recovering must not hold up the refunds.
    await options.payouts.recover().catch((error) => app.log.error({ err: error }, 'payout recovery failed'));
    const executed = await options.claims.payDueProposals();
    if (executed.failures.length > 0)
      app.log.warn({ reasons: executed.failures }, 'some named winners could not be paid yet');
    const run = await options.refunds.refundDue();
    if (run.retired.length > 0)
      app.log.warn(
        { dareIds: run.retired },
        'escrow program v1 retired: these dares are cancelled and their payers refunded (docs/operations.md, Upgrade notes)',
      );
    if (run.finished.failureReasons.length > 0)
      app.log.warn({ reasons: run.finished.failureReasons }, 'some ended dares could not be finished yet');
  } catch (error) {
    app.log.error({ err: error }, 'refund job failed');
  }
}

/**
 * Start-up: fund the fee payer (embedded chain) and recover interrupted transfers, then the
 * periodic refund job. Recovery and job take the deployment-wide 'payouts' lock: when another
 * instance holds it, that instance is settling the same transfers, and this one skips.
 */
export const payoutLifecycle = fp(async (app: FastifyInstance, options: PayoutLifecycleOptions) => {
  const job = periodicJob({
    name: 'payouts',
    lock: options.jobLock,
    intervalMs: options.intervalMs ?? PAYOUT_JOB_INTERVAL_MS,
    run: () => refundRun(app, options),
    log: app.log,
  });
  app.decorate('payoutJob', job);

  app.addHook('onReady', async () => {
    await checkFeePayer(app, options);
    try {
      const recovery = await options.jobLock.runExclusive('payouts', () => recoverAtStart(app, options));
      if (!recovery.ran)
        app.log.info('start-up payout recovery left to the instance running the payout job now');
    } catch (error) {
      app.log.error({ err: error }, 'payout recovery failed');
    }
    job.start();
  });
  app.addHook('onClose', () => job.stop());
});
