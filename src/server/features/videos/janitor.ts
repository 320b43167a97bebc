import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../../app';
import type { Db } from '../../db/client';
import type { StoragePort } from '../../storage/port';
import { uploadedVideoUrls } from '../submissions/repo';
import { uploadedKey } from '../submissions/service';
import type { VideoQuota } from './quota';

/** An upload no submission points at is deleted once it is this old (by the app's clock). */
export const UNATTACHED_UPLOAD_MAX_AGE_MS = 60 * 60_000;
/** How often the clean-up runs (also once at start). */
export const VIDEO_JANITOR_INTERVAL_MS = 10 * 60_000;

export interface VideoJanitorOptions {
  db: Db;
  storage: StoragePort;
  quota: VideoQuota;
  clock: Clock;
  intervalMs?: number;
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
}: Omit<VideoJanitorOptions, 'intervalMs'>): Promise<string[]> {
  const cutoff = clock().getTime() - UNATTACHED_UPLOAD_MAX_AGE_MS;
  const old = (await storage.list()).filter((object) => object.modifiedAt.getTime() <= cutoff);
  if (old.length === 0) return [];
  // Read after the listing: a submission made meanwhile is seen, so its file is kept.
  const attached = new Set((await uploadedVideoUrls(db)).map(uploadedKey));
  const deleted: string[] = [];
  for (const object of old) {
    if (attached.has(object.key)) continue;
    await storage.remove(object.key);
    quota.freed(object.size);
    deleted.push(object.key);
  }
  return deleted;
}

/** Runs the clean-up at start and every 10 minutes, in-process, one run at a time. */
export const videoJanitor = fp(async (app: FastifyInstance, options: VideoJanitorOptions) => {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = (async () => {
      try {
        const deleted = await deleteUnattachedUploads(options);
        if (deleted.length > 0)
          app.log.info({ keys: deleted }, 'deleted uploads never attached to a submission');
      } catch (error) {
        app.log.error({ err: error }, 'video clean-up failed');
      } finally {
        running = null;
      }
    })();
  };
  app.addHook('onReady', async () => {
    tick();
    await running;
    timer = setInterval(tick, options.intervalMs ?? VIDEO_JANITOR_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
});
