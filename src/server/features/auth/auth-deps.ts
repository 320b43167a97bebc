import type { Cluster } from '#contract/config';
import type { AppConfig } from '#server/config';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { RateLimiter } from '#server/rate-limit/port';

/** What the sign-in parts work with, handed to each part's functions first. */
export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  cluster: Cluster;
  config: Pick<AppConfig, 'adminWallets' | 'rateLimits' | 'publicSite' | 'port'>;
  limiter: RateLimiter;
}
