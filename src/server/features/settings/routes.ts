import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { systemSettingsSchema, systemSettingsUpdateSchema } from '#contract/settings';
import { errorResponses } from '../../errors';
import { requireAdmin } from '../../plugins/authenticate';
import type { SettingsService } from './service';

export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  const secured = { tags: ['admin'], security: [{ bearerAuth: [] }] };
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
      schema: {
        ...secured,
        summary: 'The System Controls switches',
        response: { 200: systemSettingsSchema, ...errors },
      },
    },
    async (request) => {
      requireAdmin(request);
      return settings.read();
    },
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        ...secured,
        summary: 'Save the System Controls switches',
        body: systemSettingsUpdateSchema,
        response: { 200: systemSettingsSchema, ...errors },
      },
    },
    async (request) => {
      requireAdmin(request);
      return settings.update(request.body);
    },
  );
};
