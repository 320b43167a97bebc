import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Address,
  address,
  createSolanaRpc,
  generateKeyPair,
  generateKeyPairSigner,
  getAddressFromPublicKey,
  lamports,
  type Rpc,
  type SolanaRpcApi,
  signBytes,
} from '@solana/kit';
import pg from 'pg';
import { createClient } from 'redis';
import { solToLamports } from '#contract/money';
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import { testKeyPrefix, testRedisUrl } from '#test/support/rate-limit/test-redis';
import { startTestS3Server, type TestS3Server } from '#test/support/storage/s3-server';
import { call, type HttpClient, type ServerAddress } from '../../e2e/fixtures/http-client';
import { REPO_ROOT } from '../../e2e/fixtures/paths';
import { type RunningServer, startServer } from '../../e2e/fixtures/server';
import { withDatabase } from '../global-setup';
import { type ChainGate, startChainGate } from './chain-gate';

/**
 * Two DarePool server PROCESSES, started as `npm start` starts one (`node --import tsx
 * src/server/main.ts`), sharing what a deployment behind a load balancer shares: one PostgreSQL
 * database (fresh per run), one Redis (a key prefix of their own), one S3 server (s3rver), one
 * chain (the embedded chain served by `npm run localnet` in a third process, so either instance can
 * die without taking the chain along), the same master seed and PUBLIC_URL. Each instance reaches
 * the chain through its own ChainGate, which lets a test watch, hold or slow its transactions.
 * The two-instance tier only (`*.cluster.test.ts`, TEST_DATABASE_URL and TEST_REDIS_URL).
 */

export interface Instance extends ServerAddress {
  name: 'A' | 'B';
  /** ws://… for the chat socket at /ws. */
  wsUrl: string;
  pid: number;
  /** The instance's way to the chain. */
  gate: ChainGate;
  /** Resolves when the process has exited. */
  exited: RunningServer['exited'];
  /** Sends `signal` (SIGTERM by default) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** The instance's log so far, one parsed JSON line each (pino, as in production). */
  logs(): { level: number; msg?: string; [key: string]: unknown }[];
}

/** A signed-in wallet user: what `createDareOverHttp` needs, plus who it is. */
export interface WalletUser extends HttpClient {
  id: number;
  username: string;
  password: string;
}

export interface Localnet {
  httpUrl: string;
  rpc: Rpc<SolanaRpcApi>;
  /** Test SOL straight from the chain's faucet (`requestAirdrop`), confirmed. */
  airdrop(to: string, sol: string): Promise<void>;
  balance(of: string): Promise<bigint>;
  /** Moves the chain's clock forward (`npm run localnet -- --test-controls`), e.g. past a payout window. */
  warp(seconds: number): Promise<void>;
}

export interface ProcessCluster {
  a: Instance;
  b: Instance;
  localnet: Localnet;
  s3: TestS3Server;
  /** What both instances are given (without the per-instance PORT, DATA_DIR and SOLANA_RPC_URL). */
  sharedEnv: Record<string, string>;
  /** One query on the shared database, for setting a test's scene (never for its verdict). */
  sql<T extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Registers a wallet user over HTTP through `via` (Sign-In With Solana), funded with `sol` test
   * SOL (default 2) from the faucet; `keys` for a wallet made beforehand (one in ADMIN_WALLETS).
   */
  newUser(
    via: Instance,
    username: string,
    options?: { sol?: string; keys?: CryptoKeyPair },
  ): Promise<WalletUser>;
  /** Runs `npm run <script>` (scripts/<file>.ts) against the shared services; its exit code and output. */
  runScript(file: string, args?: string[]): Promise<{ code: number | null; output: string }>;
  close(): Promise<void>;
}

const PUBLIC_URL = 'http://darepool.test';
const STARTUP_TIMEOUT_MS = 60_000;

function requiredEnv(name: 'TEST_DATABASE_URL' | 'TEST_REDIS_URL'): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: the two-instance tier needs PostgreSQL and Redis (npm test sets both when they answer)`,
    );
  return value;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `npm run localnet -- --memory --rpc-port 0`, told its URLs over IPC. */
interface ServedLocalnet {
  httpUrl: string;
  /** null: a new ledger runs no v1 (decision 081). */
  escrowProgramId: string | null;
  escrowProgramV2Id: string;
  upgradeAuthority: string;
}

async function startLocalnet(): Promise<ServedLocalnet & { child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/localnet.ts',
      '--memory',
      '--rpc-port',
      '0',
      '--bind-address',
      '127.0.0.1',
      '--test-controls',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const served = await new Promise<ServedLocalnet>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServedLocalnet));
    child.once('exit', (code) => reject(new Error(`npm run localnet exited (${code}) before serving`)));
    child.once('error', reject);
  });
  return { ...served, child };
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

function logLines(output: string): ReturnType<Instance['logs']> {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as ReturnType<Instance['logs']>[number]];
    } catch {
      return [];
    }
  });
}

export async function startProcessCluster(
  options: {
    env?: Record<string, string>;
    adminWallets?: string[];
    /** Instances started as `npm start` starts one (compiled), the first before the second. */
    compiled?: boolean;
    /** Options for node itself in both instances (e.g. --cpu-prof). */
    nodeArgs?: string[];
  } = {},
): Promise<ProcessCluster> {
  const adminUrl = requiredEnv('TEST_DATABASE_URL');
  requiredEnv('TEST_REDIS_URL');
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  };

  try {
    const database = `darepool_cluster_${randomBytes(4).toString('hex')}`;
    const databaseUrl = withDatabase(adminUrl, database);
    const keyPrefix = testKeyPrefix();
    const [redisUrl, s3, localnetProcess] = await Promise.all([
      testRedisUrl(),
      startTestS3Server(),
      startLocalnet(),
      adminQuery(adminUrl, `CREATE DATABASE ${database}`),
    ]);
    cleanups.push(async () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    cleanups.push(async () => {
      const redis = createClient({ url: redisUrl });
      await redis.connect();
      for await (const keys of redis.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 100 }))
        if (keys.length > 0) await redis.del(keys);
      await redis.close();
    });
    cleanups.push(() => s3.close());
    cleanups.push(async () => {
      localnetProcess.child.kill('SIGTERM');
      await exitOf(localnetProcess.child);
    });

    const rpc = createSolanaRpc(localnetProcess.httpUrl);
    const localnet: Localnet = {
      httpUrl: localnetProcess.httpUrl,
      rpc,
      async airdrop(to, sol) {
        const signature = await rpc.requestAirdrop(address(to), lamports(solToLamports(sol))).send();
        await waitForConfirmation(rpc, signature, { commitment: 'confirmed', intervalMs: 20 });
      },
      async balance(of) {
        return (await rpc.getBalance(address(of), { commitment: 'confirmed' }).send()).value;
      },
      warp(seconds) {
        const child = localnetProcess.child;
        return new Promise((resolve, reject) => {
          const answer = (message: { warped?: number; warpFailed?: string }) => {
            if (message.warped === undefined && message.warpFailed === undefined) return;
            child.off('message', answer);
            if (message.warpFailed !== undefined) reject(new Error(`localnet warp: ${message.warpFailed}`));
            else resolve();
          };
          child.on('message', answer);
          child.send({ warp: seconds });
        });
      },
    };

    // One seed for every instance; the chain has no faucet for the fee payer but ours.
    const seed = randomBytes(64);
    const feePayer = await createEscrowKeys(seed).feePayer();
    await localnet.airdrop(feePayer.address, '5');

    const sharedEnv: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      SOLANA_CLUSTER: 'localnet',
      ESCROW_MASTER_SEED: seed.toString('hex'),
      // A new cluster runs v2 alone, as `npm run cluster:setup` leaves one (decision 081).
      ...(localnetProcess.escrowProgramId ? { ESCROW_PROGRAM_ID: localnetProcess.escrowProgramId } : {}),
      ESCROW_PROGRAM_V2_ID: localnetProcess.escrowProgramV2Id,
      // Judges are the admins' own wallets (a key of the test's when it names none); the guardian a key nobody here uses.
      JUDGE_WALLETS: (options.adminWallets?.length
        ? options.adminWallets
        : [(await generateKeyPairSigner()).address]
      ).join(','),
      GUARDIAN_WALLET: (await generateKeyPairSigner()).address,
      // The localnet keeps its program upgradeable (rebuilt in place): accepted by name, as on a cluster.
      ESCROW_PROGRAM_UPGRADE_AUTHORITY: localnetProcess.upgradeAuthority,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      ...s3.env('videos/'),
      PUBLIC_URL,
      ADMIN_WALLETS: (options.adminWallets ?? []).join(','),
      SEED_DEMO_DATA: 'false',
      // Every request of a test comes from 127.0.0.1: sign-ups must not trip the per-IP limit.
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
      // The program's shortest payout window: a test passes it with one warp of the localnet.
      PAYOUT_WINDOW_HOURS: '1',
      ...options.env,
    };

    const start = async (name: 'A' | 'B'): Promise<Instance> => {
      const gate = await startChainGate(localnet.httpUrl);
      cleanups.push(() => gate.close());
      const server = await startServer({
        env: { ...sharedEnv, SOLANA_RPC_URL: gate.url },
        logLevel: sharedEnv.LOG_LEVEL ?? 'info',
        timeoutMs: STARTUP_TIMEOUT_MS,
        outputLimitBytes: 4 * 1024 * 1024,
        compiled: options.compiled,
        nodeArgs: options.nodeArgs,
      });
      cleanups.push(() => server.stop());
      return {
        name,
        baseUrl: server.baseUrl,
        wsUrl: server.baseUrl.replace(/^http/, 'ws'),
        pid: server.pid,
        gate,
        exited: server.exited,
        stop: (signal) => server.stop(signal),
        logs: () => logLines(server.output()),
      };
    };
    // Both at once, as an orchestrator starts replicas: their migrations meet at the lock. Compiled,
    // one after the other: the first compiles a stale dist/server, which the second then finds.
    const [a, b] = options.compiled
      ? [await start('A'), await start('B')]
      : await Promise.all([start('A'), start('B')]);

    const sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query<T>(text, params)).rows;
      } finally {
        await client.end();
      }
    };

    return {
      a: a!,
      b: b!,
      localnet,
      s3,
      sharedEnv,
      sql,
      newUser: (via, username, { sol = '2', keys } = {}) =>
        newWalletUser(via, username, { sol, keys: keys ?? null }, localnet),
      async runScript(file, args = []) {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-script-'));
        const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${file}`, ...args], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, ...sharedEnv, SOLANA_RPC_URL: localnet.httpUrl, DATA_DIR: dataDir },
        });
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.stderr?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        rmSync(dataDir, { recursive: true, force: true });
        return { code, output };
      },
      close,
    };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Sign-In With Solana, then registration, over HTTP as the web app does it; SOL from the faucet. */
async function newWalletUser(
  via: Instance,
  username: string,
  options: { sol: string; keys: CryptoKeyPair | null },
  localnet: Localnet,
): Promise<WalletUser> {
  const { sol } = options;
  const keys = options.keys ?? (await generateKeyPair());
  const walletAddress: Address = await getAddressFromPublicKey(keys.publicKey);
  const { message } = await call<{ message: string }>(via, '/api/auth/challenge', { walletAddress });
  const signedMessage = new TextEncoder().encode(message);
  const signature = new Uint8Array(await signBytes(keys.privateKey, signedMessage));
  const login = await fetch(new URL('/api/auth/wallet-login', via.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ walletAddress, signedMessage: b64(signedMessage), signature: b64(signature) }),
  });
  if (login.status !== 404) throw new Error(`expected an unregistered wallet, got ${login.status}`);
  const { registrationToken } = (await login.json()) as { registrationToken: string };
  const password = 'cluster-password-1';
  const { token, user } = await call<{ token: string; user: { id: number } }>(via, '/api/auth/register', {
    username,
    password,
    walletAddress,
    registrationToken,
  });
  if (sol !== '0') await localnet.airdrop(walletAddress, sol);
  return { address: walletAddress, keys, token, id: user.id, username, password };
}
