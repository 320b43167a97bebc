import { eq } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { systemSettings } from '#server/db/schema';
import type { SettingKey } from './switches';

/** The stored value of a switch, or undefined when it was never saved. */
export async function findSettingValue(db: DbOrTx, key: SettingKey): Promise<string | undefined> {
  const [row] = await db
    .select({ value: systemSettings.settingValue })
    .from(systemSettings)
    .where(eq(systemSettings.settingKey, key));
  return row?.value;
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
