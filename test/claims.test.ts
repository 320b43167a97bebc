import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claims, ledgerEntries, payoutTransfers, users } from '#server/db/schema';
import { createPayoutsService } from '#server/features/payouts/service';
import type { TestContext } from './helpers/app';
import { sendOwnTransfer, waitUntilLanded } from './helpers/money';
import {
  type Actor,
  castVote,
  contribute,
  createFundedDare,
  expectReconciled,
  lamportsOf,
  newActor,
  submitVideo,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, creator, backer, winner, voter },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  context: { persistentChain: true },
  actors: {
    admin: { username: 'boss', admin: true },
    creator: {},
    backer: {},
    // The winner never held SOL: the prize must still arrive (it is above the rent minimum).
    winner: { sol: '0' },
    voter: { sol: '0' },
  },
});

/** A community dare with a stake and a pool addition, an approved submission by `author`, marked winner. */
async function wonDare(author: Actor, stake = '0.2', added = '0.15') {
  const dare = await createFundedDare(ctx, creator, stake);
  await contribute(ctx, backer, dare, added);
  const submission = await submitVideo(ctx, author, dare.id);
  const approved = await http.put(
    `/api/admin/submissions/${submission.id}`,
    { status: 'approved' },
    admin.token,
  );
  expect(approved.statusCode, approved.body).toBe(200);
  await castVote(ctx, voter, submission);
  const marked = await http.post(
    `/api/admin/submissions/${submission.id}/mark-winner`,
    { dareId: dare.id },
    admin.token,
  );
  expect(marked.statusCode, marked.body).toBe(201);
  return { dare, submission, claim: marked.json() };
}

describe('the complete story: fund, contribute, submit, approve, vote, mark winner, claim', () => {
  it('pays the winner exactly the pool from the escrow, drains it to 0, and keeps the ledger reconciled', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.2', '0.15');
    expect(claim).toMatchObject({
      amount: '0.35',
      status: 'pending',
      claimType: 'dare_winner',
      userId: winner.id,
    });
    expect((await http.get(`/api/dares/${dare.id}`)).json().status).toBe('completed');
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(350_000_000n);

    const winning = await http.get('/api/winning-submissions', winner.token);
    expect(winning.json()).toEqual([
      expect.objectContaining({
        id: submission.id,
        prizeAmount: '0.35',
        claimStatus: 'pending',
        dareTitle: 'Eat a lemon',
      }),
    ]);

    const before = await lamportsOf(ctx, winner.wallet.address);
    // The first client sends amount, userId and walletAddress too (docs/product.md#claim-calls): ignored, the server decides.
    const res = await http.post(
      '/api/claims/prize',
      { submissionId: submission.id, userId: admin.id, amount: '5', walletAddress: admin.wallet.address },
      winner.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const paid = res.json();
    expect(paid).toMatchObject({ status: 'paid', amount: '0.35', failureReason: null });
    expect(paid.transactionHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(paid.explorerUrl).toContain(paid.transactionHash);

    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 350_000_000n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    const ledger = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.dareId, dare.id));
    expect(ledger.filter((entry) => entry.kind === 'payout')).toEqual([
      expect.objectContaining({
        direction: -1,
        amount: '0.350000000',
        counterparty: winner.wallet.address,
        claimId: claim.id,
      }),
    ]);
    await expectReconciled(ctx);

    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, winner.id));
    expect(row).toMatchObject({ dareWins: 1, totalEarnings: '0.350000000', reputation: 11 });

    const list = await http.get('/api/claims', winner.token);
    expect(list.json()).toEqual([
      expect.objectContaining({ id: claim.id, status: 'paid', transactionHash: paid.transactionHash }),
    ]);

    // Paid once: a second claim is refused and moves nothing.
    const again = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'ALREADY_PROCESSED',
      error: 'This prize has already been paid',
    });
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 350_000_000n);
  });

  it('refuses a claim by anyone but the winner, for a missing submission, and without a session', async () => {
    const { submission } = await wonDare(winner, '0.1', '0.01');
    const other = await http.post('/api/claims/prize', { submissionId: submission.id }, backer.token);
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('Only the winner can claim this prize');
    const missing = await http.post('/api/claims/prize', { submissionId: 999_999 }, winner.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Submission not found');
    const anonymous = await http.post('/api/claims/prize', { submissionId: submission.id });
    expect(anonymous.statusCode).toBe(401);
    const bad = await http.post('/api/claims/prize', { submissionId: 'abc' }, winner.token);
    expect(bad.statusCode).toBe(400);
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.submissionId, submission.id));
    expect(row!.status).toBe('pending');
  });
});

describe('exactly once', () => {
  it('50 concurrent claim requests pay once', async () => {
    const { dare, submission } = await wonDare(winner, '0.3', '0.05');
    const before = await lamportsOf(ctx, winner.wallet.address);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        http.post('/api/claims/prize', { submissionId: submission.id }, winner.token),
      ),
    );
    const codes = responses.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(49);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 350_000_000n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    const transfers = await ctx.database.db
      .select()
      .from(payoutTransfers)
      .where(eq(payoutTransfers.dareId, dare.id));
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.status).toBe('confirmed');
    await expectReconciled(ctx);
  });

  it('a crash after sending is recovered at start-up without paying twice', async () => {
    const { dare, claim } = await wonDare(winner, '0.25', '0.05');
    const before = await lamportsOf(ctx, winner.wallet.address);
    // What payClaim does up to the crash: processing, signed and recorded, sent... then the process dies.
    const payouts = createPayoutsService({
      db: ctx.database.db,
      chain: ctx.chain,
      escrowKeys: ctx.escrowKeys,
      clock: () => ctx.clock.now,
    });
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    const transfer = await payouts.prepare(
      {
        target: { purpose: 'claim', claimId: claim.id },
        dareId: dare.id,
        escrowWallet: dare.escrowWallet,
        recipient: winner.wallet.address,
        lamports: 300_000_000n,
      },
      async (tx, signature) => {
        await tx.update(claims).set({ transactionHash: signature }).where(eq(claims.id, claim.id));
      },
    );
    await ctx.chain.rpc.sendTransaction(transfer.wireTransaction as never, { encoding: 'base64' }).send();
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 300_000_000n);
    await expect(expectReconciled(ctx)).rejects.toThrow(); // the chain moved, the books not yet

    await ctx.restart();

    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({ status: 'paid', transactionHash: transfer.signature });
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 300_000_000n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    await expectReconciled(ctx);
    const retry = await http.post('/api/claims/prize', { submissionId: claim.submissionId }, winner.token);
    expect(retry.statusCode).toBe(409);
  });

  it('a crash before sending is recovered by sending the recorded bytes, once', async () => {
    const { dare, claim } = await wonDare(winner, '0.1', '0.02');
    const before = await lamportsOf(ctx, winner.wallet.address);
    const payouts = createPayoutsService({
      db: ctx.database.db,
      chain: ctx.chain,
      escrowKeys: ctx.escrowKeys,
      clock: () => ctx.clock.now,
    });
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    const transfer = await payouts.prepare({
      target: { purpose: 'claim', claimId: claim.id },
      dareId: dare.id,
      escrowWallet: dare.escrowWallet,
      recipient: winner.wallet.address,
      lamports: 120_000_000n,
    });
    await ctx.restart();
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({ status: 'paid', transactionHash: transfer.signature });
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 120_000_000n);
    await expectReconciled(ctx);
  });
});

describe('a crash before anything was recorded', () => {
  it('makes a claim left processing without a transfer claimable again at start-up', async () => {
    const { submission, claim } = await wonDare(winner, '0.1', '0.01');
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    await ctx.restart();
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({
      status: 'pending',
      failureReason: 'The payout was interrupted; please claim again',
    });
    const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(paid.statusCode, paid.body).toBe(200);
    await expectReconciled(ctx);
  });
});

describe('a failed transfer', () => {
  it('leaves the claim claimable again with the reason shown, and moves nothing', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.1', '0.01');
    // Someone drained the fee payer: the payout cannot pay its network fee.
    const payouts = createPayoutsService({
      db: ctx.database.db,
      chain: ctx.chain,
      escrowKeys: ctx.escrowKeys,
      clock: () => ctx.clock.now,
    });
    const feePayer = await ctx.escrowKeys.feePayer();
    const { lamports: feeBalance } = await payouts.feePayerBalance();
    const sink = await newActor(ctx, 'sink', { sol: '0' });
    await drain(feePayer, sink.wallet.address, feeBalance);

    const before = await lamportsOf(ctx, winner.wallet.address);
    const res = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'TRANSACTION_FAILED' });
    expect(res.json().error).toMatch(/^The payout failed: .+\. You can try again\.$/);
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row!.status).toBe('pending');
    expect(row!.transactionHash).toBeNull();
    expect(row!.failureReason).toBe('The platform fee wallet cannot pay the network fee right now');
    const listed = (await http.get('/api/claims', winner.token))
      .json()
      .find((c: { id: number }) => c.id === claim.id);
    expect(listed.failureReason).toBe(row!.failureReason);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(110_000_000n);
    await expectReconciled(ctx);

    // Funded again, the same claim pays.
    await ctx.chain.airdrop(feePayer.address, 1_000_000_000n);
    const retry = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ status: 'paid', failureReason: null });
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 110_000_000n);
    await expectReconciled(ctx);
  });
});

describe('issue 13: dust, retries and recovery', () => {
  it('pays a winner whose escrow got a lamport from outside: at least the pool, the escrow ends at 0', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.1', '0.02');
    await sendOwnTransfer(ctx.chain, backer.wallet, { to: dare.escrowWallet, sol: '0.000000001' });
    const before = await lamportsOf(ctx, winner.wallet.address);
    const earnings = async () =>
      (await ctx.database.db.select().from(users).where(eq(users.id, winner.id)))[0]!.totalEarnings;
    const earned = await earnings();
    const res = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'paid', amount: '0.12' });
    expect((await lamportsOf(ctx, winner.wallet.address)) - before).toBe(120_000_001n);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, dare.escrowWallet));
    expect(lines.filter((line) => line.direction === -1 || line.kind === 'surplus')).toEqual([
      expect.objectContaining({ kind: 'surplus', direction: 1, amount: '0.000000001' }),
      expect.objectContaining({ kind: 'payout', direction: -1, amount: '0.120000001', claimId: claim.id }),
    ]);
    // The claim and the winner's earnings are the prize itself.
    expect(Number(await earnings()) - Number(earned)).toBeCloseTo(0.12, 9);
    await expectReconciled(ctx);
  });

  it('answers a retry right after a failed payout with a new transaction, not a 500', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.1', '0.01');
    const feePayer = await ctx.escrowKeys.feePayer();
    const sink = await newActor(ctx, 'sink2', { sol: '0' });
    await drain(feePayer, sink.wallet.address, await lamportsOf(ctx, feePayer.address));
    // Twice in a row, nothing happening on chain in between: the same blockhash both times.
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe(
        'The payout failed: The platform fee wallet cannot pay the network fee right now. You can try again.',
      );
    }
    const attempts = await ctx.database.db
      .select()
      .from(payoutTransfers)
      .where(eq(payoutTransfers.claimId, claim.id));
    expect(attempts.map((t) => t.status)).toEqual(['failed', 'failed']);
    expect(new Set(attempts.map((t) => t.signature)).size).toBe(2);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(110_000_000n);
    await ctx.chain.airdrop(feePayer.address, 1_000_000_000n);
    const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    await expectReconciled(ctx);
  });

  it('books a transfer the node only finds on a second look after its blockhash expired, and never pays it twice', async () => {
    const { dare, claim } = await wonDare(winner, '0.1', '0.03');
    const before = await lamportsOf(ctx, winner.wallet.address);
    const payouts = createPayoutsService({
      db: ctx.database.db,
      chain: ctx.chain,
      escrowKeys: ctx.escrowKeys,
      clock: () => ctx.clock.now,
    });
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    const transfer = await payouts.prepare(
      {
        target: { purpose: 'claim', claimId: claim.id },
        dareId: dare.id,
        escrowWallet: dare.escrowWallet,
        recipient: winner.wallet.address,
        lamports: 130_000_000n,
      },
      async (tx, signature) => {
        await tx.update(claims).set({ transactionHash: signature }).where(eq(claims.id, claim.id));
      },
    );
    // It landed; then the process stopped before booking it.
    await ctx.chain.rpc.sendTransaction(transfer.wireTransaction as never, { encoding: 'base64' }).send();
    await waitUntilLanded(ctx.chain, transfer.signature);

    // A lagging node: "not found" on the first look, past the blockhash's last block, then found.
    let looks = 0;
    const rpc = ctx.chain.rpc;
    const lagging = new Proxy(rpc, {
      get(target, method, receiver) {
        if (method === 'getSignatureStatuses')
          return (signatures: Parameters<typeof rpc.getSignatureStatuses>[0], config?: object) => {
            const real = target.getSignatureStatuses(signatures, config);
            if (signatures[0] !== transfer.signature || looks++ > 0) return real;
            return { send: async () => ({ context: { slot: 0n }, value: [null] }) };
          };
        if (method === 'getBlockHeight')
          return () => ({ send: async () => transfer.lastValidBlockHeight + 1n });
        return Reflect.get(target, method, receiver);
      },
    });
    const recovering = createPayoutsService({
      db: ctx.database.db,
      chain: { ...ctx.chain, rpc: lagging },
      escrowKeys: ctx.escrowKeys,
      clock: () => ctx.clock.now,
    });
    const { outcomes } = await recovering.recover();
    expect(looks).toBeGreaterThanOrEqual(2);
    expect(outcomes).toEqual([{ status: 'confirmed', signature: transfer.signature }]);
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({ status: 'paid', transactionHash: transfer.signature });
    expect((await lamportsOf(ctx, winner.wallet.address)) - before).toBe(130_000_000n);
    const retry = await http.post('/api/claims/prize', { submissionId: claim.submissionId }, winner.token);
    expect(retry.statusCode).toBe(409);
    await expectReconciled(ctx);
  });
});

/** Moves all of the fee payer's SOL away (it pays its own fee), to simulate an unfunded fee payer. */
async function drain(
  feePayer: Awaited<ReturnType<TestContext['escrowKeys']['feePayer']>>,
  to: string,
  balance: bigint,
) {
  const kit = await import('@solana/kit');
  const { getTransferSolInstruction } = await import('@solana-program/system');
  const { value: blockhash } = await ctx.chain.rpc.getLatestBlockhash().send();
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => kit.setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      kit.appendTransactionMessageInstruction(
        getTransferSolInstruction({
          source: feePayer,
          destination: kit.address(to),
          amount: balance - 5_000n,
        }),
        m,
      ),
  );
  const signed = await kit.signTransactionMessageWithSigners(message);
  await ctx.chain.rpc
    .sendTransaction(kit.getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
    .send();
  expect(await lamportsOf(ctx, feePayer.address)).toBe(0n);
}
