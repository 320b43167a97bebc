/**
 * Two of three judges name a Major Dare's winners on escrow v2 (70/30): each pick is recorded as
 * before; the pick completing the pair answers the propose; the first judge's signature is stored
 * and the second judge signs that stored transaction; then the server relays it.
 * docs/decisions/042-naming-winners.md.
 */
import {
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type KeyPairSigner,
} from '@solana/kit';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAJOR_DARE_MESSAGES, splitMajorPrize } from '#contract/major-dare';
import { lamportsToSol, normalizeSol } from '#contract/money';
import { claims } from '#server/db/schema';
import { warpChain } from './helpers/chain-clock';
import { adminWithKey, createV2Dare, enteredSubmission, judgeSigns, potOf, vaultV2 } from './helpers/judging';
import { type Actor, castVote } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

type CompiledMessage = ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>;

let keys: KeyPairSigner[] = [];

const { ctx, http, actors } = setupApiSuite({
  env: async () => {
    keys = [await generateKeyPairSigner(), await generateKeyPairSigner(), await generateKeyPairSigner()];
    return { JUDGE_WALLETS: keys.map((k) => k.address).join(','), MAJOR_JUDGE_THRESHOLD: '2' };
  },
  // The v2 dares here are funded on chain directly (helpers/judging.ts), without the stake's ledger line.
  context: { leavesReconcileDifferences: true },
  actors: { creator: {}, ada: {}, bob: {}, voter: {} },
});

let first: Actor;
let second: Actor;
beforeAll(async () => {
  first = await adminWithKey(ctx, keys[0]!, 'judgeone');
  second = await adminWithKey(ctx, keys[1]!, 'judgetwo');
});

const pick = (dareId: number, body: object, token: string) =>
  http.post(`/api/admin/major-dare/${dareId}/winner`, body, token);

describe('a Major Dare judged by two of three admins', () => {
  it('collects the first judge, then the second on the stored transaction, then relays 70/30', async () => {
    expect(ctx.judging.majorThreshold).toBe(2);
    const dare = await createV2Dare(ctx, actors.creator, '1', { kind: 'major' });
    expect((await vaultV2(ctx, dare.vault)).threshold).toBe(2);
    const adminPick = await enteredSubmission(ctx, actors.ada, dare);
    const communityPick = await enteredSubmission(ctx, actors.bob, dare);
    await castVote(ctx, actors.voter, communityPick);
    const pot = await potOf(ctx, dare.vault);
    const split = splitMajorPrize(pot);

    const a = await pick(dare.id, { submissionId: adminPick.id, winnerType: 'admin' }, first.token);
    expect(a.statusCode, a.body).toBe(201);
    const b = await pick(dare.id, { submissionId: communityPick.id, winnerType: 'community' }, first.token);
    expect(b.statusCode, b.body).toBe(200);
    const offered = b.json() as { transaction: string; winners: unknown[]; executesAt: string };
    expect(offered.winners).toEqual([
      {
        submissionId: adminPick.id,
        walletAddress: actors.ada.wallet.address,
        amount: lamportsToSol(split.admin),
      },
      {
        submissionId: communityPick.id,
        walletAddress: actors.bob.wallet.address,
        amount: lamportsToSol(split.community),
      },
    ]);
    const signers = Object.keys(
      getTransactionDecoder().decode(Buffer.from(offered.transaction, 'base64')).signatures,
    );
    // The fee payer first; then the caller and the next judge (the message orders them itself).
    expect(signers[0]).toBe((await ctx.escrowKeys.feePayer()).address);
    expect(new Set(signers.slice(1))).toEqual(new Set([keys[0]!.address, keys[1]!.address]));

    const byFirst = await pick(
      dare.id,
      {
        submissionId: communityPick.id,
        winnerType: 'community',
        signedTransaction: await judgeSigns(keys[0]!, offered.transaction),
      },
      first.token,
    );
    expect(byFirst.statusCode, byFirst.body).toBe(200);
    const waiting = byFirst.json() as { signaturesNeeded: number; transaction: string };
    expect(waiting.signaturesNeeded).toBe(1);
    expect((await vaultV2(ctx, dare.vault)).status).toBe('open');
    // The propose lives by the vault's durable nonce (advance-nonce first, the fee payer its
    // authority): the second judge may come long after a blockhash would have expired.
    const message = getCompiledTransactionMessageDecoder().decode(
      getTransactionDecoder().decode(Buffer.from(waiting.transaction, 'base64')).messageBytes,
    ) as Extract<CompiledMessage, { version: 0 }>;
    expect(String(message.staticAccounts[message.instructions[0]!.programAddressIndex])).toBe(
      '11111111111111111111111111111111',
    );
    expect(Array.from(message.instructions[0]!.data ?? [])).toEqual([4, 0, 0, 0]);
    await warpChain(ctx, 600);
    const { value: latest } = await ctx.chain.rpc.getLatestBlockhash().send();
    expect(latest.blockhash).not.toBe(message.lifetimeToken);

    // The second judge finds it in the admin panel's list and signs that stored transaction.
    const listed = (await http.get('/api/admin/proposals', second.token)).json() as {
      dareId: number;
      state: string;
      signedBy: string[];
      signaturesNeeded: number;
      transaction: string;
    }[];
    const collecting = listed.find((p) => p.dareId === dare.id)!;
    expect(collecting).toMatchObject({
      state: 'collecting',
      signedBy: [keys[0]!.address],
      signaturesNeeded: 1,
    });
    expect(collecting.transaction).toBe(waiting.transaction);

    const bySecond = await pick(
      dare.id,
      {
        submissionId: communityPick.id,
        winnerType: 'community',
        signedTransaction: await judgeSigns(keys[1]!, collecting.transaction),
      },
      second.token,
    );
    expect(bySecond.statusCode, bySecond.body).toBe(200);
    const { proposal } = bySecond.json() as { proposal: { winners: unknown[]; signature: string } };
    expect(proposal.winners).toEqual(offered.winners);
    const vault = await vaultV2(ctx, dare.vault);
    expect(vault.status).toBe('proposed');
    expect(vault.proposal!.winners).toEqual([actors.ada.wallet.address, actors.bob.wallet.address]);

    const rows = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(rows.map((r) => [r.claimType, normalizeSol(r.amount), r.status]).sort()).toEqual(
      [
        ['major_admin', lamportsToSol(split.admin), 'pending'],
        ['major_community', lamportsToSol(split.community), 'pending'],
      ].sort(),
    );
    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.proposal).toMatchObject({ signature: proposal.signature, vetoed: false });
    expect(outcome.judging).toMatchObject({ threshold: 2, judges: keys.map((k) => k.address) });
  });

  it('refuses a judge signing alone below the threshold from being relayed', async () => {
    const dare = await createV2Dare(ctx, actors.creator, '1', { kind: 'major' });
    const adminPick = await enteredSubmission(ctx, actors.ada, dare);
    const communityPick = await enteredSubmission(ctx, actors.bob, dare);
    await castVote(ctx, actors.voter, communityPick);
    await pick(dare.id, { submissionId: adminPick.id, winnerType: 'admin' }, first.token);
    const offered = (
      await pick(dare.id, { submissionId: communityPick.id, winnerType: 'community' }, first.token)
    ).json() as { transaction: string };
    // The first judge signs twice: still one judge.
    const once = await judgeSigns(keys[0]!, offered.transaction);
    for (let i = 0; i < 2; i += 1) {
      const res = await pick(
        dare.id,
        { submissionId: communityPick.id, winnerType: 'community', signedTransaction: once },
        first.token,
      );
      expect(res.json()).toMatchObject({ signaturesNeeded: 1 });
    }
    expect((await vaultV2(ctx, dare.vault)).status).toBe('open');
  });

  it('refuses a community pick that is not the top-voted one as before, and a repeated pick answers the propose again', async () => {
    const dare = await createV2Dare(ctx, actors.creator, '1', { kind: 'major' });
    const adminPick = await enteredSubmission(ctx, actors.ada, dare);
    const communityPick = await enteredSubmission(ctx, actors.bob, dare);
    await castVote(ctx, actors.voter, communityPick);
    const wrong = await pick(dare.id, { submissionId: adminPick.id, winnerType: 'community' }, first.token);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().error).toBe(MAJOR_DARE_MESSAGES.notTopVoted);
    expect(
      (await pick(dare.id, { submissionId: adminPick.id, winnerType: 'admin' }, first.token)).statusCode,
    ).toBe(201);
    const offered = await pick(
      dare.id,
      { submissionId: communityPick.id, winnerType: 'community' },
      first.token,
    );
    expect(offered.statusCode, offered.body).toBe(200);
    const again = await pick(
      dare.id,
      { submissionId: communityPick.id, winnerType: 'community' },
      first.token,
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().transaction).toBe(offered.json().transaction);
    // A non-judge admin cannot pick on a judged vault at all.
    const outsider = await adminWithKey(ctx, await generateKeyPairSigner(), 'outsider');
    const refused = await pick(dare.id, { submissionId: adminPick.id, winnerType: 'admin' }, outsider.token);
    expect(refused.statusCode).toBe(403);
  });

  it('names both picks through /winners: nothing recorded until the first judge signs, the second judge completes it', async () => {
    const dare = await createV2Dare(ctx, actors.creator, '1', { kind: 'major' });
    const adminPick = await enteredSubmission(ctx, actors.ada, dare);
    const communityPick = await enteredSubmission(ctx, actors.bob, dare);
    await castVote(ctx, actors.voter, communityPick);
    const picks = { adminSubmissionId: adminPick.id, communitySubmissionId: communityPick.id };
    const both = (body: object, token: string) =>
      http.post(`/api/admin/major-dare/${dare.id}/winners`, body, token);
    const countClaims = () => ctx.database.db.$count(claims, eq(claims.dareId, dare.id));

    const offered = await both(picks, first.token);
    expect(offered.statusCode, offered.body).toBe(200);
    expect(await countClaims()).toBe(0);
    const byFirst = await both(
      { ...picks, signedTransaction: await judgeSigns(keys[0]!, offered.json().transaction) },
      first.token,
    );
    expect(byFirst.statusCode, byFirst.body).toBe(200);
    const waiting = byFirst.json() as { signaturesNeeded: number; transaction: string };
    expect(waiting.signaturesNeeded).toBe(1);
    // The first judge's signature records both picks (the proposal it signed names them).
    expect(await countClaims()).toBe(2);
    const bySecond = await both(
      { ...picks, signedTransaction: await judgeSigns(keys[1]!, waiting.transaction) },
      second.token,
    );
    expect(bySecond.statusCode, bySecond.body).toBe(200);
    expect((await vaultV2(ctx, dare.vault)).proposal!.winners).toEqual([
      actors.ada.wallet.address,
      actors.bob.wallet.address,
    ]);
    expect(await countClaims()).toBe(2);
  });
});
