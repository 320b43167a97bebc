/**
 * `npm run refund-dare` end to end: the script in its own process, against the embedded chain
 * served as a localnet over HTTP, with a keypair that is nobody's at DarePool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address, KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EmbeddedEscrowChain, SIGNATURE_FEE, SOL } from '#test/support/chain/embedded-escrow-chain';
import { DAY, HOUR } from '#test/support/chain/escrow-chain';
import { runScript } from '#test/support/scripts';
import { readKeypairFile, writeNewKeypairFile } from './keypair-file';
import { ENTRY_SIZE } from './layout';
import { listVaultRecords } from './vault-records';

let t: EmbeddedEscrowChain;
let rpcUrl: string;
let work: string;
let keypairFile: string;
let stranger: KeyPairSigner;

beforeAll(async () => {
  // The chain's clock starts at the machine's: 'not due yet' below is not due by either clock.
  t = await EmbeddedEscrowChain.open({ rpcServer: true, start: new Date() });
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

const refundDare = (vault: Address, rpc = rpcUrl) =>
  runScript('scripts/refund-dare.ts', ['--rpc', rpc, '--vault', vault, '--keypair', keypairFile]);

const CLOCK_SYSVAR = 'SysvarC1ock11111111111111111111111111111111';

/**
 * The chain's RPC behind a proxy that serves a Clock sysvar stopped at `clockAt` (unix seconds),
 * as an idle localnet does, while transactions still run at the chain's own time.
 */
async function lateClockProxy(
  target: string,
  clockAt: () => bigint,
): Promise<{ url: string; close(): void }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    let text = await answer.text();
    const call = JSON.parse(body) as { method?: string; params?: unknown[] };
    if (call.method === 'getAccountInfo' && call.params?.[0] === CLOCK_SYSVAR) {
      const json = JSON.parse(text);
      const data = Buffer.from(json.result.value.data[0], 'base64');
      data.writeBigInt64LE(clockAt(), 32);
      json.result.value.data[0] = data.toString('base64');
      text = JSON.stringify(json);
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** A dare whose refunds are due a day after its deadline, in an hour. */
async function dare(chain: EmbeddedEscrowChain, creator: KeyPairSigner, stake: bigint) {
  const refundAfter = (await chain.now()) + HOUR + DAY;
  return (await chain.createDareByWallet(creator, stake, { refundAfter })).vault;
}

it("refunds every payer of a dare past refund_after, paying only fees from a stranger's keypair", async () => {
  const platformBefore = await t.balance(t.platform.address);
  const creator = await t.wallet();
  const vault = await dare(t, creator, 300_000_001n);
  const payer = await t.wallet();
  await t.depositByWallet(vault, payer, 45_000_007n);
  const entrant = await t.wallet(0n);
  await t.enterByWallet(vault, entrant);
  await t.chain.airdrop(stranger.address, SOL);

  const early = refundDare(vault);
  await expect(early).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('refunds are not due until'),
  });

  await t.tick(HOUR + DAY);
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
  const vault = await dare(t, await t.wallet(), SOL);
  const winner = await t.wallet(0n);
  await t.enterByWallet(vault, winner);
  await t.must([await t.settleInstruction(vault, [winner.address])]);
  await expect(refundDare(vault)).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('paid out to its winner'),
  });
}, 60_000);

it("refunds a dare that is due by the machine's clock while an idle chain's Clock still lags", async () => {
  // A second chain, a day and a half behind the machine: its vault's refund_after has passed by
  // the wall clock, and by the chain's own clock once moved; the node serves a Clock from before.
  const late = await EmbeddedEscrowChain.open({
    rpcServer: true,
    start: new Date(Date.now() - 36 * 3600 * 1000),
  });
  try {
    const creator = await late.wallet();
    const vault = await dare(late, creator, 20_000_000n);
    const refundAfter = (await late.vault(vault))!.refundAfter;
    await late.tick(HOUR + DAY + 60n);
    await late.chain.airdrop(stranger.address, SOL);
    const served = late.chain.rpcServer;
    if (!served?.serving) throw new Error('the chain RPC did not start');
    const proxy = await lateClockProxy(served.httpUrl, () => refundAfter - 3600n);
    try {
      const before = await late.balance(creator.address);
      const { stdout } = await refundDare(vault, proxy.url);
      expect(stdout).toContain(`refunded 0.02 SOL to ${creator.address}`);
      expect(await late.balance(creator.address)).toBe(before + 20_000_000n);
      expect(await late.exists(vault)).toBe(false);
    } finally {
      proxy.close();
    }
  } finally {
    await late.close();
  }
}, 60_000);

it('says in one line which RPC it cannot reach, with exit code 1', async () => {
  // A port nothing listens on: taken, then given back.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const url = `http://127.0.0.1:${port}`;
  const refused = await refundDare(stranger.address, url).then(
    () => null,
    (error: { code: number; stderr: string; stdout: string }) => error,
  );
  expect(refused).toMatchObject({ code: 1, stdout: '' });
  expect(refused!.stderr.trim().split('\n')).toEqual([
    expect.stringContaining(`refund-dare: cannot reach the RPC at ${url}`),
  ]);
}, 60_000);
