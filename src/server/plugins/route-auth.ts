import type { FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { AppError, errorResponses, unauthenticated } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { BEARER_AUTH } from './openapi';

/** Who may call a route: a signed-in user, or an admin. */
export type RouteAuth = 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route needs a session (`'user'`) or an admin's session (`'admin'`): the one place a route
     * says so. It sets both the check and the OpenAPI document's `security` (decision 043).
     */
    auth?: RouteAuth;
  }
}

/** Admin routes live under this prefix, and every route under it is admin-only. */
const ADMIN_PREFIX = '/api/admin/';

/**
 * The session's user, for the handler of a route declared with `config: { auth }`: the check has
 * run, so it is there. A route that reads a user without declaring who may call it answers 500
 * to everyone, so its own tests fail instead of it answering 401 the document does not declare.
 */
export function userOf(request: FastifyRequest): UserRow {
  if (!request.routeOptions.config.auth)
    throw new Error(
      `${request.method} ${request.routeOptions.url} reads the session's user but declares no config: { auth }`,
    );
  return sessionUserOrThrow(request);
}

/** 401 for a visitor, saying so when the token named a session that ended. */
function sessionUserOrThrow(request: FastifyRequest): UserRow {
  if (request.user) return request.user;
  throw unauthenticated(
    request.sessionInvalid
      ? 'Your session has ended. Please sign in again.'
      : 'Please connect your wallet or log in first',
  );
}

// Both run before the body is read or validated: a visitor gets 401 and a normal user 403,
// whatever they send, and no body of theirs is parsed.
const checks: Record<RouteAuth, onRequestHookHandler> = {
  user: (request, _reply, done) => {
    sessionUserOrThrow(request);
    done();
  },
  admin: (request, _reply, done) => {
    if (!sessionUserOrThrow(request).isAdmin)
      throw new AppError('ADMIN_ONLY', "You don't have admin privileges");
    done();
  },
};

const listed = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : ([hooks].flat() as T[]));

/**
 * The `onRoute` hook behind `config.auth`: puts the check first among the route's own `onRequest`
 * hooks (after the app-wide session lookup) and declares `security` with the 401 (and 403) answers
 * in the route's schema, which is what the OpenAPI document is generated from. A route that writes
 * `security` itself, or an `/api/admin/` route that is not admin-only, stops the start.
 */
export function declareRouteAuth(route: RouteOptions): void {
  const auth = route.config?.auth;
  const where = `${[route.method].flat().join(',')} ${route.url}`;
  if (route.url.startsWith(ADMIN_PREFIX) && auth !== 'admin')
    throw new Error(`${where}: routes under ${ADMIN_PREFIX} declare config: { auth: 'admin' }`);
  if (!auth) {
    if (route.schema?.security)
      throw new Error(`${where}: declare config: { auth }, not schema.security (decision 043)`);
    return;
  }
  const statuses = auth === 'admin' ? ([401, 403] as const) : ([401] as const);
  route.schema = {
    ...route.schema,
    security: [{ [BEARER_AUTH]: [] }],
    response: { ...errorResponses(...statuses), ...(route.schema?.response as object | undefined) },
  };
  route.onRequest = [checks[auth], ...listed(route.onRequest)];
}
