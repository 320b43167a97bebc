/**
 * Naming a winner on escrow program v2 with one judge (the demo admin's wallet, the tests' default
 * judge): the wire contract of mark-winner (transaction → the judge's wallet signs → relay), the
 * proposal on chain and in the outcome, who may name, what is refused, a veto and judging again,
 * and cancel refused while a proposal stands. docs/decisions/042-naming-winners.md.
 */

import path from 'node:path';
import {
  address,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  isSolanaError,
  type KeyPairSigner,
  partiallySignTransaction,
  type SignatureBytes,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  type Transaction,
} from '@solana/kit';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { lamportsToSol } from '#contract/money';
import { waitForConfirmation } from '#server/chain/confirmation';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import {
  ESCROW_V2_ERROR_CODE,
  getProposeInstruction,
  getVetoInstruction,
} from '#server/chain/escrow-program/v2';
import { claims, dareSubmissions, dares, payoutProposals } from '#server/db/schema';
import { GUARDIAN_KEYPAIR_FILE } from '#server/judging-keys';
import { chainNow, warpChain } from './helpers/chain-clock';
import {
  adminWithKey,
  createV2Dare,
  demoJudgeKey,
  enteredSubmission,
  judgeSigns,
  potOf,
  sendInstructions,
  type V2Dare,
  vaultV2,
} from './helpers/judging';
import { type Actor, lamportsOf } from './helpers/payouts';

/** A v2 entry's rent (144 bytes), the entrant's: back to them when the entry closes. */
const ENTRY_RENT_V2 = 1_893_120n;

import { setupApiSuite } from './helpers/suite';

const { ctx, http, actors } = setupApiSuite({
  // The v2 dares here are funded on chain directly (helpers/judging.ts), without the stake's ledger line.
  context: { leavesReconcileDifferences: true },
  actors: { creator: {}, walker: {}, other: {}, payee: {}, stranger: { admin: true, judge: false } },
});

let judgeKey: KeyPairSigner;
let judge: Actor;
beforeAll(async () => {
  judgeKey = await demoJudgeKey(ctx);
  judge = await adminWithKey(ctx, judgeKey, 'judge1');
});

async function namedDare(stake = '0.35', entrant: Actor = actors.walker) {
  const dare = await createV2Dare(ctx, actors.creator, stake);
  const submission = await enteredSubmission(ctx, entrant, dare);
  return { dare, submission };
}

const markWinner = (submissionId: number, body: object, token = judge.token) =>
  http.post(`/api/admin/submissions/${submissionId}/mark-winner`, body, token);

async function proposeTransaction(dare: V2Dare, submissionId: number) {
  const res = await markWinner(submissionId, { dareId: dare.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    transaction: string;
    winners: { submissionId: number; walletAddress: string; amount: string }[];
    executesAt: string;
  };
}

async function nameWinner(dare: V2Dare, submissionId: number) {
  const offered = await proposeTransaction(dare, submissionId);
  const res = await markWinner(submissionId, {
    dareId: dare.id,
    signedTransaction: await judgeSigns(judgeKey, offered.transaction),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    proposal: { winners: { walletAddress: string; amount: string }[]; executesAt: string; signature: string };
  };
}

const proposalsOf = (dareId: number) =>
  ctx.database.db.select().from(payoutProposals).where(eq(payoutProposals.dareId, dareId));
const claimsOf = (dareId: number) => ctx.database.db.select().from(claims).where(eq(claims.dareId, dareId));

const decode = (base64: string): Transaction => getTransactionDecoder().decode(Buffer.from(base64, 'base64'));

describe('one judge names a winner through the wire contract', () => {
  it('hands out the propose (platform fee payer, unsigned), relays it signed, and the outcome shows it', async () => {
    const { dare, submission } = await namedDare();
    const pot = await potOf(ctx, dare.vault);
    const before = await chainNow(ctx);
    const offered = await proposeTransaction(dare, submission.id);
    expect(offered.winners).toEqual([
      {
        submissionId: submission.id,
        walletAddress: actors.walker.wallet.address,
        amount: lamportsToSol(pot),
      },
    ]);
    const window = Number(ctx.judging.payoutWindowSeconds) * 1000;
    expect(new Date(offered.executesAt).getTime()).toBeGreaterThanOrEqual(before.getTime() + window - 1000);
    // Fee payer first; nobody has signed: the server adds its signature only when relaying.
    const unsigned = decode(offered.transaction);
    expect(Object.keys(unsigned.signatures)).toEqual([
      (await ctx.escrowKeys.feePayer()).address,
      judgeKey.address,
    ]);
    expect(Object.values(unsigned.signatures).every((s) => s === null)).toBe(true);
    // Asked again before it expires: the same transaction.
    expect((await proposeTransaction(dare, submission.id)).transaction).toBe(offered.transaction);

    const res = await markWinner(submission.id, {
      dareId: dare.id,
      signedTransaction: await judgeSigns(judgeKey, offered.transaction),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { proposal } = res.json() as {
      proposal: { winners: unknown[]; executesAt: string; signature: string };
    };
    const vault = await vaultV2(ctx, dare.vault);
    expect(vault.status).toBe('proposed');
    expect(vault.proposal!.winners).toEqual([address(actors.walker.wallet.address)]);
    expect(proposal.executesAt).toBe(new Date(Number(vault.proposal!.executesAt) * 1000).toISOString());
    expect(proposal.winners).toEqual(offered.winners);
    const landed = await ctx.chain.rpc.getSignatureStatuses([proposal.signature as never]).send();
    expect(landed.value[0]?.err).toBeNull();

    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.proposal).toEqual({ ...proposal, vetoed: false, inWindow: true });
    expect(outcome.judging).toEqual({
      judges: ctx.judging.judges,
      threshold: 1,
      guardian: ctx.judging.guardian,
      payoutWindowSeconds: Number(ctx.judging.payoutWindowSeconds),
    });
    expect(outcome.winners).toMatchObject([
      {
        submissionId: submission.id,
        claimType: 'dare_winner',
        amount: lamportsToSol(pot),
        status: 'pending',
      },
    ]);
    const [claim] = await claimsOf(dare.id);
    expect(claim).toMatchObject({ userId: actors.walker.id, status: 'pending', claimType: 'dare_winner' });
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('completed');
    const [sub] = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.id, submission.id));
    expect(sub!.status).toBe('winner');

    const listed = (await http.get('/api/admin/proposals', judge.token)).json();
    expect(listed).toContainEqual(
      expect.objectContaining({ dareId: dare.id, state: 'window', signature: proposal.signature }),
    );
    // A second naming is refused while this one stands.
    const again = await markWinner(submission.id, { dareId: dare.id });
    expect(again.statusCode).toBe(409);
  });

  it('is paid by the payout job once the window passed: the winner richer by exactly the pool, the proposal executed', async () => {
    const { dare, submission } = await namedDare('0.5', actors.payee);
    const pot = await potOf(ctx, dare.vault);
    await nameWinner(dare, submission.id);
    const before = await lamportsOf(ctx, actors.payee.wallet.address);
    // Still in its window: the job pays nothing.
    await ctx.app.payoutJob.runNow();
    expect(await lamportsOf(ctx, actors.payee.wallet.address)).toBe(before);
    await warpChain(ctx, Number(ctx.judging.payoutWindowSeconds) + 60);
    await ctx.app.payoutJob.runNow();
    // The prize, and the entry's rent back when its record closes (the job closes records after execute).
    expect(await lamportsOf(ctx, actors.payee.wallet.address)).toBe(before + pot + ENTRY_RENT_V2);
    const [claim] = await claimsOf(dare.id);
    expect(claim).toMatchObject({ status: 'paid' });
    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.proposal).toMatchObject({ vetoed: false });
    expect((await proposalsOf(dare.id)).map((r) => r.status)).toEqual(['executed']);
  });

  it('answers 403 to an admin whose wallet is not a judge of the vault, and records nothing', async () => {
    const { dare, submission } = await namedDare();
    const res = await markWinner(submission.id, { dareId: dare.id }, actors.stranger.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(JUDGING_MESSAGES.notJudge);
    expect(await proposalsOf(dare.id)).toEqual([]);
  });

  it('refuses a forged or altered transaction and records nothing', async () => {
    const { dare, submission } = await namedDare();
    const offered = await proposeTransaction(dare, submission.id);
    const signed = decode(await judgeSigns(judgeKey, offered.transaction));
    // Another message (one byte of it changed), signed by the judge: not the prepared one.
    const altered = new Uint8Array(signed.messageBytes);
    altered[altered.length - 1] = altered.at(-1)! ^ 1;
    const forgedMessage = getBase64EncodedWireTransaction({ ...signed, messageBytes: altered as never });
    const a = await markWinner(submission.id, { dareId: dare.id, signedTransaction: forgedMessage });
    expect(a.statusCode).toBe(400);
    expect(a.json().error).toBe(JUDGING_MESSAGES.wrongTransaction);
    // The prepared message with a judge signature that is not the judge's.
    const garbage = new Uint8Array(64).fill(7) as SignatureBytes;
    const forgedSignature = getBase64EncodedWireTransaction({
      ...signed,
      signatures: { ...signed.signatures, [judgeKey.address]: garbage },
    });
    const b = await markWinner(submission.id, { dareId: dare.id, signedTransaction: forgedSignature });
    expect(b.statusCode).toBe(400);
    expect(b.json().error).toBe(JUDGING_MESSAGES.wrongTransaction);
    const c = await markWinner(submission.id, { dareId: dare.id, signedTransaction: 'AAAA' });
    expect(c.statusCode).toBe(400);
    expect((await vaultV2(ctx, dare.vault)).status).toBe('open');
    const [row] = await proposalsOf(dare.id);
    expect(row).toMatchObject({ status: 'collecting', signature: null, signedBy: [] });
    expect(await claimsOf(dare.id)).toEqual([]);
  });

  it('proposes once when the signed transaction is relayed twice at the same time', async () => {
    const { dare, submission } = await namedDare();
    const offered = await proposeTransaction(dare, submission.id);
    const signedTransaction = await judgeSigns(judgeKey, offered.transaction);
    const [a, b] = await Promise.all([
      markWinner(submission.id, { dareId: dare.id, signedTransaction }),
      markWinner(submission.id, { dareId: dare.id, signedTransaction }),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    expect(a.json().proposal.signature).toBe(b.json().proposal.signature);
    const rows = await proposalsOf(dare.id);
    expect(rows.map((r) => r.status)).toEqual(['proposed']);
    expect(await claimsOf(dare.id)).toHaveLength(1);
    // And once more afterwards: the same answer, nothing new.
    const c = await markWinner(submission.id, { dareId: dare.id, signedTransaction });
    expect(c.json().proposal.signature).toBe(a.json().proposal.signature);
    expect(await claimsOf(dare.id)).toHaveLength(1);
  });

  it('notices a veto by the guardian: judging starts again, and a new proposal lands and is paid', async () => {
    const { dare, submission } = await namedDare();
    const pot = await potOf(ctx, dare.vault);
    const other = await enteredSubmission(ctx, actors.other, dare);
    const first = await nameWinner(dare, submission.id);
    const guardian = await readKeypairFile(path.join(ctx.dataDir, GUARDIAN_KEYPAIR_FILE));
    expect(guardian.address).toBe(ctx.judging.guardian);
    await ctx.chain.airdrop(guardian.address, 10_000_000n);
    await sendInstructions(ctx, guardian, [
      getVetoInstruction({ programId: ctx.escrowProgramV2Id, vault: dare.vault, guardian }),
    ]);

    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.proposal).toEqual({ ...first.proposal, vetoed: true, inWindow: false });
    expect(outcome.winners).toEqual([]);
    expect(await claimsOf(dare.id)).toEqual([]);
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('active');
    const [sub] = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.id, submission.id));
    expect(sub!.status).toBe('approved');

    const second = await nameWinner(dare, other.id);
    expect(second.proposal.winners).toMatchObject([{ walletAddress: actors.other.wallet.address }]);
    expect((await vaultV2(ctx, dare.vault)).proposal!.winners).toEqual([
      address(actors.other.wallet.address),
    ]);
    expect((await proposalsOf(dare.id)).map((r) => r.status).sort()).toEqual(['proposed', 'vetoed']);
    expect(await claimsOf(dare.id)).toMatchObject([{ userId: actors.other.id, status: 'pending' }]);
    const latest = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(latest.proposal).toEqual({ ...second.proposal, vetoed: false, inWindow: true });

    // The new proposal is paid after its own window: the new winner gets exactly the pool (and its
    // entry's rent back); every record closes, the vetoed winner's entry too, and the vault with them.
    const otherBefore = await lamportsOf(ctx, actors.other.wallet.address);
    await warpChain(ctx, Number(ctx.judging.payoutWindowSeconds) + 60);
    await ctx.app.payoutJob.runNow();
    expect(await lamportsOf(ctx, actors.other.wallet.address)).toBe(otherBefore + pot + ENTRY_RENT_V2);
    expect(await lamportsOf(ctx, dare.vault)).toBe(0n);
    expect(await claimsOf(dare.id)).toMatchObject([{ userId: actors.other.id, status: 'paid' }]);
    // The proposal reads executed once the dare is next read (the sync that follows its vault).
    await http.get(`/api/dares/${dare.id}/outcome`);
    expect((await proposalsOf(dare.id)).map((r) => r.status).sort()).toEqual(['executed', 'vetoed']);
  });

  it('records a propose that landed while its relay was cut short, when the dare is next read', async () => {
    const { dare, submission } = await namedDare();
    const offered = await proposeTransaction(dare, submission.id);
    // What the relay sends, sent by hand: the judge's and the fee payer's signatures.
    const byJudge = decode(await judgeSigns(judgeKey, offered.transaction));
    const full = await partiallySignTransaction([(await ctx.escrowKeys.feePayer()).keyPair], byJudge);
    const signature = await ctx.chain.rpc
      .sendTransaction(getBase64EncodedWireTransaction(full), { encoding: 'base64' })
      .send();
    await waitForConfirmation(ctx.chain.rpc, signature, { timeoutMs: 10_000 });
    const outcome = (await http.get(`/api/dares/${dare.id}/outcome`)).json();
    expect(outcome.proposal).toMatchObject({ signature, vetoed: false });
    expect((await proposalsOf(dare.id)).map((r) => r.status)).toEqual(['proposed']);
    expect(await claimsOf(dare.id)).toHaveLength(1);
  });

  it('refuses Cancel and Delete while a proposal stands, changing nothing', async () => {
    const { dare, submission } = await namedDare();
    await nameWinner(dare, submission.id);
    const cancel = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      judge.token,
    );
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe(JUDGING_MESSAGES.cannotCancelProposed);
    const del = await http.del(`/api/admin/dares/${dare.id}`, judge.token);
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe(JUDGING_MESSAGES.cannotCancelProposed);
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('completed');
    expect((await vaultV2(ctx, dare.vault)).status).toBe('proposed');
    expect(await claimsOf(dare.id)).toHaveLength(1);
  });
});

describe("the server's keys cannot propose", () => {
  it('a propose signed only by the fee payer and the moderator is refused by the program', async () => {
    const { dare } = await namedDare();
    const feePayer = await ctx.escrowKeys.feePayer();
    const moderator = await ctx.escrowKeys.moderator();
    const propose = await getProposeInstruction({
      programId: ctx.escrowProgramV2Id,
      vault: dare.vault,
      winners: [address(actors.walker.wallet.address)],
      judges: [feePayer, moderator],
    });
    const refused = await sendInstructions(ctx, feePayer, [propose]).then(
      () => null,
      (error: unknown) => (error as { cause?: unknown }).cause,
    );
    expect(isSolanaError(refused, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
    expect((refused as { context: { code: number } }).context.code).toBe(ESCROW_V2_ERROR_CODE.NotAJudge);
    expect((await vaultV2(ctx, dare.vault)).status).toBe('open');
  });
});
