import type { FastifyBaseLogger } from 'fastify';
import { createFeePayerFunds } from '#server/chain/fee-payer-funds';
import { GUARDIAN_MIN_LAMPORTS, guardianBalance } from '#server/chain/guardian-funds';
import type { AppDeps } from '#server/deps';
import type { InstanceBus } from '#server/instance-bus';
import { createMailer } from './email';
import { createNotificationJobs } from './jobs';
import { createLiveNotifications } from './live';
import type { MailTokens } from './tokens';

/**
 * The moving parts of notifications in a running server: the live sockets' side (what the
 * database announces reaches each user's sockets on this instance) and the job's (mail through
 * SMTP_URL, webhooks, dare-ending notices, low-balance alerts).
 */
export function openNotifications(
  deps: AppDeps & { bus: InstanceBus; tokens: MailTokens; log: FastifyBaseLogger },
) {
  const { config, database, chain, escrowKeys, judging, clock, log } = deps;
  const settings = config.notifications;
  const live = createLiveNotifications(database.db, deps.bus, (error) =>
    log.warn({ err: error }, 'live notifications not sent'),
  );
  const feePayerFunds = createFeePayerFunds({ rpc: chain.rpc, escrowKeys });
  const jobs = createNotificationJobs({
    db: database.db,
    clock,
    config: settings,
    mailer: settings.smtpUrl ? createMailer(settings.smtpUrl, settings.mailFrom) : null,
    tokens: deps.tokens,
    origin: config.publicSite?.origin ?? `http://localhost:${config.port}`,
    balances: {
      async feePayer() {
        const { address, lamports } = await feePayerFunds.balance();
        return { address, lamports, minimum: config.feePayerMinLamports };
      },
      async guardian() {
        const lamports = await guardianBalance(chain.rpc, judging.guardian);
        return { address: judging.guardian, lamports, minimum: GUARDIAN_MIN_LAMPORTS };
      },
    },
    warn: (error, message) => log.warn({ err: error }, message),
  });
  return { live, jobs };
}
