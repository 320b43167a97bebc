import { z } from 'zod';
import { idField, idParam } from './ids';
import { text } from './text';

/** What is notified (issue 35): each kind's recipients and moment are in docs/decisions/074-notifications.md. */
export const NOTIFICATION_KINDS = [
  'proof-approved',
  'proof-rejected',
  'winner-proposed',
  'proposal-vetoed',
  'prize-paid',
  'refund-sent',
  'dare-ending',
  'major-dare-started',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The operators' and guardian's webhook events. */
export const WEBHOOK_EVENTS = [
  'winner-proposed',
  'proposal-vetoed',
  'payout-executed',
  'fee-payer-low',
  'guardian-low',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const NOTIFICATION_MESSAGES = {
  emailInvalid: 'Enter a valid email address',
  emailDisabled: 'Email is not set up on this server',
  tooManyEmails: 'Too many verification emails; please try again later',
  tokenInvalid: 'This verification link is invalid or has expired',
  unsubscribeInvalid: 'This unsubscribe link is invalid',
  tooManyIds: 'Mark at most 200 notifications at once',
  reasonMax: 'The reason must be at most 500 characters',
} as const;

export const REJECTION_REASON_MAX = 500;
export const NOTIFICATIONS_PAGE_SIZE = 50;

/** One notification as the bell, the page and the live socket show it. */
export const notificationItemSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(NOTIFICATION_KINDS),
    dareId: z.number().int().nullable(),
    title: z.string(),
    body: z.string(),
    /** Where it leads in the app, e.g. '/dare/4'. */
    link: z.string(),
    createdAt: z.string(),
    readAt: z.string().nullable(),
  })
  .meta({ id: 'NotificationItem' });
export type NotificationItem = z.infer<typeof notificationItemSchema>;

/** GET /api/notifications?before=<id>: newest first, 50 a page; `unread` counts all of the user's. */
export const notificationListSchema = z
  .object({ items: z.array(notificationItemSchema), unread: z.number().int() })
  .meta({ id: 'NotificationList' });
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationListQuerySchema = z.object({ before: idParam().optional() });

/** POST /api/notifications/read: these ids (the caller's own), or without `ids` all of them. */
export const markNotificationsReadRequestSchema = z
  .object({ ids: z.array(idField).max(200, NOTIFICATION_MESSAGES.tooManyIds).optional() })
  .meta({ id: 'MarkNotificationsReadRequest' });
export const unreadCountSchema = z.object({ unread: z.number().int() }).meta({ id: 'UnreadCount' });

/** The live socket's frame (`/ws`): one new notification of the socket's user. */
export interface NotificationFrame {
  type: 'notification';
  notification: NotificationItem;
}

/** PUT /api/profile/email: 202, a verification mail goes to the address; it gets nothing else until verified. */
export const setEmailRequestSchema = z
  .object({
    email: text({ error: NOTIFICATION_MESSAGES.emailInvalid })
      .trim()
      .max(254, NOTIFICATION_MESSAGES.emailInvalid)
      .pipe(z.email({ error: NOTIFICATION_MESSAGES.emailInvalid })),
  })
  .meta({ id: 'SetEmailRequest' });
export type SetEmailRequest = z.infer<typeof setEmailRequestSchema>;

export const emailTokenQuerySchema = z.object({ token: z.string().max(200).optional() });

const emailPreferencesSchema = z.partialRecord(z.enum(NOTIFICATION_KINDS), z.boolean());

/**
 * GET/PUT /api/profile/notifications: the email address (null: none; `verified` false while its
 * link was not opened: `address` is then the pending one), each kind's email switch (all on unless
 * turned off), and the Major Dare opt-in (off unless turned on: `major-dare-started` reaches only
 * users who opted in, in the app and, with its email switch on, by email).
 */
export const notificationSettingsSchema = z
  .object({
    email: z.object({ address: z.string().nullable(), verified: z.boolean() }),
    preferences: z.object({ email: z.record(z.enum(NOTIFICATION_KINDS), z.boolean()) }),
    majorDareOptIn: z.boolean(),
  })
  .meta({ id: 'NotificationSettings' });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const updateNotificationSettingsRequestSchema = z
  .object({
    email: emailPreferencesSchema.optional(),
    majorDareOptIn: z.boolean().optional(),
  })
  .meta({ id: 'UpdateNotificationSettingsRequest' });
export type UpdateNotificationSettingsRequest = z.infer<typeof updateNotificationSettingsRequestSchema>;

/** GET|POST /api/notifications/unsubscribe?token=…[&kind=…]: one kind's email, or every email. */
export const unsubscribeQuerySchema = z.object({
  token: z.string().max(200),
  kind: z.enum(NOTIFICATION_KINDS).optional(),
});
export const unsubscribedSchema = z
  .object({ unsubscribed: z.union([z.enum(NOTIFICATION_KINDS), z.literal('all')]) })
  .meta({ id: 'Unsubscribed' });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** GET /api/admin/notifications/deliveries?status=: the 100 newest deliveries (emails and webhooks). */
export const adminDeliverySchema = z
  .object({
    /** The delivery id a webhook receiver sees (X-DarePool-Delivery); shared by a webhook event's receivers. */
    id: z.string(),
    channel: z.enum(['email', 'webhook']),
    /** The notification kind, 'verify-email', or the webhook event. */
    event: z.string(),
    dareId: z.number().int().nullable(),
    /** A webhook's receiver (its origin only: the URL may carry a secret), or the recipient's username. */
    target: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'AdminDelivery' });
export const adminDeliveriesSchema = z
  .object({ items: z.array(adminDeliverySchema) })
  .meta({ id: 'AdminDeliveries' });
export const adminDeliveriesQuerySchema = z.object({ status: z.enum(DELIVERY_STATUSES).optional() });
export type AdminDelivery = z.infer<typeof adminDeliverySchema>;
