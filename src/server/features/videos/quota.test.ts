import { describe, expect, it } from 'vitest';
import type { ListedObject, StoragePort } from '../../storage/port';
import { createVideoQuota } from './quota';

function storageHolding(sizes: number[]): StoragePort {
  const objects: ListedObject[] = sizes.map((size, i) => ({ key: String(i), size, modifiedAt: new Date() }));
  return { list: async () => objects } as unknown as StoragePort;
}

describe('video storage quota', () => {
  it('counts what is stored and what is arriving, and refuses what would pass the cap', async () => {
    const quota = createVideoQuota({ storage: storageHolding([400]), capBytes: 1000 });
    const first = await quota.open();
    const second = await quota.open();
    expect(first.add(300)).toBe(true);
    // Together the two uploads may not pass the cap, whichever arrives first.
    expect(second.add(301)).toBe(false);
    expect(second.add(300)).toBe(true);
    second.release();
    first.keep();
    // 700 stored: 300 more fit, 301 do not.
    const third = await quota.open();
    expect(third.add(301)).toBe(false);
    expect(third.add(300)).toBe(true);
    third.keep();
    await expect(quota.open()).rejects.toMatchObject({ status: 507, code: 'INSUFFICIENT_STORAGE' });
    quota.freed(500);
    const fourth = await quota.open();
    expect(fourth.add(500)).toBe(true);
  });

  it('settles a reservation once', async () => {
    const quota = createVideoQuota({ storage: storageHolding([]), capBytes: 100 });
    const upload = await quota.open();
    upload.add(100);
    upload.release();
    upload.keep();
    const next = await quota.open();
    expect(next.add(100)).toBe(true);
  });
});
