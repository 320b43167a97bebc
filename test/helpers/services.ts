import type { ChainPort } from '#server/chain/port';
import { MemoryRateLimiter } from '#server/rate-limit/memory';
import { createServices, type Services } from '#server/services';
import { createLocalDiskStorage } from '#server/storage/local-disk';
import type { TestContext } from './app';

/**
 * The services as routes.ts wires them (createServices), on the test's database, chain and clock:
 * what a test drives by hand (a job's run, a half-done payout) is what the server runs. Their own
 * rate-limit counts, no chat room to announce into, and the app's own video folder.
 */
export function servicesFor(ctx: TestContext, overrides: { chain?: ChainPort } = {}): Services {
  const clock = () => ctx.clock.now;
  return createServices({
    config: ctx.config,
    database: ctx.database,
    chain: overrides.chain ?? ctx.chain,
    escrowKeys: ctx.escrowKeys,
    escrowProgramId: ctx.escrowProgramId,
    escrowProgramV2Id: ctx.escrowProgramV2Id,
    judging: ctx.judging,
    storage: createLocalDiskStorage(ctx.config.storage.videoDir),
    clock,
    limiter: new MemoryRateLimiter(() => clock().getTime()),
    announce: () => {},
  });
}
