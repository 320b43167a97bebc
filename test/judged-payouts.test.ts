/**
 * A dare on escrow program v2 from the payer's side (docs/decisions/036-judges-guardian-window.md):
 * the creator's wallet pays its vault's rent, the vault records the configured judges, guardian and
 * window, a judge's own key names the winner, nobody (the winner's Claim Prize, the job) can pay it
 * before the window ends, and after it the payout is one `execute` booked once, paying exactly the
 * pool. The server's keys cannot name a winner.
 */
import path from 'node:path';
import { address, getBase64EncodedWireTransaction, getSignatureFromTransaction } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { solToLamports } from '#contract/money';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { addProposeSignatures, compileProposeTransaction } from '#server/chain/escrow-program/v2';
import { claims, payoutTransfers } from '#server/db/schema';
import { DEMO_ADMIN_WALLET_FILE } from '#server/judging-keys';
import { chainNow, warpChain } from './helpers/chain-clock';
import { enterAndSubmit } from './helpers/entries';
import { api, claimsService, contribute, createFundedDare, lamportsOf } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const { ctx, actors } = setupApiSuite({
  env: { PAYOUT_WINDOW_HOURS: '1', RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { creator: {}, backer: {}, walker: { sol: '1' } },
});

const programs = () => ({ v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id });

async function sendAndConfirm(wire: string) {
  const signature = await ctx.chain.rpc
    .sendTransaction(wire as never, { encoding: 'base64', preflightCommitment: 'confirmed' })
    .send();
  for (let i = 0; i < 100; i++) {
    const { value } = await ctx.chain.rpc.getSignatureStatuses([signature]).send();
    if (value[0]?.confirmationStatus) return { signature, err: value[0].err };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('not confirmed');
}

describe('a judged dare (escrow program v2)', () => {
  it('is created at the creator’s cost with the configured terms; a judge names the winner; paid once, after the window, exactly the pool', async () => {
    const { creator, backer, walker } = actors;
    const feePayer = (await ctx.escrowKeys.feePayer()).address;
    const feePayerBefore = await lamportsOf(ctx, feePayer);

    const dare = await createFundedDare(ctx, creator, '0.2');
    const vault = await fetchVault(ctx.chain.rpc, programs(), dare.vault);
    expect(vault).toMatchObject({
      version: 2,
      programId: ctx.escrowProgramV2Id,
      status: 'open',
      rentPayer: creator.wallet.address,
      judging: {
        judges: ctx.judging.judges,
        threshold: 1,
        guardian: ctx.judging.guardian,
        payoutWindow: 3600n,
        proposal: null,
        vetoCount: 0,
      },
    });
    // Creating a v2 vault costs the platform nothing: no rent, no fee, no signature.
    expect(await lamportsOf(ctx, feePayer)).toBe(feePayerBefore);

    await contribute(ctx, backer, dare, '0.1');
    const proof = await enterAndSubmit(ctx, walker, dare.id);
    const pool = solToLamports('0.3');

    // The server's own keys cannot name a winner: the program refuses a propose they sign.
    const moderator = await ctx.escrowKeys.moderator();
    const platformFeePayer = await ctx.escrowKeys.feePayer();
    const { value: lifetime } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const forged = await addProposeSignatures(
      await compileProposeTransaction({
        programId: ctx.escrowProgramV2Id,
        vault: dare.vault,
        winners: [address(walker.wallet.address)],
        judges: [moderator.address],
        feePayer: platformFeePayer.address,
        lifetime,
      }),
      [moderator.keyPair, platformFeePayer.keyPair],
    );
    await expect(sendAndConfirm(getBase64EncodedWireTransaction(forged))).rejects.toThrow();
    expect((await fetchVault(ctx.chain.rpc, programs(), dare.vault))?.judging?.proposal).toBeNull();

    // The judge (the demo admin's wallet, in the data folder) signs a propose with its own key.
    const judge = await readKeypairFile(path.join(ctx.dataDir, DEMO_ADMIN_WALLET_FILE));
    expect(ctx.judging.judges).toContain(judge.address);
    const { value: fresh } = await ctx.chain.rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const propose = await addProposeSignatures(
      await compileProposeTransaction({
        programId: ctx.escrowProgramV2Id,
        vault: dare.vault,
        winners: [address(walker.wallet.address)],
        judges: [judge.address],
        feePayer: platformFeePayer.address,
        lifetime: fresh,
      }),
      [judge.keyPair, platformFeePayer.keyPair],
    );
    expect((await sendAndConfirm(getBase64EncodedWireTransaction(propose))).err).toBeNull();
    const proposed = await fetchVault(ctx.chain.rpc, programs(), dare.vault);
    expect(proposed?.status).toBe('proposed');
    const executesAt = new Date(Number(proposed!.judging!.proposal!.executesAt) * 1000);
    expect(executesAt.getTime() - (await chainNow(ctx)).getTime()).toBeGreaterThan(3500_000);

    // The winner's claim, as naming a winner records it.
    const service = claimsService(ctx);
    const claimId = await service.createWinnerClaim({
      dareId: dare.id,
      submissionId: proof.id,
      userId: walker.id,
      claimType: 'dare_winner',
      lamports: pool,
      fromStatuses: ['active'],
      now: ctx.clock.now,
      messages: { notOpen: 'closed', taken: 'taken' },
    });

    // Before the window ends nobody can pay it: Claim Prize says when, the job skips it.
    const early = await api(ctx).post('/api/claims/prize', { submissionId: proof.id }, walker.token);
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toMatchObject({ executesAt: executesAt.toISOString() });
    expect(early.json().error).toMatch(
      /^This prize is paid on \d+ \w+ \d{4}, \d\d:\d\d UTC, when the guardian's window ends$/,
    );
    expect(await service.payDueProposals()).toEqual({ paid: 0, failures: [] });
    const [stillPending] = await ctx.database.db.select().from(claims).where(eq(claims.id, claimId));
    expect(stillPending).toMatchObject({ status: 'pending', failureReason: null, transactionHash: null });

    // After the window: the job and the winner's parallel claims pay it once.
    await warpChain(ctx, 3601);
    const walkerBefore = await lamportsOf(ctx, walker.wallet.address);
    const results = await Promise.allSettled([
      service.payDueProposals(),
      ...Array.from({ length: 10 }, () =>
        api(ctx).post('/api/claims/prize', { submissionId: proof.id }, walker.token),
      ),
    ]);
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    const transfers = await ctx.database.db
      .select()
      .from(payoutTransfers)
      .where(eq(payoutTransfers.escrowWallet, dare.escrowWallet));
    expect(transfers.filter((t) => t.status === 'confirmed')).toHaveLength(1);
    const [paid] = await ctx.database.db.select().from(claims).where(eq(claims.id, claimId));
    expect(paid?.status).toBe('paid');
    expect(solToLamports(paid!.amount)).toBe(pool);
    // The winner got the pool, and its entry's rent back when the records closed; it paid no fee.
    const entryRent = await ctx.chain.rpc.getMinimumBalanceForRentExemption(144n).send();
    expect((await lamportsOf(ctx, walker.wallet.address)) - walkerBefore).toBe(pool + entryRent);
    // The vault closed, its rent back to the creator.
    expect(await fetchVault(ctx.chain.rpc, programs(), dare.vault)).toBeNull();
    // The explorer reads v2's instructions by name and says who was named and who was paid.
    const { title } = (await api(ctx).get(`/api/dares/${dare.id}`)).json() as { title: string };
    const summary = async (signature: string) =>
      (
        (await ctx.app.inject(`/api/transactions/${signature}`)).json() as { summary: { text: string }[] }
      ).summary.map((line) => line.text);
    expect(await summary(paid!.transactionHash!)).toContain(
      `${walker.username} was paid 0.3 SOL from dare "${title}"`,
    );
    const proposeSignature = getSignatureFromTransaction(propose);
    expect((await summary(proposeSignature))[0]).toMatch(
      new RegExp(`^The judges named ${walker.username} the winner of dare "${title}"`),
    );
    // Asked again: the paid claim and its transaction, nothing sent.
    const again = await api(ctx).post('/api/claims/prize', { submissionId: proof.id }, walker.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      id: claimId,
      status: 'paid',
      transactionHash: paid!.transactionHash,
    });
    expect(await service.payDueProposals()).toEqual({ paid: 0, failures: [] });
  });
});
