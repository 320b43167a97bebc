import { describeRateLimiter } from '#test/support/rate-limit/limiter-contract';
import { MemoryRateLimiter } from './memory';

describeRateLimiter('in memory', async () => new MemoryRateLimiter());
