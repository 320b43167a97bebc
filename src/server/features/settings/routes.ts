import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemSettingsSchema, systemSettingsUpdateSchema } from '#contract/settings';
import { errorResponses } from '#server/errors';
import type { SettingsService } from './service';

export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  const errors = errorResponses(400, 401, 403);

  // Public: the pages say a switched-off feature is off before the user fills a form for it.
  app.get(
    '/api/settings',
    {
      schema: {
        tags: ['config'],
        summary: 'The System Controls switches, as the pages need them (dare creation, registration)',
        response: { 200: systemSettingsSchema },
      },
    },
    async () => settings.read(),
  );

  app.get(
    '/api/admin/settings',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'The System Controls switches',
        response: { 200: systemSettingsSchema, ...errors },
      },
    },
    async () => settings.read(),
  );

  app.put(
    '/api/admin/settings',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Save the System Controls switches',
        body: systemSettingsUpdateSchema,
        response: { 200: systemSettingsSchema, ...errors },
      },
    },
    async (request) => settings.update(request.body),
  );
};
