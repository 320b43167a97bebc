import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The links in mails, derived with a server secret so none is stored (docs/decisions/074):
 * an unsubscribe token is HMAC(userId), a verification token HMAC(user, address, nonce) whose
 * SHA-256 alone is kept with the pending address.
 */
export function createMailTokens(secret: Uint8Array) {
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url');
  return {
    unsubscribe: (userId: number) => `${userId}.${mac(`unsubscribe:${userId}`)}`,
    /** The user an unsubscribe token belongs to, or null when it is not one of ours. */
    unsubscriber(token: string): number | null {
      const [id, given] = token.split('.');
      if (!id || !given || !/^\d{1,10}$/.test(id)) return null;
      const expected = Buffer.from(mac(`unsubscribe:${Number(id)}`));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected) ? Number(id) : null;
    },
    verification: (userId: number, address: string, nonce: string) =>
      mac(`verify:${userId}:${address}:${nonce}`),
  };
}
export type MailTokens = ReturnType<typeof createMailTokens>;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
