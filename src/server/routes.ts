import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps';
import { actionRoutes } from './features/actions/routes';
import { adminRoutes } from './features/admin/routes';
import { authRoutes } from './features/auth/routes';
import { openLiveChat } from './features/chat/live-chat';
import { chatRoutes } from './features/chat/routes';
import { claimRoutes } from './features/claims/routes';
import { configRoutes } from './features/config/routes';
import { dareRoutes } from './features/dares/routes';
import { healthRoutes } from './features/health/routes';
import { judgingLifecycle } from './features/judging/lifecycle';
import { leaderboardRoutes } from './features/leaderboard/routes';
import { majorDareRoutes } from './features/major-dare/routes';
import { notificationsLifecycle } from './features/notifications/lifecycle';
import { openNotifications } from './features/notifications/open';
import { notificationRoutes } from './features/notifications/routes';
import { paymentsLifecycle } from './features/payments/lifecycle';
import { paymentRoutes } from './features/payments/routes';
import { payoutLifecycle } from './features/payouts/lifecycle';
import { profileRoutes } from './features/profile/routes';
import { refundMeRoutes } from './features/refund-me/routes';
import { settingsRoutes } from './features/settings/routes';
import { ogMetaRoutes } from './features/share/og-meta';
import { statsRoutes } from './features/stats/routes';
import { submissionRoutes } from './features/submissions/routes';
import { testControlRoutes } from './features/test-controls/routes';
import { userAdminRoutes } from './features/users/routes';
import { videoJanitor } from './features/videos/janitor';
import { videoRoutes } from './features/videos/routes';
import type { InstanceBus } from './instance-bus';
import { createJobLock } from './jobs/job-lock';
import { openRateLimiter } from './rate-limit/open';
import { createServices } from './services';

/**
 * Every feature of the app, in the order it is wired: its routes and its background jobs, on the
 * services createServices wires (services.ts). The one place to look for where a route is registered; app.ts adds the
 * cross-cutting plugins before and the web app after.
 */
export async function registerRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  { webRoot, bus }: { webRoot?: string; bus: InstanceBus },
): Promise<void> {
  const { config, database, chain, storage, clock } = deps;
  const db = database.db;
  // Redis with REDIS_URL (one count for the whole deployment), else this process's memory.
  const limiter = await openRateLimiter(config, { now: () => clock().getTime(), log: app.log });
  app.addHook('onClose', () => limiter.close());
  // Background jobs run on one instance at a time (a PostgreSQL advisory lock per run).
  const jobLock = createJobLock(database);

  // Chat: history, /ws, and the bus between instances; other features announce into its rooms.
  const liveChat = openLiveChat({
    database,
    instanceBus: bus,
    clock,
    limiter,
    heartbeatMs: config.chatHeartbeatMs,
    log: app.log,
  });
  app.addHook('onClose', async () => liveChat.close());
  // Every feature's services, wired once (services.ts): the demo data and the tests build the same.
  const services = createServices({
    ...deps,
    limiter,
    announce: liveChat.announce,
    warn: (error, message) => app.log.warn({ err: error }, message),
  });
  const { auth, payments, submissions, judging, claims, payouts, refunds } = services;
  // Notifications' live sockets (the database announces each committed batch) and delivery job.
  const notifying = openNotifications({ ...deps, bus, tokens: services.mailTokens, log: app.log });

  // Health, accounts, System Controls, admin rights, public configuration.
  await app.register(healthRoutes, { ...deps, limiter });
  await app.register(authRoutes, { auth });
  await app.register(settingsRoutes, { settings: services.settings });
  await app.register(userAdminRoutes, { users: services.users });
  await app.register(configRoutes, deps);

  // Money in: dare vaults, payment intents, the relay, test SOL, the transaction explorer.
  await app.register(paymentRoutes, { payments });
  await app.register(paymentsLifecycle, { payments, jobLock });

  await app.register(chatRoutes, {
    db,
    clock,
    chat: liveChat.chat,
    hub: liveChat.hub,
    bus: liveChat.bus,
    limiter,
    heartbeatMs: config.chatHeartbeatMs,
    opensPerSecond: config.rateLimits.chatOpensPerSecond,
    onSignedIn: notifying.live.attach,
  });
  auth.onSessionEnded(liveChat.endSession);

  // Dares.
  await app.register(dareRoutes, { dares: services.dares });

  // Proofs: submissions and votes, uploads and who may play them, the clean-up of unused uploads.
  await app.register(submissionRoutes, { submissions });
  await app.register(videoRoutes, { videos: services.videos });
  await app.register(videoJanitor, {
    db,
    storage,
    quota: services.videoQuota,
    clock,
    jobLock,
    proofChecks: submissions.proofChecks,
  });

  await app.register(statsRoutes, { db, clock });

  // Money out: moderation and winners, the major dare, prize claims and refunds (docs/decisions/008).
  await app.register(adminRoutes, {
    admin: services.admin,
    feePayerStatus: services.feePayerStatus,
    videoAccess: services.videoAccess,
    judging,
  });
  await app.register(majorDareRoutes, { majorDare: services.majorDare, judging });
  await app.register(judgingLifecycle, { judging, jobLock, intervalMs: config.payoutJobIntervalMs });
  await app.register(claimRoutes, { claims });
  await app.register(refundMeRoutes, { refundMe: services.refundMe });
  await app.register(leaderboardRoutes, { db });
  await app.register(profileRoutes, { db });
  await app.register(notificationRoutes, { notifications: services.notifications });
  await app.register(notificationsLifecycle, {
    jobs: notifying.jobs,
    jobLock,
    intervalMs: config.notifications.jobIntervalMs,
  });
  // Start-up recovery of interrupted transfers, then the periodic refund job.
  await app.register(payoutLifecycle, {
    chain,
    payouts,
    claims,
    refunds,
    jobLock,
    intervalMs: config.payoutJobIntervalMs,
  });

  // Solana Actions (blinks): a dare backed from wherever its link goes (decision 066).
  await app.register(actionRoutes, {
    actions: services.actions,
    currentMajorDareId: async () => {
      const current = await services.majorDare.current();
      return current.isActive ? current.id : null;
    },
    config,
  });

  // Shared dare links: the page's social preview.
  await app.register(ogMetaRoutes, { db, clock, webRoot });

  // Tests only, and only with EMBEDDED_CHAIN_TEST_CONTROLS=1 (in-process tests hold the chain's
  // controls directly; the route is for a test that drives a started server).
  if (config.chain.embedded && config.chain.testControls && chain.testControls) {
    await app.register(testControlRoutes, { controls: chain.testControls });
  }
}
