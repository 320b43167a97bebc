import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { TrustProxy } from './config';
import type { AppDeps } from './deps';
import { type FrontDoorSlot, serverWithFrontDoor } from './http-server';
import { openInstanceBus } from './instance-bus';
import { authenticate } from './plugins/authenticate';
import { errorHandler } from './plugins/error-handler';
import { openApi } from './plugins/openapi';
import { READ_CACHE_MAX_AGE_MS, readCache } from './plugins/read-cache';
import { createRequestLog } from './plugins/request-log';
import { appSecurityHeaders, securityHeaders } from './plugins/security-headers';
import { staticWeb } from './plugins/static-web';
import { registerRoutes } from './routes';

export interface BuildAppOptions extends AppDeps {
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  webRoot?: string;
  /** Tests only: how long an answer took, for the slow-request log (Fastify's clock otherwise). */
  answerTime?: (reply: FastifyReply) => number;
}

/**
 * Fastify treats a bare hop count as "trust nothing", so hops are counted here: the socket's peer
 * and the next n-1 addresses are proxies, and the address the last of them saw is the client's.
 */
function proxyTrust(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { logger = false, webRoot, answerTime, ...deps } = options;
  const requestLog = createRequestLog({ slowMs: deps.config.slowRequestMs, answerTime });
  // The read cache puts its front door here once the app is ready.
  const frontDoor: FrontDoorSlot = { door: null };
  const app = Fastify({
    serverFactory: serverWithFrontDoor(frontDoor),
    logger,
    // Failures and slow answers only (docs/decisions/023-request-logging.md).
    logController: requestLog.controller,
    trustProxy: proxyTrust(deps.config.trustProxy),
    // JSON bodies are small; uploads go through multipart with their own limit.
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestLog.plugin);
  await app.register(errorHandler);
  await app.register(securityHeaders);
  await app.register(openApi);
  // Tight limits for any multipart route; the upload route narrows them to its two parts.
  await app.register(fastifyMultipart, {
    limits: { parts: 2, files: 1, fields: 1, fieldNameSize: 16, fieldSize: 16, headerPairs: 8 },
  });

  await app.register(authenticate, { db: deps.database.db, clock: deps.clock });
  // Between instances (PostgreSQL LISTEN/NOTIFY): chat, and the read cache's invalidations.
  const bus = await openInstanceBus(deps.database, (error) =>
    app.log.warn({ err: error }, 'instance bus listener reconnecting'),
  );
  app.addHook('onClose', () => bus.close());
  await app.register(readCache, {
    maxAgeMs: READ_CACHE_MAX_AGE_MS,
    now: () => Date.now(),
    bus,
    frontDoor: { slot: frontDoor, headersFor: appSecurityHeaders },
  });

  await registerRoutes(app, deps, { webRoot, bus });
  // Last: the web app answers every path no route took.
  await app.register(staticWeb, { root: webRoot });
  return app;
}
