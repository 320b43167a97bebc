import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminDeliveriesQuerySchema,
  adminDeliveriesSchema,
  emailTokenQuerySchema,
  markNotificationsReadRequestSchema,
  notificationListQuerySchema,
  notificationListSchema,
  notificationSettingsSchema,
  setEmailRequestSchema,
  unreadCountSchema,
  unsubscribedSchema,
  unsubscribeQuerySchema,
  updateNotificationSettingsRequestSchema,
} from '#contract/notifications';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { NotificationsService } from './service';

export const notificationRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.get(
    '/api/notifications',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: "The session user's notifications, newest first, 50 a page (`before`: the last id seen)",
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => notifications.list(userOf(request).id, request.query.before),
  );

  app.post(
    '/api/notifications/read',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'Marks these notifications of the session user read (no `ids`: all of them)',
        body: markNotificationsReadRequestSchema,
        response: { 200: unreadCountSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => notifications.markRead(userOf(request).id, request.body.ids),
  );

  // RFC 8058's POST carries the form `List-Unsubscribe=One-Click`: taken (and ignored) in this plugin only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, {}),
  );
  // One-click unsubscribe: the mail's link (GET) and RFC 8058's List-Unsubscribe-Post (POST).
  for (const method of ['GET', 'POST'] as const)
    app.route({
      method,
      url: '/api/notifications/unsubscribe',
      schema: {
        tags: ['notifications'],
        summary: "Turns off one kind's email (`kind`) or every email of the token's user",
        querystring: unsubscribeQuerySchema,
        response: { 200: unsubscribedSchema, ...errorResponses(400) },
      },
      handler: async (request) => notifications.unsubscribe(request.query.token, request.query.kind),
    });

  app.get(
    '/api/profile/notifications',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: "The session user's email address, email switches and Major Dare opt-in",
        response: { 200: notificationSettingsSchema, ...errorResponses(401) },
      },
    },
    async (request) => notifications.settings(userOf(request).id),
  );

  app.put(
    '/api/profile/notifications',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'Saves email switches per kind and the Major Dare opt-in; answers the saved settings',
        body: updateNotificationSettingsRequestSchema,
        response: { 200: notificationSettingsSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => notifications.updateSettings(userOf(request).id, request.body),
  );

  app.put(
    '/api/profile/email',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary:
          'Sets the email address notifications go to: 202, a verification mail is sent; the address gets nothing else until its link is opened',
        body: setEmailRequestSchema,
        response: { 202: notificationSettingsSchema, ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request, reply) => {
      const settings = await notifications.setEmail(userOf(request).id, request.body.email);
      return reply.code(202).send(settings);
    },
  );

  app.get(
    '/api/profile/email/verify',
    {
      schema: {
        tags: ['notifications'],
        summary: "The verification mail's link: verifies the address, then leads to the Profile (303)",
        querystring: emailTokenQuerySchema,
        response: { 303: z.null(), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await notifications.verifyEmail(request.query.token);
      return reply.redirect('/profile?email=verified', 303);
    },
  );

  app.get(
    '/api/admin/notifications/deliveries',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'The 100 newest email and webhook deliveries, with their attempts and failures',
        querystring: adminDeliveriesQuerySchema,
        response: { 200: adminDeliveriesSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => notifications.deliveries(request.query.status),
  );
};
