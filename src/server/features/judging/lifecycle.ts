import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobLock } from '#server/jobs/job-lock';
import { type PeriodicJob, periodicJob } from '#server/jobs/periodic-job';
import type { JudgingService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads every live proposal against its vault (a veto, a relay that landed unrecorded). */
    judgingJob: PeriodicJob;
  }
}

/**
 * The guardian vetoes with its own key, without DarePool: this job notices it (as do the dare's
 * outcome and the admin's proposal list, whenever they are read), so judging starts again.
 */
export const judgingLifecycle = fp(
  async (
    app: FastifyInstance,
    options: { judging: JudgingService; jobLock: JobLock; intervalMs: number },
  ) => {
    const job = periodicJob({
      name: 'judging',
      lock: options.jobLock,
      intervalMs: options.intervalMs,
      run: async () => {
        await options.judging.syncAll().catch((error) => app.log.error({ err: error }, 'judging job failed'));
      },
      log: app.log,
    });
    app.decorate('judgingJob', job);
    app.addHook('onReady', async () => job.start());
    app.addHook('onClose', () => job.stop());
  },
);
