import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { SignInInput } from '#contract/auth';
import type { DbOrTx } from '#server/db/client';
import { authSessions, registrationTokens, signInAddresses, signInNonces, users } from '#server/db/schema';
import type { ChallengeStore, IssuedChallenge } from './siws';
import type { UserRow } from './user';

export async function insertChallenge(db: DbOrTx, challenge: IssuedChallenge, now: Date): Promise<void> {
  // Expired challenges are useless; sweeping them here keeps the table small without a job.
  await db.delete(signInNonces).where(lt(signInNonces.expiresAt, now));
  await db.insert(signInNonces).values({
    nonce: challenge.nonce,
    walletAddress: challenge.walletAddress,
    input: challenge.input,
    message: challenge.message,
    expiresAt: challenge.expiresAt,
  });
}

export function challengeStore(db: DbOrTx): ChallengeStore {
  return {
    async find(nonce) {
      const [row] = await db.select().from(signInNonces).where(eq(signInNonces.nonce, nonce));
      return row ? { ...row, input: row.input as SignInInput } : null;
    },
    async consume(nonce, now) {
      const consumed = await db
        .update(signInNonces)
        .set({ usedAt: now })
        .where(
          and(eq(signInNonces.nonce, nonce), isNull(signInNonces.usedAt), gt(signInNonces.expiresAt, now)),
        )
        .returning({ nonce: signInNonces.nonce });
      return consumed.length === 1;
    },
  };
}

export async function findUserByWallet(db: DbOrTx, walletAddress: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.walletAddress, walletAddress));
  return row;
}

export async function findUserByUsername(db: DbOrTx, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()));
  return row;
}

export async function setAdmin(db: DbOrTx, userId: number, now: Date): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ isAdmin: true, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  return row!;
}

/** Grants or takes admin rights by username (any case) or wallet address; returns who changed. */
export async function setAdminByUsernameOrWallet(db: DbOrTx, who: string, isAdmin: boolean, now: Date) {
  return db
    .update(users)
    .set({ isAdmin, updatedAt: now })
    .where(or(eq(sql`lower(${users.username})`, who.toLowerCase()), eq(users.walletAddress, who)))
    .returning({ id: users.id, username: users.username });
}

export async function setAdminById(
  db: DbOrTx,
  id: number,
  isAdmin: boolean,
  now: Date,
): Promise<UserRow | undefined> {
  const [user] = await db.update(users).set({ isAdmin, updatedAt: now }).where(eq(users.id, id)).returning();
  return user;
}

export async function insertSession(
  db: DbOrTx,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.insert(authSessions).values({ userId, tokenHash, expiresAt });
}

/**
 * Built once per database: every signed-in request asks it, and drizzle building the statement
 * cost about as much as PGlite answering it (docs/decisions/026-embedded-write-path.md).
 */
const sessionUserQueries = new WeakMap<DbOrTx, ReturnType<typeof prepareSessionUser>>();

function prepareSessionUser(db: DbOrTx) {
  return db
    .select({ user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(
      and(
        eq(authSessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('find_session_user');
}

export async function findSessionUser(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<UserRow | undefined> {
  let query = sessionUserQueries.get(db);
  if (!query) {
    query = prepareSessionUser(db);
    sessionUserQueries.set(db, query);
  }
  const [row] = await query.execute({ tokenHash, now });
  return row?.user;
}

export async function revokeSession(db: DbOrTx, tokenHash: string, now: Date): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: now })
    .where(and(eq(authSessions.tokenHash, tokenHash), isNull(authSessions.revokedAt)));
}

export async function insertRegistrationToken(
  db: DbOrTx,
  values: { tokenHash: string; walletAddress: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db.delete(registrationTokens).where(lt(registrationTokens.expiresAt, now));
  await db.insert(registrationTokens).values(values);
}

/** Single use: the update only succeeds for an unused, unexpired token of that wallet. */
export async function consumeRegistrationToken(
  db: DbOrTx,
  tokenHash: string,
  walletAddress: string,
  now: Date,
): Promise<boolean> {
  const consumed = await db
    .update(registrationTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(registrationTokens.tokenHash, tokenHash),
        eq(registrationTokens.walletAddress, walletAddress),
        isNull(registrationTokens.usedAt),
        gt(registrationTokens.expiresAt, now),
      ),
    )
    .returning({ tokenHash: registrationTokens.tokenHash });
  return consumed.length === 1;
}

export async function insertUser(
  db: DbOrTx,
  values: { username: string; passwordHash: string; walletAddress: string; isAdmin: boolean },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({
      username: values.username,
      password: values.passwordHash,
      walletAddress: values.walletAddress,
      isAdmin: values.isAdmin,
    })
    .returning();
  return row!;
}

/** Notes that `userId` signed in from `address` now (the failed-login backoff spares it). */
export async function rememberSignInAddress(db: DbOrTx, userId: number, address: string, now: Date) {
  await db
    .insert(signInAddresses)
    .values({ userId, address, lastSignedInAt: now })
    .onConflictDoUpdate({
      target: [signInAddresses.userId, signInAddresses.address],
      set: { lastSignedInAt: now },
    });
}

/** Whether the account named `username` signed in from `address` since `since`. */
export async function hasSignedInFrom(db: DbOrTx, username: string, address: string, since: Date) {
  const [row] = await db
    .select({ userId: signInAddresses.userId })
    .from(signInAddresses)
    .innerJoin(users, eq(users.id, signInAddresses.userId))
    .where(
      and(
        eq(sql`lower(${users.username})`, username.toLowerCase()),
        eq(signInAddresses.address, address),
        gt(signInAddresses.lastSignedInAt, since),
      ),
    )
    .limit(1);
  return row !== undefined;
}
