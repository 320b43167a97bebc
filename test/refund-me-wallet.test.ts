/**
 * 'Refund me' by wallet (issue 38, decision 066): a wallet with no account that backed a dare
 * straight on chain (a blink) takes its own refund with no sign-in; only its signature can take
 * it, and only back to itself.
 */
import { address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { waitForConfirmation } from '#server/chain/confirmation';
import { getCancelInstruction } from '#server/chain/escrow-program/instructions';
import { partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import { backByBlink } from './helpers/blinks';
import { walletSigns } from './helpers/entries';
import { createFundedDare, expectReconciled, lamportsOf } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet } from './helpers/wallet';

const {
  ctx,
  http,
  actors: { owner },
} = setupApiSuite({ actors: { owner: {} } });

const FEE = 5_000n;

/** The moderator cancels the vault on chain: refunds open, and the app's refund job is not run. */
async function cancelOnChain(vault: string) {
  const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const cancel = await partiallySigned({
    feePayer: await ctx.escrowKeys.feePayer(),
    lifetime,
    instructions: [
      getCancelInstruction({
        programId: ctx.escrowProgramV2Id,
        vault: address(vault),
        moderator: await ctx.escrowKeys.moderator(),
      }),
    ],
  });
  const sent = await ctx.chain.rpc.sendTransaction(cancel.base64, { encoding: 'base64' }).send();
  await waitForConfirmation(ctx.chain.rpc, sent);
}

const base = (dareId: number, wallet: string) => `/api/dares/${dareId}/wallets/${wallet}`;

describe("'Refund me' by wallet, with no account", () => {
  it('refunds a blink backer to its wallet, signed by that wallet only, with no sign-in', async () => {
    const dare = await createFundedDare(ctx, owner, '0.1');
    const backer = await createTestWallet();
    await ctx.chain.airdrop(address(backer.address), 1_000_000_000n);
    await backByBlink(ctx, dare.id, backer, '0.2');

    const early = await http.get(`${base(dare.id, backer.address)}/refund-status`);
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json()).toMatchObject({ refundable: false, amount: '200000000' });

    await cancelOnChain(dare.escrowWallet);
    const status = await http.get(`${base(dare.id, backer.address)}/refund-status`);
    expect(status.json()).toEqual({ refundable: true, amount: '200000000', reason: null });
    const bad = await http.get(`${base(dare.id, 'not-an-address')}/refund-status`);
    expect([bad.statusCode, bad.json().error]).toEqual([400, REFUND_ME_MESSAGES.invalidWallet]);
    const stranger = await createTestWallet();
    const none = await http.post(`${base(dare.id, stranger.address)}/refund-transaction`, undefined);
    expect([none.statusCode, none.json().error]).toEqual([409, REFUND_ME_MESSAGES.nothingToRefund]);

    const built = await http.post(`${base(dare.id, backer.address)}/refund-transaction`, undefined);
    expect(built.statusCode, built.body).toBe(200);
    const { transaction } = built.json();
    const signed = await walletSigns(backer, transaction);
    // Under another wallet's path it is nobody's prepared refund.
    const elsewhere = await http.post(`${base(dare.id, stranger.address)}/refund`, {
      signedTransaction: signed,
    });
    expect([elsewhere.statusCode, elsewhere.json().error]).toEqual([400, REFUND_ME_MESSAGES.notPrepared]);
    const before = await lamportsOf(ctx, backer.address);
    const refunded = await http.post(`${base(dare.id, backer.address)}/refund`, {
      signedTransaction: signed,
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const gained = (await lamportsOf(ctx, backer.address)) - before;
    // Its 0.2 SOL and the receipt's rent it lent, less the one signature's fee.
    expect(gained).toBe(BigInt(refunded.json().amount) - FEE);
    expect(BigInt(refunded.json().amount)).toBeGreaterThan(200_000_000n);
    await expectReconciled(ctx);
    const again = await http.post(`${base(dare.id, backer.address)}/refund`, { signedTransaction: signed });
    expect(again.json()).toEqual(refunded.json());
    expect((await lamportsOf(ctx, backer.address)) - before).toBe(gained);
  });
});
