import { getBase58Decoder } from '@solana/kit';
import { count, eq, isNotNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRpcChain } from '#server/chain/index';
import { dares, dareWallets, ledgerEntries, paymentIntents, poolContributions } from '#server/db/schema';
import { PAYMENT_INTENT_TTL_MS } from '#server/features/payments/payment-intents';
import { setSetting } from '#server/features/settings/repo';
import { SETTING_KEYS } from '#server/features/settings/switches';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { createTestContext } from './helpers/app';
import {
  dareBody,
  payStake,
  payTo,
  sendOwnTransfer,
  signBase64,
  signedOwnTransfer,
  waitUntilLanded,
} from './helpers/money';
import { newActor, refundJob } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { bearer, createTestWallet, type TestWallet } from './helpers/wallet';

interface User {
  wallet: TestWallet;
  token: string;
  id: number;
}

const {
  ctx,
  actors: { alice, bob },
} = setupApiSuite({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, actors: { alice: {}, bob: {} } });
let job: ReturnType<typeof refundJob>;

const newUser = (name: string, sol = '10'): Promise<User> => newActor(ctx, name, { sol });

beforeAll(() => {
  job = refundJob(ctx);
});

const post = (url: string, payload: unknown, token?: string) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });

async function balanceOf(wallet: string): Promise<bigint> {
  const res = await post('/api/check-balance', { walletAddress: wallet });
  expect(res.statusCode).toBe(200);
  return BigInt(res.json().balance);
}

async function reserveEscrow(user: User): Promise<string> {
  const res = await post('/api/create-escrow-wallet', undefined, user.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().publicKey;
}

/** A payment intent without sending: the unsigned transaction and its reference. */
async function prepare(user: User, escrow: string, amount: string) {
  const res = await post(
    '/api/create-transaction',
    { fromWallet: user.wallet.address, toWallet: escrow, amount },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { transaction: string; reference: string; lamports: string };
}

async function createDare(user: User, stake = '0.1', overrides: object = {}) {
  const paid = await payStake(ctx.app, user.token, user.wallet, stake);
  const res = await post('/api/dares', dareBody(user.wallet, paid, stake, overrides), user.token);
  expect(res.statusCode, res.body).toBe(201);
  return { dare: res.json(), paid };
}

/**
 * SOL sent straight to the chain that paid no intent is never stranded: once the escrow's
 * reservation and intents have lapsed, the refund job returns exactly what the payer sent (the
 * platform pays the fee) and the escrows end at 0.
 */
async function expectStrayRefunded(payer: User, escrows: string[], lamports: bigint) {
  const before = await balanceOf(payer.wallet.address);
  ctx.clock.advance(PAYMENT_INTENT_TTL_MS + 60_000);
  const run = await job.refundDue();
  expect(run.held.failureReasons).toEqual([]);
  expect((await balanceOf(payer.wallet.address)) - before).toBe(lamports);
  for (const escrow of escrows) expect(await balanceOf(escrow)).toBe(0n);
  // Refunded once: the next run moves nothing.
  expect((await job.refundDue()).held).toMatchObject({ found: 0, refunded: 0, failed: 0 });
  expect((await balanceOf(payer.wallet.address)) - before).toBe(lamports);
}

/** Row counts of every table a credit writes to: a refused request must leave them unchanged. */
async function books() {
  const { db } = ctx.database;
  const [d] = await db.select({ n: count() }).from(dares);
  const [c] = await db.select({ n: count() }).from(poolContributions);
  const [l] = await db.select({ n: count() }).from(ledgerEntries);
  const [u] = await db.select({ n: count() }).from(paymentIntents).where(isNotNull(paymentIntents.usedAt));
  const pools = await db.select({ id: dares.id, pool: dares.totalPool }).from(dares);
  return { dares: d!.n, contributions: c!.n, ledger: l!.n, usedIntents: u!.n, pools };
}

/** Sends `request`, expects the refusal, and checks that nothing was written. */
async function expectRefused(
  request: () => Promise<{ statusCode: number; body: string; json(): { error: string; code: string } }>,
  status: number,
  error: string | RegExp,
) {
  const before = await books();
  const res = await request();
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error).toMatch(error);
  expect(await books()).toEqual(before);
  return res.json();
}

describe('create a dare with a verified stake', () => {
  it('moves the stake into a fresh escrow, records the dare, the contribution and the ledger line', async () => {
    const before = await balanceOf(alice.wallet.address);
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.5');
    const res = await post('/api/dares', dareBody(alice.wallet, paid, '0.5'), alice.token);
    expect(res.statusCode, res.body).toBe(201);
    const dare = res.json();
    expect(dare).toMatchObject({
      title: 'Eat a lemon',
      stakeAmount: '0.5',
      totalPool: '0.5',
      total_pool: '0.5',
      escrowWallet: paid.escrow,
      transactionSignature: paid.signature,
      network: 'localnet',
      status: 'active',
      creatorId: alice.id,
      creator: { id: alice.id, username: 'alice' },
    });
    expect(await balanceOf(paid.escrow)).toBe(500_000_000n);
    expect(before - (await balanceOf(alice.wallet.address))).toBe(500_005_000n);
    const [wallet] = await ctx.database.db
      .select()
      .from(dareWallets)
      .where(eq(dareWallets.publicKey, paid.escrow));
    expect(wallet).toMatchObject({ dareId: dare.id, status: 'active', balance: '0.500000000' });
    // The row keeps where the key comes from, never the key itself.
    expect(wallet!.privateKey).toMatch(/^m\/44'\/501'\/\d+'\/0'$/);
    const signer = await ctx.escrowKeys.signerFor(wallet!.derivationIndex);
    expect(signer.address).toBe(paid.escrow);
    const ledger = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.signature, paid.signature));
    expect(ledger).toMatchObject([{ kind: 'stake', escrowWallet: paid.escrow, dareId: dare.id }]);
    expect(await reconcileEscrows(ctx.database.db, ctx.chain.rpc)).toMatchObject({ differences: [] });

    const page = await ctx.app.inject({ url: `/api/dares/${dare.id}` });
    expect(page.json()).toMatchObject({ id: dare.id, totalPool: '0.5' });
    const list = await ctx.app.inject({ url: '/api/dares' });
    expect(list.json().map((d: { id: number }) => d.id)).toContain(dare.id);
  });

  it('refuses a stake outside 0.01 to 5 SOL with the spec message, before any SOL moves', async () => {
    const escrow = await reserveEscrow(alice);
    const over = await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: alice.wallet.address, toWallet: escrow, amount: '5.5' },
          alice.token,
        ),
      400,
      'Please use stake amounts of 5 SOL or less. You tried to stake 5.5 SOL',
    );
    expect(over.code).toBe('BAD_REQUEST');
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.001' },
          alice.token,
        ),
      400,
      'The minimum stake is 0.01 SOL',
    );
    // The dare body is checked too, whatever was paid.
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const res = await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, paid, '6'), alice.token),
      400,
      /5 SOL or less/,
    );
    expect(res.code).toBe('VALIDATION_FAILED');
  });

  it('answers 403 at every step while dare creation is switched off', async () => {
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const escrow = await reserveEscrow(alice);
    await setSetting(ctx.database.db, SETTING_KEYS.dareCreationEnabled, false);
    try {
      const message = 'Dare creation is currently disabled';
      await expectRefused(() => post('/api/create-escrow-wallet', undefined, alice.token), 403, message);
      await expectRefused(
        () =>
          post(
            '/api/create-transaction',
            { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.1' },
            alice.token,
          ),
        403,
        message,
      );
      await expectRefused(
        () => post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token),
        403,
        message,
      );
    } finally {
      await setSetting(ctx.database.db, SETTING_KEYS.dareCreationEnabled, true);
    }
    // The paid stake is still good once creation is back on.
    const res = await post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a deadline in the past and a network other than the configured one', async () => {
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    await expectRefused(
      () =>
        post(
          '/api/dares',
          dareBody(alice.wallet, paid, '0.1', { deadline: new Date(Date.now() - 60_000).toISOString() }),
          alice.token,
        ),
      400,
      'Deadline must be in the future',
    );
    await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, paid, '0.1', { network: 'mainnet-beta' }), alice.token),
      400,
      /runs on Localnet/i,
    );
  });

  it('requires a session and the wallet of the account', async () => {
    await expectRefused(
      () => post('/api/create-escrow-wallet', undefined),
      401,
      'Please connect your wallet or log in first',
    );
    const escrow = await reserveEscrow(alice);
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: bob.wallet.address, toWallet: escrow, amount: '0.1' },
          alice.token,
        ),
      400,
      'The paying wallet must be the wallet of your account',
    );
    // Bob cannot pay into Alice's reservation: to him it does not exist.
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: bob.wallet.address, toWallet: escrow, amount: '0.1' },
          bob.token,
        ),
      404,
      'Dare escrow wallet not found',
    );
  });

  it('expires an unused escrow reservation after 30 minutes', async () => {
    const escrow = await reserveEscrow(alice);
    ctx.clock.advance(31 * 60 * 1000);
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.1' },
          alice.token,
        ),
      409,
      /reservation has expired/,
    );
  });
});

describe('payments that are not credited', () => {
  it('refuses a forged signature and an unknown one', async () => {
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const forged = getBase58Decoder().decode(new Uint8Array(64).fill(7));
    const res = await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, { ...paid, signature: forged }, '0.1'), alice.token),
      400,
      /not found or is not confirmed/,
    );
    expect(res.code).toBe('PAYMENT_NOT_VERIFIED');

    // Signed by Alice for her own open intent, but never sent: the chain does not know it.
    const escrow = await reserveEscrow(alice);
    const { transaction } = await prepare(alice, escrow, '0.1');
    const signed = await signBase64(alice.wallet, transaction);
    const unsent = getBase58Decoder().decode(Buffer.from(signed, 'base64').subarray(1, 65));
    await expectRefused(
      () =>
        post(
          '/api/dares',
          dareBody(alice.wallet, { escrow, reference: '', signature: unsent }, '0.1'),
          alice.token,
        ),
      400,
      /not found or is not confirmed/,
    );
  });

  it('relays nothing that fails: a transfer above the balance is refused with a readable reason', async () => {
    const poor = await newUser('poor', '0.05');
    const escrow = await reserveEscrow(poor);
    const { transaction } = await prepare(poor, escrow, '1');
    const unreadable = await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: 'AAAA' }, poor.token),
      400,
      'The signed transaction could not be read',
    );
    expect(unreadable.code).toBe('BAD_REQUEST');
    const before = await balanceOf(poor.wallet.address);
    const sent = await post(
      '/api/send-transaction',
      { signedTransaction: await signBase64(poor.wallet, transaction) },
      poor.token,
    );
    expect(sent.statusCode, sent.body).toBe(400);
    expect(sent.json()).toMatchObject({
      code: 'TRANSACTION_FAILED',
      error: expect.stringMatching(/insufficient/i),
    });
    expect(await balanceOf(poor.wallet.address)).toBe(before);
  });

  it('refuses a transaction that failed on chain, even though it carries the reference', async () => {
    const poor = await newUser('poorer', '0.05');
    const escrow = await reserveEscrow(poor);
    const { reference } = await prepare(poor, escrow, '1');
    // Sent straight to the chain without preflight: it lands, pays its fee, and fails.
    const signature = await sendOwnTransfer(ctx.chain, poor.wallet, {
      to: escrow,
      sol: '1',
      reference,
      skipPreflight: true,
    });
    await waitUntilLanded(ctx.chain, signature);
    await expectRefused(
      () => post('/api/dares', dareBody(poor.wallet, { escrow, reference, signature }, '1'), poor.token),
      400,
      'The transaction failed on chain',
    );
  });

  it('refuses a transfer of another amount than the payment request, and refunds it once lapsed', async () => {
    const carol = await newUser('carol', '1');
    const escrow = await reserveEscrow(carol);
    const { reference } = await prepare(carol, escrow, '0.2');
    const signature = await sendOwnTransfer(ctx.chain, carol.wallet, { to: escrow, sol: '0.15', reference });
    await waitUntilLanded(ctx.chain, signature);
    for (const stake of ['0.2', '0.15']) {
      await expectRefused(
        () =>
          post('/api/dares', dareBody(carol.wallet, { escrow, reference, signature }, stake), carol.token),
        400,
        'The transferred amount does not match the requested amount',
      );
    }
    await expectStrayRefunded(carol, [escrow], 150_000_000n);
  });

  it('refuses a transfer to another escrow than the one requested, and refunds it once lapsed', async () => {
    const dave = await newUser('dave', '1');
    const requested = await reserveEscrow(dave);
    const other = await reserveEscrow(dave);
    const { reference } = await prepare(dave, requested, '0.1');
    const signature = await sendOwnTransfer(ctx.chain, dave.wallet, { to: other, sol: '0.1', reference });
    await waitUntilLanded(ctx.chain, signature);
    // Whichever escrow the request names, the transfer does not satisfy its intent.
    await expectRefused(
      () =>
        post(
          '/api/dares',
          dareBody(dave.wallet, { escrow: requested, reference, signature }, '0.1'),
          dave.token,
        ),
      400,
      'The transaction does not transfer SOL to the escrow wallet',
    );
    await expectRefused(
      () =>
        post('/api/dares', dareBody(dave.wallet, { escrow: other, reference, signature }, '0.1'), dave.token),
      400,
      'The transaction does not belong to this payment request',
    );
    await expectStrayRefunded(dave, [requested, other], 100_000_000n);
  });

  it("refuses another user's transaction, and it stays good for its owner", async () => {
    const bobs = await payStake(ctx.app, bob.token, bob.wallet, '0.1');
    await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, bobs, '0.1'), alice.token),
      400,
      'The transaction does not belong to this payment request',
    );
    // Nor can Alice claim it by naming Bob's wallet.
    await expectRefused(
      () => post('/api/dares', dareBody(bob.wallet, bobs, '0.1'), alice.token),
      400,
      'The paying wallet must be the wallet of your account',
    );
    const res = await post('/api/dares', dareBody(bob.wallet, bobs, '0.1'), bob.token);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a transfer without the payment reference, and refunds it once lapsed', async () => {
    const erin = await newUser('erin', '1');
    const escrow = await reserveEscrow(erin);
    await prepare(erin, escrow, '0.1');
    const signature = await sendOwnTransfer(ctx.chain, erin.wallet, { to: escrow, sol: '0.1' });
    await waitUntilLanded(ctx.chain, signature);
    await expectRefused(
      () =>
        post('/api/dares', dareBody(erin.wallet, { escrow, reference: '', signature }, '0.1'), erin.token),
      400,
      'The transaction does not belong to this payment request',
    );
    // The relay refuses such a transaction outright.
    const own = await post(
      '/api/send-transaction',
      { signedTransaction: await signedOwnTransfer(ctx.chain, erin.wallet, { to: escrow, sol: '0.1' }) },
      erin.token,
    );
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toBe('This transaction was not prepared by DarePool for your account');
    await expectStrayRefunded(erin, [escrow], 100_000_000n);
  });

  it('answers a replayed signature with the same dare and refuses it for a second dare', async () => {
    const { dare, paid } = await createDare(alice, '0.2', { title: 'First dare' });
    const before = await books();
    const again = await post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.2', { title: 'First dare' }),
      alice.token,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: dare.id, totalPool: '0.2' });
    expect(await books()).toEqual(before);

    await expectRefused(
      () => post('/api/dares', dareBody(alice.wallet, paid, '0.2', { title: 'Second dare' }), alice.token),
      409,
      'This transaction has already been used',
    );
    // Nor does a stake signature count as a contribution to the pool.
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0.2', userWallet: alice.wallet.address, transactionSignature: paid.signature },
          alice.token,
        ),
      409,
      'This transaction has already been used',
    );
  });

  it('credits one signature submitted twice at the same time exactly once', async () => {
    // Before paying: the ledger line is written when the relay sees the transfer confirmed.
    const before = await books();
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.3');
    const body = dareBody(alice.wallet, paid, '0.3', { title: 'Raced' });
    const answers = await Promise.all([1, 2, 3].map(() => post('/api/dares', body, alice.token)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses[0], answers.map((r) => r.body).join('\n')).toBe(200);
    expect(statuses).toContain(201);
    for (const status of statuses) expect([200, 201, 409]).toContain(status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const after = await books();
    expect(after.dares).toBe(before.dares + 1);
    expect(after.ledger).toBe(before.ledger + 1);
    expect(after.contributions).toBe(before.contributions + 1);
  });
});

describe('add to pool', () => {
  it("adds a verified contribution to an active dare's pool, once", async () => {
    const { dare } = await createDare(alice, '0.5', { title: 'Pool me' });
    const before = await balanceOf(bob.wallet.address);
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.25');
    const body = { amount: '0.25', userWallet: bob.wallet.address, transactionSignature: signature };
    const res = await post(`/api/dares/${dare.id}/add-pool`, body, bob.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: dare.id,
      totalPool: '0.75',
      total_pool: '0.75',
      stakeAmount: '0.5',
    });
    expect(before - (await balanceOf(bob.wallet.address))).toBe(250_005_000n);
    expect(await balanceOf(dare.escrowWallet)).toBe(750_000_000n);

    const replay = await post(`/api/dares/${dare.id}/add-pool`, body, bob.token);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().totalPool).toBe('0.75');
    const [{ n }] = (await ctx.database.db
      .select({ n: count() })
      .from(poolContributions)
      .where(eq(poolContributions.dareId, dare.id))) as [{ n: number }];
    expect(n).toBe(2);
  });

  it('refuses a wrong amount, another dare and a dare that is no longer active', async () => {
    const { dare } = await createDare(alice, '0.1', { title: 'Closing soon' });
    const { dare: other } = await createDare(alice, '0.1', { title: 'Other' });
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.1');
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0.2', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      'The amount does not match the payment',
    );
    await expectRefused(
      () =>
        post(
          `/api/dares/${other.id}/add-pool`,
          { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      /does not belong to this payment request|does not transfer SOL/,
    );
    await expectRefused(
      () =>
        post(
          '/api/dares/999999/add-pool',
          { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      404,
      'Dare not found',
    );
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      /valid amount/,
    );

    await ctx.database.db.update(dares).set({ status: 'completed' }).where(eq(dares.id, dare.id));
    await expectRefused(
      () =>
        post(
          '/api/create-transaction',
          { fromWallet: bob.wallet.address, toWallet: dare.escrowWallet, amount: '0.1' },
          bob.token,
        ),
      409,
      'This dare no longer accepts contributions',
    );
    // SOL that arrived under a request made while the dare was active is not credited to a
    // finished dare (its payout is fixed): it is refused and refunded (test/held-payments.test.ts).
    const late = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.1', userWallet: bob.wallet.address, transactionSignature: signature },
      bob.token,
    );
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().error).toBe('This dare no longer accepts contributions');
    expect((await ctx.app.inject({ url: `/api/dares/${dare.id}` })).json().totalPool).toBe('0.1');
  });
});

describe('test SOL and balances', () => {
  it('has no test SOL on a real cluster', async () => {
    // Nothing listens on port 9: the airdrop must be refused before any RPC call is made.
    const devnet = await createTestContext(
      {},
      { chain: createRpcChain({ url: 'http://127.0.0.1:9', cluster: 'devnet' }) },
    );
    try {
      const wallet = await createTestWallet();
      const res = await devnet.app.inject({
        method: 'POST',
        url: '/api/dev/airdrop',
        payload: { walletAddress: wallet.address, amount: '1' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Test SOL is only available on the embedded chain');
    } finally {
      await devnet.close();
    }
  });

  it('airdrops at most 10 SOL a call and reports exact balances', async () => {
    const wallet = await createTestWallet();
    const res = await post('/api/dev/airdrop', { walletAddress: wallet.address, amount: '10' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().balance).toBe('10000000000');
    const tooMuch = await post('/api/dev/airdrop', { walletAddress: wallet.address, amount: '10.000000001' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe('At most 10 SOL per request');
    expect(await balanceOf(wallet.address)).toBe(10_000_000_000n);
    const bad = await post('/api/check-balance', { walletAddress: 'not-a-wallet' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('server-side minimums (issue 13)', () => {
  it('refuses a pool contribution below 0.01 SOL at create-transaction and add-pool, changing nothing', async () => {
    const { dare } = await createDare(alice, '0.1', { title: 'Tiny backers' });
    for (const amount of ['0.000000001', '0.009999999']) {
      await expectRefused(
        () =>
          post(
            '/api/create-transaction',
            { fromWallet: bob.wallet.address, toWallet: dare.escrowWallet, amount },
            bob.token,
          ),
        400,
        'Please enter a valid amount',
      );
    }
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.01');
    await expectRefused(
      () =>
        post(
          `/api/dares/${dare.id}/add-pool`,
          { amount: '0.000000001', userWallet: bob.wallet.address, transactionSignature: signature },
          bob.token,
        ),
      400,
      'Please enter a valid amount',
    );
    // The smallest allowed amount goes through.
    const res = await post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.01', userWallet: bob.wallet.address, transactionSignature: signature },
      bob.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalPool).toBe('0.11');
  });
});

describe('the relay sends only what the server built (issue 13)', () => {
  it('refuses another message carrying the caller’s reference, and relays nothing', async () => {
    const escrow = await reserveEscrow(alice);
    const { reference } = await prepare(alice, escrow, '0.1');
    const stranger = await createTestWallet();
    const before = await balanceOf(alice.wallet.address);
    // The whole wallet to an unrelated address, carrying Alice's open reference.
    const drain = await signedOwnTransfer(ctx.chain, alice.wallet, {
      to: stranger.address,
      sol: '9',
      reference,
    });
    const res = await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: drain }, alice.token),
      400,
      'This is not the transaction DarePool prepared for this payment; sign the prepared transaction unchanged',
    );
    expect(res.code).toBe('BAD_REQUEST');
    // The right escrow, another amount: not the prepared message either.
    const other = await signedOwnTransfer(ctx.chain, alice.wallet, { to: escrow, sol: '0.2', reference });
    await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: other }, alice.token),
      400,
      /not the transaction DarePool prepared/,
    );
    expect(await balanceOf(alice.wallet.address)).toBe(before);
    expect(await balanceOf(stranger.address)).toBe(0n);
    expect(await balanceOf(escrow)).toBe(0n);
  });

  it('refuses the prepared message with a signature that is not the wallet’s', async () => {
    const escrow = await reserveEscrow(alice);
    const { transaction } = await prepare(alice, escrow, '0.1');
    // Signed by Bob's key in Alice's slot: the wallet's signature must verify.
    const forged = Buffer.from(await signBase64(alice.wallet, transaction), 'base64');
    const bobs = Buffer.from(
      await signedOwnTransfer(ctx.chain, bob.wallet, { to: escrow, sol: '0.1' }),
      'base64',
    );
    bobs.subarray(1, 65).copy(forged, 1);
    await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: forged.toString('base64') }, alice.token),
      400,
      'The transaction is not correctly signed by your wallet',
    );
    expect(await balanceOf(escrow)).toBe(0n);
  });

  it('relays an intent once: the same signed transaction again gets the same signature, nothing is sent twice', async () => {
    const escrow = await reserveEscrow(alice);
    const { transaction } = await prepare(alice, escrow, '0.1');
    const signed = await signBase64(alice.wallet, transaction);
    const before = await balanceOf(alice.wallet.address);
    const first = await post('/api/send-transaction', { signedTransaction: signed }, alice.token);
    expect(first.statusCode, first.body).toBe(200);
    const books1 = await books();
    const second = await post('/api/send-transaction', { signedTransaction: signed }, alice.token);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().signature).toBe(first.json().signature);
    expect(await books()).toEqual(books1);
    expect(before - (await balanceOf(alice.wallet.address))).toBe(100_005_000n);
    expect(await balanceOf(escrow)).toBe(100_000_000n);
    const [intent] = await ctx.database.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.signature, first.json().signature));
    expect(intent).toMatchObject({ relaySignature: first.json().signature });
    expect(intent!.relayedAt).not.toBeNull();
    // Once credited, the intent is closed: the relay no longer knows it.
    const credited = await post(
      '/api/dares',
      dareBody(alice.wallet, { escrow, reference: '', signature: first.json().signature }, '0.1'),
      alice.token,
    );
    expect(credited.statusCode, credited.body).toBe(201);
    await expectRefused(
      () => post('/api/send-transaction', { signedTransaction: signed }, alice.token),
      400,
      'This transaction was not prepared by DarePool for your account',
    );
  });
});
