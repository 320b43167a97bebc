import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { uploadedKey } from '#server/features/submissions/video-url';
import type { JobLock } from '#server/jobs/job-lock';
import { type PeriodicJob, periodicJob } from '#server/jobs/periodic-job';
import type { StoragePort } from '#server/storage/port';
import { SUBMIT_WINDOW_MS, type VideoQuota } from './quota';
import { forgetPendingUploads, uploadedVideoUrls } from './repo';

/** An upload no submission points at is deleted once its submit window is over (by the app's clock). */
export const UNATTACHED_UPLOAD_MAX_AGE_MS = SUBMIT_WINDOW_MS;
/** How often the clean-up runs (also once at start). */
export const VIDEO_JANITOR_INTERVAL_MS = 10 * 60_000;

export interface VideoJanitorOptions {
  db: Db;
  storage: StoragePort;
  quota: VideoQuota;
  clock: Clock;
  /** One clean-up at a time in the whole deployment. */
  jobLock: JobLock;
  /** Re-hashes the stored videos checked longest ago against their fingerprints (decision 038). */
  proofChecks?: { recheckDue(): Promise<{ checked: number; mismatched: number[] }> };
  intervalMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The clean-up of unattached uploads: `runNow()` is how tests drive it. */
    videoCleanupJob: PeriodicJob;
  }
}

/**
 * Deletes every stored object older than an hour that no submission points at: uploads whose
 * submit never came, and partial files a crash left behind. Returns the deleted keys.
 */
export async function deleteUnattachedUploads({
  db,
  storage,
  quota,
  clock,
}: Pick<VideoJanitorOptions, 'db' | 'storage' | 'quota' | 'clock'>): Promise<string[]> {
  const cutoff = clock().getTime() - UNATTACHED_UPLOAD_MAX_AGE_MS;
  const old = (await storage.list()).filter((object) => object.modifiedAt.getTime() <= cutoff);
  if (old.length === 0) return [];
  // Read after the listing: a submission made meanwhile is seen, so its file is kept.
  const attached = new Set((await uploadedVideoUrls(db)).map(uploadedKey));
  const deleted: string[] = [];
  const unattached = old.filter((object) => !attached.has(object.key));
  // Forgotten first: a submit arriving now is refused rather than pointed at deleted bytes.
  await forgetPendingUploads(
    db,
    unattached.map((object) => object.key),
  );
  for (const object of unattached) {
    await storage.remove(object.key);
    quota.freed(object.size);
    deleted.push(object.key);
  }
  return deleted;
}

/**
 * Runs the clean-up at start and every 10 minutes, one run at a time in the whole deployment,
 * then re-hashes a few stored proofs against their fingerprints.
 */
export const videoJanitor = fp(async (app: FastifyInstance, options: VideoJanitorOptions) => {
  const job = periodicJob({
    name: 'video-cleanup',
    lock: options.jobLock,
    intervalMs: options.intervalMs ?? VIDEO_JANITOR_INTERVAL_MS,
    log: app.log,
    async run() {
      try {
        const deleted = await deleteUnattachedUploads(options);
        if (deleted.length > 0)
          app.log.info({ keys: deleted }, 'deleted uploads never attached to a submission');
      } catch (error) {
        app.log.error({ err: error }, 'video clean-up failed');
      }
      try {
        const checked = await options.proofChecks?.recheckDue();
        if (checked && checked.mismatched.length > 0)
          app.log.warn(
            { submissionIds: checked.mismatched },
            'stored proof videos no longer match their fingerprints',
          );
      } catch (error) {
        app.log.error({ err: error }, 'proof fingerprint check failed');
      }
    },
  });
  app.decorate('videoCleanupJob', job);
  app.addHook('onReady', async () => {
    await job.runNow();
    job.start();
  });
  app.addHook('onClose', () => job.stop());
});
