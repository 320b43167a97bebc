import { describe, expect, it } from 'vitest';
import { setupApiSuite } from './helpers/suite';

/**
 * Who may call a route is declared once, with `config: { auth }`, and the served OpenAPI document
 * says it (decision 043). Every operation of the document is called here with no token, a dead
 * token and a normal user's token: the document's `security` must match what the server does.
 */
const {
  ctx,
  actors: { alice },
} = setupApiSuite({
  // Every route the app can have, the test-only warp included.
  env: { EMBEDDED_CHAIN_TEST_CONTROLS: '1' },
  actors: { alice: { sol: '0' } },
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

interface Operation {
  method: Method;
  /** As the document names it, e.g. `POST /api/dares/{id}/submit`. */
  name: string;
  /** The path with every parameter 1. */
  url: string;
  secured: boolean;
}

async function operations(): Promise<Operation[]> {
  const document = (await ctx.app.inject('/api/docs/json')).json() as {
    paths: Record<string, Partial<Record<Method, { security?: unknown[] }>>>;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method,
      name: `${method.toUpperCase()} ${path}`,
      url: path.replace(/\{[^}]+\}/g, '1'),
      secured: (item[method]!.security ?? []).length > 0,
    })),
  );
}

const call = (operation: Operation, token?: string) =>
  ctx.app.inject({
    method: operation.method.toUpperCase() as 'GET',
    url: operation.url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe("the OpenAPI document's security", () => {
  it('is declared by exactly the routes that answer a visitor 401', async () => {
    const all = await operations();
    const undeclared: string[] = [];
    const unchecked: string[] = [];
    for (const operation of all) {
      const res = await call(operation);
      // A handler reading a user on a route that declares none answers 500 (route-auth.ts).
      expect(res.statusCode, operation.name).toBeLessThan(500);
      if (res.statusCode === 401 && !operation.secured) undeclared.push(operation.name);
      if (operation.secured && res.statusCode !== 401) unchecked.push(`${operation.name}: ${res.statusCode}`);
      if (operation.secured)
        expect(res.json(), operation.name).toEqual({
          error: 'Please connect your wallet or log in first',
          code: 'UNAUTHENTICATED',
        });
    }
    expect(undeclared).toEqual([]);
    expect(unchecked).toEqual([]);
    // Not an empty check: the routes issue 27 named, and the public reads, are where they belong.
    const secured = all.filter((operation) => operation.secured).map((operation) => operation.name);
    expect(secured).toEqual(
      expect.arrayContaining([
        'POST /api/dares/{id}/submit',
        'POST /api/upload-video',
        'POST /api/dares',
        'GET /api/auth/me',
        'PUT /api/admin/settings',
        'PATCH /api/admin/users/{id}/role',
      ]),
    );
    expect(secured).not.toContain('GET /api/dares');
    expect(secured).not.toContain('GET /api/settings');
    expect(secured.length).toBeGreaterThanOrEqual(30);
  });

  it('answers a dead session 401 on every secured route, saying it ended', async () => {
    const dead = 'a'.repeat(43);
    for (const operation of (await operations()).filter((o) => o.secured)) {
      const res = await call(operation, dead);
      expect([res.statusCode, res.json().error], operation.name).toEqual([
        401,
        'Your session has ended. Please sign in again.',
      ]);
    }
  });

  it('answers a normal user 403 on exactly the /api/admin/ routes, before reading any body', async () => {
    const adminOnly: string[] = [];
    for (const operation of await operations()) {
      // Ending alice's session would turn every later answer into a 401.
      if (operation.name === 'POST /api/auth/logout') continue;
      const res = await call(operation, alice.token);
      expect(res.statusCode, operation.name).not.toBe(401);
      if (res.statusCode === 403 && res.json().code === 'ADMIN_ONLY') adminOnly.push(operation.name);
    }
    const adminPaths = (await operations())
      .filter((operation) => operation.url.startsWith('/api/admin/'))
      .map((operation) => operation.name);
    expect(adminOnly).toEqual(adminPaths);
    expect(adminOnly.length).toBeGreaterThanOrEqual(15);
  });
});
