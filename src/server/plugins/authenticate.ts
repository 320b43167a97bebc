import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { sessionUser } from '#server/features/auth/sessions';
import { hashToken } from '#server/features/auth/tokens';
import type { UserRow } from '#server/features/auth/user';
import { declareRouteAuth } from './route-auth';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's user, resolved from `Authorization: Bearer`; null for visitors. */
    user: UserRow | null;
    sessionTokenHash: string | null;
    /** A token was sent but names no live session (expired, revoked, malformed). */
    sessionInvalid: boolean;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,200})$/;

/**
 * Resolves the session on every API request that carries a token. A dead token makes the request
 * a visitor's: public reads still work (a stale token in a browser must not break browsing),
 * and a route declaring `config.auth` answers 401 saying the session ended (route-auth.ts).
 */
export const authenticate = fp(async (app: FastifyInstance, { db, clock }: { db: Db; clock: Clock }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionTokenHash', null);
  app.decorateRequest('sessionInvalid', false);
  // Routes registered after this plugin declare who may call them with `config.auth`.
  app.addHook('onRoute', declareRouteAuth);
  // A callback hook: a visitor's request (the polled public reads) passes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    if (!header || !request.url.startsWith('/api/')) return done();
    const match = BEARER.exec(header);
    const tokenHash = match ? hashToken(match[1]!) : null;
    if (!tokenHash) {
      request.sessionInvalid = true;
      return done();
    }
    sessionUser(db, tokenHash, clock()).then((user) => {
      if (user) {
        request.user = user;
        request.sessionTokenHash = tokenHash;
      } else {
        request.sessionInvalid = true;
      }
      done();
    }, done);
  });
});
