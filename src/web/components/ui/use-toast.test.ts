import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST } from '#contract/limits';

// The store is module state: a fresh copy per test.
async function loadStore() {
  vi.resetModules();
  return import('./use-toast');
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toast store (spec section 9)', () => {
  it('keeps one toast visible: the newest', async () => {
    const store = await loadStore();
    store.toast({ title: 'First' });
    store.toast({ title: 'Second', variant: 'destructive' });
    expect(store.getToasts()).toEqual([
      expect.objectContaining({ title: 'Second', variant: 'destructive', open: true }),
    ]);
  });

  it('closes a dismissed toast at once and removes it 1,000,000 ms later', async () => {
    const store = await loadStore();
    const { id, dismiss } = store.toast({ title: 'Logged Out' });
    dismiss();
    expect(store.getToasts()).toEqual([expect.objectContaining({ id, open: false })]);
    vi.advanceTimersByTime(TOAST.removeDelayMs - 1);
    expect(store.getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getToasts()).toHaveLength(0);
  });

  it('drops the removal timer of a toast pushed out by a newer one', async () => {
    const store = await loadStore();
    store.toast({ title: 'Old' }).dismiss();
    const newer = store.toast({ title: 'New' });
    vi.advanceTimersByTime(TOAST.removeDelayMs);
    expect(store.getToasts()).toEqual([expect.objectContaining({ id: newer.id, open: true })]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
