import { createServer, type Server } from 'node:net';
import os from 'node:os';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  compileTransactionMessage,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  getSignatureFromTransaction,
  type Instruction,
  isSolanaError,
  type KeyPairSigner,
  lamports,
  pipe,
  SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChainPort } from '#server/chain/port';
import { loadConfig } from '#server/config';
import { createEmbeddedChain } from '.';
import { epochOf } from './cluster-info';
import { EMBEDDED_GENESIS_HASH } from './rpc-handler';

const SOL = 1_000_000_000n;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111');

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

/** An embedded chain serving its RPC on free ports, with kit's own HTTP and WebSocket clients. */
async function servedChain() {
  const chain = await createEmbeddedChain({ stateDir: null, rpcServer: { host: '127.0.0.1', port: 0 } });
  opened.push(chain);
  const status = chain.rpcServer;
  if (!status?.serving) throw new Error(`not serving: ${JSON.stringify(status)}`);
  const rpc = createSolanaRpc(status.httpUrl);
  const rpcSubscriptions = createSolanaRpcSubscriptions(status.wsUrl);
  return { chain, ...status, rpc, rpcSubscriptions };
}

type Served = Awaited<ReturnType<typeof servedChain>>;

async function signedTransfer(
  served: Served,
  from: KeyPairSigner,
  to: Address,
  amount: bigint,
  extra: Instruction[] = [],
) {
  const { value: lifetime } = await served.rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) =>
      appendTransactionMessageInstructions(
        [...extra, getTransferSolInstruction({ source: from, destination: to, amount })],
        m,
      ),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  assertIsTransactionWithBlockhashLifetime(transaction);
  return { message, transaction, signature: getSignatureFromTransaction(transaction) };
}

async function funded(served: Served, amount: bigint): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await served.chain.airdrop(signer.address, amount);
  return signer;
}

/**
 * The first value of a subscription, or a failure after `ms`. Call it before the event: kit drops
 * notifications that arrive before iteration starts.
 */
async function first<T>(iterable: AsyncIterable<T>, ms = 5_000): Promise<T> {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no notification within ${ms} ms`)), ms).unref(),
  );
  const next = iterable[Symbol.asyncIterator]()
    .next()
    .then((result) => result.value as T);
  return Promise.race([next, timeout]);
}

async function post(url: string, body: unknown, init: RequestInit = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

async function listenOn(port: number): Promise<Server> {
  const server = await new Promise<Server>((resolve, reject) => {
    const candidate = createServer();
    candidate.once('error', reject);
    candidate.listen(port, '127.0.0.1', () => resolve(candidate));
  });
  opened.push({ close: () => closeNet(server) });
  return server;
}

function closeNet(server: Server): Promise<void> {
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}

/** The first value of a subscription that `matches`, or a failure after `ms`. */
async function firstMatching<T>(iterable: AsyncIterable<T>, matches: (value: T) => boolean, ms = 5_000) {
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no matching notification within ${ms} ms`)), ms).unref(),
  );
  const found = (async () => {
    for await (const value of iterable) if (matches(value)) return value;
    throw new Error('the subscription ended');
  })();
  return Promise.race([found, timeout]);
}

/** A raw PubSub socket, to see the wire format itself. */
async function pubsubSocket(wsUrl: string) {
  const socket = new WebSocket(wsUrl);
  opened.push({ close: () => socket.close() });
  const messages: unknown[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let read = 0;
  return {
    send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    /** The next message but slot notifications, which an idle chain sends every slot. */
    async next(): Promise<Record<string, unknown>> {
      return this.nextWhere((message) => message.method !== 'slotNotification');
    },
    async nextWhere(
      matches: (message: Record<string, unknown>) => boolean,
    ): Promise<Record<string, unknown>> {
      for (;;) {
        while (read >= messages.length) await new Promise<void>((resolve) => waiters.push(resolve));
        const message = messages[read++] as Record<string, unknown>;
        if (matches(message)) return message;
      }
    },
  };
}

describe('the embedded chain served as a localnet', () => {
  it("answers kit's HTTP client and confirms a transfer through kit's WebSocket subscriptions", async () => {
    const served = await servedChain();
    const { rpc, rpcSubscriptions } = served;
    expect(served.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(served.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);

    const payer = await generateKeyPairSigner();
    await rpc.requestAirdrop(payer.address, lamports(2n * SOL)).send();
    expect((await rpc.getBalance(payer.address).send()).value).toBe(2n * SOL);
    const { value: latest } = await rpc.getLatestBlockhash().send();
    expect(latest.lastValidBlockHeight).toBe((await rpc.getBlockHeight().send()) + 150n);

    // kit's own send-and-confirm: signatureNotifications, slotNotifications and getEpochInfo.
    const recipient = (await generateKeyPairSigner()).address;
    const abort = new AbortController();
    const accountNotifications = await rpcSubscriptions
      .accountNotifications(recipient, { encoding: 'base64', commitment: 'confirmed' })
      .subscribe({ abortSignal: abort.signal });
    const slotNotifications = await rpcSubscriptions
      .slotNotifications()
      .subscribe({ abortSignal: abort.signal });
    const accountNotified = first(accountNotifications);
    // Slots are announced as time passes too; the transfer's slot is the first past the current one.
    const slotBefore = await rpc.getSlot().send();
    const slotNotified = firstMatching(slotNotifications, (notification) => notification.slot > slotBefore);
    const transfer = await signedTransfer(served, payer, recipient, SOL / 4n);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transfer.transaction, {
      commitment: 'confirmed',
    });

    const [status] = (await rpc.getSignatureStatuses([transfer.signature]).send()).value;
    const slot = status!.slot;
    expect(await accountNotified).toEqual({
      context: { slot },
      value: {
        data: ['', 'base64'],
        executable: false,
        lamports: SOL / 4n,
        owner: SYSTEM_PROGRAM,
        rentEpoch: 2n ** 64n - 1n,
        space: 0n,
      },
    });
    expect(await slotNotified).toEqual({ parent: slot - 1n, root: slot, slot });
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL / 4n);
    abort.abort();
  });

  it('notifies a signature subscription once, with the error of a failed transaction', async () => {
    const served = await servedChain();
    const payer = await funded(served, SOL);
    const recipient = (await generateKeyPairSigner()).address;
    // More than the payer has: executed with preflight skipped, it fails and pays its fee.
    const transfer = await signedTransfer(served, payer, recipient, 2n * SOL);
    const abort = new AbortController();
    const notifications = await served.rpcSubscriptions
      .signatureNotifications(transfer.signature, { commitment: 'confirmed' })
      .subscribe({ abortSignal: abort.signal });
    const notified = first(notifications);
    await served.rpc
      .sendTransaction(getBase64EncodedWireTransaction(transfer.transaction), {
        encoding: 'base64',
        skipPreflight: true,
      })
      .send();
    const notification = await notified;
    expect(notification.value).toEqual({ err: { InstructionError: [0n, { Custom: 1n }] } });
    abort.abort();
  });

  it('speaks Solana PubSub on the wire: ids, received and processed notifications, unsubscribe, errors', async () => {
    const served = await servedChain();
    const socket = await pubsubSocket(served.wsUrl);
    const payer = await funded(served, SOL);
    const transfer = await signedTransfer(served, payer, (await generateKeyPairSigner()).address, SOL / 10n);

    socket.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'signatureSubscribe',
      params: [transfer.signature, { commitment: 'finalized', enableReceivedNotification: true }],
    });
    const subscribed = await socket.next();
    expect(subscribed).toEqual({ jsonrpc: '2.0', id: 1, result: expect.any(Number) });
    socket.send({ jsonrpc: '2.0', id: 2, method: 'slotSubscribe' });
    const slotSubscription = (await socket.next()).result;

    await served.rpc
      .sendTransaction(getBase64EncodedWireTransaction(transfer.transaction), { encoding: 'base64' })
      .send();
    const [status] = (await served.rpc.getSignatureStatuses([transfer.signature]).send()).value;
    const slot = Number(status!.slot);
    const subscription = subscribed.result;
    expect(await socket.next()).toEqual({
      jsonrpc: '2.0',
      method: 'signatureNotification',
      params: { result: { context: { slot }, value: 'receivedSignature' }, subscription },
    });
    expect(await socket.next()).toEqual({
      jsonrpc: '2.0',
      method: 'signatureNotification',
      params: { result: { context: { slot }, value: { err: null } }, subscription },
    });
    // The transaction's slot, after its signature's notifications (idle slots before it skipped).
    expect(
      await socket.nextWhere(
        (message) =>
          message.method === 'slotNotification' &&
          (message.params as { result: { slot: number } }).result.slot >= slot,
      ),
    ).toEqual({
      jsonrpc: '2.0',
      method: 'slotNotification',
      params: { result: { parent: slot - 1, root: slot, slot }, subscription: slotSubscription },
    });

    // A signature subscription ends with its notification; a slot one until unsubscribed.
    socket.send({ jsonrpc: '2.0', id: 3, method: 'signatureUnsubscribe', params: [subscription] });
    expect(await socket.next()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Invalid subscription id.' },
    });
    socket.send({ jsonrpc: '2.0', id: 4, method: 'slotUnsubscribe', params: [slotSubscription] });
    expect(await socket.next()).toEqual({ jsonrpc: '2.0', id: 4, result: true });
    socket.send({ jsonrpc: '2.0', id: 5, method: 'blockSubscribe', params: ['all'] });
    expect(await socket.next()).toMatchObject({ id: 5, error: { code: -32601 } });
    socket.send({ jsonrpc: '2.0', id: 6, method: 'accountSubscribe', params: ['not-an-address'] });
    expect(await socket.next()).toMatchObject({ id: 6, error: { code: -32602 } });
    socket.send('{not json');
    expect(await socket.next()).toMatchObject({ id: null, error: { code: -32700 } });

    // Unsubscribed: the next transaction tells this socket nothing more.
    await funded(served, SOL);
    socket.send({ jsonrpc: '2.0', id: 7, method: 'getHealth' });
    expect(await socket.next()).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it('answers batches, refuses unknown methods with -32601 and lets Solana Explorer call it (CORS)', async () => {
    const served = await servedChain();
    const batch = await post(served.httpUrl, [
      { jsonrpc: '2.0', id: 1, method: 'getSlot' },
      { jsonrpc: '2.0', id: 2, method: 'getStakeMinimumDelegation' },
      { jsonrpc: '2.0', id: 3, method: 'getGenesisHash' },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: Number(await served.rpc.getSlot().send()) },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 3, result: EMBEDDED_GENESIS_HASH },
    ]);
    // Not a browser page (no Origin): no CORS header is needed.
    expect(batch.headers.get('access-control-allow-origin')).toBeNull();

    const unknown = (served.rpc as unknown as Record<string, () => { send(): Promise<unknown> }>)
      .getStakeMinimumDelegation!().send();
    const error = await unknown.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isSolanaError(error) && error.context.__code).toBe(SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND);

    expect((await post(served.httpUrl, '{oops')).body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect((await post(served.httpUrl, [])).body).toMatchObject({ error: { code: -32600 } });
    expect((await post(served.httpUrl, { id: 9, method: 'getSlot' })).body).toMatchObject({
      id: 9,
      error: { code: -32600 },
    });

    // explorer.solana.com in the user's browser: a preflight, Chrome's private-network one included.
    const preflight = await fetch(served.httpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://explorer.solana.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,solana-client',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://explorer.solana.com');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, solana-client');
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    const fromExplorer = await post(
      served.httpUrl,
      { jsonrpc: '2.0', id: 1, method: 'getHealth' },
      {
        headers: { 'content-type': 'application/json', origin: 'https://explorer.solana.com' },
      },
    );
    expect(fromExplorer.body).toEqual({ jsonrpc: '2.0', id: 1, result: 'ok' });
    expect(fromExplorer.headers.get('access-control-allow-origin')).toBe('https://explorer.solana.com');
    expect(await (await fetch(`${served.httpUrl}/health`)).text()).toBe('ok');
  });

  it('answers no other web page: no preflight grant, and a text/plain POST runs nothing', async () => {
    const served = await servedChain();
    const preflight = await fetch(served.httpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-private-network')).toBeNull();
    // A simple request (no preflight in a browser): refused before anything runs.
    const wallet = (await generateKeyPairSigner()).address;
    const simple = await fetch(served.httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'requestAirdrop',
        params: [wallet, 1_000_000_000],
      }),
    });
    expect(simple.status).toBe(403);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect((await served.rpc.getBalance(wallet).send()).value).toBe(0n);
    // Explorer's origin is not granted private network access for another one's preflight either.
    const local = await fetch(served.httpUrl, {
      method: 'OPTIONS',
      headers: { origin: 'chrome-extension://wallet', 'access-control-request-private-network': 'true' },
    });
    expect(local.status).toBe(204);
    expect(local.headers.get('access-control-allow-private-network')).toBeNull();
    // Nor may another origin open the PubSub socket.
    const socket = new WebSocket(served.wsUrl, { headers: { origin: 'https://evil.example' } });
    const outcome = await new Promise((resolve) => {
      socket.once('open', () => resolve('open'));
      socket.once('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });

  it('answers what the solana CLI, wallets and Solana Explorer ask before anything else', async () => {
    const served = await servedChain();
    const { rpc } = served;
    const payer = await funded(served, SOL);
    const slot = await rpc.getSlot().send();
    expect(await rpc.getGenesisHash().send()).toBe(EMBEDDED_GENESIS_HASH);
    expect(await rpc.getFirstAvailableBlock().send()).toBe(0n);
    expect(await rpc.getTransactionCount().send()).toBe(1n); // the airdrop
    const schedule = await rpc.getEpochSchedule().send();
    expect(schedule).toEqual({
      slotsPerEpoch: 432_000n,
      leaderScheduleSlotOffset: 432_000n,
      warmup: true,
      firstNormalEpoch: 14n,
      firstNormalSlot: 524_256n,
    });
    const epochInfo = await rpc.getEpochInfo().send();
    expect(epochInfo).toEqual({
      absoluteSlot: slot,
      blockHeight: slot,
      epoch: 14n + (slot - 524_256n) / 432_000n,
      slotIndex: (slot - 524_256n) % 432_000n,
      slotsInEpoch: 432_000n,
      transactionCount: 1n,
    });

    // getFeeForMessage says what the transaction is then charged, priority fees included.
    const price = (microLamports: bigint): Instruction => {
      const data = new Uint8Array(9);
      data[0] = 3;
      new DataView(data.buffer).setBigUint64(1, microLamports, true);
      return { programAddress: COMPUTE_BUDGET, data };
    };
    const limit = (units: number): Instruction => {
      const data = new Uint8Array(5);
      data[0] = 2;
      new DataView(data.buffer).setUint32(1, units, true);
      return { programAddress: COMPUTE_BUDGET, data };
    };
    const recipient = (await generateKeyPairSigner()).address;
    // 5000 lamports a signature; 1 lamport a unit for 2 builtins' 3000 units each; 2.5 for 10,000.
    for (const extra of [[], [price(1_000_000n)], [price(2_500_000n), limit(10_000)]]) {
      const transfer = await signedTransfer(served, payer, recipient, 1_000_000n, extra);
      const message = getBase64Decoder().decode(
        getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(transfer.message)),
      );
      const quoted = (await rpc.getFeeForMessage(message as never).send()).value;
      await sendAndConfirmTransactionFactory(served)(transfer.transaction, { commitment: 'confirmed' });
      const landed = await rpc
        .getTransaction(transfer.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send();
      expect(quoted).toBe(landed!.meta!.fee);
    }
    // Each slot's one transaction sets its price, in micro-lamports per compute unit.
    const fees = await rpc.getRecentPrioritizationFees().send();
    expect(fees.slice(-3).map((fee) => fee.prioritizationFee)).toEqual([0n, 1_000_000n, 2_500_000n]);
    expect(fees.at(-1)!.slot).toBe(await rpc.getSlot().send());
  });

  it('binds to loopback by default, so only this machine reaches it', async () => {
    const config = loadConfig({});
    if (!config.chain.embedded) throw new Error('expected the embedded chain');
    expect(config.chain.rpcServer).toEqual({ host: '127.0.0.1', port: 8899 });
    // The same host on a free port: nothing answers on the machine's other addresses.
    const chain = await createEmbeddedChain({
      stateDir: null,
      rpcServer: { host: config.chain.rpcServer!.host, port: 0 },
    });
    opened.push(chain);
    const status = chain.rpcServer;
    if (!status?.serving) throw new Error('not serving');
    const port = new URL(status.httpUrl).port;
    expect(new URL(status.httpUrl).hostname).toBe('127.0.0.1');
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
    if (external) {
      await expect(fetch(`http://${external.address}:${port}/health`)).rejects.toThrow();
    }
    expect(await (await fetch(`http://127.0.0.1:${port}/health`)).text()).toBe('ok');
  });

  it('links Solana Explorer to the served RPC, and closes both ports with the chain', async () => {
    const served = await servedChain();
    expect(served.chain.explorerUrlTemplate).toBe('/tx/{signature}');
    expect(served.chain.solanaExplorerUrlTemplate).toBe(
      `https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=${encodeURIComponent(served.httpUrl)}`,
    );
    const socket = new WebSocket(served.wsUrl);
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await served.chain.close();
    await closed;
    await expect(fetch(`${served.httpUrl}/health`)).rejects.toThrow();
  });

  it('keeps the chain working without the RPC when its port is taken, and says why', async () => {
    const blocker = await listenOn(0);
    const port = (blocker.address() as { port: number }).port;
    const chain: ChainPort = await createEmbeddedChain({
      stateDir: null,
      rpcServer: { host: '127.0.0.1', port },
    });
    opened.push(chain);
    expect(chain.rpcServer).toEqual({ serving: false, reason: `127.0.0.1:${port} is already in use` });
    expect(chain.solanaExplorerUrlTemplate).toBeNull();
    await chain.airdrop((await generateKeyPairSigner()).address, SOL);
  });

  it('leaves the HTTP port free again when only the PubSub port is taken', async () => {
    // A taken port whose predecessor is free (other processes hold ports too).
    let blocked: number | null = null;
    for (let attempt = 0; attempt < 20 && blocked === null; attempt += 1) {
      const blocker = await listenOn(0);
      const port = (blocker.address() as { port: number }).port;
      const probe = await listenOn(port - 1).catch(() => null);
      if (probe) {
        await closeNet(probe);
        blocked = port;
      } else await closeNet(blocker);
    }
    if (blocked === null) throw new Error('found no free port next to a taken one');
    const chain = await createEmbeddedChain({
      stateDir: null,
      rpcServer: { host: '127.0.0.1', port: blocked - 1 },
    });
    opened.push(chain);
    expect(chain.rpcServer).toEqual({ serving: false, reason: `127.0.0.1:${blocked} is already in use` });
    await closeNet(await listenOn(blocked - 1));
  });
});

describe('epochOf', () => {
  const schedule = {
    slotsPerEpoch: 432_000n,
    leaderScheduleSlotOffset: 432_000n,
    warmup: true,
    firstNormalEpoch: 14n,
    firstNormalSlot: 524_256n,
  };

  it("follows agave's warmup epochs of 32, 64, ... slots, then full epochs", () => {
    expect(epochOf(schedule, 0n)).toEqual({ epoch: 0n, slotIndex: 0n, slotsInEpoch: 32n });
    expect(epochOf(schedule, 31n)).toEqual({ epoch: 0n, slotIndex: 31n, slotsInEpoch: 32n });
    expect(epochOf(schedule, 32n)).toEqual({ epoch: 1n, slotIndex: 0n, slotsInEpoch: 64n });
    expect(epochOf(schedule, 524_255n)).toEqual({ epoch: 13n, slotIndex: 262_143n, slotsInEpoch: 262_144n });
    expect(epochOf(schedule, 524_256n)).toEqual({ epoch: 14n, slotIndex: 0n, slotsInEpoch: 432_000n });
    expect(epochOf({ ...schedule, warmup: false }, 864_001n)).toEqual({
      epoch: 2n,
      slotIndex: 1n,
      slotsInEpoch: 432_000n,
    });
  });
});
