import { type RateLimit, type RateLimiter, tooManyRequests } from './port';

/**
 * Counts one event of `key` under `rule`; once the rule is used up, refuses with 429, a
 * Retry-After and `message` (the caller's words for what was asked too often).
 */
export async function limit(
  limiter: RateLimiter,
  key: string,
  rule: RateLimit,
  message: string,
): Promise<void> {
  const verdict = await limiter.hit(key, rule);
  if (!verdict.allowed) throw tooManyRequests(message, verdict.retryAfterSeconds);
}
