import { describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { enterAndSubmit } from './helpers/entries';
import { nameWinner, passPayoutWindow } from './helpers/judging';
import { castVote, contribute, createFundedDare, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

/**
 * What the web app needs to say where a dare's money went (issue 26): the dare's phase and refund
 * total on every read, the refunds with their transactions, the payer's refund on Profile, the
 * explorer's sentences, and the session user's own votes.
 */
const {
  ctx,
  http,
  actors: { admin, alice, bob, carol },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { admin: { username: 'boss', admin: true }, alice: {}, bob: {}, carol: {} },
});

type Summary = { text: string; dareId: number | null }[];

async function explorer(signature: string) {
  const res = await http.get(`/api/transactions/${signature}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    summary: Summary;
    instructions: { program: string; type: string | null; info: Record<string, unknown> | null }[];
  };
}

describe('a dare that ends without a winner and is refunded', () => {
  it('reads active, then ended, then refunded with its refunds, on its page, the list, the admin list and Profile', async () => {
    const deadline = new Date(ctx.clock.now.getTime() + DAY_MS);
    const dare = await createFundedDare(ctx, alice, '0.2', {
      title: 'Juggle five balls',
      deadline: deadline.toISOString(),
    });
    await contribute(ctx, bob, dare, '0.05');

    const read = async () => (await http.get(`/api/dares/${dare.id}`)).json();
    expect(await read()).toMatchObject({ status: 'active', phase: 'active', refundTotal: null });

    // Past the deadline nobody won it: 'Ended', never 'Completed' (the stored status says completed).
    ctx.clock.advance(DAY_MS + 60_000);
    expect(await read()).toMatchObject({ status: 'completed', phase: 'ended', refundTotal: null });

    const cancelled = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      admin.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refundTotal = { amount: '0.25', backers: 2 };
    expect(await read()).toMatchObject({ status: 'cancelled', phase: 'refunded', refundTotal });
    const list = (await http.get('/api/dares?filter=all')).json() as { id: number }[];
    expect(list.find((d) => d.id === dare.id)).toMatchObject({ phase: 'refunded', refundTotal });
    const adminList = (await http.get('/api/admin/dares', admin.token)).json() as { id: number }[];
    expect(adminList.find((d) => d.id === dare.id)).toMatchObject({ phase: 'refunded', refunded: true });

    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.winners).toEqual([]);
    expect(
      outcome.refunds.map((r: { username: string; amount: string }) => `${r.username} ${r.amount}`).sort(),
    ).toEqual([`${alice.username} 0.2`, `${bob.username} 0.05`]);
    const refundOf = (username: string): string =>
      outcome.refunds.find((r: { username: string }) => r.username === username).signature;
    const signature = refundOf(bob.username);
    expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

    const profile = (await http.get('/api/profile', bob.token)).json();
    const item = profile.recentActivity.find(
      (a: { type: string; dareId: number }) => a.type === 'contribution' && a.dareId === dare.id,
    );
    expect(item).toMatchObject({ status: 'refunded', refundSignature: signature, amount: '0.05' });

    // The explorer names the program's instructions and says who got what back: on program v2 the
    // refunds of a vault go packed, one transaction for both payers (decision 058), each its line.
    expect(refundOf(alice.username)).toBe(signature);
    const refundTx = await explorer(signature);
    expect(
      refundTx.instructions.filter((ix) => ix.program === 'DarePool escrow').map((ix) => ix.type),
    ).toEqual(['refund', 'refund']);
    expect(refundTx.summary.map((entry) => entry.text).sort()).toEqual(
      [
        `Refunded 0.05 SOL to ${bob.username} from dare "Juggle five balls"`,
        `Refunded 0.2 SOL to ${alice.username} from dare "Juggle five balls"`,
      ].sort(),
    );
    expect(refundTx.summary.every((entry) => entry.dareId === dare.id)).toBe(true);
  });
});

describe('the explorer on a stake, a contribution and a payout', () => {
  it('leads with who put what in and who was paid, naming each instruction', async () => {
    const dare = await createFundedDare(ctx, alice, '0.3', { title: 'Walk a mile' });
    const created = await explorer((await http.get(`/api/dares/${dare.id}`)).json().transactionSignature);
    expect(created.summary).toEqual([
      { text: `${alice.username} put 0.3 SOL into dare "Walk a mile"`, dareId: dare.id },
    ]);
    const createVault = created.instructions.find((ix) => ix.type === 'create vault');
    expect(createVault).toMatchObject({
      program: 'DarePool escrow',
      info: { payer: alice.wallet.address, vault: dare.escrowWallet, amount: '0.3 SOL', kind: 'community' },
    });

    await contribute(ctx, bob, dare, '0.05');
    const bobsActivity = (await http.get('/api/profile', bob.token)).json().recentActivity as {
      type: string;
      dareId: number;
      transactionSignature: string;
    }[];
    const paidIn = bobsActivity.find((a) => a.type === 'contribution' && a.dareId === dare.id)!;
    const deposit = await explorer(paidIn.transactionSignature);
    expect(deposit.summary.map((line) => line.text)).toEqual([
      `${bob.username} put 0.05 SOL into dare "Walk a mile"`,
    ]);

    const walker = await newActor(ctx, 'walker1');
    const submission = await enterAndSubmit(ctx, walker, dare.id);
    await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    // The judge names the winner (program v2's propose); the prize is paid after the window.
    const proposal = await nameWinner(ctx, admin, submission.id, dare.id);
    const named = await explorer(proposal.signature);
    expect(named.summary[0]!.text).toMatch(/^The judges named walker1 the winner of dare "Walk a mile"/);
    expect(named.instructions.map((ix) => ix.type)).toContain('propose');
    await passPayoutWindow(ctx);
    const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, walker.token);
    expect(paid.statusCode, paid.body).toBe(200);
    const payout = await explorer(paid.json().transactionHash);
    expect(payout.summary[0]).toEqual({
      text: 'walker1 was paid 0.35 SOL from dare "Walk a mile"',
      dareId: dare.id,
    });
    expect(payout.instructions.map((ix) => ix.type)).toContain('execute');
    expect(payout.instructions.some((ix) => ix.program === 'unknown')).toBe(false);
    expect((await http.get(`/api/dares/${dare.id}`)).json()).toMatchObject({ phase: 'completed' });
  });
});

describe('GET /api/dares/{id}/my-votes', () => {
  it("answers the caller's own votes only, and which proofs they went to", async () => {
    const dare = await createFundedDare(ctx, alice, '0.1');
    const first = await enterAndSubmit(ctx, bob, dare.id);
    const second = await enterAndSubmit(ctx, admin, dare.id);
    for (const s of [first, second])
      await http.put(`/api/admin/submissions/${s.id}`, { status: 'approved' }, admin.token);

    expect((await http.get(`/api/dares/${dare.id}/my-votes`)).statusCode).toBe(401);
    expect((await http.get('/api/dares/999999/my-votes', carol.token)).statusCode).toBe(404);
    expect((await http.get(`/api/dares/${dare.id}/my-votes`, carol.token)).json()).toEqual({
      voteCount: 0,
      submissionIds: [],
    });
    const voted = await http.post(`/api/submissions/${second.id}/vote`, {}, carol.token);
    expect(voted.statusCode, voted.body).toBe(200);
    await castVote(ctx, alice, first);
    expect((await http.get(`/api/dares/${dare.id}/my-votes`, carol.token)).json()).toEqual({
      voteCount: 1,
      submissionIds: [second.id],
    });
  });
});
