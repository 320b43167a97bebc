/**
 * Landing on a busy cluster (issue 36, decision 068): the app on a localnet that plays one —
 * `npm run localnet -- --drop-rate 0.3 --min-priority-fee 20000`'s congestion on the served RPC,
 * which the app reaches over HTTP as it would a provider. 30% of the sends are answered and never
 * land, and nothing paying less than the fee floor ever lands. 50 dares and 50 contributions go
 * through as a user's clicks do, none fails, and each is credited exactly once: the books equal
 * every vault (and `npm run reconcile`'s check when the file closes).
 */
import { randomBytes } from 'node:crypto';
import type { Address, Signature } from '@solana/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { solToLamports } from '#contract/money';
import { createEmbeddedChain } from '#server/chain/embedded/index';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import { deployEscrowProgramsOnEmbeddedChain } from '#server/chain/escrow-program/app-program';
import type { ChainPort } from '#server/chain/port';
import { createRpcChain } from '#server/chain/rpc-chain';
import { dareBody, expectVaultBooked, payStake, payTo } from './helpers/money';
import { newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { bearer } from './helpers/wallet';

const MIN_PRIORITY_FEE = 20_000n;
const DROP_RATE = 0.3;
const USERS = 10;
const PER_USER = 5;

let localnet: ChainPort | undefined;
/** The cluster's draws for sends at or above the fee floor, and how many it dropped. */
const draws = { all: 0, dropped: 0 };
// Registered before the suite's own hooks, so it runs after them: the app and reconcile first.
afterAll(() => localnet?.close());

const seed = randomBytes(64).toString('hex');
const { ctx } = setupApiSuite({
  env: { ESCROW_MASTER_SEED: seed },
  context: async () => {
    localnet = await createEmbeddedChain({
      stateDir: null,
      rpcServer: { host: '127.0.0.1', port: 0 },
      congestion: {
        dropRate: DROP_RATE,
        minPriorityFee: MIN_PRIORITY_FEE,
        // Math.random, counted: the test checks the cluster did drop sends.
        random: () => {
          const draw = Math.random();
          draws.all += 1;
          if (draw < DROP_RATE) draws.dropped += 1;
          return draw;
        },
      },
    });
    if (!localnet.rpcServer?.serving) throw new Error('the localnet did not serve its RPC');
    const { v2 } = await deployEscrowProgramsOnEmbeddedChain(
      localnet,
      createEscrowKeys(Buffer.from(seed, 'hex')),
      null,
    );
    return {
      chain: createRpcChain({
        url: localnet.rpcServer.httpUrl,
        wsUrl: localnet.rpcServer.wsUrl,
        cluster: 'localnet',
        maxRequestsPerSecond: 2_000,
      }),
      // A cluster set up after v1 was retired runs v2 alone (decision 081).
      escrowProgramId: null,
      escrowProgramV2Id: v2.programId,
    };
  },
});

describe('a busy cluster', () => {
  it('takes 50 dares and 50 contributions with no failure a user sees, each credited once', async () => {
    const users = await Promise.all(
      Array.from({ length: USERS * 2 }, async (_, i) => {
        const actor = await newActor(ctx, `busy${i}`, { sol: '0' });
        await localnet!.airdrop(actor.wallet.address as Address, 5_000_000_000n);
        return actor;
      }),
    );
    const creators = users.slice(0, USERS);
    const backers = users.slice(USERS);

    // Each user's clicks one after another, the users in parallel.
    const dares = (
      await Promise.all(
        creators.map(async (creator) => {
          const made: { id: number; escrow: string; signature: string }[] = [];
          for (let i = 0; i < PER_USER; i++) {
            const paid = await payStake(ctx.app, creator.token, creator.wallet, '0.1');
            const res = await ctx.app.inject({
              method: 'POST',
              url: '/api/dares',
              payload: dareBody(creator.wallet, paid, '0.1'),
              headers: bearer(creator.token),
            });
            expect(res.statusCode, res.body).toBe(201);
            made.push({ id: res.json().id as number, escrow: paid.escrow, signature: paid.signature });
          }
          return made;
        }),
      )
    ).flat();
    expect(dares).toHaveLength(50);

    const contributions = (
      await Promise.all(
        backers.map(async (backer, b) => {
          const paidIn: string[] = [];
          for (const dare of dares.slice(b * PER_USER, (b + 1) * PER_USER)) {
            const { signature } = await payTo(ctx.app, backer.token, backer.wallet, dare.escrow, '0.05');
            const res = await ctx.app.inject({
              method: 'POST',
              url: `/api/dares/${dare.id}/add-pool`,
              payload: { amount: '0.05', userWallet: backer.wallet.address, transactionSignature: signature },
              headers: bearer(backer.token),
            });
            expect(res.statusCode, res.body).toBe(200);
            paidIn.push(signature);
          }
          return paidIn;
        }),
      )
    ).flat();
    expect(contributions).toHaveLength(50);

    // The cluster did drop sends, and the server sent again until each landed.
    expect(draws.dropped).toBeGreaterThan(10);
    expect(draws.all).toBeGreaterThan(100);
    const rpc = localnet!.rpc;
    for (const signature of [...dares.map((d) => d.signature), ...contributions]) {
      const landed = await rpc
        .getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send();
      expect(landed?.meta?.err).toBeNull();
      // It paid at least the floor per compute unit: the fee is above the signatures' alone.
      expect(landed!.meta!.fee).toBeGreaterThan(5_000n * BigInt(landed!.transaction.signatures.length));
    }

    // Each dare's pool is its stake plus its one contribution, booked once and held on chain.
    for (const dare of dares) {
      const shown = (await ctx.app.inject({ url: `/api/dares/${dare.id}` })).json();
      expect(shown.totalPool).toBe('0.15');
      expect(await expectVaultBooked(ctx, dare.escrow)).toBe(solToLamports('0.15'));
    }
  }, 120_000);
});
