import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { adminRoutes } from '../admin/routes';
import { createAdminService } from '../admin/service';
import { type Announce, noAnnouncements } from '../chat/announce';
import { claimRoutes } from '../claims/routes';
import { createClaimsService } from '../claims/service';
import { leaderboardRoutes } from '../leaderboard/routes';
import { majorDareRoutes } from '../major-dare/routes';
import { createMajorDareService } from '../major-dare/service';
import { profileRoutes } from '../profile/routes';
import { createRefundsService } from '../refunds/service';
import type { VideoAccess } from '../videos/access';
import { payoutLifecycle } from './lifecycle';
import { createPayoutsService } from './service';

/**
 * Everything where money leaves the escrows (issue 6): moderation and winners, the major dare,
 * prize claims, refunds, leaderboard and profile, plus start-up recovery and the refund job.
 */
export async function registerPayoutFeatures(
  app: FastifyInstance,
  deps: AppDeps,
  videoAccess: VideoAccess,
  announce: Announce = noAnnouncements,
): Promise<void> {
  const db = deps.database.db;
  const payouts = createPayoutsService({
    db,
    chain: deps.chain,
    escrowKeys: deps.escrowKeys,
    clock: deps.clock,
  });
  const claims = createClaimsService({ db, chain: deps.chain, clock: deps.clock, payouts });
  const refunds = createRefundsService({ db, chain: deps.chain, clock: deps.clock, payouts });
  const admin = createAdminService({ db, clock: deps.clock, refunds, claims, announce });
  const majorDare = createMajorDareService({
    db,
    chain: deps.chain,
    clock: deps.clock,
    claims,
    announce,
    majorPrizeMaxSol: deps.config.majorPrizeMaxSol,
  });

  await app.register(adminRoutes, { db, admin, feePayerBalance: payouts.feePayerBalance, videoAccess });
  await app.register(majorDareRoutes, { db, majorDare });
  await app.register(claimRoutes, { claims });
  await app.register(leaderboardRoutes, { db });
  await app.register(profileRoutes, { db });
  await app.register(payoutLifecycle, { chain: deps.chain, payouts, claims, refunds });
}
