/**
 * A data folder made by main before escrow program v2 held new vaults (test/fixtures, every vault
 * on v1) started by today's code, as `npm start` starts it (DATA_DIR with PGlite, the kept chain,
 * the master seed). v1 is retired (decision 050): its `settle` let the moderator key, derived from
 * the folder's master seed, pay a pool to any wallet it entered, so no winner of a v1 dare is
 * named or paid any more; the payout job cancels every open v1 vault and refunds each payer to
 * the lamport, its dare saying why; a week-old one refunded by anyone with `npm run refund-dare`
 * is booked too; and `npm run reconcile` covers them all.
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
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
  pipe,
  type Signature,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES } from '#contract/claims';
import { solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { DAY_MS } from '#contract/time';
import { buildApp } from '#server/app';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { loadConfig } from '#server/config';
import { claims, dareWallets, ledgerEntries } from '#server/db/schema';
import { seedDemoData } from '#server/demo/seed';
import { demoAdminWallet } from '#server/judging-keys';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { openRuntime, type Runtime } from '#server/runtime';
import { openVideoStorage } from '#server/storage/open';
import { getEnterInstruction, getSettleInstruction } from '#test/support/chain/v1-vaults';
import { LEGACY_FIXTURE, readLegacyFixture, unpackLegacyDataFolder } from './fixtures/legacy-data-folder';
import { TEST_INDEX_HTML } from './helpers/app';
import { bearer, createTestWallet, registerWithWallet, type TestWallet } from './helpers/wallet';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const fixture = readLegacyFixture();
const { creator, backer, entrant } = LEGACY_FIXTURE.users;
const REFUNDED_WORDS =
  "Refunded: this dare's escrow was retired (program v1), every backer got their SOL back";

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
    escrowProgramId: v1Of(runtime).programId,
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
    v1Of(runtime).programId,
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

/** The folder's escrow program v1, which its start keeps loading. */
function v1Of(opened: Runtime) {
  if (!opened.escrowProgram) throw new Error('the legacy data folder started without escrow program v1');
  return opened.escrowProgram;
}

/** Moves the app's and the chain's clocks on together, as days passing would. */
function moveClocks(ms: number) {
  clock.movedMs += ms;
}

describe('a data folder from before v2, started by today’s code', () => {
  it('keeps its programs, lists its dares and shows their pages, and reconciles', async () => {
    // The folder had v1 deployed: it keeps loading it, so its v1 vaults go on working (decision 081).
    expect(runtime.escrowProgram).not.toBeNull();
    expect({ v1: v1Of(runtime).programId, v2: runtime.escrowProgramV2.programId }).toEqual(fixture.programs);
    expect(v1Of(runtime).action).toBe('unchanged');
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

  it('names no winner of a v1 dare any more: mark-winner answers 409 with the reason, nothing moves', async () => {
    const dare = fixture.dares.toPay;
    const vaultBefore = await lamportsOf(dare.vault);
    const marked = await call(
      'POST',
      `/api/admin/submissions/${fixture.submissionId}/mark-winner`,
      { dareId: dare.id },
      await adminToken(),
    );
    expect(marked.statusCode, marked.body).toBe(409);
    expect(marked.json().error).toBe(CLAIM_MESSAGES.escrowRetired);
    expect(await runtime.database.db.$count(claims, eq(claims.dareId, dare.id))).toBe(0);
    expect(await lamportsOf(dare.vault)).toBe(vaultBefore);
    await expectReconciled();
  });

  // refund-dare runs in a process of its own (~10 s on two busy cores).
  it('a week on, refunds the overdue v1 dare with npm run refund-dare (no server key)', async () => {
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
  }, 60_000);

  it('retires every open v1 vault by the payout job: each payer refunded to the lamport and booked, the pages say why', async () => {
    const { toPay, toCancel, overdue } = fixture.dares;
    const entrantWallet = fixture.wallets[entrant]!;
    const entry = (
      await findEntryAddress(fixture.programs.v1 as never, address(toPay.vault), address(entrantWallet))
    ).address;
    const entryRent = await lamportsOf(entry);
    expect(entryRent).toBeGreaterThan(0n);
    const before = await balancesOf(creator, backer, entrant);

    // The job as the server runs it (recovery, due payouts, refunds), on the app's clock.
    expect(await app.payoutJob.runNow()).toBe('ran');

    const after = await balancesOf(creator, backer, entrant);
    // The two open dares' stakes and additions back to who paid them; the entrant's entry rent back.
    expect(after.map((lamports, index) => lamports - before[index]!)).toEqual([
      solToLamports('0.3'),
      solToLamports('0.2'),
      entryRent,
    ]);
    const expected = {
      [toPay.vault]: ['0.200000000 creator', '0.150000000 backer'],
      [toCancel.vault]: ['0.100000000 creator', '0.050000000 backer'],
      // Refunded by a stranger's refund-dare a week ago; booked by the job.
      [overdue.vault]: ['0.070000000 creator', '0.020000000 backer'],
    };
    const names = { [fixture.wallets[creator]!]: 'creator', [fixture.wallets[backer]!]: 'backer' };
    for (const [vault, lines] of Object.entries(expected)) {
      const { value } = await runtime.chain.rpc.getAccountInfo(address(vault), { encoding: 'base64' }).send();
      expect(value, vault).toBeNull();
      const booked = await runtime.database.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.escrowWallet, vault));
      expect(
        booked
          .filter((line) => line.direction < 0)
          .map(
            (line) =>
              `${line.kind === 'refund' ? '' : `${line.kind} `}${line.amount} ${names[line.counterparty]}`,
          )
          .sort(),
      ).toEqual([...lines].sort());
      // Refunds through v1's own cancel and refund: no other program, no transfer of the server's.
      for (const line of booked.filter((line) => line.kind === 'refund'))
        expect(await programsOf(line.signature!)).toContain(fixture.programs.v1);
    }
    for (const dare of [toPay, toCancel, overdue]) {
      const page = await call('GET', `/api/dares/${dare.id}`);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json()).toMatchObject({
        status: 'cancelled',
        phase: 'refunded',
        phaseReason: REFUNDED_WORDS,
      });
    }
    await expectReconciled();

    // Again: nothing left to retire, nothing sent or booked twice.
    const lines = await runtime.database.db.$count(ledgerEntries);
    expect(await app.payoutJob.runNow()).toBe('ran');
    expect(await runtime.database.db.$count(ledgerEntries)).toBe(lines);
    expect(await balancesOf(creator, backer, entrant)).toEqual(after);
  }, 60_000);

  it('leaves the moderator key nothing to take: entering a fresh wallet and settling to it fails', async () => {
    // The attack v1 allowed while a vault was open: the key from the folder's master seed enters a
    // wallet of its own and settles the whole pot to it, before the deadline, in one transaction.
    const moderator = await runtime.escrowKeys.moderator();
    const thief = await generateKeyPairSigner();
    await runtime.chain.airdrop(thief.address, solToLamports('0.01'));
    const vault = address(fixture.dares.toPay.vault);
    const programId = address(fixture.programs.v1);
    const { value: lifetime } = await runtime.chain.rpc.getLatestBlockhash().send();
    const instructions = [
      await getEnterInstruction({ programId, vault, entrant: thief, rentPayer: thief }),
      await getSettleInstruction({ programId, vault, moderator, winners: [thief.address] }),
    ];
    const signed = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(thief, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) => appendTransactionMessageInstructions(instructions, m),
      ),
    );
    const sent = await runtime.chain.rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
      .send()
      .then(
        () => 'landed',
        () => 'refused',
      );
    expect(sent).toBe('refused');
    expect(await lamportsOf(thief.address)).toBe(solToLamports('0.01'));
    const { value } = await runtime.chain.rpc.getAccountInfo(vault, { encoding: 'base64' }).send();
    expect(value).toBeNull();
  });

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
