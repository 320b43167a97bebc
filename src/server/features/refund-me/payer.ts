/** Whose refund a request asks for: a signed-in user's wallet, or a wallet named without an account. */
import { type Address, address } from '@solana/kit';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { badRequest } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { RateLimit } from '#server/rate-limit/port';
import type { RefundMe } from './refund-me-deps';

/** Whose refund: a signed-in user's wallet, or a wallet with no account (userId null). */
export interface Payer {
  wallet: Address;
  userId: number | null;
  /** The rate-limit keys of this request: the user, or the address and the caller's IP. */
  limitKeys: string[];
}

export function userPayer(user: UserRow): Payer {
  if (!user.walletAddress) throw badRequest(REFUND_ME_MESSAGES.noWallet);
  return { wallet: address(user.walletAddress), userId: user.id, limitKeys: [`user:${user.id}`] };
}

/**
 * A wallet with no account names itself (decision 066): public addresses are free, so the IP is
 * limited too. Only the wallet's own signature can take the refund, and only to itself.
 */
export function walletPayer(text: string, ip: string): Payer {
  let wallet: Address;
  try {
    wallet = address(text);
  } catch {
    throw badRequest(REFUND_ME_MESSAGES.invalidWallet);
  }
  return { wallet, userId: null, limitKeys: [`wallet:${wallet}`, `ip:${ip}`] };
}

/** Counts the request under each of the payer's keys. */
export async function limitPayer({ limit }: RefundMe, prefix: string, payer: Payer, rule: RateLimit) {
  for (const key of payer.limitKeys) await limit(`${prefix}:${key}`, rule);
}
