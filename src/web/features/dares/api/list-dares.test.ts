import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { dareListQueryKey, dareListUrl, listDares } from './list-dares';

const store = new Map<string, string>();
beforeEach(() => {
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => store.set(key, value),
    removeItem: (key: string) => store.delete(key),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  store.clear();
});

describe('GET /api/dares paging and search', () => {
  it('builds the query from the filter, a trimmed search and the cursor', () => {
    expect(dareListUrl({ filter: 'active' })).toBe('/api/dares?filter=active');
    expect(dareListUrl({ filter: 'all', q: '  lemon & salt ' }, '42')).toBe(
      '/api/dares?filter=all&q=lemon+%26+salt&cursor=42',
    );
    expect(dareListUrl({ filter: 'completed', q: '   ' }, null)).toBe('/api/dares?filter=completed');
  });

  it('keys the list under /api/dares, so the dare writes that refresh dares refresh it too', () => {
    expect(dareListQueryKey({ filter: 'all', q: ' x ' })).toEqual(['/api/dares', { filter: 'all', q: 'x' }]);
  });

  it('reads the next cursor from the x-next-cursor header and sends the session token', async () => {
    store.set('token', 'tok');
    const fetchMock = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify([{ id: 3 }, { id: 2 }]), { headers: { 'x-next-cursor': '2' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const page = await listDares({ filter: 'all' }, null);
    expect(page.dares.map((dare) => dare.id)).toEqual([3, 2]);
    expect(page.nextCursor).toBe('2');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toEqual({ Authorization: 'Bearer tok' });

    fetchMock.mockResolvedValueOnce(new Response('[]'));
    expect((await listDares({ filter: 'all' }, '2')).nextCursor).toBeNull();
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/dares?filter=all&cursor=2');
  });

  it("turns an error answer into the server's message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'Invalid cursor', code: 'BAD_REQUEST' }), { status: 400 }),
      ),
    );
    const error = await listDares({ filter: 'all' }, 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Invalid cursor');
    expect((error as ApiError).status).toBe(400);
  });
});
