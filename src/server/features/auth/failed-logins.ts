import { DAY_MS } from '#contract/time';
import type { AppConfig } from '#server/config';
import type { LimitRule, RateLimiter } from '#server/rate-limit/port';
import { tooManyRequests } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';

/** How many more failures the account-wide and address-wide counters allow than one pair. */
export const WIDE_LIMIT_FACTOR = 10;

/** An address an account signed in from spares it the account-wide backoff this long after. */
export const SIGN_IN_ADDRESS_MEMORY_MS = 90 * DAY_MS;

type FailedLoginLimits = Pick<
  AppConfig['rateLimits'],
  'failedLogins' | 'failedLoginWindowMs' | 'failedLoginBackoffPerMinute'
>;

export interface FailedLoginRules {
  /** This account from this address: the lock a guesser meets (RATE_LIMIT_FAILED_LOGINS). */
  pair: LimitRule;
  /** This address over every account. */
  address: LimitRule;
  /** This account over every address it never signed in from; used up, the backoff takes over. */
  account: LimitRule;
  /** Per minute, this account over those addresses once `account` is used up. */
  backoff: LimitRule;
}

/**
 * The counters a password login is subject to (docs/decisions/060-sign-in-lockout-per-address.md).
 * The account is named as typed (trimmed, lower case), so unknown usernames are counted alike.
 */
export function failedLoginRules(username: string, ip: string, limits: FailedLoginLimits): FailedLoginRules {
  const account = username.trim().toLowerCase();
  const { failedLogins: limit, failedLoginWindowMs: windowMs } = limits;
  const { ifStoreDown } = RATE_LIMITS.failedLogins;
  return {
    pair: { key: `login-pair:${account}@${ip}`, limit, windowMs, ifStoreDown },
    address: { key: `login-ip:${ip}`, limit: limit * WIDE_LIMIT_FACTOR, windowMs, ifStoreDown },
    account: { key: `login-account:${account}`, limit: limit * WIDE_LIMIT_FACTOR, windowMs, ifStoreDown },
    backoff: {
      key: `login-backoff:${account}`,
      limit: limits.failedLoginBackoffPerMinute,
      windowMs: RATE_LIMITS.failedLoginBackoff.windowMs,
      ifStoreDown: RATE_LIMITS.failedLoginBackoff.ifStoreDown,
    },
  };
}

const ACCOUNT_MESSAGE = 'Too many failed logins for this account. Please try again later.';
const ADDRESS_MESSAGE = 'Too many failed logins from your network. Please try again later.';

/**
 * Counts one attempt on every counter it is subject to, before its password is checked (so
 * parallel guesses cannot all pass a check together), and answers the keys counted: the caller
 * gives them back when the password was right. An address the account signed in from before is
 * counted only as itself; any other also account-wide, and once that is used up, on the account's
 * slow backoff instead. 429 when a counter it needs is used up.
 */
export async function countLoginAttempt(
  limiter: RateLimiter,
  rules: FailedLoginRules,
  fromKnownAddress: boolean,
): Promise<string[]> {
  const own = [rules.pair, rules.address];
  const first = fromKnownAddress ? own : [...own, rules.account];
  let verdict = await limiter.hitAll(first);
  if (verdict.allowed) return first.map((rule) => rule.key);
  // Only a used-up account-wide count falls back to the backoff; the address's own locks hold.
  if (verdict.key === rules.account.key) {
    const slow = [...own, rules.backoff];
    verdict = await limiter.hitAll(slow);
    if (verdict.allowed) return slow.map((rule) => rule.key);
  }
  throw tooManyRequests(
    verdict.key === rules.address.key ? ADDRESS_MESSAGE : ACCOUNT_MESSAGE,
    verdict.retryAfterSeconds,
  );
}
