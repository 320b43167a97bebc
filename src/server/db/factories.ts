import { randomBytes } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { DAY_MS } from '#contract/time';
import { hashPassword } from '#server/features/auth/password';
import type { DbOrTx } from './client';
import { dares, users } from './schema';

/**
 * Test and demo data builders, shared by the demo seed, the API tests and the e2e fixtures so
 * all three create rows the same (valid) way.
 */

const hashes = new Map<string, Promise<string>>();
/** scrypt is deliberately slow; data builders reuse one hash per distinct password. */
function cachedHash(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

export function randomWalletAddress(): string {
  return getAddressDecoder().decode(randomBytes(32));
}

let sequence = 0;
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix}${Date.now().toString(36).slice(-4)}${sequence}`;
}

export type NewUser = typeof users.$inferInsert;
export type NewDare = typeof dares.$inferInsert;

export async function createUser(
  db: DbOrTx,
  overrides: Partial<Omit<NewUser, 'password'>> & { password?: string } = {},
) {
  const { password = 'password123', ...rest } = overrides;
  const [user] = await db
    .insert(users)
    .values({
      username: uniqueName('user'),
      walletAddress: randomWalletAddress(),
      ...rest,
      password: await cachedHash(password),
    })
    .returning();
  return user!;
}

/**
 * `status` takes any text, not only a DareStatus: the database constraint tests write one the
 * column's type forbids, to see the database refuse it.
 */
export async function createDare(
  db: DbOrTx,
  overrides: Omit<Partial<NewDare>, 'status'> & { creatorId: number; status?: string },
) {
  const [dare] = await db
    .insert(dares)
    .values({
      title: 'Sing in a crowded place',
      description: 'Sing a full song in a busy public place and film the reactions.',
      stakeAmount: '0.1',
      totalPool: overrides.stakeAmount ?? '0.1',
      difficulty: 'medium',
      category: 'creative',
      deadline: new Date(Date.now() + 7 * DAY_MS),
      ...(overrides as Partial<NewDare> & { creatorId: number }),
    })
    .returning();
  return dare!;
}
