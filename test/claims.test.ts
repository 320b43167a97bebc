/**
 * Claims paid by escrow program v2: the judge's own wallet names the winner (propose), and after
 * the payout window `execute` (the platform's fee payer signs only as fee payer) pays the winner's
 * registered wallet everything the vault holds, then the records close so every rent lamport
 * returns to whoever paid it: the creator for its vault, each payer for its receipt, the entrant
 * for its entry. Dares are funded through the API (create_vault, deposit, enter signed by the
 * users' wallets).
 */
import { type Address, address } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { claims, ledgerEntries, payoutTransfers, users } from '#server/db/schema';
import { ENTRY_COST, ENTRY_FEE, ENTRY_RENT, enterAndSubmit, fundEntries } from './helpers/entries';
import { recordExecute } from './helpers/execute';
import { nameWinner, passPayoutWindow } from './helpers/judging';
import { sendOwnTransfer, waitUntilLanded } from './helpers/money';
import {
  type Actor,
  castVote,
  contribute,
  createFundedDare,
  enterOnChain,
  expectReconciled,
  lamportsOf,
  newActor,
  platformFeesFor,
  submitVideo,
  vaultOnChain,
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
    // The winner holds only what its entries take (given before each): every lamport is counted.
    winner: { sol: '0' },
    voter: { sol: '0' },
  },
});

/** The author's prize claim for this submission, as its Claims page lists it. */
async function claimOf(author: Actor, submissionId: number) {
  const listed = await http.get('/api/claims', author.token);
  expect(listed.statusCode, listed.body).toBe(200);
  const claim = (listed.json() as { id: number; submissionId: number | null }[]).find(
    (c) => c.submissionId === submissionId,
  );
  expect(claim).toBeDefined();
  return claim as { id: number; submissionId: number; amount: string; status: string; claimType: string };
}

async function approveAndVote(submission: { id: number; dareId: number }) {
  const approved = await http.put(
    `/api/admin/submissions/${submission.id}`,
    { status: 'approved' },
    admin.token,
  );
  expect(approved.statusCode, approved.body).toBe(200);
  await castVote(ctx, voter, submission);
}

/**
 * A community dare funded through the API (create_vault, deposit), `author` entered on chain and
 * submitted (Submit Video signs `enter`), approved, voted for, named winner by the judge, and its
 * payout window passed: the claim can be paid.
 */
async function wonDare(author: Actor, stake = '0.2', added = '0.15') {
  const dare = await createFundedDare(ctx, creator, stake);
  await contribute(ctx, backer, dare, added);
  await fundEntries(ctx, author.wallet.address);
  const submission = await enterAndSubmit(ctx, author, dare.id);
  await approveAndVote(submission);
  await nameWinner(ctx, admin, submission.id, dare.id);
  await passPayoutWindow(ctx);
  return { dare, submission, claim: await claimOf(author, submission.id) };
}

/** The network fees the platform paid for the transactions of this vault (it is their fee payer). */
const platformFees = (vault: string) => platformFeesFor(ctx, vault);

const feePayer = () => ctx.escrowKeys.feePayer();

/**
 * The platform's fees for one judged dare: the propose it relays (its fee payer and the judge
 * sign: 2 signatures), the execute (1) and the closes of the creator's and the backer's receipts
 * and the entry, packed in one transaction (1, decision 058); 5,000 lamports each.
 */
const PLATFORM_FEES = 20_000n;

async function expectClosed(dare: { vault: Address }) {
  expect(await vaultOnChain(ctx, dare.vault)).toEqual({ vault: null, receipts: 0, entries: 0 });
  expect(await lamportsOf(ctx, dare.vault)).toBe(0n);
}

describe('the complete story on the program: fund, contribute, enter, approve, vote, name the winner, window, claim', () => {
  it('pays the winner exactly the pool, closes vault, receipts and entry, returns every rent lamport to its payer', async () => {
    const platform = (await feePayer()).address;
    const platformBefore = await lamportsOf(ctx, platform);
    const start = await lamportsOf(ctx, winner.wallet.address);
    const { dare, submission, claim } = await wonDare(winner, '0.2', '0.15');
    // wonDare gave the winner exactly its entry's cost, and the entry took it all.
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(start);
    expect(claim).toMatchObject({ amount: '0.35', status: 'pending', claimType: 'dare_winner' });
    expect(await vaultOnChain(ctx, dare.vault)).toMatchObject({ receipts: 2, entries: 1 });

    const before = await lamportsOf(ctx, winner.wallet.address);
    const res = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(res.statusCode, res.body).toBe(200);
    const paid = res.json();
    expect(paid).toMatchObject({ status: 'paid', amount: '0.35', failureReason: null });
    // The pool, and its entry's rent back with it.
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 350_000_000n + ENTRY_RENT);
    // From the SOL it was given for the entry on, the winner is richer by the pool minus the
    // entry's network fee.
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(start + ENTRY_COST + 350_000_000n - ENTRY_FEE);
    await expectClosed(dare);
    // Every rent lamport came back: the platform is out only the fees of what it chose to send
    // (the propose it relays for the judge, the execute, the closes; the wallets paid their own
    // create_vault, deposit and entry, and their rent).
    const fees = await platformFees(dare.escrowWallet);
    expect(fees).toBe(PLATFORM_FEES);
    expect(await lamportsOf(ctx, platform)).toBe(platformBefore - fees);

    const ledger = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.dareId, dare.id));
    expect(ledger.map((line) => `${line.kind} ${line.direction} ${line.amount}`).sort()).toEqual([
      'contribution 1 0.150000000',
      'payout -1 0.350000000',
      'stake 1 0.200000000',
    ]);
    expect(ledger.find((line) => line.kind === 'payout')).toMatchObject({
      counterparty: winner.wallet.address,
      claimId: claim.id,
      signature: paid.transactionHash,
      userId: winner.id,
    });
    await expectReconciled(ctx);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, winner.id));
    expect(row).toMatchObject({ dareWins: 1, totalEarnings: '0.350000000', reputation: 11 });
    const [transfer] = await ctx.database.db
      .select()
      .from(payoutTransfers)
      .where(eq(payoutTransfers.signature, paid.transactionHash));
    expect(transfer).toMatchObject({ status: 'confirmed', amount: '0.350000000', surplus: '0.000000000' });

    // Asked again (a judged dare may have been paid by the job): the paid claim, nothing sent.
    const again = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      id: claim.id,
      status: 'paid',
      transactionHash: paid.transactionHash,
    });
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 350_000_000n + ENTRY_RENT);
  });

  it('refuses to name a winner whose wallet never entered the dare on chain, and moves nothing', async () => {
    // A submission recorded without an entry (as before entries existed).
    const dare = await createFundedDare(ctx, creator, '0.1');
    await contribute(ctx, backer, dare, '0.01');
    const submission = await submitVideo(ctx, winner, dare.id);
    await approveAndVote(submission);
    const vaultBefore = await lamportsOf(ctx, dare.vault);
    const res = await http.post(
      `/api/admin/submissions/${submission.id}/mark-winner`,
      { dareId: dare.id },
      admin.token,
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(
      'This submission was not entered on chain: its author never signed the entry',
    );
    expect(await ctx.database.db.$count(claims, eq(claims.submissionId, submission.id))).toBe(0);
    expect((await vaultOnChain(ctx, dare.vault)).vault?.status).toBe('open');
    expect(await lamportsOf(ctx, dare.vault)).toBe(vaultBefore);
    // Entered (the dare is still open on chain), the same submission is named and its claim pays.
    await fundEntries(ctx, winner.wallet.address);
    await enterOnChain(ctx, winner, dare);
    await nameWinner(ctx, admin, submission.id, dare.id);
    await passPayoutWindow(ctx);
    const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(paid.statusCode, paid.body).toBe(200);
    await expectClosed(dare);
    await expectReconciled(ctx);
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
    // One request pays; the others find it being paid (409) or, once paid, answer the paid claim
    // (a judged dare's claim answers its payout): all with the one transaction.
    const codes = responses.map((res) => res.statusCode);
    expect(codes.filter((code) => code !== 200 && code !== 409)).toEqual([]);
    const paidWith = new Set(
      responses.filter((res) => res.statusCode === 200).map((res) => res.json().transactionHash),
    );
    expect(paidWith.size).toBe(1);
    expect(codes.filter((code) => code === 409).length).toBeGreaterThan(0);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 350_000_000n + ENTRY_RENT);
    await expectClosed(dare);
    const transfers = await ctx.database.db
      .select()
      .from(payoutTransfers)
      .where(eq(payoutTransfers.dareId, dare.id));
    expect(transfers.map((t) => t.status)).toEqual(['confirmed']);
    await expectReconciled(ctx);
  });

  it('a crash after sending is recovered at start-up without paying twice', async () => {
    const { dare, claim } = await wonDare(winner, '0.25', '0.05');
    const before = await lamportsOf(ctx, winner.wallet.address);
    // What payClaim does up to the crash: processing, signed and recorded, sent... then the process dies.
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    const { transfer } = await recordExecute(
      ctx,
      { claimId: claim.id, dareId: dare.id, escrowWallet: dare.escrowWallet },
      async (tx, signature) => {
        await tx.update(claims).set({ transactionHash: signature }).where(eq(claims.id, claim.id));
      },
    );
    await ctx.chain.rpc.sendTransaction(transfer.wireTransaction as never, { encoding: 'base64' }).send();
    await waitUntilLanded(ctx.chain, transfer.signature);
    // The pool; the entry's rent comes back when the records close, after the execute.
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 300_000_000n);
    await expect(expectReconciled(ctx)).rejects.toThrow(); // the chain moved, the books not yet

    await ctx.restart();

    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({ status: 'paid', transactionHash: transfer.signature });
    await expectReconciled(ctx);
    // Asked again: the paid claim and its transaction, nothing sent.
    const retry = await http.post('/api/claims/prize', { submissionId: claim.submissionId }, winner.token);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ status: 'paid', transactionHash: transfer.signature });
    // The job closes the records left and the rent comes back.
    await ctx.app.payoutJob.runNow();
    await expectClosed(dare);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 300_000_000n + ENTRY_RENT);
  });

  it('a crash before sending is recovered by sending the recorded bytes, once', async () => {
    const { dare, claim } = await wonDare(winner, '0.1', '0.02');
    const before = await lamportsOf(ctx, winner.wallet.address);
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    const { transfer } = await recordExecute(
      ctx,
      { claimId: claim.id, dareId: dare.id, escrowWallet: dare.escrowWallet },
      async (tx, signature) => {
        await tx.update(claims).set({ transactionHash: signature }).where(eq(claims.id, claim.id));
      },
    );
    await ctx.restart();
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({ status: 'paid', transactionHash: transfer.signature });
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 120_000_000n);
    await expectReconciled(ctx);
    // The records close after the execute (the job), the entry's rent back to the winner.
    await ctx.app.payoutJob.runNow();
    await expectClosed(dare);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 120_000_000n + ENTRY_RENT);
  });

  it('makes a claim left processing without a transaction claimable again at start-up', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.1', '0.01');
    await ctx.database.db.update(claims).set({ status: 'processing' }).where(eq(claims.id, claim.id));
    await ctx.restart();
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({
      status: 'pending',
      failureReason: 'The payout was interrupted; please claim again',
    });
    const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(paid.statusCode, paid.body).toBe(200);
    await expectClosed(dare);
    await expectReconciled(ctx);
  });
});

describe('a failed execute', () => {
  it('leaves the claim claimable again with the reason shown, and moves nothing', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.1', '0.01');
    const platform = await feePayer();
    const sink = await newActor(ctx, 'sink', { sol: '0' });
    await drain(platform, sink.wallet.address);
    const before = await lamportsOf(ctx, winner.wallet.address);
    const vaultBefore = await lamportsOf(ctx, dare.vault);
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'TRANSACTION_FAILED',
        error: `The payout failed: ${FEE_PAYER_MESSAGES.low}. You can try again.`,
      });
    }
    const [row] = await ctx.database.db.select().from(claims).where(eq(claims.id, claim.id));
    expect(row).toMatchObject({
      status: 'pending',
      transactionHash: null,
      failureReason: FEE_PAYER_MESSAGES.low,
    });
    const attempts = await ctx.database.db
      .select()
      .from(payoutTransfers)
      .where(eq(payoutTransfers.claimId, claim.id));
    expect(attempts.map((t) => t.status)).toEqual(['failed', 'failed']);
    expect(new Set(attempts.map((t) => t.signature)).size).toBe(2);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before);
    expect(await lamportsOf(ctx, dare.vault)).toBe(vaultBefore);
    await expectReconciled(ctx);

    await ctx.chain.airdrop(platform.address, 1_000_000_000n);
    const retry = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await lamportsOf(ctx, winner.wallet.address)).toBe(before + 110_000_000n + ENTRY_RENT);
    await expectClosed(dare);
    await expectReconciled(ctx);
  });
});

describe('lamports sent to a vault from outside', () => {
  it('go to the winner with the pool, booked as surplus; the vault still closes to 0', async () => {
    const { dare, submission, claim } = await wonDare(winner, '0.1', '0.02');
    await sendOwnTransfer(ctx.chain, backer.wallet, { to: dare.escrowWallet, sol: '0.000000001' });
    const before = await lamportsOf(ctx, winner.wallet.address);
    const res = await http.post('/api/claims/prize', { submissionId: submission.id }, winner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'paid', amount: '0.12' });
    expect((await lamportsOf(ctx, winner.wallet.address)) - before).toBe(120_000_001n + ENTRY_RENT);
    await expectClosed(dare);
    const lines = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, dare.escrowWallet));
    expect(lines.filter((line) => line.direction === -1 || line.kind === 'surplus')).toEqual([
      expect.objectContaining({ kind: 'surplus', direction: 1, amount: '0.000000001' }),
      expect.objectContaining({ kind: 'payout', direction: -1, amount: '0.120000001', claimId: claim.id }),
    ]);
    await expectReconciled(ctx);
  });
});

/** Moves all of the fee payer's SOL away (it pays its own fee), to simulate an unfunded fee payer. */
async function drain(from: Awaited<ReturnType<typeof feePayer>>, to: string) {
  const kit = await import('@solana/kit');
  const balance = await lamportsOf(ctx, from.address);
  const { value: blockhash } = await ctx.chain.rpc.getLatestBlockhash().send();
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayerSigner(from, m),
    (m) => kit.setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      kit.appendTransactionMessageInstruction(
        getTransferSolInstruction({ source: from, destination: address(to), amount: balance - 5_000n }),
        m,
      ),
  );
  const signed = await kit.signTransactionMessageWithSigners(message);
  await ctx.chain.rpc
    .sendTransaction(kit.getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
    .send();
  await waitUntilLanded(ctx.chain, kit.getSignatureFromTransaction(signed));
  expect(await lamportsOf(ctx, from.address)).toBe(0n);
}
