/**
 * An idle embedded chain keeps time like a validator: slot and root notifications every slot, so
 * a client waiting on a dropped transaction gives up once its blockhash expires, and a Clock whose
 * epoch start agrees with the slots.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChainPort } from '#server/chain/port';
import { createEmbeddedChain } from '.';
import { EmbeddedLedger } from './embedded-ledger';
import { ChainStateFiles } from './state-files';

const CLOCK_SYSVAR = address('SysvarC1ock11111111111111111111111111111111');

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

async function servedChain(options: { testControls?: boolean } = {}) {
  const chain = await createEmbeddedChain({
    stateDir: null,
    rpcServer: { host: '127.0.0.1', port: 0 },
    ...options,
  });
  opened.push(chain);
  const status = chain.rpcServer;
  if (!status?.serving) throw new Error(`not serving: ${JSON.stringify(status)}`);
  return { chain, ...status };
}

/** A raw PubSub socket that keeps every message with the time it arrived. */
async function pubsubSocket(wsUrl: string) {
  const socket = new WebSocket(wsUrl);
  opened.push({ close: () => socket.close() });
  const messages: { at: number; message: Record<string, unknown> }[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    messages.push({ at: performance.now(), message: JSON.parse(data.toString()) });
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    messages,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    async waitFor(count: (all: typeof messages) => boolean, ms = 5_000) {
      const deadline = performance.now() + ms;
      while (!count(messages)) {
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`not within ${ms} ms: ${JSON.stringify(messages.slice(-3))}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, left).unref();
        });
      }
    },
  };
}

type Notification = { at: number; message: { method?: string; params?: { result: unknown } } };

async function expectEpochStartFromSlots(chain: ChainPort) {
  const clock = await readClock(chain);
  const { slotIndex, epoch } = await chain.rpc.getEpochInfo().send();
  expect(clock.epoch).toBe(epoch);
  // slotIndex slots of 400 ms before now, to the second (the Clock counts whole seconds).
  const fromSlots = clock.unixTimestamp! - (slotIndex * 400n) / 1000n;
  expect(clock.epochStartTimestamp! - fromSlots).toBeGreaterThanOrEqual(-1n);
  expect(clock.epochStartTimestamp! - fromSlots).toBeLessThanOrEqual(1n);
  return { clock, slotIndex, epoch };
}

async function readClock(chain: ChainPort) {
  const { value } = await chain.rpc.getAccountInfo(CLOCK_SYSVAR, { encoding: 'jsonParsed' }).send();
  return (value!.data as { parsed: { info: Record<string, bigint> } }).parsed.info;
}

describe('the embedded chain while nothing happens', () => {
  it('announces every slot to slot and root subscribers, one per 400 ms, and stops when they leave', async () => {
    const served = await servedChain();
    const socket = await pubsubSocket(served.wsUrl);
    socket.send({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' });
    socket.send({ jsonrpc: '2.0', id: 2, method: 'rootSubscribe' });
    const slotsOf = (method: string) =>
      (socket.messages as Notification[]).filter((entry) => entry.message.method === method);
    await socket.waitFor(
      () => slotsOf('slotNotification').length >= 4 && slotsOf('rootNotification').length >= 4,
    );

    const slots = slotsOf('slotNotification').slice(0, 4);
    const first = (slots[0]!.message.params!.result as { slot: number }).slot;
    expect(slots.map((entry) => entry.message.params!.result)).toEqual(
      [0, 1, 2, 3].map((offset) => ({
        parent: first + offset - 1,
        root: first + offset,
        slot: first + offset,
      })),
    );
    expect(
      slotsOf('rootNotification')
        .slice(0, 4)
        .map((entry) => entry.message.params!.result),
    ).toEqual([0, 1, 2, 3].map((offset) => first + offset));
    // Three slots later is 1.2 s of wall time, give or take the 100 ms the chain is looked at.
    expect(slots[3]!.at - slots[0]!.at).toBeGreaterThan(900);
    expect(slots[3]!.at - slots[0]!.at).toBeLessThan(2_500);
    // The slot announced is the slot the RPC answers, not a count of its own.
    const slotNow = Number(await served.chain.rpc.getSlot().send());
    expect(slotNow - (first + 3)).toBeGreaterThanOrEqual(0);
    expect(slotNow - (first + 3)).toBeLessThan(5);
    expect(await served.chain.rpc.getTransactionCount().send()).toBe(0n);

    const [slotSubscription, rootSubscription] = [1, 2].map(
      (id) =>
        (socket.messages.find((entry) => entry.message.id === id)!.message as { result: number }).result,
    );
    socket.send({ jsonrpc: '2.0', id: 3, method: 'slotUnsubscribe', params: [slotSubscription] });
    socket.send({ jsonrpc: '2.0', id: 4, method: 'rootUnsubscribe', params: [rootSubscription] });
    await socket.waitFor((all) => all.some((entry) => entry.message.id === 4));
    expect(socket.messages.find((entry) => entry.message.id === 4)!.message).toMatchObject({ result: true });
    const countAfter = socket.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(socket.messages.slice(countAfter)).toEqual([]);
  });

  it('holds at most 16 slot and root subscriptions per connection: each costs a message every slot', async () => {
    const served = await servedChain();
    const socket = await pubsubSocket(served.wsUrl);
    for (let id = 1; id <= 17; id += 1) {
      socket.send({ jsonrpc: '2.0', id, method: id % 2 === 0 ? 'rootSubscribe' : 'slotSubscribe' });
    }
    await socket.waitFor((all) => all.some((entry) => entry.message.id === 17));
    const answers = socket.messages
      .filter((entry) => entry.message.id !== undefined)
      .map((entry) => entry.message);
    expect(answers.slice(0, 16).every((answer) => typeof answer.result === 'number')).toBe(true);
    expect(answers[16]).toEqual({
      jsonrpc: '2.0',
      id: 17,
      error: {
        code: -32602,
        message: 'Invalid params: Too many slot and root subscriptions: at most 16 per connection',
      },
    });
    // Another connection has its own allowance.
    const other = await pubsubSocket(served.wsUrl);
    other.send({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' });
    await other.waitFor((all) => all.some((entry) => entry.message.id === 1));
    expect(other.messages[0]!.message).toMatchObject({ id: 1, result: expect.any(Number) });
  });

  it("ends kit's sendAndConfirmTransaction of a dropped transaction with BLOCK_HEIGHT_EXCEEDED", async () => {
    const served = await servedChain({ testControls: true });
    const rpc = createSolanaRpc(served.httpUrl);
    const rpcSubscriptions = createSolanaRpcSubscriptions(served.wsUrl);
    // A fee payer without a lamport: sent without preflight, the leader drops it (no fee, no status).
    const payer = await generateKeyPairSigner();
    const { value: lifetime } = await rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions(
          [getTransferSolInstruction({ source: payer, destination: address(CLOCK_SYSVAR), amount: 1n })],
          m,
        ),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    assertIsTransactionWithBlockhashLifetime(transaction);

    let settled = false;
    const outcome = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transaction, {
      commitment: 'confirmed',
      skipPreflight: true,
    }).then(
      () => ({ error: null }),
      (error: unknown) => ({ error }),
    );
    void outcome.then(() => {
      settled = true;
    });
    // Time passes faster than the wall clock; the chain itself only ticks: nothing is sent to it.
    for (let step = 0; step < 100 && !settled; step += 1) {
      await served.chain.testControls!.warp(4);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { error } = await outcome;
    expect(isSolanaError(error, SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED)).toBe(true);
    if (!isSolanaError(error, SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED)) throw error;
    expect(error.context.lastValidBlockHeight).toBe(lifetime.lastValidBlockHeight);
    expect(error.context.currentBlockHeight).toBeGreaterThan(lifetime.lastValidBlockHeight);
    // It was dropped indeed: never executed, and its blockhash can no longer land.
    const signature = getSignatureFromTransaction(transaction);
    expect((await rpc.getSignatureStatuses([signature]).send()).value).toEqual([null]);
    expect(await rpc.getTransactionCount().send()).toBe(0n);
    expect((await rpc.isBlockhashValid(lifetime.blockhash).send()).value).toBe(false);
  }, 30_000);

  it("dates the Clock's epoch start at the epoch's first slot, also after a warp into the next epoch", async () => {
    const chain = await createEmbeddedChain({ stateDir: null, testControls: true });
    opened.push(chain);
    const expectConsistent = () => expectEpochStartFromSlots(chain);
    const start = await expectConsistent();
    // LiteSVM's first slot lies hours into its epoch: the epoch began before the chain did.
    expect(start.slotIndex).toBeGreaterThan(100_000n);
    expect(start.clock.epochStartTimestamp).toBeLessThan(start.clock.unixTimestamp! - 3_600n);

    const { slotsInEpoch } = await chain.rpc.getEpochInfo().send();
    await chain.testControls!.warp(Number(((slotsInEpoch - start.slotIndex) * 400n) / 1000n) + 3_600);
    const next = await expectConsistent();
    expect(next.epoch).toBe(start.epoch + 1n);
    expect(next.slotIndex).toBeGreaterThan(8_000n);
  });

  it("moves a saved Clock that dated its epoch from the first start back to the epoch's first slot", async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-epoch-start-'));
    opened.push({ close: () => rmSync(stateDir, { recursive: true, force: true }) });
    // A chain saved before this fix: its Clock said the epoch began when the chain first started.
    const old = EmbeddedLedger.open(new ChainStateFiles(stateDir), () => new Date());
    const svm = (
      old as unknown as {
        svm: {
          getClock(): { unixTimestamp: bigint; epochStartTimestamp: bigint };
          setClock(clock: unknown): void;
        };
      }
    ).svm;
    const clock = svm.getClock();
    clock.epochStartTimestamp = clock.unixTimestamp;
    svm.setClock(clock);
    await old.close();

    const chain = await createEmbeddedChain({ stateDir });
    opened.push(chain);
    await expectEpochStartFromSlots(chain);
  });
});
