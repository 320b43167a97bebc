/**
 * The escrow program on two runtimes: LiteSVM 1.5 (what the embedded chain runs) and solana-bankrun
 * (solana-program-test's BanksServer, Agave 1.18). The same scenario function runs on each, through
 * the program deployed by the upgradeable loader, and every lamport it reports must be the same.
 * v2's scenarios run the same way (compare.ts) in v2/escrow-v2-program.test.ts.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import { SOL } from '#test/support/chain/escrow-chain';
import { EscrowV1Chain } from '#test/support/chain/escrow-v1-chain';
import { loadBankrun } from './bankrun';
import { balances, bankrunForTests, dareBalances, outcome, type Report, sameOnEveryRuntime } from './compare';
import type { ProgramRuntime } from './runtime';

const { bankrun: bankrunRuntime, onBothRuntimes } = await bankrunForTests();

/**
 * The v1 program's happy paths: a community payout, a major 70/30 payout with an odd pot, and a
 * cancel with every payer refunded; each closes every record, so all rent is back with the platform.
 */
async function v1HappyPaths(runtime: ProgramRuntime): Promise<Report> {
  const chain = await EscrowV1Chain.start(runtime);
  const platform = chain.platform.address;
  const platformStart = await chain.balance(platform);
  const report: Report = {};
  const deposit = async (vault: Address, payer: KeyPairSigner, amount: bigint) =>
    chain.must([await chain.depositInstruction(vault, payer, amount)]);
  const enter = async (vault: Address, entrant: KeyPairSigner) =>
    chain.must([await chain.enterInstruction(vault, entrant)]);

  // Community: a stake, two payers (one twice), two entrants; one transaction pays and closes all.
  const community = await chain.createDare({ stake: 123_456_789n });
  const payers = [await chain.wallet(), await chain.wallet()];
  const [winner, loser] = [await chain.wallet(0n), await chain.wallet(1n)];
  await deposit(community.vault, payers[0]!, 2n * SOL + 1n);
  await deposit(community.vault, payers[1]!, 10_000_000n);
  await deposit(community.vault, payers[0]!, 10_000_000n);
  await enter(community.vault, winner);
  await enter(community.vault, loser);
  Object.assign(
    report,
    await balances(runtime, {
      'community: vault while open': community.vault,
      'community: platform while open': platform,
    }),
  );
  await chain.must(
    await chain.settleAndCloseInstructions(
      community.vault,
      [winner.address],
      [community.creator, ...payers].map((p) => p.address),
      [winner.address, loser.address],
    ),
  );
  Object.assign(
    report,
    await dareBalances(runtime, 'community', community, {
      'payer 1': payers[0]!,
      'payer 2': payers[1]!,
      winner,
      loser,
    }),
  );

  // Major: 70/30 of an odd pot, the odd lamport to the first share.
  const major = await chain.createDare({ kind: 'major', stake: SOL + 7n });
  const [first, second] = [await chain.wallet(0n), await chain.wallet(0n)];
  await enter(major.vault, first);
  await enter(major.vault, second);
  const winners = [first.address, second.address];
  await chain.must(
    await chain.settleAndCloseInstructions(major.vault, winners, [major.creator.address], winners),
  );
  Object.assign(
    report,
    await dareBalances(runtime, 'major', major, { 'first (70%)': first, 'second (30%)': second }),
  );

  // Cancel: every payer gets exactly what they put in, entries close, the vault closes.
  const cancelled = await chain.createDare({ stake: 50_000_000n });
  const cancelPayer = await chain.wallet();
  const entrant = await chain.wallet(0n);
  await deposit(cancelled.vault, cancelPayer, 333_333_333n);
  await enter(cancelled.vault, entrant);
  await chain.must([chain.cancelInstruction(cancelled.vault)]);
  await chain.must(
    await chain.closeInstructions(
      cancelled.vault,
      [cancelled.creator.address, cancelPayer.address],
      [entrant.address],
      { refund: true },
    ),
  );
  Object.assign(report, await dareBalances(runtime, 'cancel', cancelled, { payer: cancelPayer, entrant }));
  report['platform: spent on fees (all rent back)'] = platformStart - (await chain.balance(platform));
  return report;
}

/**
 * A stranger enters paying the entry's rent from key R, empties R, and deploys a program at R:
 * the entry's rent payer is now an executable account. The payout is sent on its own, then each
 * close on its own (as v2's client does), so the one close that credits R can hold up only itself.
 */
async function executableRentPayer(runtime: ProgramRuntime): Promise<Report> {
  const chain = await EscrowV1Chain.start(runtime);
  const dare = await chain.createDare({ stake: 200_000_000n });
  const { vault, creator } = dare;
  const [winner, stranger] = [await chain.wallet(0n), await chain.wallet(0n)];
  const rentKey = await chain.wallet(1n);
  await chain.must([await chain.enterInstruction(vault, winner)]);
  await chain.must([await chain.enterInstruction(vault, stranger, rentKey)]);
  await chain.makeExecutable(rentKey, chain.platform.address);
  const frozenRentPayer = await chain.account(rentKey.address);
  expect(frozenRentPayer?.owner).toBe('BPFLoaderUpgradeab1e11111111111111111111111');

  const report: Report = {
    settle: outcome(await chain.send([await chain.settleInstruction(vault, [winner.address])])),
    'close receipt': outcome(await chain.send([await chain.closeReceiptInstruction(vault, creator.address)])),
    "close the winner's entry": outcome(
      await chain.send([await chain.closeEntryInstruction(vault, winner.address)]),
    ),
    ...(await balances(runtime, {
      winner: winner.address,
      creator: creator.address,
      'vault before the last close': vault,
      'rent payer R before the last close': rentKey.address,
    })),
  };
  const strangerEntry = await chain.entryAddress(vault, stranger.address);
  const entryRent = await chain.balance(strangerEntry);
  report["close the stranger's entry (rent to R)"] = outcome(
    await chain.send([await chain.closeEntryInstruction(vault, stranger.address, rentKey.address)]),
  );
  report['R got back'] = (await chain.balance(rentKey.address)) - (frozenRentPayer?.lamports ?? 0n);
  report['entry rent'] = entryRent;
  report['entry left'] = await chain.balance(strangerEntry);
  // Any other transaction still goes through.
  const after = await chain.wallet(0n);
  report['a later transfer'] = outcome(
    await chain.send([
      getTransferSolInstruction({ source: chain.platform, destination: after.address, amount: SOL }),
    ]),
  );
  return report;
}

// Two chains, three deploys each (about 20 loader transactions a deploy) on a shared CPU.
describe('the escrow program on LiteSVM and on solana-bankrun', { timeout: 120_000 }, () => {
  onBothRuntimes('pays, splits 70/30 and refunds with the same lamports on both runtimes', async () => {
    const { litesvm, bankrun } = await sameOnEveryRuntime(bankrunRuntime, v1HappyPaths);
    expect(bankrun).toEqual(litesvm);
    // And they are the right lamports (fees: 5,000 lamports a signature, paid by the platform).
    const pot = 123_456_789n + 2n * SOL + 1n + 10_000_000n + 10_000_000n;
    expect(litesvm).toMatchObject({
      'community: winner': pot,
      'community: creator': 10n * SOL - 123_456_789n,
      'community: payer 1': 10n * SOL - 2n * SOL - 1n - 10_000_000n,
      'community: payer 2': 10n * SOL - 10_000_000n,
      'community: loser': SOL,
      'community: vault': 0n,
      'major: first (70%)': (7n * (SOL + 7n)) / 10n + 1n,
      'major: second (30%)': (3n * (SOL + 7n)) / 10n,
      'major: vault': 0n,
      'cancel: creator': 10n * SOL,
      'cancel: payer': 10n * SOL,
      'cancel: entrant': 0n,
      'cancel: vault': 0n,
    });
    expect(litesvm['major: first (70%)'] as bigint).toBe(700_000_005n);
    expect(litesvm['major: second (30%)'] as bigint).toBe(300_000_002n);
    // The platform paid every fee (5,000 lamports a signature: 14 signatures for the community
    // dare, 8 for the major one, 9 for the cancelled one) and got every lamport of rent back.
    expect(litesvm['platform: spent on fees (all rent back)']).toBe(5000n * (14n + 8n + 9n));
  });

  onBothRuntimes(
    "an executable rent payer freezes only its own record's close on bankrun; every other transaction succeeds",
    async () => {
      const { litesvm, bankrun } = await sameOnEveryRuntime(bankrunRuntime, executableRentPayer);
      const frozenClose = "close the stranger's entry (rent to R)";
      const differs = [frozenClose, 'R got back', 'entry left'];
      const same = (report: Report) =>
        Object.fromEntries(Object.entries(report).filter(([k]) => !differs.includes(k)));
      expect(same(bankrun)).toEqual(same(litesvm));
      expect(litesvm).toMatchObject({
        settle: 'ok',
        'close receipt': 'ok',
        "close the winner's entry": 'ok',
        'a later transfer': 'ok',
        winner: 200_000_000n,
        creator: 10n * SOL - 200_000_000n,
      });
      // Agave 1.18 refuses to credit an executable account: the close fails and moves nothing.
      expect(bankrun[frozenClose]).toBe(
        'failed: Error processing Instruction 0: instruction changed the balance of an executable account',
      );
      expect(bankrun['R got back']).toBe(0n);
      expect(bankrun['entry left']).toBe(bankrun['entry rent']);
      // LiteSVM 1.5 credits it: the entry's rent reaches R.
      expect(litesvm[frozenClose]).toBe('ok');
      expect(litesvm['R got back']).toBe(litesvm['entry rent']);
      expect(litesvm['entry left']).toBe(0n);
    },
  );
});

describe('solana-bankrun where it has no binary', () => {
  const missing = () => Promise.reject(new Error('Failed to load native binding\nmore detail'));

  it('says in one line why it cannot run on linux-arm64', async () => {
    expect(await loadBankrun('linux-arm64', missing)).toEqual({
      ok: false,
      reason:
        'solana-bankrun 0.4.0 has no native binary for linux-arm64 (only macOS and Linux x64): Failed to load native binding',
    });
  });

  it('fails loudly where a binary is published but does not load', async () => {
    await expect(loadBankrun('linux-x64', missing)).rejects.toThrow('Failed to load native binding');
  });
});
