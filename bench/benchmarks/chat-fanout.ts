import WebSocket from 'ws';
import { CHAT_LIMITS } from '#contract/chat-limits';
import { percentile } from '#test/helpers/read-latency';
import { newClient } from '../../e2e/fixtures/http-client';
import { monotonicMs, receiverProcesses, startChatReceivers } from '../lib/chat-receivers';
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

/**
 * 500 sockets in the global room of one instance. First one message at a time (delivery latency
 * from send to each socket), then 50 messages from 10 senders at once (messages and deliveries
 * per second through the instance). The listening sockets are read by the chat-cluster bench's
 * receiving processes (bench/lib/chat-receiver.ts: BENCH_CHAT_RECEIVERS, default one per core), so
 * that one `ws` client event loop reading 500 sockets is not what is measured (decision 083);
 * arrivals are stamped on the machine's monotonic clock as each read returns.
 */
export const chatFanout: Benchmark = {
  name: 'chat-fanout',
  description: `chat fan-out to ${LISTENERS} sockets in one room`,
  async run(context) {
    const processes = receiverProcesses();
    const receivers = await startChatReceivers(
      Array.from({ length: LISTENERS }, (_, n) => ({
        url: context.baseUrl.replace('http', 'ws'),
        address: `10.1.${(n % ADDRESSES) >> 8}.${(n % ADDRESSES) & 255}`,
      })),
      processes,
    );
    const senders: WebSocket[] = [];
    try {
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
      const send = (sender: WebSocket, text: string) => {
        sentAt.set(text, monotonicMs());
        sender.send(JSON.stringify({ type: 'chat_message', message: text, dareId: null }));
      };

      // Latency: one message at a time, each to every listener.
      const single = 4;
      const lone: string[] = [];
      for (let i = 0; i < single; i++) {
        const text = `latency ${i}`;
        lone.push(text);
        send(senders[i]!, text);
        await receivers.complete(text, 30_000);
      }

      // Throughput: every sender's remaining allowance at once.
      const burst: string[] = [];
      for (const index of senders.keys()) {
        const allowance = MESSAGES_PER_SENDER - (index < single ? 1 : 0);
        for (let m = 0; m < allowance; m++) burst.push(`${index}:${m}`);
      }
      const started = monotonicMs();
      for (const text of burst) send(senders[Number(text.split(':')[0])]!, text);
      await Promise.all(burst.map((text) => receivers.complete(text, 30_000)));
      const seconds = (monotonicMs() - started) / 1000;

      const { arrivals, wrong } = await receivers.report([...lone, ...burst]);
      const latencies: number[] = [];
      const firsts: number[] = [];
      for (const text of lone) {
        const times = arrivals.get(text) ?? [];
        for (const at of times) latencies.push(at - sentAt.get(text)!);
        firsts.push(Math.min(...times) - sentAt.get(text)!);
      }
      const sorted = latencies.sort((a, b) => a - b);
      firsts.sort((a, b) => a - b);
      const results: BenchResult[] = [
        {
          kind: 'measure',
          name: `chat delivery to ${LISTENERS} sockets, p99`,
          value: percentile(sorted, 99),
          unit: 'ms',
          budget: P99_BUDGET_MS,
          detail: `p50 ${Math.round(percentile(sorted, 50))} ms, max ${Math.round(sorted.at(-1)!)} ms, a message's first delivery p50 ${Math.round(percentile(firsts, 50))} ms, over ${sorted.length} deliveries of ${single} messages; ${processes} receiving processes`,
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
        {
          kind: 'measure',
          name: 'chat fan-out deliveries not exactly once (missing or repeated)',
          value: wrong,
          unit: 'deliveries',
          budget: 0,
          detail: `${lone.length + burst.length} messages x ${LISTENERS} sockets: each must arrive once`,
        },
      ];
      return results;
    } finally {
      for (const socket of senders) socket.terminate();
      await receivers.close();
    }
  },
};
