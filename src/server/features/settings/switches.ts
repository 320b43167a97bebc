import { DARE_MESSAGES } from '#contract/dares';
import type { SystemSettings } from '#contract/settings';
import type { DbOrTx } from '#server/db/client';
import { AppError } from '#server/errors';
import { findSettingValue } from './repo';

/** The System Controls switches, by their key in `system_settings`. */
export const SETTING_KEYS = {
  dareCreationEnabled: 'dare_creation_enabled',
  registrationEnabled: 'registration_enabled',
} as const;

export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

/** Switches default to on (both default on: docs/product.md#admin-panel), so a missing row never locks users out. */
export async function isSettingEnabled(db: DbOrTx, key: SettingKey): Promise<boolean> {
  const value = await findSettingValue(db, key);
  return value === undefined ? true : value === 'true';
}

/** Both System Controls switches (both default on: docs/product.md#admin-panel). */
export async function readSystemSettings(db: DbOrTx): Promise<SystemSettings> {
  return {
    dareCreationEnabled: await isSettingEnabled(db, SETTING_KEYS.dareCreationEnabled),
    registrationEnabled: await isSettingEnabled(db, SETTING_KEYS.registrationEnabled),
  };
}

/** Escrows, stakes and new dares are refused while the admin has dare creation switched off. */
export async function requireDareCreationEnabled(db: DbOrTx): Promise<void> {
  if (!(await isSettingEnabled(db, SETTING_KEYS.dareCreationEnabled))) {
    throw new AppError('DARE_CREATION_DISABLED', DARE_MESSAGES.creationDisabled);
  }
}
