import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  authResponseSchema,
  challengeRequestSchema,
  challengeResponseSchema,
  loginRequestSchema,
  meResponseSchema,
  registerRequestSchema,
  walletAddressSchema,
  walletLoginRequestSchema,
  walletNotRegisteredSchema,
} from '#contract/auth';
import { publicUserSchema } from '#contract/users';
import { errorResponses, notFound } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import { toPublicUser } from './public-user';
import type { AuthService } from './service';

const errors = errorResponses(400, 401, 403, 409, 429, 503);

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  const limitByIp = async (request: FastifyRequest) => auth.limitByIp(request.ip);

  app.post(
    '/api/auth/challenge',
    {
      preHandler: limitByIp,
      schema: {
        tags: ['auth'],
        summary: 'Issue a Sign-In With Solana challenge for a wallet',
        body: challengeRequestSchema,
        response: { 200: challengeResponseSchema, ...errors },
      },
    },
    async (request) => auth.issueChallenge(request.body.walletAddress, auth.signInSite(request)),
  );

  app.post(
    '/api/auth/wallet-login',
    {
      preHandler: limitByIp,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a signed SIWS message',
        body: walletLoginRequestSchema,
        response: { 200: authResponseSchema, 404: walletNotRegisteredSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await auth.walletLogin(request.body, auth.signInSite(request).domain, request.ip);
      if (result.kind === 'unregistered') {
        return reply.status(404).send({
          error: AUTH_MESSAGES.walletNotRegistered,
          code: 'WALLET_NOT_REGISTERED',
          registrationToken: result.registrationToken,
        });
      }
      return { user: toPublicUser(result.user), token: result.token };
    },
  );

  app.post(
    '/api/auth/register',
    {
      preHandler: limitByIp,
      schema: {
        tags: ['auth'],
        summary: 'Create an account for a wallet whose ownership was proven',
        body: registerRequestSchema,
        response: { 201: authResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user, token } = await auth.register(request.body);
      return reply.status(201).send({ user: toPublicUser(user), token });
    },
  );

  app.post(
    '/api/auth/login',
    {
      preHandler: limitByIp,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with username and password',
        body: loginRequestSchema,
        response: { 200: authResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user, token } = await auth.passwordLogin(request.body, request.ip);
      return { user: toPublicUser(user), token };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'End the current session',
        response: { 204: z.null(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await auth.logout(request.sessionTokenHash!);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/auth/me',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'The current user, fresh from the database',
        response: { 200: meResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ user: toPublicUser(userOf(request)) }),
  );

  app.get(
    '/api/auth/user-by-wallet',
    {
      schema: {
        tags: ['auth'],
        summary: 'The public user registered with a wallet',
        querystring: z.object({ wallet: walletAddressSchema }),
        response: { 200: publicUserSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const user = await auth.findUserByWallet(request.query.wallet);
      if (!user) throw notFound(AUTH_MESSAGES.walletNotRegistered);
      return toPublicUser(user);
    },
  );
};
