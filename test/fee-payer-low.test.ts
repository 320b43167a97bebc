/**
 * When the platform fee payer runs low (decision 034): the health check and the admin panel say
 * so against FEE_PAYER_MIN_SOL, and wherever the platform pays (a new vault's rent here; payouts
 * in claims.test.ts) the user is told 'DarePool cannot pay network fees right now', never that
 * their own wallet is short.
 */
import {
  appendTransactionMessageInstruction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { waitForConfirmation } from '#server/chain/confirmation';
import { paymentIntents } from '#server/db/schema';
import { lamportsOf } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, alice },
} = setupApiSuite({ actors: { admin: { username: 'boss', admin: true }, alice: {} } });

const feePayer = () => ctx.escrowKeys.feePayer();

/** Moves everything the fee payer holds to `to` (it pays its own fee): an unfunded fee payer. */
async function drainFeePayer(to: string) {
  const from = await feePayer();
  const balance = await lamportsOf(ctx, from.address);
  const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash().send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(from, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: from, destination: to as never, amount: balance - 5_000n }),
          m,
        ),
    ),
  );
  const signature = await ctx.chain.rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { commitment: 'confirmed' });
}

describe('the fee payer, reported', () => {
  it('health and the admin panel give its balance against FEE_PAYER_MIN_SOL (0.5 SOL by default)', async () => {
    const { address } = await feePayer();
    const balance = await lamportsOf(ctx, address);
    expect(balance).toBeGreaterThanOrEqual(500_000_000n);
    const health = (await http.get('/api/health')).json();
    expect(health.feePayer).toEqual({ ok: true, balance: balance.toString(), minBalance: '500000000' });
    const panel = await http.get('/api/admin/fee-payer', admin.token);
    expect(panel.json()).toEqual({
      address,
      balance: balance.toString(),
      payoutsLeft: Number(balance / 5_000n),
      minBalance: '500000000',
      low: false,
    });
  });
});

describe('the fee payer, drained', () => {
  it("refuses a new dare's payment in DarePool's words, building nothing, and reports it low", async () => {
    await drainFeePayer(admin.wallet.address);
    const { address } = await feePayer();
    expect(await lamportsOf(ctx, address)).toBe(0n);

    // The user's wallet holds plenty: the platform's part (the vault's rent) is what cannot be paid.
    const aliceBefore = await lamportsOf(ctx, alice.wallet.address);
    const escrow = await http.post('/api/create-escrow-wallet', undefined, alice.token);
    expect(escrow.statusCode, escrow.body).toBe(200);
    const res = await http.post(
      '/api/create-transaction',
      {
        fromWallet: alice.wallet.address,
        toWallet: escrow.json().publicKey,
        amount: '0.1',
        deadline: new Date(ctx.clock.now.getTime() + 7 * 24 * 3600 * 1000).toISOString(),
      },
      alice.token,
    );
    expect([res.statusCode, res.json().error]).toEqual([503, FEE_PAYER_MESSAGES.low]);
    expect(res.json().error).not.toMatch(/your wallet/i);
    expect(await ctx.database.db.select().from(paymentIntents)).toHaveLength(0);
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(aliceBefore);

    // Health stays 'ok' (every instance shares the fee payer) and says why users are refused.
    const health = await http.get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      feePayer: { ok: false, balance: '0', minBalance: '500000000', message: FEE_PAYER_MESSAGES.low },
    });
    const panel = (await http.get('/api/admin/fee-payer', admin.token)).json();
    expect(panel).toMatchObject({ balance: '0', low: true, payoutsLeft: 0 });

    // Funded again, the same payment goes through.
    await ctx.chain.airdrop(address, 1_000_000_000n);
    const again = await http.post(
      '/api/create-transaction',
      {
        fromWallet: alice.wallet.address,
        toWallet: escrow.json().publicKey,
        amount: '0.1',
        deadline: new Date(ctx.clock.now.getTime() + 7 * 24 * 3600 * 1000).toISOString(),
      },
      alice.token,
    );
    expect(again.statusCode, again.body).toBe(200);
  });
});
