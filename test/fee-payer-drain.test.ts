/**
 * The fee-payer drain, replayed as an attacker ran it (issue 24): free accounts, as many as the
 * sign-in limit lets one address make, ask for the entry transaction of every open dare and
 * broadcast whatever they get straight to the chain, without ever submitting a proof. Before
 * decision 034 each one was signed by the platform's fee payer and cost it an entry's rent and fee
 * (60 accounts took it from 1.26 SOL to nothing in 103 s). Now an entry is the entrant's to pay:
 * the platform fee payer loses nothing, because it sent nothing. When the dares end it closes those
 * entries, packed, for a fraction of what the attackers paid to make them (decision 047).
 *
 * The same for backers' receipts (decision 058): a deposit the API hands out carries no signature
 * of DarePool's (the backer lends its receipt's rent), deposits made straight on chain are credited
 * to their payers by the notice job, and the refunds that end the dares go packed, so what the
 * strangers' receipts cost the platform stays below what they cost the strangers, on both routes.
 */
import {
  type Address,
  address,
  type Base64EncodedWireTransaction,
  generateKeyPairSigner,
  getTransactionDecoder,
  type Signature,
} from '@solana/kit';
import { and, eq, isNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import { RECEIPT_SIZE } from '#server/chain/escrow-program/layout';
import { getDepositV2Instruction } from '#server/chain/escrow-program/v2/instructions';
import { partiallySigned } from '#server/chain/escrow-program/wire-transactions';
import { dares as daresTable, ledgerEntries } from '#server/db/schema';
import {
  ENTRY_COST,
  ENTRY_FEE,
  ENTRY_RENT,
  entryInVault,
  requestEntry,
  walletSigns,
} from './helpers/entries';
import { lapsedPaymentsJob } from './helpers/money';
import { api, createFundedDare, lamportsOf, platformFeesFor, refundJob } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet, registerWithWallet, type TestWallet } from './helpers/wallet';

// The sign-in limit is the default one: the attack gets exactly what it would get in production.
const { ctx, actors } = setupApiSuite({ actors: { owner: {}, moderator: { admin: true } } });

/** Accounts from one address until sign-in refuses more (or `max`, to bound the test's time). */
async function freeAccounts(max: number, prefix = 'free') {
  const accounts: { wallet: TestWallet; token: string }[] = [];
  for (let i = 0; i < max; i += 1) {
    const wallet = await createTestWallet();
    try {
      const { token } = await registerWithWallet(ctx.app, wallet, `${prefix}${i}`);
      accounts.push({ wallet, token });
    } catch (error) {
      // The sign-in limit: this address may make no more accounts this minute.
      if (/429|Too many/i.test(String(error))) break;
      throw error;
    }
  }
  return accounts;
}

it('free accounts entering every open dare cost the platform fee payer nothing', async () => {
  const { owner } = actors;
  const dares = [
    await createFundedDare(ctx, owner, '0.01', { title: 'Open one' }),
    await createFundedDare(ctx, owner, '0.01', { title: 'Open two' }),
    await createFundedDare(ctx, owner, '0.01', { title: 'Open three' }),
  ];
  const platform = (await ctx.escrowKeys.feePayer()).address;
  const platformBefore = await lamportsOf(ctx, platform);

  const accounts = await freeAccounts(60);
  expect(accounts.length).toBeGreaterThanOrEqual(20);
  // Half the accounts hold nothing; the attacker gives the other half what their entries take,
  // to see what a transaction handed out can be made to do once broadcast.
  const funded = accounts.filter((_, i) => i % 2 === 1);
  for (const account of funded)
    await ctx.chain.airdrop(address(account.wallet.address), ENTRY_COST * BigInt(dares.length));

  const sent: Signature[] = [];
  const refusals: string[] = [];
  const signedByOthers: string[] = [];
  for (const account of accounts) {
    for (const dare of dares) {
      const res = await requestEntry(ctx, account, dare.id);
      if (res.statusCode !== 200) {
        refusals.push(`${res.statusCode} ${res.json().error}`);
        continue;
      }
      const { transaction } = res.json() as { transaction: string };
      const signers = Object.keys(
        getTransactionDecoder().decode(Buffer.from(transaction, 'base64')).signatures,
      );
      signedByOthers.push(...signers.filter((signer) => signer !== account.wallet.address));
      // Broadcast straight to the chain, as the attacker did; no proof is ever submitted.
      const signed = await walletSigns(account.wallet, transaction);
      sent.push(
        await ctx.chain.rpc
          .sendTransaction(signed as Base64EncodedWireTransaction, {
            encoding: 'base64',
            skipPreflight: true,
          })
          .send(),
      );
    }
  }
  for (const signature of sent)
    await waitForConfirmation(ctx.chain.rpc, signature, { commitment: 'confirmed' }).catch(() => undefined);

  // The platform sent none of these transactions, and paid for none.
  expect(await lamportsOf(ctx, platform)).toBe(platformBefore);
  // Nothing handed out carried a signature of DarePool's: each one's only signer was the account.
  expect(signedByOthers).toEqual([]);
  // An account that cannot pay its entry is told so, in DarePool's words, before anything is built.
  expect(refusals).toEqual(
    Array((accounts.length - funded.length) * dares.length).fill(
      `400 ${SUBMISSION_MESSAGES.entryUnaffordable('0.0019', '0')}`,
    ),
  );
  expect(sent).toHaveLength(funded.length * dares.length);
  // The entries exist, each paid by its entrant, whose wallet is now empty; the rent is theirs
  // and comes back to them when the dare ends.
  for (const account of funded) {
    expect(await lamportsOf(ctx, account.wallet.address)).toBe(0n);
    const entry = await entryInVault(ctx, dares[0]!.escrowWallet, account.wallet.address);
    expect(entry).toMatchObject({
      programId: ctx.escrowProgramV2Id,
      rentPayer: account.wallet.address,
      rent: ENTRY_RENT,
    });
  }

  // The dares end (Deactivate): each entrant gets its rent back, closed by the platform. The
  // entries' closes are packed, one fee for many (decision 047): closing them costs the platform
  // a fraction of what the attacker paid to make them, never as much.
  for (const dare of dares) {
    const res = await api(ctx).patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      actors.moderator.token,
    );
    expect(res.statusCode, res.body).toBe(200);
  }
  for (const account of funded)
    expect(await lamportsOf(ctx, account.wallet.address)).toBe(ENTRY_RENT * BigInt(dares.length));
  // What the platform paid for transactions that closed the attackers' entries, against what the
  // attackers paid to make them.
  const attackers = new Set<string>(funded.map((account) => account.wallet.address));
  let entryCloses = 0;
  let entryCloseFees = 0n;
  for (const dare of dares) {
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    for (const { signature } of await ctx.chain.rpc
      .getSignaturesForAddress(address(dare.escrowWallet))
      .send()) {
      const landed = await ctx.chain.rpc
        .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send();
      const keys = landed!.transaction.message.accountKeys;
      if (keys[0] !== platform || !keys.some((key) => attackers.has(key))) continue;
      entryCloses += 1;
      entryCloseFees += landed!.meta!.fee;
    }
  }
  const attackerFees = ENTRY_FEE * BigInt(sent.length);
  expect(entryCloses).toBeGreaterThan(0);
  expect(entryCloses * 5).toBeLessThanOrEqual(sent.length);
  expect(entryCloseFees * 5n).toBeLessThanOrEqual(attackerFees);
  let platformFees = 0n;
  for (const dare of dares) platformFees += await platformFeesFor(ctx, dare.escrowWallet);
  expect(await lamportsOf(ctx, platform)).toBe(platformBefore - platformFees);
}, 180_000);

/** The rent a receipt lends on the test chain: its backer's, returned with its refund. */
const RECEIPT_RENT = 1_726_080n;
const DEPOSIT = 10_000_000n;
const FEE = 5_000n;

/**
 * What the platform's transactions that ended these vaults cost it on behalf of each set of
 * payers: each transaction's fee shared among the records it closed (a refund, a close), so a
 * set of payers is charged for the part of each packet its records took. Transactions closing
 * nothing of theirs (a cancel) are charged to nobody here.
 */
async function platformCostOf(vaults: readonly string[], payers: Record<string, ReadonlySet<string>>) {
  const platform = (await ctx.escrowKeys.feePayer()).address;
  const cost: Record<string, bigint> = Object.fromEntries(Object.keys(payers).map((name) => [name, 0n]));
  let transactions = 0;
  for (const vault of vaults) {
    for (const { signature } of await ctx.chain.rpc.getSignaturesForAddress(address(vault)).send()) {
      const landed = await ctx.chain.rpc
        .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send();
      const keys = landed!.transaction.message.accountKeys;
      if (keys[0] !== platform) continue;
      // A refund's third account is its payer (vault, receipt, payer, rent payers).
      const refunded = landed!.transaction.message.instructions
        .filter((ix) => keys[ix.programIdIndex] === ctx.escrowProgramV2Id && ix.accounts.length === 5)
        .map((ix) => keys[ix.accounts[2]!]!);
      if (refunded.length === 0) continue;
      transactions += 1;
      for (const [name, set] of Object.entries(payers)) {
        const theirs = BigInt(refunded.filter((payer) => set.has(payer)).length);
        cost[name]! += (landed!.meta!.fee * theirs) / BigInt(refunded.length);
      }
    }
  }
  return { cost, transactions };
}

it("backers' receipts, through the API and straight on chain, cost the platform less than they cost the attacker", async () => {
  // The first test spent this address's sign-ins for the minute: the attacker comes back later.
  ctx.clock.advance(120_000);
  const { owner } = actors;
  const dares = [
    await createFundedDare(ctx, owner, '0.01', { title: 'Backed one' }),
    await createFundedDare(ctx, owner, '0.01', { title: 'Backed two' }),
    await createFundedDare(ctx, owner, '0.01', { title: 'Backed three' }),
  ];
  const platform = (await ctx.escrowKeys.feePayer()).address;
  const platformBefore = await lamportsOf(ctx, platform);
  const receiptRent = await ctx.chain.rpc.getMinimumBalanceForRentExemption(BigInt(RECEIPT_SIZE)).send();
  expect(receiptRent).toBe(RECEIPT_RENT);

  // Route 1, the API: free accounts ask for a 0.01 SOL contribution to every dare and broadcast
  // what they get themselves. Each is given exactly what its three deposits take.
  const accounts = await freeAccounts(60, 'backer');
  expect(accounts.length).toBeGreaterThanOrEqual(20);
  const perDeposit = DEPOSIT + FEE + RECEIPT_RENT;
  for (const account of accounts)
    await ctx.chain.airdrop(address(account.wallet.address), perDeposit * BigInt(dares.length));
  const signedByOthers: string[] = [];
  const viaApi: Signature[] = [];
  for (const account of accounts) {
    for (const dare of dares) {
      const res = await api(ctx).post(
        '/api/create-transaction',
        { fromWallet: account.wallet.address, toWallet: dare.escrowWallet, amount: '0.01' },
        account.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      const { transaction } = res.json() as { transaction: string };
      const signers = Object.keys(
        getTransactionDecoder().decode(Buffer.from(transaction, 'base64')).signatures,
      );
      signedByOthers.push(...signers.filter((signer) => signer !== account.wallet.address));
      viaApi.push(
        await ctx.chain.rpc
          .sendTransaction((await walletSigns(account.wallet, transaction)) as Base64EncodedWireTransaction, {
            encoding: 'base64',
            skipPreflight: true,
          })
          .send(),
      );
    }
  }

  // Route 2, straight on chain: wallets with no account deposit 0.01 SOL into every dare's vault,
  // all three in one signature, each its own receipt's rent payer.
  const strangers = await Promise.all(Array.from({ length: 30 }, () => generateKeyPairSigner()));
  const lifetime = (await ctx.chain.rpc.getLatestBlockhash().send()).value;
  const onChain: Signature[] = [];
  for (const stranger of strangers) {
    await ctx.chain.airdrop(stranger.address, (DEPOSIT + RECEIPT_RENT) * BigInt(dares.length) + FEE);
    const built = await partiallySigned({
      feePayer: stranger,
      lifetime,
      instructions: await Promise.all(
        dares.map((dare) =>
          getDepositV2Instruction({
            programId: ctx.escrowProgramV2Id,
            vault: address(dare.escrowWallet),
            payer: stranger,
            rentPayer: stranger,
            amount: DEPOSIT,
          }),
        ),
      ),
    });
    onChain.push(
      await ctx.chain.rpc
        .sendTransaction(built.base64 as Base64EncodedWireTransaction, {
          encoding: 'base64',
          skipPreflight: true,
        })
        .send(),
    );
  }
  for (const signature of [...viaApi, ...onChain])
    await waitForConfirmation(ctx.chain.rpc, signature, { commitment: 'confirmed' });

  // Nothing handed out carried a signature of DarePool's, and the platform lent nothing: every
  // wallet is empty, its receipts' rent its own.
  expect(signedByOthers).toEqual([]);
  expect(await lamportsOf(ctx, platform)).toBe(platformBefore);
  for (const wallet of [...accounts.map((a) => a.wallet.address), ...strangers.map((s) => s.address)])
    expect(await lamportsOf(ctx, wallet)).toBe(0n);

  // The payments job books the API's deposits nobody reported once their intents lapse; the
  // notice credits the ones made straight on chain to their payers, each exactly once.
  ctx.clock.advance(DAY_MS + 60_000);
  expect(await lapsedPaymentsJob(ctx).run()).toMatchObject({
    found: accounts.length * dares.length,
    credited: accounts.length * dares.length,
  });
  await refundJob(ctx).refundDue();
  await refundJob(ctx).refundDue();
  const backers = 1 + accounts.length + strangers.length;
  for (const dare of dares) {
    const [row] = await ctx.database.db.select().from(daresTable).where(eq(daresTable.id, dare.id));
    expect(row!.totalPool).toBe((Number(DEPOSIT * BigInt(backers)) / 1e9).toFixed(9));
    const credited = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.escrowWallet, dare.escrowWallet),
          eq(ledgerEntries.kind, 'contribution'),
          isNull(ledgerEntries.userId),
        ),
      );
    expect(credited.map((line) => line.counterparty).sort()).toEqual(strangers.map((s) => s.address).sort());
    expect(new Set(credited.map((line) => line.signature))).toEqual(new Set(onChain));
  }

  // The dares end (Deactivate): every payer gets its 0.01 SOL and its receipt's rent back.
  for (const dare of dares) {
    const res = await api(ctx).patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      actors.moderator.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds).toMatchObject({ failed: 0, failureReason: null });
  }
  for (const wallet of [...accounts.map((a) => a.wallet.address), ...strangers.map((s) => s.address)])
    expect(await lamportsOf(ctx, wallet)).toBe((DEPOSIT + RECEIPT_RENT) * BigInt(dares.length));
  for (const dare of dares) expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);

  // What the platform's refunds cost it per route, against what the attacker paid in fees.
  const vaults = dares.map((dare) => dare.escrowWallet);
  const { cost, transactions } = await platformCostOf(vaults, {
    api: new Set(accounts.map((a) => a.wallet.address)),
    onChain: new Set<Address>(strangers.map((s) => s.address)),
  });
  const attacker = { api: FEE * BigInt(viaApi.length), onChain: FEE * BigInt(onChain.length) };
  console.log(
    `receipts: ${viaApi.length} through the API, ${onChain.length * dares.length} straight on chain; ` +
      `refunded in ${transactions} platform transactions. Attacker's fees: API ${attacker.api}, on chain ` +
      `${attacker.onChain} lamports; the platform's share: API ${cost.api}, on chain ${cost.onChain} lamports`,
  );
  expect(cost.api!).toBeLessThan(attacker.api);
  expect(cost.onChain!).toBeLessThan(attacker.onChain);
  let platformFees = 0n;
  for (const vault of vaults) platformFees += await platformFeesFor(ctx, vault);
  expect(await lamportsOf(ctx, platform)).toBe(platformBefore - platformFees);
}, 300_000);
