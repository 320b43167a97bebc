import type { Base64EncodedWireTransaction } from '@solana/kit';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { dares, ledgerEntries, paymentIntents, payoutTransfers, poolContributions } from '#server/db/schema';
import { PAYMENT_INTENT_TTL_MS, REFUSED_PAYMENT_HOLD_MS } from '#server/features/payments/payment-intents';
import { dareBody, payStake, payTo, signBase64, waitUntilLanded } from './helpers/money';
import { createFundedDare, expectReconciled, lamportsOf, refundJob } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { alice, bob },
} = setupApiSuite({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, actors: { alice: {}, bob: {} } });
let job: ReturnType<typeof refundJob>;

beforeAll(() => {
  job = refundJob(ctx);
});

const MINUTE = 60_000;

/** What step 7 writes: a refusal must leave these as they were. */
async function books() {
  const { db } = ctx.database;
  const [d] = await db.select({ n: count() }).from(dares);
  const [c] = await db.select({ n: count() }).from(poolContributions);
  const [l] = await db.select({ n: count() }).from(ledgerEntries);
  return { dares: d!.n, contributions: c!.n, ledger: l!.n };
}

async function linesOf(signature: string) {
  return ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.signature, signature));
}

/** The refund lines booked for money held under a payment signature, found through its intent. */
async function refundOf(signature: string) {
  const [intent] = await ctx.database.db
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.signature, signature));
  const transfers = await ctx.database.db
    .select()
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.intentId, intent!.id), eq(payoutTransfers.status, 'confirmed')));
  return { intent: intent!, transfers };
}

describe('a payment that step 7 refuses', () => {
  it('is booked as held when the relay sees it, and refunded to the payer once the hold lapses', async () => {
    const before = await lamportsOf(ctx, alice.wallet.address);
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    // Booked the moment the relay saw it confirmed: money held for Alice, no dare yet.
    expect(await linesOf(paid.signature)).toEqual([
      expect.objectContaining({ kind: 'stake', direction: 1, amount: '0.100000000', dareId: null }),
    ]);
    await expectReconciled(ctx);

    const booksBefore = await books();
    const refused = await http.post('/api/dares', dareBody(alice.wallet, paid, '0.2'), alice.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('The stake amount does not match the payment');
    expect(await books()).toEqual(booksBefore);

    // Within the hold nothing moves (the user may still correct the request).
    ctx.clock.advance(REFUSED_PAYMENT_HOLD_MS - MINUTE);
    await job.refundDue();
    expect(await lamportsOf(ctx, paid.escrow)).toBe(100_000_000n);

    ctx.clock.advance(2 * MINUTE);
    const run = await job.refundDue();
    expect(run.held).toMatchObject({ refunded: 1, failed: 0 });
    expect(await lamportsOf(ctx, paid.escrow)).toBe(0n);
    expect(before - (await lamportsOf(ctx, alice.wallet.address))).toBe(5_000n); // only the fee
    const { intent, transfers } = await refundOf(paid.signature);
    expect(intent).toMatchObject({ usedFor: 'refund', refundSignature: transfers[0]!.signature });
    expect(transfers).toHaveLength(1);
    expect(await linesOf(transfers[0]!.signature)).toEqual([
      expect.objectContaining({ kind: 'refund', direction: -1, amount: '0.100000000' }),
    ]);
    await expectReconciled(ctx);

    // Exactly once: the next runs move nothing, and the refunded payment cannot open a dare.
    await job.refundDue();
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(before - 5_000n);
    const late = await http.post('/api/dares', dareBody(alice.wallet, paid, '0.1'), alice.token);
    expect(late.statusCode).toBe(400);
    expect(await books()).toEqual({ ...booksBefore, ledger: booksBefore.ledger + 1 }); // the refund line
  });

  it('can still be credited when the request is sent again, corrected, within the hold', async () => {
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const past = new Date(ctx.clock.now.getTime() - MINUTE).toISOString();
    const refused = await http.post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.1', { deadline: past }),
      alice.token,
    );
    expect(refused.json().error).toBe('Deadline must be in the future');
    ctx.clock.advance(REFUSED_PAYMENT_HOLD_MS - MINUTE);
    const deadline = new Date(ctx.clock.now.getTime() + 7 * 24 * 3600 * 1000).toISOString();
    const created = await http.post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.1', { deadline }),
      alice.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    // One line for the one transfer, now linked to the dare it funded.
    expect(await linesOf(paid.signature)).toEqual([
      expect.objectContaining({ kind: 'stake', dareId: created.json().id }),
    ]);
    ctx.clock.advance(2 * MINUTE);
    expect((await job.refundDue()).held.refunded).toBe(0);
    expect(await lamportsOf(ctx, paid.escrow)).toBe(100_000_000n);
    await expectReconciled(ctx);
  });

  it('refunds a refused contribution to the contributor, not to the dare', async () => {
    const dare = await createFundedDare(ctx, alice, '0.2');
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.05');
    const refused = await http.post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.06', userWallet: bob.wallet.address, transactionSignature: signature },
      bob.token,
    );
    expect(refused.json().error).toBe('The amount does not match the payment');
    const bobBefore = await lamportsOf(ctx, bob.wallet.address);
    ctx.clock.advance(REFUSED_PAYMENT_HOLD_MS + MINUTE);
    expect((await job.refundDue()).held.refunded).toBe(1);
    expect((await lamportsOf(ctx, bob.wallet.address)) - bobBefore).toBe(50_000_000n);
    // The dare keeps its own pool.
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(200_000_000n);
    expect((await http.get(`/api/dares/${dare.id}`)).json().totalPool).toBe('0.2');
    await expectReconciled(ctx);
  });
});

describe('a contribution credited after the dare finished', () => {
  it('is refused 409 and refunded exactly to the contributor, the dare keeping its pool', async () => {
    const dare = await createFundedDare(ctx, alice, '0.2');
    const { signature } = await payTo(ctx.app, bob.token, bob.wallet, dare.escrowWallet, '0.05');
    // The winner is picked while Bob's step 7 is still on its way: the payout is now fixed.
    await ctx.database.db.update(dares).set({ status: 'completed' }).where(eq(dares.id, dare.id));
    const booksBefore = await books();
    const late = await http.post(
      `/api/dares/${dare.id}/add-pool`,
      { amount: '0.05', userWallet: bob.wallet.address, transactionSignature: signature },
      bob.token,
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe(PAYMENT_MESSAGES.dareNotActive);
    expect(await books()).toEqual(booksBefore);
    expect((await http.get(`/api/dares/${dare.id}`)).json().totalPool).toBe('0.2');

    const bobBefore = await lamportsOf(ctx, bob.wallet.address);
    ctx.clock.advance(REFUSED_PAYMENT_HOLD_MS + MINUTE);
    expect((await job.refundDue()).held.refunded).toBe(1);
    expect((await lamportsOf(ctx, bob.wallet.address)) - bobBefore).toBe(50_000_000n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(200_000_000n);
    await expectReconciled(ctx);
  });
});

describe('a payment nobody reports (step 7 never called)', () => {
  it('is refunded after the intent lifetime, when the relay saw it', async () => {
    const before = await lamportsOf(ctx, bob.wallet.address);
    const paid = await payStake(ctx.app, bob.token, bob.wallet, '0.3');
    ctx.clock.advance(PAYMENT_INTENT_TTL_MS - MINUTE);
    expect((await job.refundDue()).held.refunded).toBe(0);
    expect(await lamportsOf(ctx, paid.escrow)).toBe(300_000_000n);
    ctx.clock.advance(2 * MINUTE);
    expect((await job.refundDue()).held.refunded).toBe(1);
    expect(await lamportsOf(ctx, paid.escrow)).toBe(0n);
    expect(before - (await lamportsOf(ctx, bob.wallet.address))).toBe(5_000n);
    await expectReconciled(ctx);
  });

  it('is found by its reference and refunded after the intent lifetime, when it went straight to the chain', async () => {
    const escrowRes = await http.post('/api/create-escrow-wallet', undefined, bob.token);
    const escrow = escrowRes.json().publicKey as string;
    const built = await http.post(
      '/api/create-transaction',
      { fromWallet: bob.wallet.address, toWallet: escrow, amount: '0.2' },
      bob.token,
    );
    const signed = await signBase64(bob.wallet, built.json().transaction);
    // The client sent it itself and was never heard of again: the server never saw it.
    const signature = await ctx.chain.rpc
      .sendTransaction(signed as Base64EncodedWireTransaction, { encoding: 'base64' })
      .send();
    await waitUntilLanded(ctx.chain, signature);
    expect(await linesOf(signature)).toEqual([]);
    const before = await lamportsOf(ctx, bob.wallet.address);

    ctx.clock.advance(PAYMENT_INTENT_TTL_MS + MINUTE);
    const run = await job.refundDue();
    expect(run.held).toMatchObject({ found: 1, refunded: 1, failed: 0 });
    expect((await lamportsOf(ctx, bob.wallet.address)) - before).toBe(200_000_000n);
    expect(await lamportsOf(ctx, escrow)).toBe(0n);
    expect((await linesOf(signature)).map((line) => line.kind)).toEqual(['stake']);
    await expectReconciled(ctx);
    // Looked up once: the next run does not ask the chain again, and moves nothing.
    const [intent] = await ctx.database.db
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.signature, signature));
    expect(intent!.checkedAt).not.toBeNull();
    expect((await job.refundDue()).held).toMatchObject({ found: 0, refunded: 0 });
  });

  it('leaves an intent that was never paid alone', async () => {
    const escrowRes = await http.post('/api/create-escrow-wallet', undefined, alice.token);
    const escrow = escrowRes.json().publicKey as string;
    const built = await http.post(
      '/api/create-transaction',
      { fromWallet: alice.wallet.address, toWallet: escrow, amount: '0.2' },
      alice.token,
    );
    expect(built.statusCode).toBe(200);
    const ledgerBefore = (await books()).ledger;
    ctx.clock.advance(PAYMENT_INTENT_TTL_MS + MINUTE);
    expect((await job.refundDue()).held).toMatchObject({ found: 0, refunded: 0, failed: 0 });
    expect((await books()).ledger).toBe(ledgerBefore);
    await expectReconciled(ctx);
  });
});
