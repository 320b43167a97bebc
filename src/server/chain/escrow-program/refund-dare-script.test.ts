/**
 * `npm run refund-dare` end to end: the script in its own process, against the embedded chain
 * served as a localnet over HTTP, with a keypair that is nobody's at DarePool.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Address, KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  buildCreateVaultTransaction,
  buildDepositTransaction,
  buildEnterTransaction,
} from './app-transactions';
import { EmbeddedEscrowChain, SIGNATURE_FEE, SOL, walletSigns } from './embedded-test-chain';
import { getSettleInstruction } from './instructions';
import { readKeypairFile, writeNewKeypairFile } from './keypair-file';
import { ENTRY_SIZE } from './layout';
import { listVaultRecords } from './vault-records';

const root = path.resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);
let t: EmbeddedEscrowChain;
let rpcUrl: string;
let work: string;
let keypairFile: string;
let stranger: KeyPairSigner;

beforeAll(async () => {
  t = await EmbeddedEscrowChain.start({ rpcServer: true });
  if (!t.chain.rpcServer?.serving) throw new Error('the chain RPC did not start');
  rpcUrl = t.chain.rpcServer.httpUrl;
  work = mkdtempSync(path.join(tmpdir(), 'darepool-refund-dare-'));
  keypairFile = path.join(work, 'id.json');
  writeNewKeypairFile(keypairFile);
  stranger = await readKeypairFile(keypairFile);
});

afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const refundDare = (vault: Address) =>
  run(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/refund-dare.ts',
      '--rpc',
      rpcUrl,
      '--vault',
      vault,
      '--keypair',
      keypairFile,
    ],
    {
      cwd: root,
    },
  );

async function dare(creator: KeyPairSigner, stake: bigint) {
  const built = await buildCreateVaultTransaction(t.rpc, {
    programId: t.programId,
    creator: creator.address,
    rentPayer: t.platform,
    dareId: crypto.getRandomValues(new Uint8Array(32)),
    moderator: t.moderator.address,
    deadline: t.now() + 3600n,
    refundAfter: t.now() + 3600n + 86_400n,
    amount: stake,
    kind: 'community',
  });
  await t.sendWire(await walletSigns(built.base64, creator));
  return built.vault;
}

/** The entrant's wallet pays its entry: it is given the rent and the fee first. */
async function enter(vault: Address, entrant: KeyPairSigner) {
  const built = await buildEnterTransaction(t.rpc, {
    programId: t.programId,
    vault,
    entrant: entrant.address,
  });
  const rent = await t.rpc.getMinimumBalanceForRentExemption(BigInt(ENTRY_SIZE)).send();
  await t.fund(entrant.address, rent + SIGNATURE_FEE);
  await t.sendWire(await walletSigns(built.base64, entrant));
}

it("refunds every payer of a dare past refund_after, paying only fees from a stranger's keypair", async () => {
  const platformBefore = await t.balance(t.platform.address);
  const creator = await t.wallet();
  const vault = await dare(creator, 300_000_001n);
  const payer = await t.wallet();
  const deposit = await buildDepositTransaction(t.rpc, {
    programId: t.programId,
    vault,
    payer: payer.address,
    rentPayer: t.platform,
    amount: 45_000_007n,
  });
  await t.sendWire(await walletSigns(deposit.base64, payer));
  const entrant = await t.wallet(0n);
  await enter(vault, entrant);
  await t.chain.airdrop(stranger.address, SOL);

  const early = refundDare(vault);
  await expect(early).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('refunds are not due until'),
  });

  t.tick(3600n + 86_400n);
  // Any transaction moves the chain's clock; on a cluster it never stands still.
  await t.chain.airdrop(stranger.address, SOL);
  const creatorBefore = await t.balance(creator.address);
  const payerBefore = await t.balance(payer.address);
  const strangerBefore = await t.balance(stranger.address);
  const { stdout } = await refundDare(vault);
  expect(stdout).toContain("runs this repository's build");
  expect(stdout).toContain(`refunded 0.300000001 SOL to ${creator.address}`);
  expect(stdout).toContain(`refunded 0.045000007 SOL to ${payer.address}`);
  expect(stdout).toMatch(/^Sent \w{80,90}$/m);
  expect(stdout).toContain('Done: 0.345000008 SOL refunded in 1 transaction(s); the vault is closed.');

  expect(await t.balance(creator.address)).toBe(creatorBefore + 300_000_001n);
  expect(await t.balance(payer.address)).toBe(payerBefore + 45_000_007n);
  expect(await t.balance(stranger.address)).toBe(strangerBefore - SIGNATURE_FEE);
  expect(await t.exists(vault)).toBe(false);
  expect(await listVaultRecords(t.rpc, t.programId, vault)).toEqual({ receipts: [], entries: [] });
  // Every rent lamport went back to whoever paid it: the platform is where it started, and the
  // entrant, who paid its entry's rent, has it back.
  expect(await t.balance(t.platform.address)).toBe(platformBefore);
  expect(await t.balance(entrant.address)).toBe(
    await t.rpc.getMinimumBalanceForRentExemption(BigInt(ENTRY_SIZE)).send(),
  );
}, 60_000);

it('says why not when the dare was paid out', async () => {
  const vault = await dare(await t.wallet(), SOL);
  const winner = await t.wallet(0n);
  await enter(vault, winner);
  await t.send([
    await getSettleInstruction({
      programId: t.programId,
      vault,
      moderator: t.moderator,
      winners: [winner.address],
    }),
  ]);
  await expect(refundDare(vault)).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('paid out to its winner'),
  });
}, 60_000);
