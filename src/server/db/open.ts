import type { AppConfig } from '#server/config';
import { type Database, openPglite, openPostgres } from './client';

/** The database the configuration names, migrated and ready. */
export async function openConfiguredDatabase(config: AppConfig): Promise<Database> {
  const database = config.database.embedded
    ? await openPglite({ dataDir: config.database.dataDir })
    : await openPostgres(config.database.url);
  await database.migrate();
  return database;
}
