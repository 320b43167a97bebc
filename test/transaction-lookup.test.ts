import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createChain } from '#server/chain/index';
import type { ChainPort } from '#server/chain/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet } from './helpers/wallet';

const TRANSACTION_LOOKUPS_PER_MINUTE = RATE_LIMITS.transactionLookups.limit;

let chainLookups = 0;

/** The embedded chain, counting the getTransaction calls that reach it. */
async function countingChain(): Promise<ChainPort> {
  const chain = await createChain({ stateDir: null });
  const rpc = new Proxy(chain.rpc, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'getTransaction') return value;
      return (...args: unknown[]) => {
        chainLookups += 1;
        return (value as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  return Object.assign(Object.create(Object.getPrototypeOf(chain)), chain, { rpc });
}

const { ctx } = setupApiSuite({ context: async () => ({ chain: await countingChain() }) });

const lookUp = (signature: string, ip = '10.20.0.1') =>
  ctx.app.inject({ url: `/api/transactions/${signature}`, remoteAddress: ip });
const unknownSignature = () => getBase58Decoder().decode(randomBytes(64));

describe('GET /api/transactions/:signature', () => {
  it('asks the chain once for a confirmed transaction and answers repeats from memory', async () => {
    const wallet = await createTestWallet();
    const airdrop = await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/airdrop',
      payload: { walletAddress: wallet.address, amount: '1' },
    });
    const { signature } = airdrop.json();
    const before = chainLookups;
    for (let i = 0; i < 5; i += 1) {
      const res = await lookUp(signature, `10.21.0.${i}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().signature).toBe(signature);
    }
    expect(chainLookups - before).toBe(1);
  });

  it('limits the lookups that reach the chain per address, with Retry-After', async () => {
    const wallet = await createTestWallet();
    const { signature: known } = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/dev/airdrop',
        payload: { walletAddress: wallet.address, amount: '1' },
      })
    ).json();
    expect((await lookUp(known, '10.22.0.9')).statusCode).toBe(200);

    for (let i = 0; i < TRANSACTION_LOOKUPS_PER_MINUTE; i += 1) {
      expect((await lookUp(unknownSignature())).statusCode).toBe(404);
    }
    const before = chainLookups;
    const limited = await lookUp(unknownSignature());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(chainLookups).toBe(before);
    // A cached answer costs the chain nothing and is still served; another address is not limited.
    expect((await lookUp(known)).statusCode).toBe(200);
    expect((await lookUp(unknownSignature(), '10.20.0.2')).statusCode).toBe(404);
    ctx.clock.advance(61_000);
    expect((await lookUp(unknownSignature())).statusCode).toBe(404);
  });
});
