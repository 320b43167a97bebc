/**
 * Refunds without DarePool (issue 33): the server is stopped, its chain folder served as it is
 * with `npm run localnet -- --ledger DATA_DIR/chain`, and `npm run refund-dare` run by a stranger
 * refunds escrow v2 vaults to the lamport: a judged vault whose 2-of-2 proposal the guardian
 * vetoed (receipts of its creator and a backer, two entries, the fee payer's propose nonce) and a
 * plain one. Every record's rent goes back to whoever paid it; the stranger pays only fees. When
 * the server starts again it books what the chain did, and the books reconcile.
 */
import { type ChildProcess, execFile, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Address, generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import { warpChain } from './helpers/chain-clock';
import { enterAndSubmit } from './helpers/entries';
import { adminWithKey } from './helpers/judging';
import { type Actor, createFundedDare, lamportsOf } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { vetoedJudgedDare } from './helpers/vetoed-dare';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const FEE = 5_000n;

let judgeKeys: KeyPairSigner[] = [];
/** DarePool's master seed, which its operator hands to refund-dare for the fee payer's nonce. */
const masterSeed = randomBytes(64).toString('hex');
const { ctx, actors } = setupApiSuite({
  env: async () => {
    judgeKeys = [await generateKeyPairSigner(), await generateKeyPairSigner()];
    return {
      JUDGE_WALLETS: judgeKeys.map((k) => k.address).join(','),
      JUDGE_THRESHOLD: '2',
      ESCROW_MASTER_SEED: masterSeed,
    };
  },
  // Its chain served while it runs too: refund-dare is first asked about a standing proposal.
  context: { persistentChain: true, serveChainRpc: true },
  actors: { creator: {}, backer: {}, ada: {}, bob: {}, other: {} },
});

let first: Actor;
let second: Actor;
beforeAll(async () => {
  first = await adminWithKey(ctx, judgeKeys[0]!, 'judgeone');
  second = await adminWithKey(ctx, judgeKeys[1]!, 'judgetwo');
});

/** `npm run localnet` on a chain folder, until it stops (SIGTERM: it saves the folder). */
async function serveChainFolder(ledger: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = fork(
    path.join(REPO_ROOT, 'scripts/localnet.ts'),
    ['--ledger', ledger, '--rpc-port', '0'],
    { cwd: REPO_ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { httpUrl?: string }) =>
      message.httpUrl ? resolve(message.httpUrl) : reject(new Error(output)),
    );
    void exited.then((code) => reject(new Error(`localnet exited with ${code}: ${output}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
    },
  };
}

const refundDare = (rpc: string, vault: Address, keypair: string, more: string[] = []) =>
  run(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/refund-dare.ts',
      '--rpc',
      rpc,
      '--vault',
      vault,
      '--keypair',
      keypair,
      ...more,
    ],
    { cwd: REPO_ROOT },
  );

/** What each wallet is owed back from a vault: its receipts' amounts and every record's rent. */
async function owedFrom(vault: Address): Promise<Map<string, bigint>> {
  const owed = new Map<string, bigint>();
  const add = (wallet: string, lamports: bigint) => owed.set(wallet, (owed.get(wallet) ?? 0n) + lamports);
  const found = await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, vault);
  expect(found).not.toBeNull();
  add(found!.rentPayer, found!.lamports - found!.total);
  const records = await listVaultRecords(ctx.chain.rpc, ctx.escrowProgramV2Id, vault);
  for (const receipt of records.receipts) {
    add(receipt.payer, receipt.amount);
    add(receipt.rentPayer, receipt.lamports);
  }
  for (const entry of records.entries) add(entry.rentPayer, entry.lamports);
  return owed;
}

describe('npm run refund-dare with the server stopped', () => {
  it('refunds v2 vaults to the lamport: receipts, entries, a vetoed proposal and its nonce', async () => {
    const { creator, backer, ada, bob, other } = actors;
    // A judged dare: backed, entered twice, winners proposed by both judges, vetoed by the guardian.
    const {
      dare: judged,
      veto,
      nonceAccount,
    } = await vetoedJudgedDare(
      ctx,
      { creator, backer, entrants: [ada, bob] },
      { keys: [judgeKeys[0]!, judgeKeys[1]!], admins: [first, second] },
    );
    // While the proposal stands, nothing can be refunded: the script says so, and sends nothing.
    const strangerFile = path.join(ctx.dataDir, 'stranger.json');
    writeNewKeypairFile(strangerFile);
    const stranger = await readKeypairFile(strangerFile);
    await ctx.chain.airdrop(stranger.address, 1_000_000_000n);
    const served = ctx.chain.rpcServer;
    if (!served?.serving) throw new Error('the chain RPC is not served');
    const refused = await refundDare(served.httpUrl, judged.vault, strangerFile).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(
      /^refund-dare: the judges named \w+: the payout is due at \S+ and nothing can be refunded unless the guardian vetoes it before then$/m,
    );
    expect(await lamportsOf(ctx, stranger.address)).toBe(1_000_000_000n);
    await veto();
    const feePayer = (await ctx.escrowKeys.feePayer()).address;
    const nonceRent = await lamportsOf(ctx, nonceAccount);
    expect(nonceRent).toBeGreaterThan(0n);

    // A plain dare: its creator's stake and one entry.
    const plain = await createFundedDare(ctx, other, '0.02');
    await enterAndSubmit(ctx, bob, plain.id);

    // Past both vaults' refund_after (a week after a deadline a week ahead), by the chain's clock.
    await warpChain(ctx, 15 * 86_400);
    ctx.clock.advance(15 * DAY_MS);
    const owed = await owedFrom(judged.vault);
    for (const [wallet, lamports] of await owedFrom(plain.vault))
      owed.set(wallet, (owed.get(wallet) ?? 0n) + lamports);
    owed.set(feePayer, (owed.get(feePayer) ?? 0n) + nonceRent);
    expect(owed.get(creator.wallet.address)).toBeGreaterThan(300_000_000n);

    const before = new Map<string, bigint>();
    for (const wallet of [...owed.keys(), stranger.address])
      before.set(wallet, await lamportsOf(ctx, wallet));

    const seedFile = path.join(ctx.dataDir, 'escrow-master-seed.hex');
    writeFileSync(seedFile, `${masterSeed}\n`, { mode: 0o600 });
    const outputs: string[] = [];
    await ctx.restart(async () => {
      const localnet = await serveChainFolder(path.join(ctx.dataDir, 'chain'));
      try {
        for (const vault of [judged.vault, plain.vault]) {
          const { stdout } = await refundDare(localnet.url, vault, strangerFile, ['--master-seed', seedFile]);
          outputs.push(stdout);
        }
        // Run again on the closed vault: nothing left to give back, nothing sent.
        const again = await refundDare(localnet.url, judged.vault, strangerFile, ['--master-seed', seedFile]);
        expect(again.stdout).toContain(`No account at ${judged.vault}: the vault is closed`);
        expect(again.stdout).toContain('No propose nonce of the fee payer');
        expect(again.stdout).not.toContain('Sent ');
      } finally {
        await localnet.stop();
      }
    });

    const [judgedOutput, plainOutput] = outputs;
    expect(judgedOutput).toContain("runs this repository's build of escrow program v2");
    expect(judgedOutput).toContain('(1 proposal(s) vetoed)');
    expect(judgedOutput).toContain(`refunded 0.3 SOL to ${creator.wallet.address}`);
    expect(judgedOutput).toContain(`refunded 0.045 SOL to ${backer.wallet.address}`);
    expect(judgedOutput).toContain(`closed the entry of ${ada.wallet.address}`);
    expect(judgedOutput).toContain(`gave the propose nonce ${nonceAccount} back`);
    expect(judgedOutput).toContain('the vault is closed');
    expect(plainOutput).toContain(`refunded 0.02 SOL to ${other.wallet.address}`);
    expect(plainOutput).toContain('the vault is closed');
    const sent = (judgedOutput! + plainOutput!).match(/^Sent /gm)!.length;

    // Everyone has exactly what they were owed back; the stranger paid one fee a transaction.
    for (const [wallet, lamports] of owed)
      expect(await lamportsOf(ctx, wallet), wallet).toBe(before.get(wallet)! + lamports);
    // One fee per signature: each transaction's own, and the fee payer's on the nonce's withdraw
    // (it signs as the nonce's authority).
    expect(await lamportsOf(ctx, stranger.address)).toBe(
      before.get(stranger.address)! - FEE * BigInt(sent + 1),
    );
    for (const gone of [judged.vault, plain.vault, nonceAccount])
      expect(await lamportsOf(ctx, gone), gone).toBe(0n);
    expect(await listVaultRecords(ctx.chain.rpc, ctx.escrowProgramV2Id, judged.vault)).toEqual({
      receipts: [],
      entries: [],
    });

    // Started again, the server books the refunds it did not send (the file's close reconciles).
    await ctx.app.payoutJob.runNow();
  }, 180_000);
});
