/**
 * The embedded chain's served RPC runs inside the app's process: each attack from issue 25 replayed
 * (the same shapes, sized for a shared 2-core machine) from another thread, as a page or a program
 * outside the app sends it, while /api/health keeps answering within 100 ms throughout.
 */
import { request as httpRequest } from 'node:http';
import {
  appendTransactionMessageInstruction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RPC_BUDGET_WINDOW_MS, RPC_LIMITS } from '#server/chain/embedded/rpc-guard';
import { createTestContext, type TestContext } from './helpers/app';
import { attackFromOutside } from './helpers/rpc-attacker';

let ctx: TestContext;
let rpcUrl: string;
/** Issue 25: `/api/health` answers within 100 ms throughout every attack. */
const HEALTH_BUDGET_MS = 100;

beforeAll(async () => {
  // The escrow program deployed as the server deploys it: the upgradeable loader's accounts are big.
  ctx = await createTestContext({}, { serveChainRpc: true });
  if (!ctx.chain.rpcServer?.serving) throw new Error('the chain RPC is not served');
  rpcUrl = ctx.chain.rpcServer.httpUrl;
  // A fresh app's first answers are slower (lazy loading): measured warm, as a running server is.
  for (let i = 0; i < 5; i += 1) await ctx.app.inject({ method: 'GET', url: '/api/health' });
  // So is the attacker's thread: its first start loads fetch, which is not what is measured.
  await attackFromOutside(rpcUrl, [JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'getSlot' })]);
  await healthDuring(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

// The expensive methods' budget is per second, all callers together: an attack that begins inside
// the previous attack's spent second would be refused whole (seen in CI: 60 parallel scans all
// answered 'retry in a second'). Each attack starts as a newcomer would, on a fresh second.
beforeEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, RPC_BUDGET_WINDOW_MS + 50));
});

/**
 * Polls /api/health every 20 ms while `attack` runs (it ends when the attack does). Returns the
 * slowest answer and the 90th percentile, in ms.
 */
async function healthDuring(attack: () => Promise<unknown>): Promise<{ slowest: number; p90: number }> {
  const times: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await attack();
  } finally {
    running = false;
    await probe;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const slowest = sorted.at(-1) ?? 0;
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] ?? 0;
  console.info(
    `/api/health during ${expect.getState().currentTestName ?? 'the baseline'}: ${times.length} probes, p90 ${p90.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms`,
  );
  return { slowest, p90 };
}

/**
 * Answering within 100 ms throughout: every probe, the slowest included. The served RPC hands the
 * event loop back between the requests of a batch and between slices of a large answer
 * (json-pieces.ts), and expensive methods share a time budget, so no attack holds the app for long.
 */
function expectAnsweredThroughout(health: { slowest: number; p90: number }) {
  expect(health.slowest).toBeLessThan(HEALTH_BUDGET_MS);
}

function rpc(body: unknown, headers: Record<string, string> = {}) {
  return fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const body = (value: unknown) => JSON.stringify(value);
const loaderScan = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'getProgramAccounts',
  params: ['BPFLoaderUpgradeab1e11111111111111111111111', { encoding: 'base64' }],
});

describe('the served chain RPC cannot take the app down', () => {
  it('refuses a batch of 5,000 getProgramAccounts (680 KB) without running any of it', async () => {
    const batch = Array.from({ length: 5_000 }, (_, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'getProgramAccounts',
      params: [ctx.escrowProgramId, { encoding: 'base64', filters: [{ dataSize: 1234 }] }],
    }));
    const text = body(batch);
    let statuses: number[] = [];
    const health = await healthDuring(async () => {
      statuses = (await attackFromOutside(rpcUrl, [text])).map((res) => res.status);
    });
    expect(statuses).toEqual([413]);
    expectAnsweredThroughout(health);
  });

  it('answers a 100-request batch while the app keeps answering in between', async () => {
    const full = body(Array.from({ length: RPC_LIMITS.maxBatchLength }, (_, id) => loaderScan(id)));
    const tooMany = body(Array.from({ length: RPC_LIMITS.maxBatchLength + 1 }, (_, id) => loaderScan(id)));
    let results: Awaited<ReturnType<typeof attackFromOutside>> = [];
    const health = await healthDuring(async () => {
      results = await attackFromOutside(rpcUrl, [full, full, full, tooMany]);
    });
    for (const result of results.slice(0, 3)) {
      const answers = result.answers as { hasResult: boolean; error?: { message: string } }[];
      expect(answers).toHaveLength(RPC_LIMITS.maxBatchLength);
      // The rest of a batch is refused once its answer is full (or the time budget is spent).
      for (const answer of answers.filter((a) => a.error))
        expect(answer.error!.message).toMatch(/Too many expensive requests|Answer too large/);
      expect(result.bytes).toBeLessThan(RPC_LIMITS.maxAnswerBytes + 100 * 1024);
    }
    const answered = results.slice(0, 3).flatMap((result) => result.answers as { hasResult: boolean }[]);
    expect(answered.some((answer) => answer.hasResult)).toBe(true);
    expect((results[3]!.answers as { error: { message: string } }).error.message).toMatch(/Batch too large/);
    expectAnsweredThroughout(health);
  });

  it('caps answer bytes: 60 loader scans in parallel never build a 93 MB answer', async () => {
    const scans = Array.from({ length: 60 }, (_, id) => body(loaderScan(id)));
    let results: Awaited<ReturnType<typeof attackFromOutside>> = [];
    const health = await healthDuring(async () => {
      results = await attackFromOutside(rpcUrl, scans, { parallel: true });
    });
    const answers = results.map(
      (result) => result.answers as { hasResult: boolean; error?: { message: string } },
    );
    // The budget refuses the scans past its share of each second; none is starved for good.
    expect(answers.some((answer) => answer.hasResult)).toBe(true);
    for (const answer of answers)
      if (answer.error) expect(answer.error.message).toMatch(/Too many expensive requests|Answer too large/);
    const answered = results.reduce((sum, result) => sum + result.bytes, 0);
    expect(answered).toBeLessThan(60 * RPC_LIMITS.maxAnswerBytes);
    expectAnsweredThroughout(health);
  });

  it('rate-limits requestAirdrop: a burst grows neither the chain nor the latency', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    const batches = Array.from({ length: 8 }, (_, round) =>
      body(
        Array.from({ length: 10 }, (_, id) => ({
          jsonrpc: '2.0',
          id,
          method: 'requestAirdrop',
          params: [wallet, 1_000 + round * 10 + id],
        })),
      ),
    );
    let results: { hasResult: boolean; error?: { message: string } }[] = [];
    const health = await healthDuring(async () => {
      results = (await attackFromOutside(rpcUrl, batches)).flatMap(
        (result) => result.answers as typeof results,
      );
    });
    const landed = results.filter((answer) => answer.hasResult);
    expect(landed.length).toBeLessThanOrEqual(RPC_LIMITS.airdropsPerMinute);
    expect(results.filter((answer) => answer.error).length).toBeGreaterThanOrEqual(
      80 - RPC_LIMITS.airdropsPerMinute,
    );
    expectAnsweredThroughout(health);
  });

  it('answers no other site: a text/plain POST from another origin runs nothing', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    const res = await rpc(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [wallet, 1_000_000] }),
      { 'content-type': 'text/plain', origin: 'https://attacker.example' },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await ctx.chain.rpc.getBalance(wallet).send()).value).toBe(0n);
  });

  it("never refuses 27 wallets' sendTransaction for another client's flood of expensive requests", async () => {
    // 27 wallets, each its own client address (loopback's 127.0.0.0/8 is all this machine's),
    // paying in five rounds 200 ms apart while the flood lasts.
    const ROUNDS = 5;
    const wallets = await Promise.all(Array.from({ length: 27 }, () => generateKeyPairSigner()));
    for (const wallet of wallets) await ctx.chain.airdrop(wallet.address, 1_000_000_000n);
    const recipient = (await generateKeyPairSigner()).address;
    const { value: blockhash } = await ctx.chain.rpc.getLatestBlockhash().send();
    const transfer = async (wallet: (typeof wallets)[number], lamports: bigint) =>
      getBase64EncodedWireTransaction(
        await signTransactionMessageWithSigners(
          pipe(
            createTransactionMessage({ version: 0 }),
            (m) => setTransactionMessageFeePayerSigner(wallet, m),
            (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
            (m) =>
              appendTransactionMessageInstruction(
                getTransferSolInstruction({ source: wallet, destination: recipient, amount: lamports }),
                m,
              ),
          ),
        ),
      );
    const rounds = await Promise.all(
      Array.from({ length: ROUNDS }, (_, round) =>
        Promise.all(wallets.map((wallet) => transfer(wallet, 1_000_000n + BigInt(round)))),
      ),
    );
    // One client (127.0.0.1) keeps 300 loader scans in flight for 2 s, as issue 34's flood did.
    const scans = Array.from({ length: 300 }, (_, id) => body(loaderScan(id)));
    const flood = attackFromOutside(rpcUrl, scans, { parallel: true, forMs: 2_000 });
    const answers: { result?: unknown; error?: unknown }[] = [];
    for (const wires of rounds) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answers.push(
        ...(await Promise.all(
          wires.map((wire, i) =>
            rpcFrom(`127.0.0.${10 + i}`, {
              jsonrpc: '2.0',
              id: i,
              method: 'sendTransaction',
              params: [wire, { encoding: 'base64' }],
            }),
          ),
        )),
      );
    }
    const flooded = (await flood).map((result) => result.answers as { hasResult: boolean; error?: unknown });
    console.info(
      `flood: ${flooded.length} answers, ${flooded.filter((a) => a.error).length} refused; wallets: ${answers.filter((a) => a.error).length} of ${answers.length} refused`,
    );
    // The flood was refused past its own share: it really was spending the budget.
    expect(flooded.filter((answer) => answer.error).length).toBeGreaterThan(0);
    expect(answers.map((answer) => answer.error ?? null)).toEqual(answers.map(() => null));
    const paid = 27n * BigInt(ROUNDS) * 1_000_000n + 27n * BigInt((ROUNDS * (ROUNDS - 1)) / 2);
    expect((await ctx.chain.rpc.getBalance(recipient).send()).value).toBe(paid);
  });
});

/** One JSON-RPC request from a given local address (a client of its own to the served RPC). */
function rpcFrom(localAddress: string, payload: unknown): Promise<{ result?: unknown; error?: unknown }> {
  const url = new URL(rpcUrl);
  const text = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
