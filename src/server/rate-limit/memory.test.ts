import { MemoryRateLimiter } from './memory';
import { describeRateLimiter } from './testing/limiter-contract';

describeRateLimiter('in memory', async () => new MemoryRateLimiter());
