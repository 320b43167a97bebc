/**
 * 'Refund me' on the v2 vaults issue 33 names: a judged dare whose 2-of-2 proposal was vetoed.
 * While the proposal stands nobody can be refunded (the program refuses: the page says why); once
 * vetoed and past refund_after, each payer takes their own receipt back with their own wallet, and
 * the server's job then closes the entries (each entrant's rent back to it) and gives the fee
 * payer back its propose nonce: every lamport where it belongs, and the books reconcile.
 */
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { DAY_MS } from '#contract/time';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import { warpChain } from './helpers/chain-clock';
import { walletSigns } from './helpers/entries';
import { adminWithKey } from './helpers/judging';
import { type Actor, expectReconciled, lamportsOf } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { vetoedJudgedDare } from './helpers/vetoed-dare';

const FEE = 5_000n;

let judgeKeys: KeyPairSigner[] = [];
const { ctx, http, actors } = setupApiSuite({
  env: async () => {
    judgeKeys = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    return { JUDGE_WALLETS: judgeKeys.map((k) => k.address).join(','), JUDGE_THRESHOLD: '2' };
  },
  actors: { creator: {}, backer: {}, ada: {}, bob: {} },
});

let first: Actor;
let second: Actor;
beforeAll(async () => {
  first = await adminWithKey(ctx, judgeKeys[0]!, 'judgeone');
  second = await adminWithKey(ctx, judgeKeys[1]!, 'judgetwo');
});

describe("'Refund me' on a judged v2 vault", () => {
  it('refuses while a proposal stands, then refunds each payer after a veto; the job closes the rest', async () => {
    const { creator, backer, ada, bob } = actors;
    const { dare, veto, nonceAccount } = await vetoedJudgedDare(
      ctx,
      { creator, backer, entrants: [ada, bob] },
      { keys: [judgeKeys[0]!, judgeKeys[1]!], admins: [first, second] },
    );
    const status = (user: Actor) => http.get(`/api/dares/${dare.id}/refund-status`, user.token);
    expect((await status(backer)).json()).toEqual({
      refundable: false,
      amount: '45000000',
      reason: JUDGING_MESSAGES.proposalStanding,
    });
    await veto();
    // The server's judging job notices the veto (the dare is open to judging again).
    await ctx.app.judgingJob.runNow();
    // Past refund_after (a week after a deadline a week ahead) by both clocks.
    await warpChain(ctx, 15 * 86_400);
    ctx.clock.advance(15 * DAY_MS);

    const records = await listVaultRecords(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault);
    expect(records.entries).toHaveLength(2);
    const entryRent = new Map<string, bigint>(
      records.entries.map((entry) => [entry.entrant, entry.lamports]),
    );
    const feePayer = (await ctx.escrowKeys.feePayer()).address;
    const nonceRent = await lamportsOf(ctx, nonceAccount);
    expect(nonceRent).toBeGreaterThan(0n);

    for (const [payer, amount] of [
      [creator, 300_000_000n],
      [backer, 45_000_000n],
    ] as const) {
      expect((await status(payer)).json()).toEqual({
        refundable: true,
        amount: amount.toString(),
        reason: null,
      });
      const built = await http.post(`/api/dares/${dare.id}/refund-transaction`, undefined, payer.token);
      expect(built.statusCode, built.body).toBe(200);
      const before = await lamportsOf(ctx, payer.wallet.address);
      const refunded = await http.post(
        `/api/dares/${dare.id}/refund`,
        { signedTransaction: await walletSigns(payer.wallet, built.json().transaction) },
        payer.token,
      );
      expect(refunded.statusCode, refunded.body).toBe(200);
      // Its amount, less its own fee, plus its receipt's rent when it paid that rent (the creator).
      const receipt = records.receipts.find((r) => r.payer === payer.wallet.address)!;
      const rentBack = receipt.rentPayer === payer.wallet.address ? receipt.lamports : 0n;
      expect((await lamportsOf(ctx, payer.wallet.address)) - before).toBe(amount - FEE + rentBack);
    }

    // What is left (the entries, the vault, the nonce) is the server's job to close.
    const entrantsBefore = new Map<string, bigint>();
    for (const entrant of [ada, bob])
      entrantsBefore.set(entrant.wallet.address, await lamportsOf(ctx, entrant.wallet.address));
    const feePayerBefore = await lamportsOf(ctx, feePayer);
    await ctx.app.payoutJob.runNow();
    for (const entrant of [ada, bob])
      expect(await lamportsOf(ctx, entrant.wallet.address)).toBe(
        entrantsBefore.get(entrant.wallet.address)! + entryRent.get(entrant.wallet.address)!,
      );
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toBeNull();
    expect(await lamportsOf(ctx, nonceAccount)).toBe(0n);
    // The nonce's rent came back to the fee payer, less the fees of what the job sent.
    expect(await lamportsOf(ctx, feePayer)).toBeGreaterThan(feePayerBefore + nonceRent - 5n * FEE);
    await expectReconciled(ctx);
  }, 120_000);
});
