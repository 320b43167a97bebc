import type { Db } from '#server/db/client';
import { uploadedKey } from '#server/features/submissions/video-url';
import type { StoragePort } from '#server/storage/port';
import { createVideoQuota, SUBMIT_WINDOW_MS, type VideoQuota } from './quota';
import { takePendingUploadsToFree, uploadedVideoUrls } from './repo';

/**
 * The storage cap over this deployment's videos: attached ones counted from the submissions,
 * pending ones in their bounded pool, the oldest pending upload deleted when a new one needs room.
 */
export function createUploadQuota({
  db,
  storage,
  capBytes,
  pendingPoolBytes,
  clock,
}: {
  db: Db;
  storage: StoragePort;
  capBytes: number;
  pendingPoolBytes: number;
  clock: () => Date;
}): VideoQuota {
  return createVideoQuota({
    storage,
    capBytes,
    pendingPoolBytes,
    attachedKeys: async () =>
      new Set((await uploadedVideoUrls(db)).map(uploadedKey).filter((key) => key !== null)),
    async evictPending(bytes) {
      const madeBefore = new Date(clock().getTime() - SUBMIT_WINDOW_MS);
      let freed = 0;
      for (const upload of await takePendingUploadsToFree(db, bytes, madeBefore)) {
        await storage.remove(upload.key);
        freed += upload.size;
      }
      return freed;
    },
  });
}
