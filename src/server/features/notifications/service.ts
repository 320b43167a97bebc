import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AdminDelivery,
  NOTIFICATION_KINDS,
  NOTIFICATION_MESSAGES,
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationKind,
  type NotificationList,
  type NotificationSettings,
  type UpdateNotificationSettingsRequest,
} from '#contract/notifications';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest } from '#server/errors';
import type { RateLimiter } from '#server/rate-limit/port';
import { tooManyRequests } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { toItem } from './item';
import {
  countUnread,
  findSettings,
  insertEmailDelivery,
  listDeliveries,
  listNotifications,
  markRead,
  savePendingEmail,
  saveSettings,
  verifyEmail,
} from './repo';
import { hashToken, type MailTokens } from './tokens';

/** A verification link works this long. */
const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;

/** The notifications a user reads and the settings a user keeps (docs/decisions/074-notifications.md). */
export function createNotificationsService({
  db,
  clock,
  limiter,
  tokens,
  emailEnabled,
}: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  tokens: MailTokens;
  emailEnabled: boolean;
}) {
  async function settingsOf(userId: number): Promise<NotificationSettings> {
    const row = await findSettings(db, userId);
    const email = Object.fromEntries(
      NOTIFICATION_KINDS.map((kind) => [kind, row?.emailPreferences[kind] !== false]),
    ) as Record<NotificationKind, boolean>;
    const address = row?.pendingEmail ?? row?.email ?? null;
    return {
      email: {
        address,
        verified: address !== null && row?.pendingEmail == null && row?.emailVerifiedAt != null,
      },
      preferences: { email },
      majorDareOptIn: row?.majorDareOptIn ?? false,
    };
  }

  return {
    async list(userId: number, before: number | undefined): Promise<NotificationList> {
      const [rows, unread] = await Promise.all([
        listNotifications(db, userId, before, NOTIFICATIONS_PAGE_SIZE),
        countUnread(db, userId),
      ]);
      return { items: rows.map(toItem), unread };
    },

    async markRead(userId: number, ids: number[] | undefined): Promise<{ unread: number }> {
      await markRead(db, userId, ids, clock());
      return { unread: await countUnread(db, userId) };
    },

    settings: settingsOf,

    async updateSettings(
      userId: number,
      body: UpdateNotificationSettingsRequest,
    ): Promise<NotificationSettings> {
      await saveSettings(db, userId, {
        emailPreferences: body.email,
        majorDareOptIn: body.majorDareOptIn,
        now: clock(),
      });
      return settingsOf(userId);
    },

    /**
     * A new address: a verification mail goes out (through the outbox) and the address gets nothing
     * else until its link is opened. Counted per account and per address, before anything is
     * written, so nobody can make the platform mail a stranger more than a few times.
     */
    async setEmail(userId: number, email: string): Promise<NotificationSettings> {
      if (!emailEnabled) throw new AppError('SERVICE_UNAVAILABLE', NOTIFICATION_MESSAGES.emailDisabled);
      const address = email.toLowerCase();
      const verdict = await limiter.hitAll([
        { key: `verify-mail-user:${userId}`, ...RATE_LIMITS.verificationMailsPerAccount },
        { key: `verify-mail-address:${address}`, ...RATE_LIMITS.verificationMailsPerAddress },
      ]);
      if (!verdict.allowed)
        throw tooManyRequests(NOTIFICATION_MESSAGES.tooManyEmails, verdict.retryAfterSeconds);
      const now = clock();
      const nonce = randomBytes(16).toString('hex');
      const token = tokens.verification(userId, address, nonce);
      await db.transaction(async (tx) => {
        await savePendingEmail(tx, userId, {
          email: address,
          tokenHash: hashToken(token),
          expiresAt: new Date(now.getTime() + VERIFY_TTL_MS),
          now,
        });
        await insertEmailDelivery(tx, {
          deliveryId: randomUUID(),
          event: 'verify-email',
          userId,
          payload: { address, nonce },
          now,
        });
      });
      return settingsOf(userId);
    },

    /** The mail's link: its address becomes the account's verified one. */
    async verifyEmail(token: string | undefined): Promise<void> {
      const userId = token ? await verifyEmail(db, hashToken(token), clock()) : null;
      if (userId === null) throw badRequest(NOTIFICATION_MESSAGES.tokenInvalid);
    },

    /** One-click unsubscribe (a mail's link or its List-Unsubscribe-Post): one kind, or every email. */
    async unsubscribe(
      token: string,
      kind: NotificationKind | undefined,
    ): Promise<{ unsubscribed: NotificationKind | 'all' }> {
      const userId = tokens.unsubscriber(token);
      if (userId === null) throw badRequest(NOTIFICATION_MESSAGES.unsubscribeInvalid);
      const off = Object.fromEntries((kind ? [kind] : NOTIFICATION_KINDS).map((k) => [k, false]));
      await saveSettings(db, userId, { emailPreferences: off, now: clock() });
      return { unsubscribed: kind ?? 'all' };
    },

    async deliveries(
      status: 'pending' | 'delivered' | 'failed' | undefined,
    ): Promise<{ items: AdminDelivery[] }> {
      const rows = await listDeliveries(db, status);
      const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());
      return {
        items: rows.map((row) => ({
          id: String(row.delivery_id),
          channel: row.channel as 'email' | 'webhook',
          event: String(row.event),
          dareId: (row.dare_id as number | null) ?? null,
          target:
            row.channel === 'webhook'
              ? originOf(String(row.target))
              : ((row.username as string | null) ?? null),
          status: row.delivered_at != null ? 'delivered' : row.failed_at != null ? 'failed' : 'pending',
          attempts: Number(row.attempts),
          lastError: (row.last_error as string | null) ?? null,
          nextAttemptAt: row.delivered_at == null && row.failed_at == null ? iso(row.next_attempt_at) : null,
          deliveredAt: iso(row.delivered_at),
          createdAt: iso(row.created_at)!,
        })),
      };
    },
  };
}

/** A receiver's URL may carry a secret (Slack's, Discord's): the panel shows its origin only. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
