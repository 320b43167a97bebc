import type { AppDeps } from '#server/deps';
import { createActionsService } from '#server/features/actions/service';
import { createAdminService } from '#server/features/admin/service';
import { createAuthService } from '#server/features/auth/service';
import type { Announce } from '#server/features/chat/announce';
import { createClaimsService } from '#server/features/claims/service';
import { createDaresService } from '#server/features/dares/service';
import { createJudgingService } from '#server/features/judging/service';
import { requireNoLiveMajorDare } from '#server/features/major-dare/current';
import { createMajorDareService } from '#server/features/major-dare/service';
import { createNotificationsService } from '#server/features/notifications/service';
import { createMailTokens } from '#server/features/notifications/tokens';
import type { RefusedVaults } from '#server/features/payments/jobs/refund-refused-vaults';
import { createPaymentsService } from '#server/features/payments/service';
import { feePayerStatus } from '#server/features/payouts/fee-payer';
import { createPayoutsService } from '#server/features/payouts/service';
import { createRefundMeService } from '#server/features/refund-me/service';
import { createRefundsService } from '#server/features/refunds/service';
import { createSettingsService } from '#server/features/settings/service';
import { createSubmissionsService } from '#server/features/submissions/service';
import { createVideoAccess } from '#server/features/submissions/video-access';
import { createUsersService } from '#server/features/users/service';
import { createUploadQuota, createVideosService } from '#server/features/videos/service';
import type { RateLimiter } from '#server/rate-limit/port';

export interface ServiceDeps extends AppDeps {
  /** Redis or memory counters in the app (rate-limit/open.ts); the demo data and tests count in memory. */
  limiter: RateLimiter;
  /**
   * Posts a system message into a dare's chat room: the live chat in the app, a chat with no
   * sockets in the demo data, nothing in the tests.
   */
  announce: Announce;
  /** Where a failure nobody waits for is reported (a relayed refund not booked yet). */
  warn?: (error: unknown, message: string) => void;
}

/**
 * Every feature's services, wired to each other once: the routes (routes.ts), the demo data
 * (demo/seed.ts) and the tests use this, so what they run is what the server runs. Building them
 * starts nothing (no timer, no socket): the jobs and the live chat are the routes' to start.
 */
export function createServices(deps: ServiceDeps) {
  const { config, chain, escrowKeys, storage, clock, limiter, announce } = deps;
  const db = deps.database.db;

  // Accounts, System Controls, admin rights.
  const auth = createAuthService({ db, clock, cluster: chain.cluster, config, limiter });
  const settings = createSettingsService({ db });
  // Notifications: what users read and keep (the emission is in each event's own transaction, the
  // delivery job and the live sockets are the routes' to start: docs/decisions/074).
  const mailTokens = createMailTokens(escrowKeys.secretFor('notification-mail'));
  const notifications = createNotificationsService({
    db,
    clock,
    limiter,
    tokens: mailTokens,
    emailEnabled: config.notifications.smtpUrl !== null,
  });
  const users = createUsersService({ db, clock });

  // Money out goes through the escrow program: payouts sign cancel and refunds with the moderator
  // and fee payer keys, and v2's execute with the fee payer (decision 021); v1's settle is never
  // signed (decision 050). Both programs: vaults made before v2 are v1's until refunded (036).
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
    requireNoLiveMajorDare: (now) => requireNoLiveMajorDare(db, now),
  });

  const dares = createDaresService({ db, chain, clock, credit: payments.credit, announce });

  // Proofs: submissions and votes, uploads and who may play them.
  const videoAccess = createVideoAccess({ secret: escrowKeys.secretFor('video-links'), clock });
  const videoQuota = createUploadQuota({
    db,
    storage,
    capBytes: config.storage.maxBytes,
    pendingPoolBytes: config.storage.pendingPoolBytes,
    clock,
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
  const videos = createVideosService({
    db,
    storage,
    submissions,
    limiter,
    quota: videoQuota,
    videoAccess,
    bodyTimeoutMs: config.uploadBodyTimeoutMs,
    unapprovedLimits: {
      accountBytes: config.storage.unapprovedPerAccountBytes,
      addressBytes: config.storage.unapprovedPerAddressBytes,
    },
    clock,
  });

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
      deps.warn?.(error, 'A relayed refund is not booked yet: the refund job will book it'),
  });

  // Solana Actions: Add to Pool's deposit for any wallet, credited by the vault notice.
  const actions = createActionsService({
    db,
    chain,
    clock,
    limiter,
    dares,
    payments,
    noticeDeposits: (target) => payouts.noticeVaultPayments(target),
  });

  return {
    auth,
    settings,
    notifications,
    mailTokens,
    users,
    payouts,
    refunds,
    payments,
    dares,
    videoAccess,
    videoQuota,
    judging,
    submissions,
    videos,
    claims,
    admin,
    majorDare,
    refundMe,
    actions,
    /** The platform fee payer's balance against FEE_PAYER_MIN_SOL (the admin panel's warning). */
    feePayerStatus: () => feePayerStatus(payouts, config.feePayerMinLamports),
  };
}

export type Services = ReturnType<typeof createServices>;
