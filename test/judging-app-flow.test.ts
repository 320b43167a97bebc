/**
 * The whole story through the app with new vaults on program v2 (the only program for them): a dare
 * created over HTTP, a proof entered with the entrant's wallet and submitted, approved, its winner
 * named by the judge's wallet (mark-winner's propose and relay), paid by the job after the window.
 * docs/decisions/042-naming-winners.md.
 */
import { address, type KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { warpChain } from './helpers/chain-clock';
import { enterAndSubmit } from './helpers/entries';
import { adminWithKey, demoJudgeKey, judgeSigns, potOf, vaultV2 } from './helpers/judging';
import { type Actor, createFundedDare, lamportsOf } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const { ctx, http, actors } = setupApiSuite({
  actors: { creator: {}, walker: {} },
});

let judgeKey: KeyPairSigner;
let judge: Actor;
beforeAll(async () => {
  judgeKey = await demoJudgeKey(ctx);
  judge = await adminWithKey(ctx, judgeKey, 'judge1');
});

describe('naming a winner of a dare made through the app on program v2', () => {
  it('creates, enters, approves, proposes, relays, and pays after the window', async () => {
    const dare = await createFundedDare(ctx, actors.creator, '0.2');
    const vault = await vaultV2(ctx, address(dare.escrowWallet));
    expect(vault.judges).toEqual(ctx.judging.judges);
    const submission = await enterAndSubmit(ctx, actors.walker, dare.id);
    const approved = await http.put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'approved' },
      judge.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const pot = await potOf(ctx, dare.vault);

    const offered = await http.post(
      `/api/admin/submissions/${submission.id}/mark-winner`,
      { dareId: dare.id },
      judge.token,
    );
    expect(offered.statusCode, offered.body).toBe(200);
    const relayed = await http.post(
      `/api/admin/submissions/${submission.id}/mark-winner`,
      { dareId: dare.id, signedTransaction: await judgeSigns(judgeKey, offered.json().transaction) },
      judge.token,
    );
    expect(relayed.statusCode, relayed.body).toBe(200);
    expect((await vaultV2(ctx, dare.vault)).status).toBe('proposed');

    const before = await lamportsOf(ctx, actors.walker.wallet.address);
    await warpChain(ctx, Number(ctx.judging.payoutWindowSeconds) + 60);
    await ctx.app.payoutJob.runNow();
    expect((await lamportsOf(ctx, actors.walker.wallet.address)) - before).toBeGreaterThanOrEqual(pot);
    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.winners).toMatchObject([{ submissionId: submission.id, status: 'paid' }]);
    expect(outcome.proposal).toMatchObject({ signature: relayed.json().proposal.signature, vetoed: false });
  });
});
