/**
 * Solana Actions (blinks), driven as an Action client drives them (decision 066): the SDK's own
 * types and URL helpers, @solana/web3.js 1.x for the wallet's side, the chain's served JSON-RPC
 * for sending, and `links.next` for the callback. Every deposit is credited once, by the callback
 * or the job, and a wallet with no account is credited and refunded as that wallet.
 */
import {
  ACTIONS_CORS_HEADERS,
  type ActionGetResponse,
  type ActionPostResponse,
  type ActionsJson,
  type CompletedAction,
  encodeURL,
} from '@solana/actions';
import { createKeyPairFromBytes, signBytes } from '@solana/kit';
import { Connection, Keypair, LAMPORTS_PER_SOL, VersionedTransaction } from '@solana/web3.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries } from '#server/db/schema';
import { createFundedDare, lamportsOf, payoutsService, refundJob } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { registerWithWallet } from './helpers/wallet';

const {
  ctx,
  actors: { owner, admin },
} = setupApiSuite({
  context: { serveChainRpc: true },
  actors: { owner: {}, admin: { admin: true } },
});

let origin: string;
let connection: Connection;

beforeAll(async () => {
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const served = ctx.chain.rpcServer;
  if (!served?.serving) throw new Error('the chain RPC is not served');
  connection = new Connection(served.httpUrl, { commitment: 'confirmed', wsEndpoint: served.wsUrl });
});

afterAll(async () => {
  // web3.js may leave a status poll in flight after it settles.
  await new Promise((resolve) => setTimeout(resolve, 500));
});

/** A wallet nobody registered, funded from the chain's faucet over its RPC. */
async function freshWallet(sol = 2): Promise<Keypair> {
  const wallet = Keypair.generate();
  const signature = await connection.requestAirdrop(wallet.publicKey, sol * LAMPORTS_PER_SOL);
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  return wallet;
}

async function getAction(
  url: string,
): Promise<{ status: number; headers: Headers; body: ActionGetResponse }> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as ActionGetResponse };
}

async function postJson<T>(url: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The client's part of one button: POST, check, sign with the wallet, send to the chain. */
async function back(href: string, wallet: Keypair) {
  const post = await postJson<ActionPostResponse>(new URL(href, origin).toString(), {
    account: wallet.publicKey.toBase58(),
  });
  expect(post.status, JSON.stringify(post.body)).toBe(200);
  const response = post.body;
  if (response.type !== 'transaction') throw new Error(`expected a transaction: ${JSON.stringify(response)}`);
  const transaction = VersionedTransaction.deserialize(Buffer.from(response.transaction, 'base64'));
  // The wallet is the fee payer and the only signer: the platform signs and pays nothing.
  expect(transaction.message.staticAccountKeys[0]!.toBase58()).toBe(wallet.publicKey.toBase58());
  expect(transaction.message.header.numRequiredSignatures).toBe(1);
  transaction.sign([wallet]);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const latest = await connection.getLatestBlockhash();
  const confirmed = await connection.confirmTransaction({ signature, ...latest }, 'confirmed');
  expect(confirmed.value.err).toBeNull();
  return { response, signature };
}

const poolOf = async (dareId: number) =>
  ((await ctx.app.inject({ method: 'GET', url: `/api/dares/${dareId}` })).json() as { totalPool: string })
    .totalPool;

const linesOf = (signature: string) =>
  ctx.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.signature, signature), eq(ledgerEntries.kind, 'contribution')));

describe('actions.json and the headers', () => {
  it('maps the dare pages to their Actions, with the spec CORS headers on Actions routes only', async () => {
    const res = await fetch(`${origin}/actions.json`);
    expect(res.status).toBe(200);
    expect((await res.json()) as ActionsJson).toEqual({
      rules: [
        { pathPattern: '/dare/*', apiPath: '/api/actions/dare/*' },
        { pathPattern: '/major-dare', apiPath: '/api/actions/major-dare' },
      ],
    });
    const genesis = await ctx.chain.rpc.getGenesisHash().send();
    for (const [name, value] of Object.entries(ACTIONS_CORS_HEADERS)) {
      if (name === 'Content-Type') continue;
      expect(res.headers.get(name), name).toBe(value);
    }
    expect(res.headers.get('x-blockchain-ids')).toBe(`solana:${genesis.slice(0, 32)}`);
    expect(res.headers.get('x-action-version')).toMatch(/^2\.\d+$/);

    for (const path of [
      '/actions.json',
      '/api/actions/dare/1',
      '/api/actions/dare/1/completed',
      '/api/actions/major-dare',
    ]) {
      const preflight = await fetch(`${origin}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://dial.to', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status, path).toBeLessThan(300);
      expect(preflight.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods'), path).toContain('POST');
    }
    // The rest of the API keeps its same-origin policy.
    const health = await fetch(`${origin}/api/health`, { headers: { origin: 'https://dial.to' } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a dare as an Action', () => {
  it('describes the dare with its buttons, and a missing dare with 404 { message }', async () => {
    const dare = await createFundedDare(ctx, owner, '0.2', { title: 'Swim the lake at dawn' });
    const link = encodeURL({ link: new URL(`${origin}/api/actions/dare/${dare.id}`) });
    expect(link.toString()).toBe(`solana-action:${origin}/api/actions/dare/${dare.id}`);
    // What a blink client is handed (the SDK's encoding), and what it fetches.
    const actionUrl = link.toString().slice('solana-action:'.length);
    const { status, body } = await getAction(actionUrl);
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: 'action', title: 'Swim the lake at dawn', label: expect.any(String) });
    expect(body.disabled).toBeUndefined();
    expect(body.description).toContain('Pool: 0.2 SOL');
    expect(body.description).toContain('Deadline');
    const actions = body.links!.actions;
    expect(actions.map((a) => a.label)).toEqual([
      'Add 0.05 SOL',
      'Add 0.1 SOL',
      'Add 0.5 SOL',
      'Add to Pool',
    ]);
    expect(actions[1]!.href).toBe(`/api/actions/dare/${dare.id}?amount=0.1`);
    expect(actions[3]!.parameters).toEqual([
      expect.objectContaining({ name: 'amount', min: 0.01, max: 5, required: true }),
    ]);
    // The icon is an absolute URL of the dare's share image.
    expect(body.icon).toBe(`${origin}/api/actions/dare/${dare.id}/icon.svg`);
    const icon = await fetch(body.icon);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    const svg = await icon.text();
    expect(svg).toContain('Swim the lake at');
    expect(svg).toContain('0.2 SOL pool');

    const missing = await fetch(`${origin}/api/actions/dare/999999`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: expect.any(String) });
  });

  it('backs a dare from a fresh wallet: the pool grows once, whoever credits it', async () => {
    const dare = await createFundedDare(ctx, owner, '0.2');
    const wallet = await freshWallet();
    const { body } = await getAction(`${origin}/api/actions/dare/${dare.id}`);
    const before = await lamportsOf(ctx, dare.escrowWallet);
    const { response, signature } = await back(body.links!.actions[1]!.href, wallet);
    if (response.type !== 'transaction' || !response.links?.next || response.links.next.type !== 'post')
      throw new Error('expected a post next link');
    expect(response.links.next.href).toBe(`/api/actions/dare/${dare.id}/completed`);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(before + 100_000_000n);

    const next = new URL(response.links.next.href, origin).toString();
    const done = await postJson<CompletedAction>(next, { account: wallet.publicKey.toBase58(), signature });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      type: 'completed',
      title: expect.any(String),
      label: expect.any(String),
    });
    expect(done.body.description).toContain('0.1 SOL');
    expect(await poolOf(dare.id)).toBe('0.3');

    // The client calls again, and the job runs: still credited once.
    const again = await postJson<CompletedAction>(next, { account: wallet.publicKey.toBase58(), signature });
    expect(again.status).toBe(200);
    await refundJob(ctx).refundDue();
    expect(await poolOf(dare.id)).toBe('0.3');
    const lines = await linesOf(signature);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      counterparty: wallet.publicKey.toBase58(),
      userId: null,
      amount: '0.100000000',
    });

    // A callback naming a transaction that paid nothing into this dare is refused.
    const other = await createFundedDare(ctx, owner, '0.2');
    const wrong = await postJson<{ message: string }>(`${origin}/api/actions/dare/${other.id}/completed`, {
      account: wallet.publicKey.toBase58(),
      signature,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toEqual(expect.any(String));
    expect(await poolOf(other.id)).toBe('0.2');
  });

  it('credits a deposit whose client never called back when the job notices it', async () => {
    const dare = await createFundedDare(ctx, owner, '0.2');
    const wallet = await freshWallet();
    const { signature } = await back(`/api/actions/dare/${dare.id}?amount=0.25`, wallet);
    expect(await poolOf(dare.id)).toBe('0.2');
    await refundJob(ctx).refundDue();
    expect(await poolOf(dare.id)).toBe('0.45');
    await refundJob(ctx).refundDue();
    await payoutsService(ctx).noticeVaultPayments({ escrowWallet: dare.escrowWallet, dareId: dare.id });
    expect(await poolOf(dare.id)).toBe('0.45');
    expect(await linesOf(signature)).toHaveLength(1);
    // The late callback finds it credited and answers so.
    const done = await postJson<CompletedAction>(`${origin}/api/actions/dare/${dare.id}/completed`, {
      account: wallet.publicKey.toBase58(),
      signature,
    });
    expect(done.status).toBe(200);
    expect(await poolOf(dare.id)).toBe('0.45');
  });

  it('refuses what Add to Pool refuses, with 400 { message }', async () => {
    const dare = await createFundedDare(ctx, owner, '0.2');
    const wallet = await freshWallet();
    const account = wallet.publicKey.toBase58();
    for (const amount of ['0.001', '5.01', 'abc', '']) {
      const res = await postJson<{ message: string }>(
        `${origin}/api/actions/dare/${dare.id}?amount=${amount}`,
        { account },
      );
      expect(res.status, amount).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const badAccount = await postJson<{ message: string }>(
      `${origin}/api/actions/dare/${dare.id}?amount=0.1`,
      { account: 'nope' },
    );
    expect(badAccount.status).toBe(400);
    const unknown = await postJson<{ message: string }>(`${origin}/api/actions/dare/999999?amount=0.1`, {
      account,
    });
    expect(unknown.status).toBe(404);

    const cancel = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/admin/dares/${dare.id}/status`,
      payload: { status: 'cancelled' },
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const { body } = await getAction(`${origin}/api/actions/dare/${dare.id}`);
    expect(body.disabled).toBe(true);
    expect(body.error?.message).toBe('This dare no longer accepts contributions');
    const closed = await postJson<{ message: string }>(`${origin}/api/actions/dare/${dare.id}?amount=0.1`, {
      account,
    });
    expect(closed.status).toBe(400);
    expect(closed.body).toEqual({ message: 'This dare no longer accepts contributions' });
  });

  it("lists a wallet with no account among the dare's backers by its address, and as its user once it registers", async () => {
    const dare = await createFundedDare(ctx, owner, '0.2');
    const wallet = await freshWallet();
    const account = wallet.publicKey.toBase58();
    const { signature } = await back(`/api/actions/dare/${dare.id}?amount=0.3`, wallet);
    await postJson(`${origin}/api/actions/dare/${dare.id}/completed`, { account, signature });
    const backers = async () => {
      const res = await fetch(`${origin}/api/dares/${dare.id}/backers`);
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await backers()).toEqual([{ username: null, walletAddress: account, amount: '0.3' }]);

    // It signs in with SIWS and registers: the ledger line (append-only) still names only the
    // wallet, and the wallet's user is who the dare lists.
    const keys = await createKeyPairFromBytes(wallet.secretKey);
    await registerWithWallet(
      ctx.app,
      {
        address: account,
        keys,
        signBytes: async (bytes) => new Uint8Array(await signBytes(keys.privateKey, bytes)),
      },
      'late_backer',
    );
    expect(await backers()).toEqual([{ username: 'late_backer', walletAddress: account, amount: '0.3' }]);
    const missing = await fetch(`${origin}/api/dares/999999/backers`);
    expect(missing.status).toBe(404);
  });

  it('credits a wallet with no account as that wallet, and refunds it to that wallet', async () => {
    const dare = await createFundedDare(ctx, owner, '0.2');
    const wallet = await freshWallet();
    const account = wallet.publicKey.toBase58();
    const { signature } = await back(`/api/actions/dare/${dare.id}?amount=0.5`, wallet);
    await postJson(`${origin}/api/actions/dare/${dare.id}/completed`, { account, signature });
    expect(await poolOf(dare.id)).toBe('0.7');

    const before = await lamportsOf(ctx, account);
    const cancel = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/admin/dares/${dare.id}/status`,
      payload: { status: 'cancelled' },
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const { refunds } = cancel.json() as {
      refunds: { transfers: { walletAddress: string; amount: string }[] };
    };
    expect(refunds.transfers).toContainEqual(
      expect.objectContaining({ walletAddress: account, amount: '0.5' }),
    );
    // Its 0.5 SOL and its receipt's rent back to the wallet; the platform paid the refund's fee.
    expect((await lamportsOf(ctx, account)) - before).toBeGreaterThanOrEqual(500_000_000n);
  });
});
