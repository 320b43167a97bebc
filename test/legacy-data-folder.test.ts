/**
 * A data folder made by main before escrow program v2 held new vaults (test/fixtures, every vault
 * on v1) keeps working under today's code: started as `npm start` starts (DATA_DIR with PGlite,
 * the kept chain, the master seed), its open dares are paid by v1's `settle` and refunded, a
 * week-old one by anyone with `npm run refund-dare`, and `npm run reconcile` covers them all.
 *
 * The app's and the chain's clocks run from when the folder was closed (decision 036, 'Data
 * folders from before v2'), so the dares are as open as they were then however late this runs;
 * the test moves both clocks a week on where it needs a refund date passed.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  address,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
  type Signature,
} from '@solana/kit';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { buildApp } from '#server/app';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { loadConfig } from '#server/config';
import { dareWallets, ledgerEntries } from '#server/db/schema';
import { seedDemoData } from '#server/demo/seed';
import { createPayoutsService } from '#server/features/payouts/service';
import { createRefundsService } from '#server/features/refunds/service';
import { demoAdminWallet } from '#server/judging';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { openRuntime, type Runtime } from '#server/runtime';
import { openVideoStorage } from '#server/storage/open';
import { LEGACY_FIXTURE, readLegacyFixture, unpackLegacyDataFolder } from './fixtures/legacy-data-folder';
import { TEST_INDEX_HTML } from './helpers/app';
import { bearer, createTestWallet, registerWithWallet, type TestWallet } from './helpers/wallet';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const fixture = readLegacyFixture();
const { creator, backer, entrant } = LEGACY_FIXTURE.users;
const DAY_MS = 24 * 3600 * 1000;

/**
 * One clock for the app and the chain: a minute after the folder was closed, moving with real time
 * from this file's start, plus whatever the test moved it on.
 */
const clock = {
  startedAt: performance.now(),
  movedMs: 0,
  now: () =>
    new Date(Date.parse(fixture.closedAt) + 60_000 + (performance.now() - clock.startedAt) + clock.movedMs),
};

let dataDir: string;
let runtime: Runtime;
let app: FastifyInstance;
let config: ReturnType<typeof loadConfig>;

/** Two free loopback ports in a row: the chain's JSON-RPC and its PubSub (port + 1). */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (port >= 65534) continue;
    const next = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port + 1, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (next) return port;
  }
}

beforeAll(async () => {
  dataDir = unpackLegacyDataFolder();
  config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    CHAIN_RPC_HOST: '127.0.0.1',
    CHAIN_RPC_PORT: String(await freePortPair()),
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    // The test runs the refund job itself, at the moment it chooses.
    PAYOUT_JOB_INTERVAL_SECONDS: '3600',
  });
  // As the server's start (src/server/start.ts) opens it, with the clock above.
  runtime = await openRuntime(config, { serveChainRpc: true, chainClock: clock.now });
  const storage = await openVideoStorage(config.storage);
  const deps = {
    config,
    database: runtime.database,
    chain: runtime.chain,
    escrowKeys: runtime.escrowKeys,
    escrowProgramId: runtime.escrowProgram.programId,
    escrowProgramV2Id: runtime.escrowProgramV2.programId,
    judging: runtime.judging,
    storage,
    clock: clock.now,
  };
  const seeded = await seedDemoData({
    ...deps,
    adminPassword: config.demoAdminPassword,
    adminWallet: await demoAdminWallet(config.dataDir),
  });
  // The folder keeps what its users did: no demo data over it.
  expect(seeded.seeded).toBe(false);
  const webRoot = path.join(dataDir, 'web');
  mkdirSync(webRoot);
  writeFileSync(path.join(webRoot, 'index.html'), TEST_INDEX_HTML);
  app = await buildApp({ ...deps, webRoot });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await runtime?.close().catch(() => {});
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token?: string) =>
  app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? bearer(token) : {} });

async function login(username: string, password: string): Promise<string> {
  const res = await call('POST', '/api/auth/login', { username, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

const adminToken = () => login(LEGACY_FIXTURE.adminUsername, LEGACY_FIXTURE.adminPassword);

async function lamportsOf(wallet: string): Promise<bigint> {
  const { value } = await runtime.chain.rpc.getBalance(address(wallet), { commitment: 'confirmed' }).send();
  return value;
}

async function balancesOf(...usernames: string[]): Promise<bigint[]> {
  return Promise.all(usernames.map((name) => lamportsOf(fixture.wallets[name]!)));
}

async function expectReconciled() {
  const report = await reconcileEscrows(runtime.database.db, runtime.chain.rpc, [
    runtime.escrowProgram.programId,
    runtime.escrowProgramV2.programId,
  ]);
  expect(report.differences).toEqual([]);
  return report;
}

/** The programs that ran in a landed transaction. */
async function programsOf(signature: string): Promise<string[]> {
  const landed = await runtime.chain.rpc
    .getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
    .send();
  const keys = landed!.transaction.message.accountKeys;
  return landed!.transaction.message.instructions.map((ix) => keys[ix.programIdIndex]!);
}

/** Moves the app's and the chain's clocks on together, as days passing would. */
function moveClocks(ms: number) {
  clock.movedMs += ms;
}

describe('a data folder from before v2, started by today’s code', () => {
  it('keeps its programs, lists its dares and shows their pages, and reconciles', async () => {
    expect({ v1: runtime.escrowProgram.programId, v2: runtime.escrowProgramV2.programId }).toEqual(
      fixture.programs,
    );
    expect(runtime.escrowProgram.action).toBe('unchanged');
    const vaults = Object.values(fixture.dares).map((dare) => dare.vault);
    const rows = await runtime.database.db
      .select({ publicKey: dareWallets.publicKey, programVersion: dareWallets.programVersion })
      .from(dareWallets)
      .where(inArray(dareWallets.publicKey, vaults));
    expect(rows.map((row) => row.programVersion)).toEqual([1, 1, 1]);
    for (const vault of vaults) {
      const { value } = await runtime.chain.rpc.getAccountInfo(address(vault), { encoding: 'base64' }).send();
      expect(value?.owner).toBe(fixture.programs.v1);
    }

    const list = await call('GET', '/api/dares');
    expect(list.statusCode, list.body).toBe(200);
    const listed = (list.json() as { id: number }[]).map((dare) => dare.id);
    for (const dare of Object.values(fixture.dares)) expect(listed).toContain(dare.id);
    for (const [key, dare] of Object.entries(fixture.dares)) {
      const page = await call('GET', `/api/dares/${dare.id}`);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json()).toMatchObject({
        title: LEGACY_FIXTURE.dareSpecs[key as keyof typeof fixture.dares].title,
        escrowWallet: dare.vault,
        status: 'active',
      });
    }
    const report = await expectReconciled();
    // The demo's vaults and the three dares' are all checked.
    expect(report.checked).toBeGreaterThanOrEqual(3);
  });

  it('takes no new SOL into a v1 vault: Add to Pool answers 409 saying why (decision 048)', async () => {
    const dare = fixture.dares.toCancel;
    const token = await login(backer, LEGACY_FIXTURE.userPassword);
    const before = await lamportsOf(dare.vault);
    const res = await call(
      'POST',
      '/api/create-transaction',
      { fromWallet: fixture.wallets[backer], toWallet: dare.vault, amount: '0.05' },
      token,
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICT',
      foreignTerm: 'program',
      error: PAYMENT_MESSAGES.v1Retired,
    });
    expect(await lamportsOf(dare.vault)).toBe(before);
    await expectReconciled();
  });

  it('pays the winner of an open v1 dare by settle: marked by the admin, claimed, richer by exactly the pool', async () => {
    const dare = fixture.dares.toPay;
    const admin = await adminToken();
    const marked = await call(
      'POST',
      `/api/admin/submissions/${fixture.submissionId}/mark-winner`,
      { dareId: dare.id },
      admin,
    );
    expect(marked.statusCode, marked.body).toBe(201);
    expect(marked.json()).toMatchObject({ amount: '0.35', status: 'pending' });

    const winner = fixture.wallets[entrant]!;
    const entry = (await findEntryAddress(fixture.programs.v1 as never, address(dare.vault), address(winner)))
      .address;
    const entryRent = await lamportsOf(entry);
    expect(entryRent).toBeGreaterThan(0n);
    const before = await lamportsOf(winner);
    const token = await login(entrant, LEGACY_FIXTURE.userPassword);
    const claimed = await call('POST', '/api/claims/prize', { submissionId: fixture.submissionId }, token);
    expect(claimed.statusCode, claimed.body).toBe(200);
    const paid = claimed.json();
    expect(paid).toMatchObject({ status: 'paid', amount: '0.35' });
    // v1's settle, signed by the moderator key: the old rules, no window.
    expect(await programsOf(paid.transactionHash)).toContain(fixture.programs.v1);
    // The pool, plus the entry's rent when its record was closed with the payout.
    const entryBack = (await lamportsOf(entry)) === 0n ? entryRent : 0n;
    expect((await lamportsOf(winner)) - before).toBe(solToLamports('0.35') + entryBack);
    const payouts = await runtime.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.signature, paid.transactionHash));
    expect(payouts.map((line) => `${line.kind} ${line.amount} ${line.counterparty}`)).toEqual([
      `payout 0.350000000 ${winner}`,
    ]);
    await expectReconciled();
  });

  it('cancels the other open v1 dare: the admin’s cancel refunds each payer exactly', async () => {
    const dare = fixture.dares.toCancel;
    const [creatorBefore, backerBefore] = await balancesOf(creator, backer);
    const res = await call(
      'PATCH',
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      await adminToken(),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refunds).toMatchObject({ refunded: 2, refundedAmount: '0.15', failed: 0 });
    const [creatorAfter, backerAfter] = await balancesOf(creator, backer);
    expect([creatorAfter! - creatorBefore!, backerAfter! - backerBefore!]).toEqual([
      solToLamports('0.1'),
      solToLamports('0.05'),
    ]);
    const [signature] = res.json().refunds.transfers.map((t: { signature: string }) => t.signature);
    expect(await programsOf(signature)).toContain(fixture.programs.v1);
    await expectReconciled();
  });

  // refund-dare runs in a process of its own (~10 s on two busy cores).
  it('a week on, refunds the overdue v1 dare with npm run refund-dare (no server key), and the app books it', async () => {
    const dare = fixture.dares.overdue;
    moveClocks(Date.parse(dare.deadline) + 8 * DAY_MS - clock.now().getTime());
    const keypairFile = path.join(dataDir, 'stranger.json');
    writeNewKeypairFile(keypairFile);
    const stranger = await readKeypairFile(keypairFile);
    await runtime.chain.airdrop(stranger.address, solToLamports('0.1'));
    const [creatorBefore, backerBefore] = await balancesOf(creator, backer);

    const rpcServer = runtime.chain.rpcServer;
    if (!rpcServer?.serving) throw new Error('the chain RPC is not served');
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/refund-dare.ts',
        '--rpc',
        rpcServer.httpUrl,
        '--vault',
        dare.vault,
        '--keypair',
        keypairFile,
      ],
      { cwd: root },
    );
    expect(stdout).toContain(`Program ${fixture.programs.v1} runs this repository's build`);
    const [creatorAfter, backerAfter] = await balancesOf(creator, backer);
    expect([creatorAfter! - creatorBefore!, backerAfter! - backerBefore!]).toEqual([
      solToLamports('0.07'),
      solToLamports('0.02'),
    ]);

    // The server's refund job, as it runs every few minutes: it books what the program returned.
    const payouts = createPayoutsService({
      db: runtime.database.db,
      chain: runtime.chain,
      escrowKeys: runtime.escrowKeys,
      escrowPrograms: { v1: runtime.escrowProgram.programId, v2: runtime.escrowProgramV2.programId },
      clock: clock.now,
    });
    await createRefundsService({
      db: runtime.database.db,
      chain: runtime.chain,
      clock: clock.now,
      payouts,
    }).refundDue();
    const refunds = await runtime.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, dare.vault));
    expect(
      refunds
        .filter((line) => line.kind === 'refund')
        .map((line) => `${line.amount} ${line.counterparty}`)
        .sort(),
    ).toEqual([`0.020000000 ${fixture.wallets[backer]}`, `0.070000000 ${fixture.wallets[creator]}`].sort());
    const page = await call('GET', `/api/dares/${dare.id}`);
    expect(page.statusCode, page.body).toBe(200);
    await expectReconciled();
  }, 60_000);

  it('gives a new dare on the same folder a vault of program v2, as every new dare', async () => {
    const wallet: TestWallet = await createTestWallet();
    const { token } = await registerWithWallet(app, wallet, 'after_upgrade');
    await runtime.chain.airdrop(address(wallet.address), solToLamports('1'));
    const deadline = new Date(clock.now().getTime() + 7 * DAY_MS).toISOString();
    const escrow = (await call('POST', '/api/create-escrow-wallet', undefined, token)).json().publicKey;
    const built = await call(
      'POST',
      '/api/create-transaction',
      { fromWallet: wallet.address, toWallet: escrow, amount: '0.05', deadline },
      token,
    );
    expect(built.statusCode, built.body).toBe(200);
    const signedTransaction = getBase64EncodedWireTransaction(
      await partiallySignTransaction(
        [wallet.keys],
        getTransactionDecoder().decode(Buffer.from(built.json().transaction, 'base64')),
      ),
    );
    const sent = await call('POST', '/api/send-transaction', { signedTransaction }, token);
    expect(sent.statusCode, sent.body).toBe(200);
    const created = await call(
      'POST',
      '/api/dares',
      {
        title: 'Walk backwards to work',
        description: 'The whole way, filmed.',
        stakeAmount: '0.05',
        difficulty: 'easy',
        category: 'creative',
        deadline,
        userWallet: wallet.address,
        transactionSignature: sent.json().signature,
        network: 'localnet',
        escrowWalletAddress: escrow,
      },
      token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await runtime.database.db
      .select({ programVersion: dareWallets.programVersion })
      .from(dareWallets)
      .where(eq(dareWallets.publicKey, escrow));
    // A new dare on an old folder is v2's like any new dare (decision 046).
    expect(row!.programVersion).toBe(2);
    const { value } = await runtime.chain.rpc.getAccountInfo(address(escrow), { encoding: 'base64' }).send();
    expect(value?.owner).toBe(fixture.programs.v2);
    await expectReconciled();
  });

  // A process of its own that loads the server's code, PGlite and the chain: ~25 s on two busy cores.
  it('npm run reconcile on the folder, with the server stopped, checks every vault and finds no difference', async () => {
    await app.close();
    await runtime.close();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/reconcile.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' },
    });
    expect(stdout).toContain(`of programs ${fixture.programs.v1} (v1) and ${fixture.programs.v2} (v2)`);
    expect(stdout).toContain('No difference.');
  }, 120_000);
});
