/**
 * 'Refund me' (issue 16, decision 025): a payer of a refunding dare takes their SOL back with their
 * own wallet, the server relaying only the refund it built for them and booking what the chain did.
 */
import {
  address,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type SignatureBytes,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { waitForConfirmation } from '#server/chain/confirmation';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { getCancelInstruction } from '#server/chain/escrow-program/instructions';
import { partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import { enterAndSubmit, walletSigns } from './helpers/entries';
import { nameWinner, passPayoutWindow } from './helpers/judging';
import {
  type Actor,
  api,
  contribute,
  createFundedDare,
  expectReconciled,
  lamportsOf,
  newActor,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { owner, alice, bob, admin },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { owner: {}, alice: { sol: '1' }, bob: { sol: '1' }, admin: { sol: '0', admin: true } },
});

/** New vaults are program v2's; v1 remains for vaults that already exist. */
const programs = () => ({ v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id });

/** The refund's one signature, the payer's: 5,000 lamports. */
const FEE = 5_000n;
/** A receipt's rent on the test chain (120 bytes). */
const RECEIPT_RENT = 1_726_080n;

let dare: { id: number; escrowWallet: string };
beforeAll(async () => {
  dare = await createFundedDare(ctx, owner, '0.1');
  await contribute(ctx, alice, dare, '0.05');
  await contribute(ctx, bob, dare, '0.02');
});

const status = (user: Actor, id = dare.id) => http.get(`/api/dares/${id}/refund-status`, user.token);
const prepare = (user: Actor, id = dare.id) =>
  http.post(`/api/dares/${id}/refund-transaction`, undefined, user.token);
const relay = (user: Actor, signedTransaction: string, id = dare.id) =>
  http.post(`/api/dares/${id}/refund`, { signedTransaction }, user.token);

/** The platform fee payer's whole balance sent away: the server can no longer pay any fee. */
async function drainFeePayer(): Promise<void> {
  const feePayer = await ctx.escrowKeys.feePayer();
  const balance = await lamportsOf(ctx, feePayer.address);
  const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const sink = await newActor(ctx, 'sink', { sol: '0' });
  const drain = await partiallySigned({
    feePayer,
    lifetime,
    instructions: [
      getTransferSolInstruction({
        source: feePayer,
        destination: address(sink.wallet.address),
        amount: balance - FEE,
      }),
    ],
  });
  const sent = await ctx.chain.rpc.sendTransaction(drain.base64, { encoding: 'base64' }).send();
  await waitForConfirmation(ctx.chain.rpc, sent);
  expect(await lamportsOf(ctx, feePayer.address)).toBe(0n);
}

describe("'Refund me'", () => {
  it('tells a payer when their refund opens, and refuses one before then', async () => {
    const res = await status(alice);
    expect(res.statusCode, res.body).toBe(200);
    const vault = await fetchVault(ctx.chain.rpc, programs(), address(dare.escrowWallet));
    const opens = new Date(Number(vault!.refundAfter) * 1000);
    // Readable in any locale: '4 Dec 2026, 02:29 UTC', never the raw ISO instant.
    expect(res.json().reason).toMatch(
      /^Refunds of this dare open on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/,
    );
    expect(res.json()).toEqual({
      refundable: false,
      amount: '50000000',
      reason: REFUND_ME_MESSAGES.notDue(opens),
    });
    const early = await prepare(alice);
    expect([early.statusCode, early.json().error]).toEqual([409, REFUND_ME_MESSAGES.notDue(opens)]);
    expect((await http.get(`/api/dares/${dare.id}/refund-status`)).statusCode).toBe(401);
    expect((await http.post(`/api/dares/${dare.id}/refund-transaction`, undefined)).statusCode).toBe(401);
    expect((await status(alice, 999_999)).statusCode).toBe(404);
  });

  it('lets a payer refund themselves when the server cannot, with their wallet as the only signer', async () => {
    // The moderator (v2's canceller) cancels the vault (the program's `cancel`, the first step of
    // the server's refunds); then the platform can pay no more fees, so the admin's cancel refunds
    // nobody.
    const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const cancel = await partiallySigned({
      feePayer: await ctx.escrowKeys.feePayer(),
      lifetime,
      instructions: [
        getCancelInstruction({
          programId: ctx.escrowProgramV2Id,
          vault: address(dare.escrowWallet),
          moderator: await ctx.escrowKeys.moderator(),
        }),
      ],
    });
    const sent = await ctx.chain.rpc.sendTransaction(cancel.base64, { encoding: 'base64' }).send();
    await waitForConfirmation(ctx.chain.rpc, sent);
    await drainFeePayer();
    const cancelled = await api(ctx).patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      admin.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().refunds.refunded).toBe(0);

    expect((await status(alice)).json()).toEqual({ refundable: true, amount: '50000000', reason: null });
    const outsider = await newActor(ctx, 'outsider', { sol: '0' });
    expect((await status(outsider)).json()).toEqual({
      refundable: false,
      amount: null,
      reason: REFUND_ME_MESSAGES.nothingToRefund,
    });
    const none = await prepare(outsider);
    expect([none.statusCode, none.json().error]).toEqual([409, REFUND_ME_MESSAGES.nothingToRefund]);

    // A stranger asking for alice's refund by her wallet's address (no sign-in) gets the very same
    // transaction and cannot keep alice from it.
    const byAddress = await http.post(
      `/api/dares/${dare.id}/wallets/${alice.wallet.address}/refund-transaction`,
      undefined,
    );
    expect(byAddress.statusCode, byAddress.body).toBe(200);
    const built = await prepare(alice);
    expect(built.statusCode, built.body).toBe(200);
    const { transaction, amount } = built.json();
    expect(transaction).toBe(byAddress.json().transaction);
    expect(amount).toBe('50000000');
    // No DarePool key signs: the payer's wallet is the fee payer and the only signer.
    expect(getTransactionDecoder().decode(Buffer.from(transaction, 'base64')).signatures).toEqual({
      [alice.wallet.address]: null,
    });
    expect((await prepare(alice)).json().transaction).toBe(transaction);
    const signed = await walletSigns(alice.wallet, transaction);

    // Only that refund, for that user, signed by their wallet, unchanged.
    const stolen = await relay(bob, signed);
    expect([stolen.statusCode, stolen.json().error]).toEqual([400, REFUND_ME_MESSAGES.notPrepared]);
    const decoded = getTransactionDecoder().decode(Buffer.from(signed, 'base64'));
    const unsigned = getBase64EncodedWireTransaction({
      ...decoded,
      signatures: { [alice.wallet.address]: new Uint8Array(64) as SignatureBytes },
    });
    const badSignature = await relay(alice, unsigned);
    expect([badSignature.statusCode, badSignature.json().error]).toEqual([
      400,
      REFUND_ME_MESSAGES.badSignature,
    ]);
    const bytes = new Uint8Array(decoded.messageBytes);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    const tampered = Buffer.from(
      getTransactionEncoder().encode({ ...decoded, messageBytes: bytes as never }),
    ).toString('base64');
    const changed = await relay(alice, tampered);
    expect([changed.statusCode, changed.json().error]).toEqual([400, REFUND_ME_MESSAGES.notAsPrepared]);

    const before = await lamportsOf(ctx, alice.wallet.address);
    const refunded = await relay(alice, signed);
    expect(refunded.statusCode, refunded.body).toBe(200);
    // What the refund gave the wallet: its receipt's amount, and the receipt's rent it lent
    // (decision 058), as a creator's refund gives back the rent it lent.
    expect(refunded.json().amount).toBe((50_000_000n + RECEIPT_RENT).toString());
    expect((await lamportsOf(ctx, alice.wallet.address)) - before).toBe(50_000_000n + RECEIPT_RENT - FEE);
    // Booked at once: the ledger follows the chain.
    await expectReconciled(ctx);
    // Sent again (a lost answer), it is the same transaction: the same answer, nothing twice.
    const again = await relay(alice, signed);
    expect(again.json()).toEqual(refunded.json());
    expect((await lamportsOf(ctx, alice.wallet.address)) - before).toBe(50_000_000n + RECEIPT_RENT - FEE);
    expect((await status(alice)).json()).toMatchObject({ refundable: false, amount: null });

    // Once the platform can pay again, its job refunds everyone else and the vault closes.
    await ctx.chain.airdrop(address((await ctx.escrowKeys.feePayer()).address), 2_000_000_000n);
    await ctx.app.payoutJob.runNow();
    expect(await fetchVault(ctx.chain.rpc, programs(), address(dare.escrowWallet))).toBeNull();
    expect((await status(bob)).json()).toEqual({
      refundable: false,
      amount: null,
      reason: REFUND_ME_MESSAGES.noVault,
    });
    await expectReconciled(ctx);
  });

  it('has nothing to refund on a dare paid out to its winner', async () => {
    const won = await createFundedDare(ctx, owner, '0.1', { title: 'Won' });
    await contribute(ctx, alice, won, '0.03');
    const carol = await newActor(ctx, 'carol', { sol: '1' });
    const proof = await enterAndSubmit(ctx, carol, won.id);
    const approved = await api(ctx).put(
      `/api/admin/submissions/${proof.id}`,
      { status: 'approved' },
      admin.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    // The judge names the winner; after the payout window the winner's claim is paid.
    await nameWinner(ctx, admin, proof.id, won.id);
    await passPayoutWindow(ctx);
    const claimed = await api(ctx).post('/api/claims/prize', { submissionId: proof.id }, carol.token);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().status).toBe('paid');
    const res = await prepare(alice, won.id);
    expect(res.statusCode).toBe(409);
    expect([REFUND_ME_MESSAGES.noVault, REFUND_ME_MESSAGES.paidOut]).toContain(res.json().error);
    await expectReconciled(ctx);
  });
});
