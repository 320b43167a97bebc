import { describe, expect, it } from 'vitest';
import type { ListedObject, StoragePort } from '#server/storage/port';
import { createVideoQuota, type VideoQuotaOptions } from './quota';

function storageHolding(sizes: number[]): StoragePort {
  const objects: ListedObject[] = sizes.map((size, i) => ({ key: String(i), size, modifiedAt: new Date() }));
  return { list: async () => objects } as unknown as StoragePort;
}

/** A quota whose stored objects are all attached, with nothing pending to evict unless given. */
function quotaOf(options: Partial<VideoQuotaOptions> & { sizes: number[]; capBytes: number }) {
  return createVideoQuota({
    storage: storageHolding(options.sizes),
    capBytes: options.capBytes,
    pendingPoolBytes: options.pendingPoolBytes ?? options.capBytes,
    attachedKeys: options.attachedKeys ?? (async () => new Set(options.sizes.map((_, i) => String(i)))),
    evictPending: options.evictPending ?? (async () => 0),
  });
}

describe('video storage quota', () => {
  it('counts what is stored and what is arriving, and refuses what would pass the cap', async () => {
    const quota = quotaOf({ sizes: [400], capBytes: 1000 });
    const first = await quota.open(1);
    const second = await quota.open(1);
    expect(first.add(300)).toBe(true);
    // Together the two uploads may not pass the cap, whichever arrives first.
    expect(second.add(301)).toBe(false);
    expect(second.add(300)).toBe(true);
    second.release();
    first.keep();
    quota.attached(300);
    // 700 stored: 300 more fit, 301 do not.
    const third = await quota.open(1);
    expect(third.add(301)).toBe(false);
    expect(third.add(300)).toBe(true);
    third.keep();
    quota.attached(300);
    await expect(quota.open(1)).rejects.toMatchObject({ status: 507, code: 'INSUFFICIENT_STORAGE' });
  });

  it('settles a reservation once', async () => {
    const quota = quotaOf({ sizes: [], capBytes: 100 });
    const upload = await quota.open(100);
    upload.add(100);
    upload.release();
    upload.keep();
    const next = await quota.open(100);
    expect(next.add(100)).toBe(true);
  });

  it('keeps pending uploads in their pool, deleting only the oldest that make room: only attached videos can fill the cap', async () => {
    // 600 attached; 300 pending in three uploads of 100, the pool's whole size, all past their submit window.
    const pending = [100, 100, 100];
    const evicted: number[] = [];
    const asked: number[] = [];
    const quota = quotaOf({
      sizes: [600, ...pending],
      capBytes: 1000,
      pendingPoolBytes: 300,
      attachedKeys: async () => new Set(['0']),
      evictPending: async (bytes) => {
        asked.push(bytes);
        let freed = 0;
        let taken = 0;
        while (freed < bytes && taken < pending.length) freed += pending[taken++]!;
        if (freed < bytes) return 0;
        evicted.push(...pending.splice(0, taken));
        return freed;
      },
    });
    // A new upload of 150 makes room: it needs 150 freed, so two of the pending ones go, oldest first.
    const upload = await quota.open(150);
    expect(asked).toEqual([150]);
    expect(evicted).toEqual([100, 100]);
    expect(upload.add(150)).toBe(true);
    // The pool (300) is full with the one left and this one: more is refused for this upload.
    expect(upload.add(51)).toBe(false);
    upload.keep();
    // Submitted: its bytes leave the pool for the attached videos.
    quota.attached(150);
    // 200 more would pass the cap by 50: the last pending one goes.
    const next = await quota.open(200);
    expect(evicted).toEqual([100, 100, 100]);
    expect(next.add(200)).toBe(true);
    // Attached 750 + pending 200 of 1000: 50 more would fit the cap, 51 not.
    expect(next.add(50)).toBe(true);
    expect(next.add(1)).toBe(false);
    next.keep();
    // Attached videos fill what is left: an upload that cannot fit even with every pending one
    // gone is refused without asking to delete any.
    quota.attached(250);
    await expect(quota.open(1)).rejects.toMatchObject({ status: 507 });
    expect(asked).toEqual([150, 50]);
  });

  it('refuses (507) when the pending uploads that may go cannot make room, deleting none', async () => {
    // The pool holds 300 pending bytes; none may go (all younger than their submit window).
    const quota = quotaOf({
      sizes: [100, 100, 100],
      capBytes: 1000,
      pendingPoolBytes: 300,
      attachedKeys: async () => new Set(),
      evictPending: async () => 0,
    });
    await expect(quota.open(50)).rejects.toMatchObject({ status: 507, code: 'INSUFFICIENT_STORAGE' });
  });
});
