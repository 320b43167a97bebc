import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../contract/errors';
import { systemSettingsSchema, systemSettingsUpdateSchema } from '../../../contract/settings';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/authenticate';
import { readSystemSettings, SETTING_KEYS, setSetting } from './repo';

export const settingsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const read = () => readSystemSettings(db);
  const secured = { tags: ['admin'], security: [{ bearerAuth: [] }] };
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

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
    async () => read(),
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
      return read();
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
      const { dareCreationEnabled, registrationEnabled } = request.body;
      await db.transaction(async (tx) => {
        if (dareCreationEnabled !== undefined)
          await setSetting(tx, SETTING_KEYS.dareCreationEnabled, dareCreationEnabled);
        if (registrationEnabled !== undefined)
          await setSetting(tx, SETTING_KEYS.registrationEnabled, registrationEnabled);
      });
      return read();
    },
  );
};
