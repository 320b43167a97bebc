import type { SystemSettings, SystemSettingsUpdate } from '#contract/settings';
import type { Db } from '#server/db/client';
import { setSetting } from './repo';
import { readSystemSettings, SETTING_KEYS } from './switches';

/** The System Controls switches: read by every page, saved by admins. */
export function createSettingsService({ db }: { db: Db }) {
  const read = (): Promise<SystemSettings> => readSystemSettings(db);
  return {
    read,

    /** Saves the switches the admin sent, together or not at all; answers the switches as they now are. */
    async update({
      dareCreationEnabled,
      registrationEnabled,
    }: SystemSettingsUpdate): Promise<SystemSettings> {
      await db.transaction(async (tx) => {
        if (dareCreationEnabled !== undefined)
          await setSetting(tx, SETTING_KEYS.dareCreationEnabled, dareCreationEnabled);
        if (registrationEnabled !== undefined)
          await setSetting(tx, SETTING_KEYS.registrationEnabled, registrationEnabled);
      });
      return read();
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
