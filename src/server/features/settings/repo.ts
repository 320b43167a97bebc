import { eq } from 'drizzle-orm';
import type { SystemSettings } from '../../../contract/settings';
import type { DbOrTx } from '../../db/client';
import { systemSettings } from '../../db/schema';

export const SETTING_KEYS = {
  dareCreationEnabled: 'dare_creation_enabled',
  registrationEnabled: 'registration_enabled',
} as const;

export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

/** Switches default to on (spec: both default on), so a missing row never locks users out. */
export async function isSettingEnabled(db: DbOrTx, key: SettingKey): Promise<boolean> {
  const [row] = await db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, key));
  return row ? row.value === 'true' : true;
}

/** Both System Controls switches (spec: both default on). */
export async function readSystemSettings(db: DbOrTx): Promise<SystemSettings> {
  return {
    dareCreationEnabled: await isSettingEnabled(db, SETTING_KEYS.dareCreationEnabled),
    registrationEnabled: await isSettingEnabled(db, SETTING_KEYS.registrationEnabled),
  };
}

export async function setSetting(db: DbOrTx, key: SettingKey, enabled: boolean): Promise<void> {
  await db
    .insert(systemSettings)
    .values({ settingKey: key, settingValue: String(enabled) })
    .onConflictDoUpdate({
      target: systemSettings.settingKey,
      set: { settingValue: String(enabled), updatedAt: new Date() },
    });
}
