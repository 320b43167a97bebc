import type { AppConfig } from '#server/config';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { type Mail, type Mailer, notificationMail, verificationMail } from './email';
import {
  claimDue,
  type DeliveryRow,
  emailRecipient,
  findNotification,
  recordDelivered,
  recordFailure,
  spreadWebhookEvent,
} from './repo';
import type { MailTokens } from './tokens';
import { postWebhook, type WebhookFormat, webhookBody } from './webhooks';

/** How long a claimed delivery is this run's: past it (the run died) it is sent again, same id. */
const LEASE_MS = 2 * 60 * 1000;
const BATCH = 100;

/** The wait before attempt n+1: 30 s, 1, 2, 4 … minutes, at most an hour; retried for 24 h. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60 * 1000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  config: Pick<AppConfig['notifications'], 'webhookUrls' | 'webhookSecret' | 'webhookFormat'>;
  mailer: Mailer | null;
  tokens: MailTokens;
  /** Where links in mails point: the site's origin. */
  origin: string;
  /** Tests only: runs between a send and its record (a crash there is re-sent once, same id). */
  afterSend?: (row: DeliveryRow) => void | Promise<void>;
}

class Skip extends Error {}

/**
 * One run of the delivery job: claims what is due, sends each (emails and webhook posts in
 * parallel, each with its own timeout), records each outcome. Failures are retried with backoff
 * until the row's expiry (24 h), then marked failed. Returns how many it claimed and delivered.
 */
export async function deliverDue(deps: DeliveryDeps): Promise<{ claimed: number; sent: number }> {
  const { db, clock } = deps;
  const rows = await claimDue(db, clock(), LEASE_MS, BATCH);
  const outcomes = await Promise.all(rows.map((row) => deliverOne(deps, row)));
  return { claimed: rows.length, sent: outcomes.filter(Boolean).length };
}

async function deliverOne(deps: DeliveryDeps, row: DeliveryRow): Promise<boolean> {
  const { db, clock } = deps;
  if (row.channel === 'webhook' && row.target === null) {
    await spreadWebhookEvent(db, row, deps.config.webhookUrls, clock());
    return false;
  }
  try {
    if (row.channel === 'webhook') await sendWebhook(deps, row);
    else await sendEmail(deps, row);
  } catch (error) {
    const now = clock();
    await recordFailure(db, row, {
      error: error instanceof Error ? error.message : String(error),
      retryAt: new Date(now.getTime() + backoffMs(row.attempts)),
      now,
      final: error instanceof Skip,
    });
    return false;
  }
  await deps.afterSend?.(row);
  await recordDelivered(db, row.id, clock());
  return true;
}

async function sendWebhook(deps: DeliveryDeps, row: DeliveryRow): Promise<void> {
  const payload = row.payload as { body: Parameters<typeof webhookBody>[0]; title: string | null };
  const format: WebhookFormat = deps.config.webhookFormat;
  const raw = webhookBody(payload.body, payload.title, format);
  await postWebhook(row.target!, raw, {
    deliveryId: row.deliveryId,
    secret: deps.config.webhookSecret,
    event: row.event,
  });
}

async function sendEmail(deps: DeliveryDeps, row: DeliveryRow): Promise<void> {
  if (!deps.mailer) throw new Skip('not sent: email is not set up (SMTP_URL)');
  if (row.userId === null) throw new Skip('not sent: no recipient');
  const mail = await mailFor(deps, row, row.userId);
  await deps.mailer.send(mail);
}

async function mailFor(deps: DeliveryDeps, row: DeliveryRow, userId: number): Promise<Mail> {
  const { db, origin, tokens } = deps;
  if (row.event === 'verify-email') {
    // The only mail an unverified address gets: its own link, the token derived again (never stored).
    const { address, nonce } = row.payload as { address: string; nonce: string };
    const token = tokens.verification(userId, address, nonce);
    return verificationMail({
      to: address,
      deliveryId: row.deliveryId,
      url: `${origin}/api/profile/email/verify?token=${encodeURIComponent(token)}`,
    });
  }
  const recipient = await emailRecipient(db, userId);
  // Read at send time: an address changed or a switch turned off since the event stops the mail.
  if (!recipient?.email || !recipient.verifiedAt) throw new Skip('not sent: no verified address');
  if (recipient.preferences?.[row.event] === false) throw new Skip('not sent: turned off by the user');
  const notification =
    row.notificationId === null ? undefined : await findNotification(db, row.notificationId);
  if (!notification) throw new Skip('not sent: the notification is gone');
  const token = encodeURIComponent(tokens.unsubscribe(userId));
  return notificationMail({
    to: recipient.email,
    deliveryId: row.deliveryId,
    title: notification.title,
    body: notification.body,
    url: `${origin}${notification.link}`,
    unsubscribeUrl: `${origin}/api/notifications/unsubscribe?token=${token}&kind=${encodeURIComponent(row.event)}`,
    unsubscribeAllUrl: `${origin}/api/notifications/unsubscribe?token=${token}`,
  });
}
