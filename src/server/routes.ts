import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps';
import { adminRoutes } from './features/admin/routes';
import { createAdminService } from './features/admin/service';
import { authRoutes } from './features/auth/routes';
import { createAuthService } from './features/auth/service';
import { openLiveChat } from './features/chat/live-chat';
import { chatRoutes } from './features/chat/routes';
import { claimRoutes } from './features/claims/routes';
import { createClaimsService } from './features/claims/service';
import { configRoutes } from './features/config/routes';
import { dareRoutes } from './features/dares/routes';
import { createDaresService } from './features/dares/service';
import { healthRoutes } from './features/health/routes';
import { judgingLifecycle } from './features/judging/lifecycle';
import { createJudgingService } from './features/judging/service';
import { leaderboardRoutes } from './features/leaderboard/routes';
import { majorDareRoutes } from './features/major-dare/routes';
import { createMajorDareService } from './features/major-dare/service';
import type { RefusedVaults } from './features/payments/jobs/refund-refused-vaults';
import { paymentsLifecycle } from './features/payments/lifecycle';
import { paymentRoutes } from './features/payments/routes';
import { createPaymentsService } from './features/payments/service';
import { feePayerStatus } from './features/payouts/fee-payer';
import { payoutLifecycle } from './features/payouts/lifecycle';
import { createPayoutsService } from './features/payouts/service';
import { profileRoutes } from './features/profile/routes';
import { refundMeRoutes } from './features/refund-me/routes';
import { createRefundMeService } from './features/refund-me/service';
import { createRefundsService } from './features/refunds/service';
import { settingsRoutes } from './features/settings/routes';
import { createSettingsService } from './features/settings/service';
import { ogMetaRoutes } from './features/share/og-meta';
import { statsRoutes } from './features/stats/routes';
import { submissionRoutes } from './features/submissions/routes';
import { createSubmissionsService } from './features/submissions/service';
import { createVideoAccess } from './features/submissions/video-access';
import { testControlRoutes } from './features/test-controls/routes';
import { userAdminRoutes } from './features/users/routes';
import { createUsersService } from './features/users/service';
import { videoJanitor } from './features/videos/janitor';
import { videoRoutes } from './features/videos/routes';
import { createUploadQuota, createVideosService } from './features/videos/service';
import type { InstanceBus } from './instance-bus';
import { createJobLock } from './jobs/job-lock';
import { openRateLimiter } from './rate-limit/open';

/**
 * Every feature of the app, in the order it is wired: the services it needs, its routes and its
 * background jobs. The one place to look for where a route is registered; app.ts adds the
 * cross-cutting plugins before and the web app after.
 */
export async function registerRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  { webRoot, bus }: { webRoot?: string; bus: InstanceBus },
): Promise<void> {
  const { config, database, chain, escrowKeys, storage, clock } = deps;
  const db = database.db;
  // Redis with REDIS_URL (one count for the whole deployment), else this process's memory.
  const limiter = await openRateLimiter(config, { now: () => clock().getTime(), log: app.log });
  app.addHook('onClose', () => limiter.close());
  // Background jobs run on one instance at a time (a PostgreSQL advisory lock per run).
  const jobLock = createJobLock(database);

  // Health, accounts, System Controls, admin rights, public configuration.
  const auth = createAuthService({ db, clock, cluster: chain.cluster, config, limiter });
  await app.register(healthRoutes, { ...deps, limiter });
  await app.register(authRoutes, { auth });
  await app.register(settingsRoutes, { settings: createSettingsService({ db }) });
  await app.register(userAdminRoutes, { users: createUsersService({ db, clock }) });
  await app.register(configRoutes, deps);

  // Money out goes through the escrow program: payouts sign settle, cancel and refunds with the
  // moderator and fee payer keys; no key can move a vault's SOL otherwise (decision 021).
  // Both programs: vaults made before v2 keep v1's rules (decision 036).
  const escrowPrograms = { v1: deps.escrowProgramId, v2: deps.escrowProgramV2Id };
  const payouts = createPayoutsService({ db, chain, escrowKeys, escrowPrograms, clock });
  const refunds = createRefundsService({ db, chain, clock, payouts });
  // A vault that landed but will never fund a dare is cancelled and every payer refunded, by the
  // refunds feature (payments declares what it needs; refunds depends on payments, not back).
  const refusedVaults: RefusedVaults = { cancelAndRefund: (vault) => refunds.cancelAndRefund(vault) };

  // Money in: dare vaults, payment intents, the relay, test SOL, the transaction explorer.
  const payments = createPaymentsService({
    ...deps,
    db,
    limiter,
    refusedVaults,
    majorPrizeMaxSol: config.majorPrizeMaxSol,
  });
  await app.register(paymentRoutes, { payments });
  await app.register(paymentsLifecycle, { payments, jobLock });

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
  await app.register(chatRoutes, {
    db,
    clock,
    chat: liveChat.chat,
    hub: liveChat.hub,
    bus: liveChat.bus,
    limiter,
    heartbeatMs: config.chatHeartbeatMs,
  });
  auth.onSessionEnded(liveChat.endSession);
  const { announce } = liveChat;

  // Dares.
  const dares = createDaresService({ db, chain, clock, credit: payments.credit, announce });
  await app.register(dareRoutes, { dares });

  // Proofs: submissions and votes, uploads and who may play them, the clean-up of unused uploads.
  const videoAccess = createVideoAccess({ secret: escrowKeys.secretFor('video-links'), clock });
  const videoQuota = createUploadQuota({
    db,
    storage,
    capBytes: config.storage.maxBytes,
    pendingPoolBytes: config.storage.pendingPoolBytes,
  });
  // Program v2: judges' wallets name winners; the guardian may veto within the window (decision 042).
  const judging = createJudgingService({ ...deps, db, announce });
  const submissions = createSubmissionsService({
    ...deps,
    db,
    judgingOutcome: (dareId) => judging.outcomeOf(dareId),
    videoAccess,
    limiter,
    onUploadAttached: videoQuota.attached,
  });
  await app.register(submissionRoutes, { submissions });
  const videos = createVideosService({
    db,
    storage,
    submissions,
    limiter,
    quota: videoQuota,
    videoAccess,
    bodyTimeoutMs: config.uploadBodyTimeoutMs,
    clock,
  });
  await app.register(videoRoutes, { videos });
  await app.register(videoJanitor, {
    db,
    storage,
    quota: videoQuota,
    clock,
    jobLock,
    proofChecks: submissions.proofChecks,
  });

  await app.register(statsRoutes, { db, clock });

  // Money out: moderation and winners, the major dare, prize claims and refunds (docs/decisions/008).
  const claims = createClaimsService({ db, chain, clock, payouts });
  const admin = createAdminService({
    db,
    clock,
    refunds,
    claims,
    announce,
    proofChecks: submissions.proofChecks,
    assertCancellable: (dareId) => judging.assertCancellable(dareId),
  });
  const majorDare = createMajorDareService({
    db,
    clock,
    claims,
    credit: payments.credit,
    announce,
    majorPrizeMaxSol: config.majorPrizeMaxSol,
  });
  await app.register(adminRoutes, {
    admin,
    feePayerStatus: () => feePayerStatus(payouts, config.feePayerMinLamports),
    videoAccess,
    judging,
  });
  await app.register(majorDareRoutes, { majorDare, judging });
  await app.register(judgingLifecycle, { judging, jobLock, intervalMs: config.payoutJobIntervalMs });
  await app.register(claimRoutes, { claims });
  // 'Refund me': a payer's own wallet signs the refund; the relay books it through the money-out
  // feature that notices payments other people sent from a vault (decision 025).
  const refundMe = createRefundMeService({
    ...deps,
    db,
    limiter,
    booking: {
      bookOutsideRefunds: async (target) => {
        await payouts.noticeVaultPayments(target);
      },
    },
    onBookingFailed: (error) =>
      app.log.warn({ err: error }, 'A relayed refund is not booked yet: the refund job will book it'),
  });
  await app.register(refundMeRoutes, { refundMe });
  await app.register(leaderboardRoutes, { db });
  await app.register(profileRoutes, { db });
  // Start-up recovery of interrupted transfers, then the periodic refund job.
  await app.register(payoutLifecycle, {
    chain,
    payouts,
    claims,
    refunds,
    jobLock,
    intervalMs: config.payoutJobIntervalMs,
  });

  // Shared dare links: the page's social preview.
  await app.register(ogMetaRoutes, { db, clock, webRoot });

  // Tests only, and only with EMBEDDED_CHAIN_TEST_CONTROLS=1 (in-process tests hold the chain's
  // controls directly; the route is for a test that drives a started server).
  if (config.chain.embedded && config.chain.testControls && chain.testControls) {
    await app.register(testControlRoutes, { controls: chain.testControls });
  }
}
