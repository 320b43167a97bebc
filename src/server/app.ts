import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { EscrowKeys } from './chain/escrow-keys';
import type { ChainPort } from './chain/port';
import type { AppConfig, TrustProxy } from './config';
import type { Database } from './db/client';
import { authRoutes } from './features/auth/routes';
import { createAuthService } from './features/auth/service';
import { registerChat } from './features/chat/register';
import { configRoutes } from './features/config/routes';
import { dareRoutes } from './features/dares/routes';
import { createDaresService } from './features/dares/service';
import { healthRoutes } from './features/health/routes';
import { paymentRoutes } from './features/payments/routes';
import { createPaymentsService } from './features/payments/service';
import { registerPayoutFeatures } from './features/payouts/register';
import { settingsRoutes } from './features/settings/routes';
import { ogMetaRoutes } from './features/share/og-meta';
import { statsRoutes } from './features/stats/routes';
import { submissionRoutes } from './features/submissions/routes';
import { createSubmissionsService } from './features/submissions/service';
import { userAdminRoutes } from './features/users/routes';
import { createVideoAccess } from './features/videos/access';
import { videoJanitor } from './features/videos/janitor';
import { createVideoQuota } from './features/videos/quota';
import { videoRoutes } from './features/videos/routes';
import { authenticate } from './plugins/authenticate';
import { errorHandler } from './plugins/error-handler';
import { openApi } from './plugins/openapi';
import { RateLimiter } from './plugins/rate-limit';
import { READ_CACHE_MAX_AGE_MS, readCache } from './plugins/read-cache';
import { securityHeaders } from './plugins/security-headers';
import { staticWeb } from './plugins/static-web';
import type { StoragePort } from './storage/port';

export type Clock = () => Date;

/** Everything the app talks to, chosen by main.ts (or a test): the app itself never picks an adapter. */
export interface AppDeps {
  config: AppConfig;
  database: Database;
  chain: ChainPort;
  /** Derives escrow addresses and signers from the master seed; nothing else sees the seed. */
  escrowKeys: EscrowKeys;
  storage: StoragePort;
  clock: Clock;
}

export interface BuildAppOptions extends AppDeps {
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  webRoot?: string;
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
  const { logger = false, webRoot, ...deps } = options;
  const app = Fastify({
    logger,
    trustProxy: proxyTrust(deps.config.trustProxy),
    // JSON bodies are small; uploads go through multipart with their own limit.
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorHandler);
  await app.register(securityHeaders);
  await app.register(openApi);
  // Tight limits for any multipart route; the upload route narrows them to its two parts.
  await app.register(fastifyMultipart, {
    limits: { parts: 2, files: 1, fields: 1, fieldNameSize: 16, fieldSize: 16, headerPairs: 8 },
  });

  await app.register(authenticate, { db: deps.database.db, clock: deps.clock });
  await app.register(readCache, { maxAgeMs: READ_CACHE_MAX_AGE_MS, now: () => Date.now() });

  const limiter = new RateLimiter(() => deps.clock().getTime());
  const auth = createAuthService({
    db: deps.database.db,
    clock: deps.clock,
    cluster: deps.chain.cluster,
    config: deps.config,
    limiter,
  });

  await app.register(healthRoutes, deps);
  await app.register(authRoutes, { auth });
  await app.register(settingsRoutes, { db: deps.database.db });
  await app.register(userAdminRoutes, { db: deps.database.db, clock: deps.clock });
  await app.register(configRoutes, deps);

  const payments = createPaymentsService({
    ...deps,
    db: deps.database.db,
    limiter,
    majorPrizeMaxSol: deps.config.majorPrizeMaxSol,
  });
  await app.register(paymentRoutes, { payments });
  const chat = await registerChat(app, deps, limiter, auth);
  const dares = createDaresService({
    db: deps.database.db,
    chain: deps.chain,
    clock: deps.clock,
    announce: chat.announce,
  });
  await app.register(dareRoutes, { dares, db: deps.database.db, clock: deps.clock });

  const videoAccess = createVideoAccess({
    secret: deps.escrowKeys.secretFor('video-links'),
    clock: deps.clock,
  });
  const submissions = createSubmissionsService({
    db: deps.database.db,
    clock: deps.clock,
    storage: deps.storage,
    videoAccess,
  });
  await app.register(submissionRoutes, { submissions });
  const videoQuota = createVideoQuota({ storage: deps.storage, capBytes: deps.config.storage.maxBytes });
  await app.register(videoRoutes, {
    db: deps.database.db,
    storage: deps.storage,
    submissions,
    limiter,
    quota: videoQuota,
    videoAccess,
    bodyTimeoutMs: deps.config.uploadBodyTimeoutMs,
  });
  await app.register(videoJanitor, {
    db: deps.database.db,
    storage: deps.storage,
    quota: videoQuota,
    clock: deps.clock,
  });
  await app.register(statsRoutes, { db: deps.database.db, clock: deps.clock });

  await registerPayoutFeatures(app, deps, videoAccess, chat.announce);
  await app.register(ogMetaRoutes, { db: deps.database.db, clock: deps.clock, webRoot });
  await app.register(staticWeb, { root: webRoot });
  return app;
}
