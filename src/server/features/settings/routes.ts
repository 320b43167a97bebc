import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../contract/errors';
import { systemSettingsSchema, systemSettingsUpdateSchema } from '../../../contract/settings';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/authenticate';
import { isSettingEnabled, SETTING_KEYS, setSetting } from './repo';

export const settingsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const read = async () => ({
    dareCreationEnabled: await isSettingEnabled(db, SETTING_KEYS.dareCreationEnabled),
    registrationEnabled: await isSettingEnabled(db, SETTING_KEYS.registrationEnabled),
  });
  const secured = { tags: ['admin'], security: [{ bearerAuth: [] }] };
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

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
