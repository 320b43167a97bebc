import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe; only its SHA-256 is stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** SHA-256 suffices (no salt or stretching): the input already has 256 bits of entropy. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
