import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobLock } from '#server/jobs/job-lock';
import { type PeriodicJob, periodicJob } from '#server/jobs/periodic-job';
import type { PaymentsService } from './service';

/** How often lapsed payments are looked up, credited or refunded. */
export const PAYMENTS_JOB_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The lapsed-payments job (createLapsedPayments): `runNow()` is how tests drive it. */
    paymentsJob: PeriodicJob;
  }
}

/** Every minute, on one instance of the deployment at a time: payments.settleLapsed(). */
export const paymentsLifecycle = fp(
  async (
    app: FastifyInstance,
    options: { payments: PaymentsService; jobLock: JobLock; intervalMs?: number },
  ) => {
    const job = periodicJob({
      name: 'payments',
      lock: options.jobLock,
      intervalMs: options.intervalMs ?? PAYMENTS_JOB_INTERVAL_MS,
      run: async () => {
        try {
          const run = await options.payments.settleLapsed();
          if (run.failureReasons.length > 0)
            app.log.warn({ reasons: run.failureReasons }, 'some lapsed payments could not be settled yet');
        } catch (error) {
          app.log.error({ err: error }, 'lapsed payments job failed');
        }
      },
      log: app.log,
    });
    app.decorate('paymentsJob', job);
    app.addHook('onReady', async () => job.start());
    app.addHook('onClose', () => job.stop());
  },
);
