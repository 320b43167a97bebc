import WebSocket from 'ws';
import { CHAT_LIMITS } from '#contract/chat-limits';
import { newClient } from '../../e2e/fixtures/http-client';
import type { BenchContext, Benchmark, BenchResult } from '../types';

const LISTENERS = 500;
const SENDERS = 10;
/** Per sender: the per-user rate limit (5 in 10 s) allows this many without waiting. */
const MESSAGES_PER_SENDER = CHAT_LIMITS.ratePerWindow;
const P99_BUDGET_MS = 30;

const wsUrl = (context: BenchContext) => `${context.baseUrl.replace('http', 'ws')}/ws`;
/**
 * The listeners come from this many client addresses (X-Forwarded-For; the bench's server trusts
 * one proxy), as a crowd does: one address may hold 50 sockets and open 5 a second.
 */
const ADDRESSES = Math.ceil(LISTENERS / CHAT_LIMITS.opensPerAddressPerSecond);

function open(url: string, address: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { 'X-Forwarded-For': address } });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * 500 sockets in the global room of one instance. First one message at a time (delivery latency
 * from send to each socket), then 50 messages from 10 senders at once (messages and deliveries
 * per second through the instance).
 */
export const chatFanout: Benchmark = {
  name: 'chat-fanout',
  description: `chat fan-out to ${LISTENERS} sockets in one room`,
  async run(context) {
    const listeners: WebSocket[] = [];
    for (let i = 0; i < LISTENERS; i += 100) {
      const opening = Array.from({ length: 100 }, (_, k) => {
        const n = (i + k) % ADDRESSES;
        return open(wsUrl(context), `10.1.${n >> 8}.${n & 255}`);
      });
      listeners.push(...(await Promise.all(opening)));
    }
    const senders: WebSocket[] = [];
    for (let i = 0; i < SENDERS; i++) {
      const { token } = await newClient(context, i);
      const socket = await open(wsUrl(context), `10.2.0.${i + 1}`);
      socket.send(JSON.stringify({ type: 'auth', token }));
      await new Promise<void>((resolve) =>
        socket.on('message', (data) => {
          if (JSON.parse(data.toString()).type === 'auth') resolve();
        }),
      );
      senders.push(socket);
    }

    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    let delivered = 0;
    let onDelivered: (() => void) | null = null;
    for (const socket of listeners) {
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.type !== 'chat_message') return;
        const started = sentAt.get(frame.message.message);
        if (started === undefined) return;
        latencies.push(performance.now() - started);
        delivered += 1;
        onDelivered?.();
      });
    }
    const waitForDeliveries = (total: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${delivered}/${total} deliveries`)), 30_000);
        onDelivered = () => {
          if (delivered >= total) {
            clearTimeout(timer);
            onDelivered = null;
            resolve();
          }
        };
        onDelivered();
      });

    // Latency: one message at a time, each to every listener.
    const single = 4;
    for (let i = 0; i < single; i++) {
      const text = `latency ${i}`;
      sentAt.set(text, performance.now());
      senders[i]!.send(JSON.stringify({ type: 'chat_message', message: text, dareId: null }));
      await waitForDeliveries((i + 1) * LISTENERS);
    }
    const sorted = [...latencies].sort((a, b) => a - b);

    // Throughput: every sender's remaining allowance at once.
    const burst: string[] = [];
    for (const index of senders.keys()) {
      const allowance = MESSAGES_PER_SENDER - (index < single ? 1 : 0);
      for (let m = 0; m < allowance; m++) burst.push(`${index}:${m}`);
    }
    delivered = 0;
    const started = performance.now();
    for (const text of burst) {
      const sender = senders[Number(text.split(':')[0])]!;
      sentAt.set(text, performance.now());
      sender.send(JSON.stringify({ type: 'chat_message', message: text, dareId: null }));
    }
    await waitForDeliveries(burst.length * LISTENERS);
    const seconds = (performance.now() - started) / 1000;

    for (const socket of [...listeners, ...senders]) socket.terminate();
    const results: BenchResult[] = [
      {
        kind: 'measure',
        name: `chat delivery to ${LISTENERS} sockets, p99`,
        value: percentile(sorted, 99),
        unit: 'ms',
        budget: P99_BUDGET_MS,
        detail: `p50 ${Math.round(percentile(sorted, 50))} ms over ${sorted.length} deliveries of ${single} messages`,
      },
      {
        kind: 'measure',
        name: 'chat burst: time to deliver all',
        value: seconds * 1000,
        unit: 'ms',
        // Informational bound: the whole burst to every socket within 5 s.
        budget: 5000,
        detail: `${burst.length} messages from ${SENDERS} senders: ${Math.round(burst.length / seconds)} messages/s, ${Math.round((burst.length * LISTENERS) / seconds).toLocaleString('en-US')} deliveries/s`,
      },
    ];
    return results;
  },
};
