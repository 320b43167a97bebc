import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import {
  type Address,
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  lamports,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '#contract/config';
import { solToLamports } from '#contract/money';
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import {
  checkDeployedProgram,
  deployCost,
  deployProgram,
  rpcDeployTarget,
} from '#server/chain/escrow-program/deploy';
import { LOADER_V3_PROGRAM_ADDRESS } from '#server/chain/escrow-program/loader-v3';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { REPO_ROOT } from '../e2e/fixtures/paths';
import { startServer } from '../e2e/fixtures/server';

/**
 * `npm run cluster:setup` against `npm run localnet` as the cluster, both real processes: the keys
 * it makes, what it asks to be funded (funded here from the localnet's faucet), the program it
 * deploys (v2 alone: v1 only serves vaults that exist, decision 081) and its bytes, the .env it
 * writes, which the real server then starts on; a rerun changes nothing.
 */
const work = mkdtempSync(path.join(os.tmpdir(), 'darepool-cluster-setup-'));
const children = new Set<ChildProcess>();
let localnet: ChildProcess;
let rpcUrl: string;
let rpc: Rpc<SolanaRpcApi>;

beforeAll(async () => {
  localnet = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/localnet.ts', '--memory', '--rpc-port', '0', '--bind-address', '127.0.0.1'],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  children.add(localnet);
  rpcUrl = await new Promise<string>((resolve, reject) => {
    localnet.once('message', (message) => resolve((message as { httpUrl: string }).httpUrl));
    localnet.once('exit', (code) => reject(new Error(`npm run localnet exited (${code}) before serving`)));
  });
  rpc = createSolanaRpc(rpcUrl);
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function setup(args: string[]): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster-setup.ts', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SOLANA_RPC_URL: '' },
  });
  children.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

async function finished(run: Run): Promise<{ code: number | null; output: string }> {
  const code = await run.exited;
  return { code, output: run.output() };
}

/** The "send N SOL to <address> (<what>" lines of a run that found funds missing. */
function asked(output: string): Map<string, { address: Address; sol: string }> {
  const lines = [...output.matchAll(/send ([\d.]+) SOL to (\w+) \(([\w ]+?),/g)];
  return new Map(lines.map(([, sol, to, what]) => [what!, { address: address(to!), sol: sol! }]));
}

async function fromFaucet(to: Address, sol: string): Promise<void> {
  const signature = await rpc.requestAirdrop(to, lamports(solToLamports(sol))).send();
  await waitForConfirmation(rpc, signature, { commitment: 'confirmed', intervalMs: 20 });
}

async function balance(of: Address): Promise<bigint> {
  return (await rpc.getBalance(of, { commitment: 'confirmed' }).send()).value;
}

/** How many programs on the cluster run exactly `bytes` (programdata: 45 bytes of metadata, then the code). */
async function programsRunning(bytes: Uint8Array): Promise<number> {
  const accounts = await rpc
    .getProgramAccounts(LOADER_V3_PROGRAM_ADDRESS, { encoding: 'base64', commitment: 'confirmed' })
    .send();
  const running = accounts.filter(({ account }) => {
    const data = Buffer.from(account.data[0], 'base64');
    return data.length >= 45 + bytes.length && data.subarray(45, 45 + bytes.length).equals(bytes);
  });
  return running.length;
}

/** Every file of the keys folder with its bytes and mode. */
function snapshot(dir: string): Record<string, { text: string; mode: number; mtimeMs: number }> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => {
      const file = path.join(dir, name);
      const stat = statSync(file);
      return [name, { text: readFileSync(file, 'utf8'), mode: stat.mode & 0o777, mtimeMs: stat.mtimeMs }];
    }),
  );
}

describe('npm run cluster:setup', () => {
  it('makes the keys, asks for the funds, deploys immutable with the committed bytes, writes a .env the server starts on; a rerun changes nothing', async () => {
    const keys = path.join(work, 'keys');
    const out = path.join(work, 'darepool.env');
    const judge = (await generateKeyPairSigner()).address;
    const args = ['--rpc', rpcUrl, '--cluster', 'localnet', '--judges', judge, '--keys', keys, '--out', out];

    // 1. Nothing funded: the keys are made, each account's need printed, exit 2, nothing written.
    // (The localnet runs a v2 of its own, as `npm run localnet` serves one.)
    const v2Before = await programsRunning(readEscrowProgramV2());
    const first = await finished(setup(args));
    expect(first.code, first.output).toBe(2);
    const keyFiles = snapshot(keys);
    // No key for v1: it is never deployed here (decision 081).
    expect(Object.keys(keyFiles).sort()).toEqual([
      'escrow-master-seed',
      'escrow-program-v2-keypair.json',
      'guardian-keypair.json',
    ]);
    for (const file of Object.values(keyFiles)) expect(file.mode).toBe(0o600);
    const seedHex = keyFiles['escrow-master-seed']!.text.trim();
    expect(seedHex).toMatch(/^[0-9a-f]{128}$/);
    expect(first.output).not.toContain(seedHex);
    const escrowKeys = createEscrowKeys(Uint8Array.from(Buffer.from(seedHex, 'hex')));
    const feePayer = (await escrowKeys.feePayer()).address;
    const need = asked(first.output);
    expect(need.get('fee payer')?.address).toBe(feePayer);
    const guardian = need.get('guardian')!.address;
    expect(guardian).not.toBe(feePayer);
    // Program v2's rent and fees, and nothing for v1, plus the 0.5 SOL the server runs on; ten vetoes over rent.
    expect(solToLamports(need.get('fee payer')!.sol)).toBe(
      (await deployCost(rpcDeployTarget(rpc), readEscrowProgramV2().length)) + solToLamports('0.5'),
    );
    expect(first.output).toContain('to deploy escrow program v2 (rent and fees)');
    expect(solToLamports(need.get('guardian')!.sol)).toBe(
      (await rpc.getMinimumBalanceForRentExemption(0n).send()) + 10n * 5_000n,
    );
    expect(() => statSync(out)).toThrow();

    // 2. --wait polls until the faucet's SOL arrives, then deploys and writes the file.
    const waiting = setup([...args, '--wait']);
    const deadline = Date.now() + 30_000;
    while (!waiting.output().includes('Waiting for the funds')) {
      if (waiting.child.exitCode !== null) throw new Error(waiting.output());
      if (Date.now() > deadline) throw new Error(`never waited: ${waiting.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const { address: to, sol } of need.values()) await fromFaucet(to, sol);
    const second = await finished(waiting);
    expect(second.code, second.output).toBe(0);
    expect(second.output).not.toContain(seedHex);

    expect(statSync(out).mode & 0o777).toBe(0o600);
    const env = parseEnv(readFileSync(out, 'utf8'));
    expect(env).toMatchObject({
      SOLANA_RPC_URL: rpcUrl,
      SOLANA_CLUSTER: 'localnet',
      ESCROW_MASTER_SEED: seedHex,
      JUDGE_WALLETS: judge,
      ADMIN_WALLETS: judge,
      GUARDIAN_WALLET: guardian,
      DATABASE_URL: '',
      PUBLIC_URL: '',
    });
    expect(env.ESCROW_PROGRAM_UPGRADE_AUTHORITY).toBeUndefined();
    const deployed = await checkDeployedProgram(
      rpc,
      address(env.ESCROW_PROGRAM_V2_ID!),
      readEscrowProgramV2(),
    );
    expect(deployed).toMatchObject({ same: true, upgradeAuthority: null });
    // v2 deployed once; v1 nowhere on the cluster, and not in the .env.
    expect(env.ESCROW_PROGRAM_ID).toBeUndefined();
    expect(await programsRunning(readEscrowProgramV2())).toBe(v2Before + 1);
    expect(await programsRunning(readEscrowProgram())).toBe(0);
    // The estimate was exactly the deploy: the fee payer keeps its running balance.
    expect(await balance(feePayer)).toBe(solToLamports('0.5'));

    // 3. A rerun reuses everything: no transaction, no file touched.
    const envBefore = statSync(out);
    const third = await finished(setup(args));
    expect(third.code, third.output).toBe(0);
    expect(third.output).toContain('already deployed');
    expect(third.output).toContain('unchanged');
    expect(await balance(feePayer)).toBe(solToLamports('0.5'));
    expect(snapshot(keys)).toEqual(keyFiles);
    expect(statSync(out).mtimeMs).toBe(envBefore.mtimeMs);

    // 4. The real server starts on the written settings (PGlite: DATABASE_URL left empty), with
    //    no v1 program: it serves v2 alone.
    const server = await startServer({
      env: { ...env, SEED_DEMO_DATA: 'false' } as Record<string, string>,
      logLevel: 'info',
    });
    try {
      const health = await (await fetch(`${server.baseUrl}/api/health`)).json();
      expect(health).toMatchObject({
        status: 'ok',
        chain: { ok: true, embedded: false },
        feePayer: { ok: true },
        guardian: { ok: true, address: guardian },
      });
      const config = publicConfigSchema.parse(await (await fetch(`${server.baseUrl}/api/config`)).json());
      expect(config).toMatchObject({ escrowProgramId: null, escrowProgramV2Id: env.ESCROW_PROGRAM_V2_ID });
      const started = Date.now();
      while (!server.output().includes('Judges:')) {
        if (Date.now() - started > 30_000) throw new Error(`no start-up lines: ${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(server.output()).toContain('Escrow program v1: none (this chain has no v1 vault');
      expect(server.output()).toContain(
        `Escrow program v2 (new dares): ${env.ESCROW_PROGRAM_V2_ID} (checked)`,
      );
    } finally {
      await server.stop();
    }
    expect(await programsRunning(readEscrowProgram())).toBe(0);
  }, 180_000);

  it('hands the upgrade authority to an offline key in the deploy, and refuses a key the server holds before spending anything', async () => {
    const keys = path.join(work, 'keys-upgradeable');
    const out = path.join(work, 'upgradeable.env');
    const judge = (await generateKeyPairSigner()).address;
    const authority = (await generateKeyPairSigner()).address;
    const args = ['--rpc', rpcUrl, '--judges', judge, '--keys', keys, '--out', out];

    const asking = await finished(setup([...args, '--upgrade-authority', authority]));
    expect(asking.code, asking.output).toBe(2);
    const seedHex = readFileSync(path.join(keys, 'escrow-master-seed'), 'utf8').trim();
    const feePayer = (await createEscrowKeys(Uint8Array.from(Buffer.from(seedHex, 'hex'))).feePayer())
      .address;

    // The fee payer as the upgrade authority, or as a judge: refused, nothing written or spent.
    for (const refused of [
      ['--upgrade-authority', feePayer],
      ['--judges', feePayer],
    ]) {
      const run = await finished(setup([...args, ...refused]));
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain('is the platform fee payer, derived from ESCROW_MASTER_SEED');
      expect(() => statSync(out)).toThrow();
    }

    for (const { address: to, sol } of asked(asking.output).values()) await fromFaucet(to, sol);
    const done = await finished(setup([...args, '--upgrade-authority', authority]));
    expect(done.code, done.output).toBe(0);
    const env = parseEnv(readFileSync(out, 'utf8'));
    expect(env.ESCROW_PROGRAM_UPGRADE_AUTHORITY).toBe(authority);
    const deployed = await checkDeployedProgram(
      rpc,
      address(env.ESCROW_PROGRAM_V2_ID!),
      readEscrowProgramV2(),
    );
    expect(deployed).toMatchObject({ same: true, upgradeAuthority: authority });

    // Asking for immutable programs now is refused: they are upgradeable by that key.
    const immutable = await finished(setup([...args, '--force']));
    expect(immutable.code, immutable.output).toBe(1);
    expect(immutable.output).toContain(`upgradeable by ${authority}`);
  }, 120_000);
  it("keeps a cluster's deployed v1 named with --v1-program: checked, never deployed, written as ESCROW_PROGRAM_ID", async () => {
    const keys = path.join(work, 'keys-v1');
    const out = path.join(work, 'v1.env');
    const judge = (await generateKeyPairSigner()).address;
    const args = ['--rpc', rpcUrl, '--judges', judge, '--keys', keys, '--out', out];

    // An id where no v1 runs is refused before anything is spent or written.
    const nowhere = (await generateKeyPairSigner()).address;
    const refused = await finished(setup([...args, '--v1-program', nowhere]));
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(`no escrow program v1 is deployed at ${nowhere} (ESCROW_PROGRAM_ID)`);
    expect(() => statSync(out)).toThrow();

    // A v1 deployed long ago (immutable), as on a cluster that has v1 vaults.
    const deployer = await generateKeyPairSigner();
    await fromFaucet(deployer.address, '1');
    const v1 = await deployProgram({
      target: rpcDeployTarget(rpc, { pollMs: 20 }),
      payer: deployer,
      program: await generateKeyPairSigner(),
      bytes: readEscrowProgram(),
      final: true,
    });
    const asking = await finished(setup([...args, '--v1-program', v1.programId]));
    expect(asking.code, asking.output).toBe(2);
    for (const { address: to, sol } of asked(asking.output).values()) await fromFaucet(to, sol);
    const done = await finished(setup([...args, '--v1-program', v1.programId]));
    expect(done.code, done.output).toBe(0);
    expect(done.output).toContain(`Escrow program v1: ${v1.programId} deployed, immutable`);
    expect(done.output).not.toContain('Deploying escrow program v1');
    const env = parseEnv(readFileSync(out, 'utf8'));
    expect(env.ESCROW_PROGRAM_ID).toBe(v1.programId);
    // Still the one v1 on the cluster: nothing deployed another.
    expect(await programsRunning(readEscrowProgram())).toBe(1);

    // A rerun without the flag keeps the .env's v1: nothing changes.
    const before = statSync(out).mtimeMs;
    const rerun = await finished(setup(args));
    expect(rerun.code, rerun.output).toBe(0);
    expect(rerun.output).toContain('unchanged');
    expect(statSync(out).mtimeMs).toBe(before);
  }, 120_000);
});
