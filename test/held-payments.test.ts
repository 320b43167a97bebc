/**
 * Money held for payers whose payment never funded a dare, refunded through the escrow program by
 * the refunds feature (payments' RefusedVaults, wired in routes.ts): the vault is cancelled and each
 * receipt refunded to its payer, booked on the ledger, the vault closed with its rent back to its
 * payer (program v2: the creator's wallet). Payments decides when (a final refusal at once, a correctable one after the hold, a
 * payment nobody reported once it lapses); these tests follow the money through the real app.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { dares, dareWallets, ledgerEntries, paymentIntents, payoutTransfers } from '#server/db/schema';
import { PAYMENT_INTENT_TTL_MS, REFUSED_PAYMENT_HOLD_MS } from '#server/features/payments/intents/intent';
import { dareBody, payStake, sendStraight, signBase64, waitUntilLanded } from './helpers/money';
import { expectReconciled, lamportsOf, platformFeesFor, refundJob, vaultOnChain } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { alice, bob },
} = setupApiSuite({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' }, actors: { alice: {}, bob: {} } });

const MINUTE = 60_000;
/** The wallet's fee for create_vault (program v2): its own signature, the only one. */
const CREATE_FEES = 5_000n;
/**
 * The rent a v2 create_vault takes from the creator's wallet: the vault's (424 bytes) and its
 * receipt's (120 bytes). A refund that closes the vault gives both back.
 */
const CREATE_RENT = 3_841_920n + 1_726_080n;

const inDays = (days: number) => new Date(ctx.clock.now.getTime() + days * DAY_MS).toISOString();

async function linesOf(escrow: string) {
  const lines = await ctx.database.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.escrowWallet, escrow));
  return lines.map((line) => `${line.kind} ${line.direction} ${line.amount}`);
}

async function intentOf(signature: string) {
  const [row] = await ctx.database.db
    .select()
    .from(paymentIntents)
    .where(eq(paymentIntents.signature, signature));
  return row!;
}

async function expectRefundedVault(escrow: string, signature: string, payer: string, stake: string) {
  expect(await vaultOnChain(ctx, escrow as never)).toEqual({ vault: null, receipts: 0, entries: 0 });
  expect(await lamportsOf(ctx, escrow)).toBe(0n);
  expect(await linesOf(escrow)).toEqual([`stake 1 ${stake}`, `refund -1 ${stake}`]);
  const intent = await intentOf(signature);
  expect(intent).toMatchObject({ usedFor: 'refund' });
  expect(intent.refundedAt).not.toBeNull();
  const transfers = await ctx.database.db
    .select()
    .from(payoutTransfers)
    .where(eq(payoutTransfers.escrowWallet, escrow));
  expect(transfers).toEqual([
    expect.objectContaining({ purpose: 'refund', status: 'confirmed', recipient: payer, amount: stake }),
  ]);
  expect(intent.refundSignature).toBe(transfers[0]!.signature);
  const [wallet] = await ctx.database.db.select().from(dareWallets).where(eq(dareWallets.publicKey, escrow));
  expect(wallet).toMatchObject({ status: 'closed', dareId: null, balance: '0.000000000' });
  await expectReconciled(ctx);
}

describe('a vault that can never fund its dare (a final refusal)', () => {
  it('is cancelled and refunded within the request that refused it, once', async () => {
    const before = await lamportsOf(ctx, alice.wallet.address);
    const platformBefore = await lamportsOf(ctx, (await ctx.escrowKeys.feePayer()).address);
    const paid = await payStake(ctx.app, alice.token, alice.wallet, '0.2', { deadline: inDays(3) });
    const refused = await http.post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.2', { deadline: inDays(4) }),
      alice.token,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('The deadline does not match the one the payment was prepared with');
    await expectRefundedVault(paid.escrow, paid.signature, alice.wallet.address, '0.200000000');
    // The wallet is out only its create_vault fee (the vault's and receipt's rent came back to it);
    // the platform paid only the fees of the cancel and the refund.
    expect(before - (await lamportsOf(ctx, alice.wallet.address))).toBe(CREATE_FEES);
    // On program v2 the cancel and the refund are transactions of their own (decision 032): the
    // platform paid exactly their fees (cancel: 2 signatures, refund: 1).
    const fees = await platformFeesFor(ctx, paid.escrow);
    expect(fees).toBe(15_000n);
    expect((await lamportsOf(ctx, (await ctx.escrowKeys.feePayer()).address)) - platformBefore).toBe(-fees);

    // Sent again, the refused request changes nothing; the jobs find nothing owed.
    const again = await http.post(
      '/api/dares',
      dareBody(alice.wallet, paid, '0.2', { deadline: inDays(4) }),
      alice.token,
    );
    expect(again.statusCode).toBe(400);
    expect(await ctx.app.paymentsJob.runNow()).toBeDefined();
    await refundJob(ctx).refundDue();
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(before - CREATE_FEES);
    expect(await ctx.database.db.$count(payoutTransfers, eq(payoutTransfers.escrowWallet, paid.escrow))).toBe(
      1,
    );
    await expectRefundedVault(paid.escrow, paid.signature, alice.wallet.address, '0.200000000');
  });

  it('cancelAndRefund again, or twice at once, refunds nothing twice', async () => {
    const paid = await payStake(ctx.app, bob.token, bob.wallet, '0.05', { deadline: inDays(3) });
    const before = await lamportsOf(ctx, bob.wallet.address);
    const refunds = refundJob(ctx);
    await Promise.all([refunds.cancelAndRefund(paid.escrow), refunds.cancelAndRefund(paid.escrow)]);
    await refunds.cancelAndRefund(paid.escrow);
    expect((await lamportsOf(ctx, bob.wallet.address)) - before).toBe(50_000_000n + CREATE_RENT);
    expect(await vaultOnChain(ctx, paid.escrow as never)).toEqual({ vault: null, receipts: 0, entries: 0 });
    expect(await linesOf(paid.escrow)).toEqual(['stake 1 0.050000000', 'refund -1 0.050000000']);
    // The reservation's intent is settled as refunded by payments when its job next looks.
    await ctx.app.paymentsJob.runNow();
    await expectReconciled(ctx);
  });
});

describe('a payment held for a corrected request', () => {
  it('can still be credited within the hold, and is refunded once the hold lapses', async () => {
    const kept = await payStake(ctx.app, alice.token, alice.wallet, '0.1');
    const lapsing = await payStake(ctx.app, alice.token, alice.wallet, '0.15');
    for (const [paid, stake] of [
      [kept, '0.2'],
      [lapsing, '0.2'],
    ] as const) {
      const refused = await http.post('/api/dares', dareBody(alice.wallet, paid, stake), alice.token);
      expect(refused.json().error).toBe('The stake amount does not match the payment');
    }
    const corrected = await http.post('/api/dares', dareBody(alice.wallet, kept, '0.1'), alice.token);
    expect(corrected.statusCode, corrected.body).toBe(201);

    const before = await lamportsOf(ctx, alice.wallet.address);
    ctx.clock.advance(REFUSED_PAYMENT_HOLD_MS - MINUTE);
    await ctx.app.paymentsJob.runNow();
    expect(await lamportsOf(ctx, lapsing.escrow)).toBeGreaterThan(150_000_000n);
    ctx.clock.advance(2 * MINUTE);
    await ctx.app.paymentsJob.runNow();
    expect((await lamportsOf(ctx, alice.wallet.address)) - before).toBe(150_000_000n + CREATE_RENT);
    await expectRefundedVault(lapsing.escrow, lapsing.signature, alice.wallet.address, '0.150000000');
    // The corrected dare keeps its vault and its pool.
    const [dare] = await ctx.database.db.select().from(dares).where(eq(dares.id, corrected.json().id));
    expect(dare).toMatchObject({ status: 'active', totalPool: '0.100000000' });
    expect((await vaultOnChain(ctx, kept.escrow as never)).vault?.status).toBe('open');
  });
});

describe('a stake nobody reported (step 7 never called)', () => {
  it('is found once its intent lapses, then cancelled and refunded by the payments job', async () => {
    const escrow = (await http.post('/api/create-escrow-wallet', undefined, bob.token)).json()
      .publicKey as string;
    const built = await http.post(
      '/api/create-transaction',
      { fromWallet: bob.wallet.address, toWallet: escrow, amount: '0.3', deadline: inDays(2) },
      bob.token,
    );
    expect(built.statusCode, built.body).toBe(200);
    const before = await lamportsOf(ctx, bob.wallet.address);
    // Straight to the chain: the server never hears of it.
    const signature = await sendStraight(ctx.chain, await signBase64(bob.wallet, built.json().transaction));
    await waitUntilLanded(ctx.chain, signature);
    await ctx.app.paymentsJob.runNow();
    expect(await lamportsOf(ctx, escrow)).toBeGreaterThan(300_000_000n);
    ctx.clock.advance(PAYMENT_INTENT_TTL_MS + MINUTE);
    await ctx.app.paymentsJob.runNow();
    // Paid back the stake: the wallet is out only its create_vault fees.
    expect(before - (await lamportsOf(ctx, bob.wallet.address))).toBe(CREATE_FEES);
    await expectRefundedVault(escrow, signature, bob.wallet.address, '0.300000000');
  });
});
