import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '#server/features/auth/user';
import { errorHandler } from './error-handler';
import { declareRouteAuth, userOf } from './route-auth';

/** An app with the route-auth hook whose session is whoever `as` names (authenticate.ts's part). */
async function appWithRouteAuth(as: { user: Partial<UserRow> | null }) {
  const app = Fastify();
  // The app's compilers: the declared 401/403 answers are zod schemas.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorHandler);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionInvalid', false);
  app.addHook('onRequest', async (request) => {
    request.user = as.user as UserRow | null;
  });
  app.addHook('onRoute', declareRouteAuth);
  return app;
}

const status = async (app: FastifyInstance, url: string) => (await app.inject(url)).statusCode;

describe('config.auth', () => {
  it('checks before the handler: 401 for visitors, 403 for a normal user on an admin route', async () => {
    const as: { user: Partial<UserRow> | null } = { user: null };
    const app = await appWithRouteAuth(as);
    let handled = 0;
    app.get('/user', { config: { auth: 'user' } }, async (request) => {
      handled++;
      return { id: userOf(request).id };
    });
    app.get('/api/admin/thing', { config: { auth: 'admin' } }, async () => {
      handled++;
      return {};
    });
    expect([await status(app, '/user'), await status(app, '/api/admin/thing')]).toEqual([401, 401]);
    as.user = { id: 7, isAdmin: false };
    expect((await app.inject('/user')).json()).toEqual({ id: 7 });
    const refused = await app.inject('/api/admin/thing');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'ADMIN_ONLY']);
    expect(handled).toBe(1);
    as.user = { id: 8, isAdmin: true };
    expect(await status(app, '/api/admin/thing')).toBe(200);
  });

  it('makes a handler that reads a user on an undeclared route fail for everyone, signed in or not', async () => {
    const as: { user: Partial<UserRow> | null } = { user: { id: 7, isAdmin: false } };
    const app = await appWithRouteAuth(as);
    app.get('/forgot', async (request) => ({ id: userOf(request).id }));
    expect(await status(app, '/forgot')).toBe(500);
    as.user = null;
    expect(await status(app, '/forgot')).toBe(500);
  });

  it('refuses at registration an admin path that is not admin-only, and security written by hand', async () => {
    const app = await appWithRouteAuth({ user: null });
    expect(() => app.get('/api/admin/open', async () => ({}))).toThrow(/declare config: \{ auth: 'admin' \}/);
    expect(() => app.get('/api/admin/users-only', { config: { auth: 'user' } }, async () => ({}))).toThrow(
      /declare config: \{ auth: 'admin' \}/,
    );
    expect(() =>
      app.get('/by-hand', { schema: { security: [{ bearerAuth: [] }] } }, async () => ({})),
    ).toThrow(/not schema.security/);
  });
});
