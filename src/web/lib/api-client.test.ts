import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, onSessionEnded } from './api-client';
import { defaultQueryFn } from './query-client';

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

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

function respond(response: Response) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('apiRequest', () => {
  it('sends JSON with the stored Bearer token', async () => {
    store.set('token', 'tok123');
    const fetchMock = respond(Response.json({ ok: true }));
    expect(await apiRequest('POST', '/api/x', { a: 1 })).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(init?.body).toBe('{"a":1}');
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer tok123' });
  });

  it('sends no Authorization header without a token', async () => {
    const fetchMock = respond(Response.json([]));
    await apiRequest('GET', '/api/y');
    expect(fetchMock.mock.calls[0]![1]?.headers).toEqual({});
  });

  it('reads the JSON error field, keeping status, code, fields and the raw body', async () => {
    const body = {
      error: 'Title is required',
      code: 'VALIDATION_FAILED',
      fields: { title: 'Title is required' },
    };
    respond(Response.json(body, { status: 400 }));
    const error = (await apiRequest('POST', '/api/dares', {}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Title is required');
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual({ title: 'Title is required' });
    expect(error.body).toBe(JSON.stringify(body));
  });

  it('falls back to the message field, then the raw JSON text', async () => {
    respond(Response.json({ message: 'Nope' }, { status: 403 }));
    expect((await failure(apiRequest('GET', '/a'))).message).toBe('Nope');
    respond(Response.json({ other: 1 }, { status: 409 }));
    expect((await failure(apiRequest('GET', '/a'))).message).toBe('{"other":1}');
  });

  it('prefixes a non-JSON body with the status, and uses the status text for an empty body', async () => {
    respond(new Response('Bad Gateway from proxy', { status: 502 }));
    expect((await failure(apiRequest('GET', '/a'))).message).toBe('502: Bad Gateway from proxy');
    respond(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    expect((await failure(apiRequest('GET', '/a'))).message).toBe('503: Service Unavailable');
  });
});

describe('apiRequest bodies', () => {
  it('sends FormData as multipart, leaving the boundary header to the browser', async () => {
    store.set('token', 'tok123');
    const fetchMock = respond(Response.json({ url: '/videos/1.mp4' }));
    const form = new FormData();
    form.set('dareId', '7');
    expect(await apiRequest('POST', '/api/upload-video', form)).toEqual({ url: '/videos/1.mp4' });
    const init = fetchMock.mock.calls[0]![1];
    expect(init?.body).toBe(form);
    expect(init?.headers).toEqual({ Authorization: 'Bearer tok123' });
  });

  it('resolves an empty success body as undefined', async () => {
    respond(new Response(null, { status: 204 }));
    expect(await apiRequest('POST', '/api/auth/logout')).toBeUndefined();
    respond(new Response('', { status: 200 }));
    expect(await apiRequest('POST', '/api/x')).toBeUndefined();
  });

  it('uses the raw text for JSON that is not an object', async () => {
    respond(new Response('"Too many requests"', { status: 429 }));
    const error = await failure(apiRequest('GET', '/a'));
    expect(error.message).toBe('"Too many requests"');
    expect(error.status).toBe(429);
  });
});

describe('defaultQueryFn', () => {
  it('GETs the query key joined with a slash', async () => {
    const fetchMock = respond(Response.json({ voteCount: 2 }));
    const result = await defaultQueryFn({ queryKey: ['/api/user', 3, 'votes/dare', 7] } as never);
    expect(result).toEqual({ voteCount: 2 });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/user/3/votes/dare/7');
    expect(fetchMock.mock.calls[0]![1]?.method).toBe('GET');
  });

  it('passes the query signal so an abandoned read is cancelled', async () => {
    const fetchMock = respond(Response.json({}));
    const controller = new AbortController();
    await defaultQueryFn({ queryKey: ['/api/config'], signal: controller.signal } as never);
    expect(fetchMock.mock.calls[0]![1]?.signal).toBe(controller.signal);
  });
});

describe('onSessionEnded', () => {
  const ended = { error: 'Your session has ended. Please sign in again.', code: 'UNAUTHENTICATED' };

  function listen() {
    const listener = vi.fn();
    const stop = onSessionEnded(listener);
    return { listener, stop };
  }

  it('tells listeners when a request that carried the stored token answers 401 UNAUTHENTICATED', async () => {
    const { listener, stop } = listen();
    store.set('token', 'dead-token');
    respond(Response.json(ended, { status: 401 }));
    const error = await failure(apiRequest('POST', '/api/dares/1/add-pool', {}));
    expect(error.status).toBe(401);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stays quiet for other 401s, for a visitor, and for a token a new sign-in already replaced', async () => {
    const { listener, stop } = listen();
    store.set('token', 'live-token');
    respond(Response.json({ error: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }, { status: 401 }));
    await failure(apiRequest('POST', '/api/auth/login', {}));
    store.delete('token');
    respond(
      Response.json(
        { error: 'Please connect your wallet or log in first', code: 'UNAUTHENTICATED' },
        { status: 401 },
      ),
    );
    await failure(apiRequest('POST', '/api/create-escrow-wallet'));
    store.set('token', 'old-token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        store.set('token', 'new-token');
        return Response.json(ended, { status: 401 });
      }),
    );
    await failure(apiRequest('GET', '/api/profile'));
    expect(listener).not.toHaveBeenCalled();
    stop();
  });
});
