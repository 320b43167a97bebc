/**
 * When the platform fee payer runs low (decision 034): the health check and the admin panel say
 * so against FEE_PAYER_MIN_SOL, and wherever the platform pays (payouts, in claims.test.ts) the
 * user is told 'DarePool cannot pay network fees right now', never that their own wallet is short.
 * A new dare is not such a place any more: on program v2 the creator's wallet pays all of it.
 */
import {
  type Address,
  appendTransactionMessageInstruction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import { vaultV2 } from './helpers/judging';
import { signBase64 } from './helpers/money';
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
  // Program v2: a new vault is the creator's to pay (its rent, her stake's receipt, the fee), so a
  // drained fee payer stops no new dare; where the platform still pays (payouts, in
  // claims.test.ts) the user is told 'DarePool cannot pay network fees right now'.
  it('lets a new dare through at the creator’s own cost, and reports the fee payer low', async () => {
    await drainFeePayer(admin.wallet.address);
    const { address } = await feePayer();
    expect(await lamportsOf(ctx, address)).toBe(0n);

    const aliceBefore = await lamportsOf(ctx, alice.wallet.address);
    const escrow = await http.post('/api/create-escrow-wallet', undefined, alice.token);
    expect(escrow.statusCode, escrow.body).toBe(200);
    const res = await http.post(
      '/api/create-transaction',
      {
        fromWallet: alice.wallet.address,
        toWallet: escrow.json().publicKey,
        amount: '0.1',
        deadline: new Date(ctx.clock.now.getTime() + 7 * DAY_MS).toISOString(),
      },
      alice.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { transaction } = res.json() as { transaction: string };
    // Her wallet is the only signer: nothing of it is the platform's to pay.
    const signers = Object.keys(
      getTransactionDecoder().decode(Buffer.from(transaction, 'base64')).signatures,
    );
    expect(signers).toEqual([alice.wallet.address]);
    const sent = await http.post(
      '/api/send-transaction',
      { signedTransaction: await signBase64(alice.wallet, transaction) },
      alice.token,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const vault = await vaultV2(ctx, escrow.json().publicKey as Address);
    expect(vault.rentPayer).toBe(alice.wallet.address);
    const { receipts } = await listVaultRecords(ctx.chain.rpc, ctx.escrowProgramV2Id, vault.address);
    expect(receipts).toEqual([
      expect.objectContaining({ payer: alice.wallet.address, amount: 100_000_000n }),
    ]);
    const receiptRent = receipts[0]!.rentPayer === alice.wallet.address ? receipts[0]!.rent : 0n;
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(
      aliceBefore - 100_000_000n - vault.rent - receiptRent - 5_000n,
    );
    expect(await lamportsOf(ctx, address)).toBe(0n);

    // Health stays 'ok' (every instance shares the fee payer) and says what users will be refused.
    const health = await http.get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      feePayer: { ok: false, balance: '0', minBalance: '500000000', message: FEE_PAYER_MESSAGES.low },
    });
    const panel = (await http.get('/api/admin/fee-payer', admin.token)).json();
    expect(panel).toMatchObject({ balance: '0', low: true, payoutsLeft: 0 });

    // Funded again, it is reported healthy.
    await ctx.chain.airdrop(address, 1_000_000_000n);
    expect((await http.get('/api/health')).json().feePayer).toMatchObject({
      ok: true,
      balance: '1000000000',
    });
  });
});
