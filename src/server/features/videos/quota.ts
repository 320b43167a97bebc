import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { AppError } from '../../errors';
import type { StoragePort } from '../../storage/port';

export const storageFull = () => new AppError('INSUFFICIENT_STORAGE', SUBMISSION_MESSAGES.storageFull);

/** One upload's claim on the disk: bytes are counted as they arrive, before they are written. */
export interface Reservation {
  /** Claims `bytes` more; false when they would take the videos past the cap (nothing is claimed). */
  add(bytes: number): boolean;
  /** The upload was stored: its bytes stay counted. */
  keep(): void;
  /** The upload failed or was deleted: its bytes are free again. */
  release(): void;
}

/**
 * The cap on the disk all videos take together (`VIDEO_STORAGE_MAX_GB`). What is stored is
 * measured once from the storage, then kept up to date by this process (the data folder has a
 * single writer); bytes of uploads in progress count from the moment they arrive, so concurrent
 * uploads cannot overshoot the cap together.
 */
export function createVideoQuota({ storage, capBytes }: { storage: StoragePort; capBytes: number }) {
  let stored: number | null = null;
  let measuring: Promise<number> | null = null;
  let inFlight = 0;
  const measured = async (): Promise<number> => {
    if (stored !== null) return stored;
    measuring ??= storage.list().then((objects) => objects.reduce((sum, object) => sum + object.size, 0));
    const total = await measuring;
    stored ??= total;
    return stored;
  };

  return {
    /** A reservation for a new upload; 507 when the videos already fill the cap. */
    async open(): Promise<Reservation> {
      if ((await measured()) + inFlight >= capBytes) throw storageFull();
      let claimed = 0;
      let settled = false;
      const settle = (keep: boolean) => {
        if (settled) return;
        settled = true;
        inFlight -= claimed;
        if (keep) stored! += claimed;
      };
      return {
        add(bytes) {
          if (stored! + inFlight + bytes > capBytes) return false;
          claimed += bytes;
          inFlight += bytes;
          return true;
        },
        keep: () => settle(true),
        release: () => settle(false),
      };
    },
    /** An object of `bytes` was deleted (the clean-up job); before the first measure, nothing to do. */
    freed(bytes: number) {
      if (stored !== null) stored = Math.max(0, stored - bytes);
    },
  };
}

export type VideoQuota = ReturnType<typeof createVideoQuota>;
