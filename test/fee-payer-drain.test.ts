/**
 * The fee-payer drain, replayed as an attacker ran it (issue 24): free accounts, as many as the
 * sign-in limit lets one address make, ask for the entry transaction of every open dare and
 * broadcast whatever they get straight to the chain, without ever submitting a proof. Before
 * decision 034 each one was signed by the platform's fee payer and cost it an entry's rent and fee
 * (60 accounts took it from 1.26 SOL to nothing in 103 s). Now an entry is the entrant's to pay:
 * the platform fee payer loses nothing, because it sent nothing. When the dares end it closes those
 * entries, packed, for a fraction of what the attackers paid to make them (decision 047).
 */
import {
  address,
  type Base64EncodedWireTransaction,
  getTransactionDecoder,
  type Signature,
} from '@solana/kit';
import { expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { waitForConfirmation } from '#server/chain/confirmation';
import {
  ENTRY_COST,
  ENTRY_FEE,
  ENTRY_RENT,
  entryInVault,
  requestEntry,
  walletSigns,
} from './helpers/entries';
import { api, createFundedDare, lamportsOf, platformFeesFor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet, registerWithWallet, type TestWallet } from './helpers/wallet';

// The sign-in limit is the default one: the attack gets exactly what it would get in production.
const { ctx, actors } = setupApiSuite({ actors: { owner: {}, moderator: { admin: true } } });

/** Accounts from one address until sign-in refuses more (or `max`, to bound the test's time). */
async function freeAccounts(max: number) {
  const accounts: { wallet: TestWallet; token: string }[] = [];
  for (let i = 0; i < max; i += 1) {
    const wallet = await createTestWallet();
    try {
      const { token } = await registerWithWallet(ctx.app, wallet, `free${i}`);
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
