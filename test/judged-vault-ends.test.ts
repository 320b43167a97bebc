/**
 * How a v2 vault's end is sent (decisions 032, 042, 047, 058): after `execute` or a cancel the
 * refunds and closes go packed, and a packet that cannot land goes again one step at a time, so a
 * payer or entrant that cannot be paid holds up only its own refund or close; and the durable nonce a multi-judge
 * proposal lived by gives its rent back to the fee payer once the vault has ended, exactly once.
 */
import {
  type Address,
  address,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type KeyPairSigner,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SolanaError,
} from '@solana/kit';
import { getNonceSize } from '@solana-program/system';
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchEntry, fetchReceipt, fetchVault } from '#server/chain/escrow-program/accounts';
import { findEntryAddress, findReceiptAddress } from '#server/chain/escrow-program/pda';
import type { ChainPort } from '#server/chain/port';
import { proposeNonceAddress } from '#server/features/judging/propose-nonce';
import { warpChain } from './helpers/chain-clock';
import { adminWithKey, createV2Dare, enteredSubmission, judgeSigns, type V2Dare } from './helpers/judging';
import { type Actor, castVote, contributeOnChain, lamportsOf } from './helpers/payouts';
import { servicesFor } from './helpers/services';
import { setupApiSuite } from './helpers/suite';

let keys: KeyPairSigner[] = [];

const { ctx, http, actors } = setupApiSuite({
  env: async () => {
    keys = [await generateKeyPairSigner(), await generateKeyPairSigner(), await generateKeyPairSigner()];
    return {
      JUDGE_WALLETS: keys.map((k) => k.address).join(','),
      MAJOR_JUDGE_THRESHOLD: '2',
      PAYOUT_WINDOW_HOURS: '1',
    };
  },
  // The v2 dares here are made on chain directly, without the stake's ledger line.
  context: { leavesReconcileDifferences: true },
  actors: { creator: {}, ada: {}, bob: {}, voter: {} },
});

let first: Actor;
let second: Actor;
beforeAll(async () => {
  first = await adminWithKey(ctx, keys[0]!, 'judgeone');
  second = await adminWithKey(ctx, keys[1]!, 'judgetwo');
});

/**
 * The payout machinery on a chain whose runtime refuses to credit `unpayable`, as Agave 1.18 does
 * for an executable account (the v2 program test makes one for real: an entrant that deployed a
 * program at its own address). LiteSVM, under the embedded chain, credits such an account, so the
 * node's answer to any transaction paying it is given here: its preflight refuses it, nothing moves.
 */
function servicesRefusing(unpayable: Address) {
  const rpc = new Proxy(ctx.chain.rpc, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'sendTransaction') return value;
      return (wire: string, config: unknown) => {
        const { messageBytes } = getTransactionDecoder().decode(Buffer.from(wire, 'base64'));
        const { staticAccounts } = getCompiledTransactionMessageDecoder().decode(messageBytes);
        if (!staticAccounts.includes(unpayable))
          return (value as (w: string, c: unknown) => unknown).call(target, wire, config);
        return {
          send: async () => {
            throw new SolanaError(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE, {
              __serverMessage:
                'Transaction simulation failed: Error processing Instruction 0: instruction changed the balance of an executable account',
              accounts: null,
              err: { InstructionError: [0, 'ExecutableLamportChange'] },
              logs: [],
              returnData: null,
              unitsConsumed: 0n,
            } as never);
          },
        };
      };
    },
  });
  const chain: ChainPort = Object.assign(Object.create(Object.getPrototypeOf(ctx.chain)), ctx.chain, { rpc });
  return servicesFor(ctx, { chain });
}

const recordOnChain = {
  receipt: async (dare: V2Dare, payer: Actor) =>
    fetchReceipt(
      ctx.chain.rpc,
      ctx.escrowProgramV2Id,
      (await findReceiptAddress(ctx.escrowProgramV2Id, dare.vault, address(payer.wallet.address))).address,
    ),
  entry: async (dare: V2Dare, entrant: Actor) =>
    fetchEntry(
      ctx.chain.rpc,
      ctx.escrowProgramV2Id,
      (await findEntryAddress(ctx.escrowProgramV2Id, dare.vault, address(entrant.wallet.address))).address,
    ),
};

/** The one judge of a community dare (threshold 1) names `submissionId` the winner. */
async function nameWinner(dare: V2Dare, submissionId: number) {
  const url = `/api/admin/submissions/${submissionId}/mark-winner`;
  const offered = await http.post(url, { dareId: dare.id }, first.token);
  expect(offered.statusCode, offered.body).toBe(200);
  const signedTransaction = await judgeSigns(keys[0]!, offered.json().transaction);
  const relayed = await http.post(url, { dareId: dare.id, signedTransaction }, first.token);
  expect(relayed.statusCode, relayed.body).toBe(200);
  expect(relayed.json()).toHaveProperty('proposal');
}

describe("a v2 vault's end", () => {
  it("pays the winner and closes every other record when one entrant's account cannot take its rent back", async () => {
    const { creator, ada, bob } = actors;
    const dare = await createV2Dare(ctx, creator, '0.5');
    const winning = await enteredSubmission(ctx, ada, dare);
    await enteredSubmission(ctx, bob, dare);
    await nameWinner(dare, winning.id);
    await warpChain(ctx, 3601);
    const bobBefore = await lamportsOf(ctx, bob.wallet.address);

    const { claims, payouts } = servicesRefusing(address(bob.wallet.address));
    expect(await claims.payDueProposals()).toEqual({ paid: 1, failures: [] });

    // The payout and the creator's receipt each closed on their own; the entries' packed close was
    // refused for bob's sake and went again one by one (decision 047): bob's entry alone stays,
    // and with it the vault (the program closes it with its last record).
    expect(await recordOnChain.receipt(dare, creator)).toBeNull();
    expect(await recordOnChain.entry(dare, ada)).toBeNull();
    expect(await recordOnChain.entry(dare, bob)).not.toBeNull();
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toMatchObject({
      status: 'settled',
      receiptCount: 0,
      entryCount: 1,
    });
    expect(await lamportsOf(ctx, bob.wallet.address)).toBe(bobBefore);
    // The job's next try closes nothing more and breaks nothing.
    expect(await payouts.closeSettledRecords(dare.vault)).toBe('settled');
    expect(await recordOnChain.entry(dare, bob)).not.toBeNull();
  });

  it("refunds every payer and closes every other entry when one entrant's account cannot take its rent back", async () => {
    const { creator, ada, bob } = actors;
    const dare = await createV2Dare(ctx, creator, '0.5');
    await enteredSubmission(ctx, ada, dare);
    await enteredSubmission(ctx, bob, dare);
    const creatorBefore = await lamportsOf(ctx, creator.wallet.address);

    const { refunds } = servicesRefusing(address(bob.wallet.address));
    const summary = await refunds.refundDare(dare.id);
    expect(summary.transfers).toEqual([
      expect.objectContaining({ walletAddress: creator.wallet.address, amount: '0.5' }),
    ]);

    expect(await lamportsOf(ctx, creator.wallet.address)).toBe(creatorBefore + 500_000_000n);
    expect(await recordOnChain.receipt(dare, creator)).toBeNull();
    expect(await recordOnChain.entry(dare, ada)).toBeNull();
    expect(await recordOnChain.entry(dare, bob)).not.toBeNull();
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toMatchObject({
      status: 'refunding',
      receiptCount: 0,
      entryCount: 1,
    });
  });

  it("refunds every other payer, each booked on its own, when one payer's account cannot take its refund", async () => {
    const { creator, ada, bob } = actors;
    const dare = await createV2Dare(ctx, creator, '0.5');
    const onChain = { ...dare, escrowWallet: dare.vault };
    await contributeOnChain(ctx, ada, onChain, '0.1');
    await contributeOnChain(ctx, bob, onChain, '0.2');
    const creatorBefore = await lamportsOf(ctx, creator.wallet.address);
    const adaBefore = await lamportsOf(ctx, ada.wallet.address);
    const bobBefore = await lamportsOf(ctx, bob.wallet.address);

    // The three refunds go packed (decision 058); bob's refusal sends them again one by one.
    const { refunds } = servicesRefusing(address(bob.wallet.address));
    const transfers = (await refunds.refundDare(dare.id)).transfers ?? [];
    expect(transfers.map((t) => `${t.walletAddress} ${t.amount}`).sort()).toEqual(
      [`${creator.wallet.address} 0.5`, `${ada.wallet.address} 0.1`].sort(),
    );
    // Each in a transaction of its own once the packed one was refused.
    expect(new Set(transfers.map((t) => t.signature)).size).toBe(2);

    expect(await lamportsOf(ctx, creator.wallet.address)).toBe(creatorBefore + 500_000_000n);
    expect(await lamportsOf(ctx, ada.wallet.address)).toBe(adaBefore + 100_000_000n);
    expect(await lamportsOf(ctx, bob.wallet.address)).toBe(bobBefore);
    expect(await recordOnChain.receipt(dare, creator)).toBeNull();
    expect(await recordOnChain.receipt(dare, ada)).toBeNull();
    expect(await recordOnChain.receipt(dare, bob)).toMatchObject({ amount: 200_000_000n });
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toMatchObject({
      status: 'refunding',
      receiptCount: 1,
    });

    // Once bob's account takes lamports again, the job refunds it: the vault closes.
    const again = await servicesFor(ctx).refunds.refundDare(dare.id);
    expect(again.transfers).toEqual([
      expect.objectContaining({ walletAddress: bob.wallet.address, amount: '0.2' }),
    ]);
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toBeNull();
  });

  it("gives a 2-of-3 proposal's nonce account back to the fee payer once executed, exactly once", async () => {
    const { creator, ada, bob, voter } = actors;
    const dare = await createV2Dare(ctx, creator, '1', { kind: 'major' });
    const adminPick = await enteredSubmission(ctx, ada, dare);
    const communityPick = await enteredSubmission(ctx, bob, dare);
    await castVote(ctx, voter, communityPick);
    const pick = (body: object, judge: Actor) =>
      http.post(`/api/admin/major-dare/${dare.id}/winner`, body, judge.token);
    expect((await pick({ submissionId: adminPick.id, winnerType: 'admin' }, first)).statusCode).toBe(201);
    const community = { submissionId: communityPick.id, winnerType: 'community' };
    const offered = (await pick(community, first)).json() as { transaction: string };
    const waiting = await pick(
      { ...community, signedTransaction: await judgeSigns(keys[0]!, offered.transaction) },
      first,
    );
    expect(waiting.json()).toMatchObject({ signaturesNeeded: 1 });
    const relayed = await pick(
      { ...community, signedTransaction: await judgeSigns(keys[1]!, waiting.json().transaction) },
      second,
    );
    expect(relayed.json()).toHaveProperty('proposal');

    const feePayer = (await ctx.escrowKeys.feePayer()).address;
    const nonceAccount = await proposeNonceAddress(feePayer, dare.vault);
    const nonceRent = await ctx.chain.rpc.getMinimumBalanceForRentExemption(BigInt(getNonceSize())).send();
    expect(await lamportsOf(ctx, nonceAccount)).toBe(nonceRent);

    await warpChain(ctx, 3601);
    await ctx.app.payoutJob.runNow();

    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toBeNull();
    const { value: gone } = await ctx.chain.rpc
      .getAccountInfo(nonceAccount, { commitment: 'confirmed', encoding: 'base64' })
      .send();
    expect(gone).toBeNull();
    // The nonce account's history: created, advanced by the propose, withdrawn. The withdraw paid
    // the fee payer the whole rent, less its own fee.
    const history = await ctx.chain.rpc
      .getSignaturesForAddress(nonceAccount, { commitment: 'confirmed' })
      .send();
    expect(history).toHaveLength(3);
    const withdraw = await ctx.chain.rpc
      .getTransaction(history[0]!.signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(withdraw?.transaction.message.accountKeys[0]).toBe(feePayer);
    expect(withdraw?.meta?.fee).toBe(5000n);
    expect(withdraw!.meta!.postBalances[0]! - withdraw!.meta!.preBalances[0]!).toBe(nonceRent - 5000n);

    // Later runs find nothing to give back and send nothing.
    await ctx.app.payoutJob.runNow();
    expect(
      await ctx.chain.rpc.getSignaturesForAddress(nonceAccount, { commitment: 'confirmed' }).send(),
    ).toHaveLength(3);
  });
});
