import { tooManyRequests } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import type { AuthServiceDeps } from './auth-deps';

/** Every sign-in request (challenge, wallet, register, password) from one address, counted (RATE_LIMIT_AUTH_PER_MINUTE). */
export async function limitSignInsByIp({ config, limiter }: AuthServiceDeps, ip: string) {
  const result = await limiter.hit(`auth-ip:${ip}`, {
    ...RATE_LIMITS.signInRequests,
    limit: config.rateLimits.authPerMinute,
  });
  if (!result.allowed) {
    throw tooManyRequests(
      'Too many sign-in requests from your network. Please wait a minute.',
      result.retryAfterSeconds,
    );
  }
}
