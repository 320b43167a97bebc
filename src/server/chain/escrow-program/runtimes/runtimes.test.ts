/**
 * The escrow program on two runtimes: LiteSVM 1.5 (what the embedded chain runs) and solana-bankrun
 * (solana-program-test's BanksServer, Agave 1.18). The same scenario function runs on each, through
 * the program deployed by the upgradeable loader, and every lamport it reports must be the same.
 * v2's scenarios run the same way (compare.ts) in v2/escrow-v2-program.test.ts.
 */
import { type Address, generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import {
  getCancelInstruction,
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
} from '#server/chain/escrow-program/instructions';
import { findEntryAddress, findVaultAddress } from '#server/chain/escrow-program/pda';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import {
  getCloseInstructions,
  getCreateVaultInstruction,
  getDepositInstruction,
  getEnterInstruction,
  getSettleAndCloseInstructions,
  getSettleInstruction,
} from '#test/support/chain/v1-vaults';
import { loadBankrun } from './bankrun';
import { balances, bankrunForTests, outcome, type Report, sameOnEveryRuntime } from './compare';
import { deploy, deployPrograms, mustSend, type ProgramRuntime, sendInstructions } from './runtime';

const SOL = 1_000_000_000n;
const START_TIME = 1_000_000n;

const { bankrun: bankrunRuntime, onBothRuntimes } = await bankrunForTests();

/** A chain with the v1 escrow program deployed, a platform (fee and rent payer) and a moderator. */
async function escrowOn(runtime: ProgramRuntime) {
  const programId = await deploy(runtime, readEscrowProgram());
  await runtime.setTime(START_TIME);
  const platform = await wallet(runtime, 100n * SOL);
  const moderator = await wallet(runtime, 0n);
  const send = (instructions: Parameters<typeof mustSend>[1]) => mustSend(runtime, instructions, platform);

  async function createDare(kind: 'community' | 'major', creator: KeyPairSigner, stake: bigint) {
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const deadline = (await runtime.now()) + 3600n;
    await send([
      await getCreateVaultInstruction({
        programId,
        creator,
        rentPayer: platform,
        dareId,
        moderator: moderator.address,
        deadline,
        refundAfter: deadline + 86_400n,
        amount: stake,
        kind,
      }),
    ]);
    return (await findVaultAddress(programId, dareId)).address;
  }
  const deposit = async (vault: Address, payer: KeyPairSigner, amount: bigint) =>
    send([await getDepositInstruction({ programId, vault, payer, rentPayer: platform, amount })]);
  const enter = async (vault: Address, entrant: KeyPairSigner, rentPayer: KeyPairSigner = platform) =>
    send([await getEnterInstruction({ programId, vault, entrant, rentPayer })]);
  return { programId, platform, moderator, send, createDare, deposit, enter };
}

async function wallet(runtime: ProgramRuntime, lamports = 10n * SOL): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  if (lamports > 0n) await runtime.fund(signer.address, lamports);
  return signer;
}

/**
 * The v1 program's happy paths: a community payout, a major 70/30 payout with an odd pot, and a
 * cancel with every payer refunded; each closes every record, so all rent is back with the platform.
 */
async function v1HappyPaths(runtime: ProgramRuntime): Promise<Report> {
  const escrow = await escrowOn(runtime);
  const { programId, platform, moderator } = escrow;
  const platformStart = await runtime.getBalance(platform.address);
  const report: Report = {};

  // Community: a stake, two payers (one twice), two entrants; one transaction pays and closes all.
  const creator = await wallet(runtime);
  const payers = [await wallet(runtime), await wallet(runtime)];
  const [winner, loser] = [await wallet(runtime, 0n), await wallet(runtime, SOL)];
  const community = await escrow.createDare('community', creator, 123_456_789n);
  await escrow.deposit(community, payers[0]!, 2n * SOL + 1n);
  await escrow.deposit(community, payers[1]!, 10_000_000n);
  await escrow.deposit(community, payers[0]!, 10_000_000n);
  await escrow.enter(community, winner);
  await escrow.enter(community, loser);
  Object.assign(
    report,
    await balances(runtime, {
      'community: vault while open': community,
      'community: platform while open': platform.address,
    }),
  );
  await escrow.send(
    await getSettleAndCloseInstructions({
      programId,
      vault: community,
      moderator,
      winners: [winner.address],
      vaultRentPayer: platform.address,
      receipts: [creator, ...payers].map((p) => ({ payer: p.address, rentPayer: platform.address })),
      entries: [winner, loser].map((e) => ({ entrant: e.address, rentPayer: platform.address })),
    }),
  );
  Object.assign(
    report,
    await balances(runtime, {
      'community: creator': creator.address,
      'community: payer 1': payers[0]!.address,
      'community: payer 2': payers[1]!.address,
      'community: winner': winner.address,
      'community: loser': loser.address,
      'community: vault': community,
    }),
  );

  // Major: 70/30 of an odd pot, the odd lamport to the first share.
  const majorCreator = await wallet(runtime);
  const [first, second] = [await wallet(runtime, 0n), await wallet(runtime, 0n)];
  const major = await escrow.createDare('major', majorCreator, SOL + 7n);
  await escrow.enter(major, first);
  await escrow.enter(major, second);
  await escrow.send(
    await getSettleAndCloseInstructions({
      programId,
      vault: major,
      moderator,
      winners: [first.address, second.address],
      vaultRentPayer: platform.address,
      receipts: [{ payer: majorCreator.address, rentPayer: platform.address }],
      entries: [first, second].map((e) => ({ entrant: e.address, rentPayer: platform.address })),
    }),
  );
  Object.assign(
    report,
    await balances(runtime, {
      'major: creator': majorCreator.address,
      'major: first (70%)': first.address,
      'major: second (30%)': second.address,
      'major: vault': major,
    }),
  );

  // Cancel: every payer gets exactly what they put in, entries close, the vault closes.
  const cancelCreator = await wallet(runtime);
  const cancelPayer = await wallet(runtime);
  const entrant = await wallet(runtime, 0n);
  const cancelled = await escrow.createDare('community', cancelCreator, 50_000_000n);
  await escrow.deposit(cancelled, cancelPayer, 333_333_333n);
  await escrow.enter(cancelled, entrant);
  await escrow.send([getCancelInstruction({ programId, vault: cancelled, moderator })]);
  await escrow.send(
    await getCloseInstructions({
      programId,
      vault: cancelled,
      vaultRentPayer: platform.address,
      receipts: [cancelCreator, cancelPayer].map((p) => ({ payer: p.address, rentPayer: platform.address })),
      entries: [{ entrant: entrant.address, rentPayer: platform.address }],
      refund: true,
    }),
  );
  Object.assign(
    report,
    await balances(runtime, {
      'cancel: creator': cancelCreator.address,
      'cancel: payer': cancelPayer.address,
      'cancel: entrant': entrant.address,
      'cancel: vault': cancelled,
    }),
  );
  report['platform: spent on fees (all rent back)'] =
    platformStart - (await runtime.getBalance(platform.address));
  return report;
}

/**
 * A stranger enters paying the entry's rent from key R, empties R, and deploys a program at R:
 * the entry's rent payer is now an executable account. The payout is sent on its own, then each
 * close on its own (as v2's client does), so the one close that credits R can hold up only itself.
 */
async function executableRentPayer(runtime: ProgramRuntime): Promise<Report> {
  const escrow = await escrowOn(runtime);
  const { programId, platform, moderator } = escrow;
  const creator = await wallet(runtime);
  const [winner, stranger] = [await wallet(runtime, 0n), await wallet(runtime, 0n)];
  const rentKey = await wallet(runtime, SOL);
  const vault = await escrow.createDare('community', creator, 200_000_000n);
  await escrow.enter(vault, winner);
  await escrow.enter(vault, stranger, rentKey);
  const rentKeyLeft = await runtime.getBalance(rentKey.address);
  await escrow.send([
    getTransferSolInstruction({ source: rentKey, destination: platform.address, amount: rentKeyLeft }),
  ]);
  expect(await runtime.getAccount(rentKey.address)).toBeNull();
  // Nobody calls the program at R: only its being executable matters here.
  await deployPrograms(runtime, [{ bytes: readEscrowProgram(), program: rentKey }], { invoked: false });
  const frozenRentPayer = await runtime.getAccount(rentKey.address);
  expect(frozenRentPayer?.owner).toBe('BPFLoaderUpgradeab1e11111111111111111111111');

  const common = { programId, vault, vaultRentPayer: platform.address };
  const report: Report = {
    settle: outcome(
      await sendInstructions(
        runtime,
        [await getSettleInstruction({ programId, vault, moderator, winners: [winner.address] })],
        platform,
      ),
    ),
    'close receipt': outcome(
      await sendInstructions(
        runtime,
        [
          await getCloseReceiptInstruction({
            ...common,
            payer: creator.address,
            receiptRentPayer: platform.address,
          }),
        ],
        platform,
      ),
    ),
    "close the winner's entry": outcome(
      await sendInstructions(
        runtime,
        [
          await getCloseEntryInstruction({
            ...common,
            entrant: winner.address,
            entryRentPayer: platform.address,
          }),
        ],
        platform,
      ),
    ),
    ...(await balances(runtime, {
      winner: winner.address,
      creator: creator.address,
      'vault before the last close': vault,
      'rent payer R before the last close': rentKey.address,
    })),
  };
  const strangerEntry = (await findEntryAddress(programId, vault, stranger.address)).address;
  const entryRent = await runtime.getBalance(strangerEntry);
  report["close the stranger's entry (rent to R)"] = outcome(
    await sendInstructions(
      runtime,
      [
        await getCloseEntryInstruction({
          ...common,
          entrant: stranger.address,
          entryRentPayer: rentKey.address,
        }),
      ],
      platform,
    ),
  );
  report['R got back'] = (await runtime.getBalance(rentKey.address)) - (frozenRentPayer?.lamports ?? 0n);
  report['entry rent'] = entryRent;
  report['entry left'] = await runtime.getBalance(strangerEntry);
  // Any other transaction still goes through.
  const after = await wallet(runtime, 0n);
  report['a later transfer'] = outcome(
    await sendInstructions(
      runtime,
      [getTransferSolInstruction({ source: platform, destination: after.address, amount: SOL })],
      platform,
    ),
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
