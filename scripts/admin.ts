/**
 * npm run admin -- promote <username|wallet>   grant admin rights
 * npm run admin -- demote <username|wallet>    take them away
 * npm run admin -- list                        show the admins
 */
import { eq } from 'drizzle-orm';
import { loadConfig, loadDotEnv } from '#server/config';
import { lockDataDir } from '#server/data-dir-lock';
import { openConfiguredDatabase } from '#server/db/open';
import { users } from '#server/db/schema';
import { setAdminByUsernameOrWallet } from '#server/features/auth/promote';

loadDotEnv();
const [command, who] = process.argv.slice(2);
const config = loadConfig();
// PGlite has one writer: refuse while a server runs on the same data folder.
let unlock = () => {};
try {
  if (config.database.embedded) unlock = lockDataDir(config.dataDir);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const database = await openConfiguredDatabase(config);
const { db } = database;

try {
  if (command === 'list') {
    const admins = await db
      .select({ username: users.username, walletAddress: users.walletAddress })
      .from(users)
      .where(eq(users.isAdmin, true));
    for (const admin of admins) console.log(`${admin.username}\t${admin.walletAddress ?? ''}`);
    if (admins.length === 0) console.log('No admins yet.');
  } else if ((command === 'promote' || command === 'demote') && who) {
    const updated = await setAdminByUsernameOrWallet(db, who, command === 'promote', new Date());
    if (updated.length === 0) {
      console.error(`No user with username or wallet "${who}".`);
      process.exitCode = 1;
    } else {
      console.log(
        `${updated[0]!.username} is ${command === 'promote' ? 'now an admin' : 'no longer an admin'}.`,
      );
    }
  } else {
    console.error('usage: npm run admin -- promote|demote <username|wallet> | list');
    process.exitCode = 2;
  }
} finally {
  await database.close();
  unlock();
}
