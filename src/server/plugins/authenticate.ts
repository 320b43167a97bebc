import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '#server/deps';
import { sessionUser } from '#server/features/auth/sessions';
import type { UserRow } from '#server/features/auth/user';
import type { Db } from '../db/client';
import { AppError, unauthenticated } from '../errors';
import { hashToken } from '../features/auth/tokens';

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
 * and anything needing a session answers 401 saying the session ended.
 */
export const authenticate = fp(async (app: FastifyInstance, { db, clock }: { db: Db; clock: Clock }) => {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionTokenHash', null);
  app.decorateRequest('sessionInvalid', false);
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

export function requireUser(request: FastifyRequest): UserRow {
  if (request.user) return request.user;
  throw unauthenticated(
    request.sessionInvalid
      ? 'Your session has ended. Please sign in again.'
      : 'Please connect your wallet or log in first',
  );
}

export function requireAdmin(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.isAdmin) throw new AppError('ADMIN_ONLY', "You don't have admin privileges");
  return user;
}
