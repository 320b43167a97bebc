import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { JobLock } from '#server/jobs/job-lock';
import { type PeriodicJob, periodicJob } from '#server/jobs/periodic-job';
import type { NotificationJobs } from './jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers due emails and webhooks; writes the dare-ending notices and low-balance alerts. */
    notificationsJob: PeriodicJob;
  }
}

/** The delivery job, on one instance at a time (job-lock.ts). */
export const notificationsLifecycle = fp(
  async (app: FastifyInstance, options: { jobs: NotificationJobs; jobLock: JobLock; intervalMs: number }) => {
    const job = periodicJob({
      name: 'notifications',
      lock: options.jobLock,
      intervalMs: options.intervalMs,
      run: async () => {
        await options.jobs
          .runOnce()
          .catch((error) => app.log.error({ err: error }, 'notifications job failed'));
      },
      log: app.log,
    });
    app.decorate('notificationsJob', job);
    app.addHook('onReady', async () => job.start());
    app.addHook('onClose', async () => {
      await job.stop();
      options.jobs.close();
    });
  },
);
