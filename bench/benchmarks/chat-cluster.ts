import WebSocket from 'ws';
import { CHAT_LIMITS } from '#contract/chat-limits';
import { type Instance, startProcessCluster } from '../../test/helpers/process-cluster';
import type { Benchmark, BenchResult } from '../types';

const SOCKETS = 5000;
/** Client addresses the sockets come from (X-Forwarded-For; the instances trust one proxy), under the per-address allowance. */
const ADDRESSES = Math.ceil(SOCKETS / (CHAT_LIMITS.socketsPerAddress / 2));
/** Per sender: the per-user rate limit (5 in 10 s) allows this many without waiting. */
const ROUNDS = CHAT_LIMITS.ratePerWindow;
const P99_BUDGET_MS = 100;

function open(url: string, address: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url}/ws`, { headers: { 'x-forwarded-for': address } });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    // A socket refused past an allowance is closed at once: the bench would measure fewer listeners.
    socket.once('close', (code) => {
      if (code !== 1000 && code !== 1005 && code !== 1006)
        console.error(`  a listener was closed with ${code}`);
    });
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function sender(instance: Instance, token: string): Promise<WebSocket> {
  const socket = await open(instance.wsUrl, '192.0.2.1');
  socket.send(JSON.stringify({ type: 'auth', token }));
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type !== 'auth') return;
      if (frame.ok) resolve();
      else reject(new Error('sender not signed in'));
    });
  });
  return socket;
}

/**
 * Chat across instances at crowd size: two server processes (as `npm start` runs one) on one
 * PostgreSQL database, one Redis and one chain (test/helpers/process-cluster.ts), 5,000 sockets in
 * the global room split between them, a signed-in sender on each. Each round both senders send at
 * once; the round ends when every socket has both messages. Delivery latency is from the send to
 * each socket's receipt; every socket must see every message exactly once.
 * Needs PostgreSQL and Redis: TEST_DATABASE_URL and TEST_REDIS_URL (defaults: the local ones).
 */
export const chatCluster: Benchmark = {
  name: 'chat-cluster',
  description: `chat delivery to ${SOCKETS} sockets over two instances (PostgreSQL, Redis)`,
  inProcess: true,
  async run() {
    process.env.TEST_DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/test';
    process.env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
    const cluster = await startProcessCluster({ env: { TRUST_PROXY: '1', LOG_LEVEL: 'warn' } });
    const sockets: WebSocket[] = [];
    try {
      const instances = [cluster.a, cluster.b];
      // Connections opened 100 at a time, alternating instances, as a load balancer spreads them.
      for (let i = 0; i < SOCKETS; i += 100) {
        const batch = Array.from({ length: Math.min(100, SOCKETS - i) }, (_, j) => {
          const n = i + j;
          return open(instances[n % 2]!.wsUrl, `10.${(n % ADDRESSES) >> 8}.${(n % ADDRESSES) & 255}.1`);
        });
        sockets.push(...(await Promise.all(batch)));
      }
      const users = await Promise.all(
        instances.map((instance, i) => cluster.newUser(instance, `bench_sender_${i}`, { sol: '0.01' })),
      );
      const senders = await Promise.all(instances.map((instance, i) => sender(instance, users[i]!.token)));

      const sentAt = new Map<string, number>();
      const latencies: number[] = [];
      /** Per socket, how many times it received each message. */
      const received = sockets.map(() => new Map<string, number>());
      let delivered = 0;
      let onDelivered: (() => void) | null = null;
      sockets.forEach((socket, index) => {
        socket.on('message', (data) => {
          const frame = JSON.parse(data.toString());
          if (frame.type !== 'chat_message') return;
          const text: string = frame.message.message;
          const started = sentAt.get(text);
          if (started === undefined) return;
          const seen = received[index]!;
          seen.set(text, (seen.get(text) ?? 0) + 1);
          latencies.push(performance.now() - started);
          delivered += 1;
          onDelivered?.();
        });
      });
      const waitFor = (total: number) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`only ${delivered}/${total} deliveries`)), 60_000);
          onDelivered = () => {
            if (delivered < total) return;
            clearTimeout(timer);
            onDelivered = null;
            resolve();
          };
          onDelivered();
        });

      const texts: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        senders.forEach((socket, i) => {
          const text = `round ${round} from ${i === 0 ? 'A' : 'B'}`;
          texts.push(text);
          sentAt.set(text, performance.now());
          socket.send(JSON.stringify({ type: 'chat_message', message: text, dareId: null }));
        });
        await waitFor(texts.length * SOCKETS);
      }
      // Late duplicates would arrive after the count was reached.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      let wrong = 0;
      for (const seen of received) for (const text of texts) if (seen.get(text) !== 1) wrong += 1;

      const sorted = [...latencies].sort((a, b) => a - b);
      const results: BenchResult[] = [
        {
          kind: 'measure',
          name: `chat delivery to ${SOCKETS} sockets on 2 instances, p99`,
          value: percentile(sorted, 99),
          unit: 'ms',
          budget: P99_BUDGET_MS,
          detail: `p50 ${Math.round(percentile(sorted, 50))} ms over ${sorted.length.toLocaleString('en-US')} deliveries of ${texts.length} messages (a sender on each instance)`,
        },
        {
          kind: 'measure',
          name: 'chat deliveries not exactly once (missing or repeated)',
          value: wrong,
          unit: 'deliveries',
          budget: 0,
          detail: `${texts.length} messages x ${SOCKETS} sockets: each must arrive once`,
        },
      ];
      return results;
    } finally {
      for (const socket of sockets) socket.terminate();
      await cluster.close();
    }
  },
};
