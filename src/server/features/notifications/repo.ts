import { and, desc, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import {
  dareSubmissions,
  dares,
  notificationDeliveries,
  notificationOnce,
  notificationSettings,
  notifications,
  users,
} from '#server/db/schema';

export type NotificationRow = typeof notifications.$inferSelect;
export type DeliveryRow = typeof notificationDeliveries.$inferSelect;
export type SettingsRow = typeof notificationSettings.$inferSelect;

/** The bus channel the database itself announces new notifications on (at commit: pg_notify is transactional). */
export const NOTIFICATIONS_CHANNEL = 'darepool_notifications';

/** How long an email or webhook is retried before it is marked failed. */
export const DELIVERY_EXPIRY_MS = 24 * 60 * 60 * 1000;

export interface Emission {
  kind: string;
  dareId: number | null;
  title: string;
  body: string;
  link: string;
  data: Record<string, unknown>;
  now: Date;
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** The creator, every backer and every entrant of a dare, once each. */
export function dareAudience(dareId: number): SQL {
  return sql`select creator_id as user_id from dares where id = ${dareId}
    union select user_id from pool_contributions where dare_id = ${dareId}
    union select user_id from dare_submissions where dare_id = ${dareId}`;
}

/** These users (the ones that exist). */
export function someUsers(userIds: readonly number[]): SQL {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return sql`select id as user_id from users where false`;
  return sql`select id as user_id from users where id in (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

/** Every user who opted in to hear of a new Major Dare. */
export function majorDareSubscribers(): SQL {
  return sql`select user_id from notification_settings where major_dare_opt_in`;
}

/**
 * Writes one notification per recipient, and an email delivery for each whose verified address
 * wants this kind, in ONE statement (set-based: 10,000 backers are one round trip), then announces
 * the new rows' id range on the bus channel, which PostgreSQL sends only if the caller's
 * transaction commits. Returns how many were written.
 */
export async function insertNotifications(tx: DbOrTx, recipients: SQL, n: Emission): Promise<number> {
  const expires = new Date(n.now.getTime() + DELIVERY_EXPIRY_MS);
  const result = await tx.execute(sql`
    with recipients as (${recipients}),
    ins as (
      insert into notifications (user_id, kind, dare_id, title, body, link, data, created_at)
      select r.user_id, ${n.kind}, ${n.dareId}::int, ${n.title}, ${n.body}, ${n.link}, ${JSON.stringify(n.data)}::jsonb, ${at(n.now)}
      from recipients r where r.user_id is not null
      returning id, user_id
    ),
    mail as (
      insert into notification_deliveries
        (delivery_id, channel, event, notification_id, user_id, dare_id, expires_at, next_attempt_at, created_at)
      select gen_random_uuid()::text, 'email', ${n.kind}, ins.id, ins.user_id, ${n.dareId}::int, ${at(expires)}, ${at(n.now)}, ${at(n.now)}
      from ins join notification_settings s on s.user_id = ins.user_id
      where s.email is not null and s.email_verified_at is not null
        and coalesce((s.email_preferences ->> ${n.kind})::boolean, true)
      returning 1
    )
    select count(*)::int as count,
      pg_notify(${NOTIFICATIONS_CHANNEL}, json_build_object('from', min(id), 'to', max(id))::text) as notified
    from ins having count(*) > 0`);
  const rows = (result as unknown as { rows: { count: number }[] }).rows;
  return rows[0]?.count ?? 0;
}

/** A webhook event in the outbox (spread to the configured receivers by the delivery job). */
export async function insertWebhookEvent(
  tx: DbOrTx,
  event: {
    deliveryId: string;
    event: string;
    dareId: number | null;
    payload: Record<string, unknown>;
    now: Date;
  },
): Promise<void> {
  await tx.insert(notificationDeliveries).values({
    deliveryId: event.deliveryId,
    channel: 'webhook',
    event: event.event,
    dareId: event.dareId,
    payload: event.payload,
    nextAttemptAt: event.now,
    expiresAt: new Date(event.now.getTime() + DELIVERY_EXPIRY_MS),
    createdAt: event.now,
  });
}

/** True the first time a key is taken: what is notified once (a dare's ending) is written only then. */
export async function takeOnce(tx: DbOrTx, key: string, now: Date): Promise<boolean> {
  const rows = await tx
    .insert(notificationOnce)
    .values({ key, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: notificationOnce.key });
  return rows.length === 1;
}

export async function dareTitle(
  tx: DbOrTx,
  dareId: number,
): Promise<{ title: string; isMajor: boolean } | undefined> {
  const [row] = await tx
    .select({ title: dares.title, isMajor: dares.isMajor })
    .from(dares)
    .where(eq(dares.id, dareId));
  return row;
}

export async function submissionForReview(tx: DbOrTx, submissionId: number) {
  const [row] = await tx
    .select({
      id: dareSubmissions.id,
      dareId: dareSubmissions.dareId,
      userId: dareSubmissions.userId,
      title: dares.title,
    })
    .from(dareSubmissions)
    .innerJoin(dares, eq(dares.id, dareSubmissions.dareId))
    .where(eq(dareSubmissions.id, submissionId));
  return row;
}

/** Open dares whose deadline falls within the next `withinMs` and that have not had their notice. */
export async function daresEndingSoon(db: DbOrTx, now: Date, withinMs: number) {
  const result = await db.execute(sql`
    select d.id from dares d
    where d.status = 'active' and d.deadline is not null
      and d.deadline > ${at(now)} and d.deadline <= ${at(new Date(now.getTime() + withinMs))}
      and not exists (select 1 from notification_once o where o.key = 'dare-ending:' || d.id)
    order by d.deadline limit 100`);
  return (result as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);
}

// ---- reading and marking ------------------------------------------------------------------

export async function listNotifications(
  db: DbOrTx,
  userId: number,
  before: number | undefined,
  limit: number,
) {
  return db
    .select()
    .from(notifications)
    .where(
      and(eq(notifications.userId, userId), before === undefined ? undefined : lt(notifications.id, before)),
    )
    .orderBy(desc(notifications.id))
    .limit(limit);
}

export async function countUnread(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.count ?? 0;
}

export async function markRead(
  db: DbOrTx,
  userId: number,
  ids: number[] | undefined,
  now: Date,
): Promise<void> {
  if (ids !== undefined && ids.length === 0) return;
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids === undefined ? undefined : inArray(notifications.id, ids),
      ),
    );
}

/** New notifications of a range (one emission) for the users with a socket on this instance. */
export async function notificationsInRange(db: DbOrTx, from: number, to: number, userIds: readonly number[]) {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(notifications)
    .where(
      and(sql`${notifications.id} between ${from} and ${to}`, inArray(notifications.userId, [...userIds])),
    )
    .orderBy(notifications.id);
}

// ---- settings ------------------------------------------------------------------------------

export async function findSettings(db: DbOrTx, userId: number): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return row;
}

export async function saveSettings(
  db: DbOrTx,
  userId: number,
  update: { emailPreferences?: Record<string, boolean>; majorDareOptIn?: boolean; now: Date },
): Promise<void> {
  const set: Partial<SettingsRow> = { updatedAt: update.now };
  if (update.majorDareOptIn !== undefined) set.majorDareOptIn = update.majorDareOptIn;
  await db
    .insert(notificationSettings)
    .values({
      userId,
      emailPreferences: update.emailPreferences ?? {},
      majorDareOptIn: update.majorDareOptIn ?? false,
      updatedAt: update.now,
    })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: {
        ...set,
        ...(update.emailPreferences === undefined
          ? {}
          : {
              emailPreferences: sql`${notificationSettings.emailPreferences} || ${JSON.stringify(update.emailPreferences)}::jsonb`,
            }),
      },
    });
}

/** A new address waits for its link; the verified one (if any) stays until then. */
export async function savePendingEmail(
  db: DbOrTx,
  userId: number,
  pending: { email: string; tokenHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  const values = {
    pendingEmail: pending.email,
    emailTokenHash: pending.tokenHash,
    emailTokenExpiresAt: pending.expiresAt,
    updatedAt: pending.now,
  };
  await db
    .insert(notificationSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
}

/** The link was opened: its address becomes the verified one. Null when no pending address has this token. */
export async function verifyEmail(db: DbOrTx, tokenHash: string, now: Date): Promise<number | null> {
  const rows = await db
    .update(notificationSettings)
    .set({
      email: sql`${notificationSettings.pendingEmail}`,
      emailVerifiedAt: now,
      pendingEmail: null,
      emailTokenHash: null,
      emailTokenExpiresAt: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(notificationSettings.emailTokenHash, tokenHash),
        sql`${notificationSettings.emailTokenExpiresAt} > ${at(now)}`,
        sql`${notificationSettings.pendingEmail} is not null`,
      ),
    )
    .returning({ userId: notificationSettings.userId });
  return rows[0]?.userId ?? null;
}

/** An email delivery (verification mails carry their address and nonce, never the token). */
export async function insertEmailDelivery(
  db: DbOrTx,
  mail: { deliveryId: string; event: string; userId: number; payload: Record<string, unknown>; now: Date },
): Promise<void> {
  await db.insert(notificationDeliveries).values({
    deliveryId: mail.deliveryId,
    channel: 'email',
    event: mail.event,
    userId: mail.userId,
    payload: mail.payload,
    nextAttemptAt: mail.now,
    expiresAt: new Date(mail.now.getTime() + DELIVERY_EXPIRY_MS),
    createdAt: mail.now,
  });
}

// ---- the delivery job ----------------------------------------------------------------------

/**
 * Claims up to `limit` due deliveries for `leaseMs` (one attempt counted each): rows another run
 * holds are skipped, so two runners never send the same row at once. A run that dies after sending
 * leaves its lease to expire: the row is sent again, once, with the same delivery id.
 */
export async function claimDue(
  db: DbOrTx,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<DeliveryRow[]> {
  const result = await db.execute(sql`
    update notification_deliveries d set claimed_until = ${at(new Date(now.getTime() + leaseMs))}, attempts = d.attempts + 1
    where d.id in (
      select id from notification_deliveries
      where delivered_at is null and failed_at is null and next_attempt_at <= ${at(now)}
        and (claimed_until is null or claimed_until <= ${at(now)})
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked
    )
    returning d.id`);
  const ids = (result as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);
  if (ids.length === 0) return [];
  return db.select().from(notificationDeliveries).where(inArray(notificationDeliveries.id, ids));
}

/** A webhook event spread to its receivers: one row per URL, same id and body; the event row is done. */
export async function spreadWebhookEvent(
  db: DbOrTx,
  event: DeliveryRow,
  targets: readonly string[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (targets.length > 0)
      await tx
        .insert(notificationDeliveries)
        .values(
          targets.map((target) => ({
            deliveryId: event.deliveryId,
            channel: 'webhook' as const,
            event: event.event,
            dareId: event.dareId,
            target,
            payload: event.payload,
            nextAttemptAt: now,
            expiresAt: event.expiresAt,
            createdAt: event.createdAt,
          })),
        )
        .onConflictDoNothing();
    await tx
      .update(notificationDeliveries)
      .set({ deliveredAt: now, claimedUntil: null })
      .where(eq(notificationDeliveries.id, event.id));
  });
}

export async function recordDelivered(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(notificationDeliveries)
    .set({ deliveredAt: now, claimedUntil: null, lastError: null })
    .where(eq(notificationDeliveries.id, id));
}

/** A failed attempt: tried again at `retryAt`, or failed for good when that is past its expiry. */
export async function recordFailure(
  db: DbOrTx,
  row: DeliveryRow,
  failure: { error: string; retryAt: Date; now: Date; final?: boolean },
): Promise<void> {
  const final = failure.final === true || failure.retryAt >= row.expiresAt;
  await db
    .update(notificationDeliveries)
    .set({
      lastError: failure.error.slice(0, 500),
      claimedUntil: null,
      nextAttemptAt: failure.retryAt,
      failedAt: final ? failure.now : null,
    })
    .where(eq(notificationDeliveries.id, row.id));
}

/** Where an email goes: the user's verified address and switches, or nothing. */
export async function emailRecipient(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      userId: users.id,
      username: users.username,
      email: notificationSettings.email,
      verifiedAt: notificationSettings.emailVerifiedAt,
      preferences: notificationSettings.emailPreferences,
    })
    .from(users)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export async function findNotification(db: DbOrTx, id: number): Promise<NotificationRow | undefined> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

/** The admin panel's list: newest deliveries (webhook events not yet spread are left out). */
export async function listDeliveries(db: DbOrTx, status: 'pending' | 'delivered' | 'failed' | undefined) {
  const statusFilter =
    status === 'delivered'
      ? sql`d.delivered_at is not null`
      : status === 'failed'
        ? sql`d.failed_at is not null`
        : status === 'pending'
          ? sql`d.delivered_at is null and d.failed_at is null`
          : sql`true`;
  const result = await db.execute(sql`
    select d.*, u.username from notification_deliveries d left join users u on u.id = d.user_id
    where not (d.channel = 'webhook' and d.target is null) and ${statusFilter}
    order by d.id desc limit 100`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows;
}

export async function dareDeadline(db: DbOrTx, dareId: number): Promise<Date | null> {
  const [row] = await db.select({ deadline: dares.deadline }).from(dares).where(eq(dares.id, dareId));
  return row?.deadline ?? null;
}
