import { SUBMISSION_LIMITS } from '#contract/limits';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { AppError } from '#server/errors';
import type { StoragePort } from '#server/storage/port';

/**
 * How long an upload waits for its owner to submit it (the wallet's signature comes in between):
 * never deleted to make room before, deleted by the clean-up job after (janitor.ts).
 */
export const SUBMIT_WINDOW_MS = 60 * 60_000;

export const storageFull = () => new AppError('INSUFFICIENT_STORAGE', SUBMISSION_MESSAGES.storageFull);

/** One upload's claim on the disk: bytes are counted as they arrive, before they are written. */
export interface Reservation {
  /** Claims `bytes` more; false when they would take the videos past the cap (nothing is claimed). */
  add(bytes: number): boolean;
  /** The upload was stored: its bytes stay counted, as a pending upload. */
  keep(): void;
  /** The upload failed or was deleted: its bytes are free again. */
  release(): void;
}

export interface VideoQuotaOptions {
  storage: StoragePort;
  /** All videos together (`VIDEO_STORAGE_MAX_GB`). */
  capBytes: number;
  /** Uploads no submission took yet, together (`VIDEO_PENDING_POOL_GB`), inside the cap. */
  pendingPoolBytes: number;
  /** The stored keys submissions point at, read once when the storage is first measured. */
  attachedKeys(): Promise<Set<string>>;
  /**
   * Deletes the oldest pending uploads past their submit window (rows and bytes) that free at least
   * `bytes` together, or none when those cannot; answers the bytes freed.
   */
  evictPending(bytes: number): Promise<number>;
}

/**
 * The cap on the disk videos take (`VIDEO_STORAGE_MAX_GB`), split in two: videos submissions point
 * at (attached), and uploads waiting for their submission (pending), which together may take only
 * `pendingPoolBytes`. When a new upload finds no room, the oldest pending uploads past their
 * owners' submit window are deleted to make it, and only when that makes room: an upload refused
 * anyway deletes nothing, and an upload its owner may still submit is never deleted (decision 061;
 * free accounts are kept from filling the pool by their per-account and per-address limits).
 *
 * What is stored is measured once from the storage, then kept up to date by this process; bytes
 * of uploads in progress count from the moment they arrive, so concurrent uploads cannot overshoot.
 */
export function createVideoQuota(options: VideoQuotaOptions) {
  const { storage, capBytes } = options;
  const poolBytes = Math.min(options.pendingPoolBytes, capBytes);
  let counts: { attached: number; pending: number } | null = null;
  let measuring: Promise<{ attached: number; pending: number }> | null = null;
  let inFlight = 0;
  const measured = async () => {
    if (counts) return counts;
    measuring ??= (async () => {
      const objects = await storage.list();
      const attachedKeys = await options.attachedKeys();
      let attached = 0;
      let pending = 0;
      for (const object of objects) {
        if (attachedKeys.has(object.key)) attached += object.size;
        else pending += object.size;
      }
      return { attached, pending };
    })();
    const total = await measuring;
    counts ??= total;
    return counts;
  };
  const fits = (bytes: number) =>
    counts !== null &&
    counts.pending + inFlight + bytes <= poolBytes &&
    counts.attached + counts.pending + inFlight + bytes <= capBytes;
  const freePending = (bytes: number) => {
    if (counts) counts.pending = Math.max(0, counts.pending - bytes);
  };
  /** Pending bytes that must go before `bytes` more fit; more than all pending when nothing would do. */
  const shortfall = (bytes: number) => {
    if (!counts) return Number.POSITIVE_INFINITY;
    const pending = counts.pending + inFlight + bytes;
    return Math.max(pending - poolBytes, counts.attached + pending - capBytes);
  };

  return {
    /**
     * A reservation for a new upload of about `expectedBytes` (its declared length; a whole video
     * when unknown). When there is no room for it, the oldest pending uploads past their submit
     * window are deleted to make it, only if they can; 507 when not one byte fits. Otherwise its
     * bytes are claimed as they arrive, and refused at the cap (an upload smaller than it declared
     * may still fit, and one too large is told so, 413, before the cap is reached).
     */
    async open(expectedBytes: number = SUBMISSION_LIMITS.videoMaxBytes): Promise<Reservation> {
      const { pending } = await measured();
      const room = Math.min(Math.max(expectedBytes, 1), SUBMISSION_LIMITS.videoMaxBytes);
      const needed = shortfall(room);
      if (needed > 0 && needed <= pending) freePending(await options.evictPending(needed));
      if (!fits(1)) throw storageFull();
      let claimed = 0;
      let settled = false;
      const settle = (keep: boolean) => {
        if (settled) return;
        settled = true;
        inFlight -= claimed;
        if (keep && counts) counts.pending += claimed;
      };
      return {
        add(bytes) {
          if (!fits(bytes)) return false;
          claimed += bytes;
          inFlight += bytes;
          return true;
        },
        keep: () => settle(true),
        release: () => settle(false),
      };
    },
    /** A pending upload of `bytes` became a submission's video. */
    attached(bytes: number) {
      if (!counts) return;
      freePending(bytes);
      counts.attached += bytes;
    },
    /** A pending upload of `bytes` was deleted (replaced, or by the clean-up job); before the first measure, nothing to do. */
    freed: freePending,
  };
}

export type VideoQuota = ReturnType<typeof createVideoQuota>;
