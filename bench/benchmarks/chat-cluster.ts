import os from 'node:os';
import WebSocket from 'ws';
import { CHAT_LIMITS } from '#contract/chat-limits';
import { type Instance, startProcessCluster } from '../../test/helpers/process-cluster';
import { monotonicMs, startChatReceivers } from '../lib/chat-receivers';
import { processCpuMs } from '../lib/proc-cpu';
import type { Benchmark, BenchResult } from '../types';

const SOCKETS = 5000;
/** Client addresses the sockets come from (X-Forwarded-For; the instances trust one proxy), under the per-address allowance. */
const ADDRESSES = Math.ceil(SOCKETS / (CHAT_LIMITS.socketsPerAddress / 2));
/** Per sender: the per-user rate limit (5 in 10 s) allows this many without waiting. */
const ROUNDS = CHAT_LIMITS.ratePerWindow;
const P99_BUDGET_MS = 100;

function receiverProcesses(): number {
  const raw = process.env.BENCH_CHAT_RECEIVERS;
  // One per core: more only take turns on the same cores.
  const value = raw ? Number(raw) : os.availableParallelism();
  if (!Number.isInteger(value) || value < 1) throw new Error(`Invalid BENCH_CHAT_RECEIVERS: ${raw}`);
  return value;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function sender(instance: Instance, token: string): Promise<WebSocket> {
  const socket = new WebSocket(`${instance.wsUrl}/ws`, { headers: { 'x-forwarded-for': '192.0.2.1' } });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
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
 * Chat across instances at crowd size: two server processes started as `npm start` starts one
 * (compiled, production, its default log level) on one PostgreSQL database, one Redis and one
 * chain (test/helpers/process-cluster.ts), 5,000 sockets in the global room split between them, a
 * signed-in sender on each. The listening sockets live in BENCH_CHAT_RECEIVERS (default 4) child
 * processes (bench/lib/chat-receiver.ts), so that one client event loop reading 50,000 frames is
 * not what is measured. Each round both senders send at once; the round ends when every socket has
 * both messages. Delivery latency is from the send to each socket's receipt, both on the
 * machine's monotonic clock; every socket must see every message exactly once.
 * Needs PostgreSQL and Redis: TEST_DATABASE_URL and TEST_REDIS_URL (defaults: the local ones).
 */
export const chatCluster: Benchmark = {
  name: 'chat-cluster',
  description: `chat delivery to ${SOCKETS} sockets over two instances (PostgreSQL, Redis)`,
  inProcess: true,
  async run() {
    process.env.TEST_DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/test';
    process.env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
    const processes = receiverProcesses();
    const cluster = await startProcessCluster({
      compiled: true,
      env: { TRUST_PROXY: '1' },
      // Node options for the two instances only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them.
      nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean),
    });
    const senders: WebSocket[] = [];
    let receivers: Awaited<ReturnType<typeof startChatReceivers>> | null = null;
    try {
      const instances = [cluster.a, cluster.b];
      // Alternating instances, as a load balancer spreads connections.
      receivers = await startChatReceivers(
        Array.from({ length: SOCKETS }, (_, n) => ({
          url: instances[n % 2]!.wsUrl,
          address: `10.${(n % ADDRESSES) >> 8}.${(n % ADDRESSES) & 255}.1`,
        })),
        processes,
      );
      const users = await Promise.all(
        instances.map((instance, i) => cluster.newUser(instance, `bench_sender_${i}`, { sol: '0.01' })),
      );
      senders.push(...(await Promise.all(instances.map((instance, i) => sender(instance, users[i]!.token)))));
      // The joins' presence news settles before the first round.
      await new Promise((resolve) => setTimeout(resolve, 1000));

      // CPU (user + system, /proc) the instances and the receivers use while the rounds run: unlike
      // latency, it does not depend on what else the machine is doing.
      const cpu = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? Number.NaN), 0);
      const serverPids = instances.map((instance) => instance.pid);
      const cpuBefore = { servers: cpu(serverPids), receivers: cpu(receivers.pids) };
      const sentAt = new Map<string, number>();
      const texts: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const sent = senders.map((socket, i) => {
          const text = `round ${round} from ${i === 0 ? 'A' : 'B'}`;
          texts.push(text);
          sentAt.set(text, monotonicMs());
          socket.send(JSON.stringify({ type: 'chat_message', message: text, dareId: null }));
          return text;
        });
        await Promise.all(sent.map((text) => receivers!.complete(text, 60_000)));
      }
      const cpuUsed = {
        servers: cpu(serverPids) - cpuBefore.servers,
        receivers: cpu(receivers.pids) - cpuBefore.receivers,
      };
      // Late duplicates would arrive after every socket had its copy.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { arrivals, wrong, closed } = await receivers.report(texts);
      if (closed.length > 0)
        console.error(`  ${closed.length} listeners were closed (codes ${[...new Set(closed)].join(', ')})`);

      const latencies: number[] = [];
      /** Per message, its first delivery: what it took before any fan-out (storing, the bus, the window). */
      const firsts: number[] = [];
      for (const [text, times] of arrivals) {
        const started = sentAt.get(text);
        if (started === undefined) continue;
        let first = Number.POSITIVE_INFINITY;
        for (const at of times) {
          latencies.push(at - started);
          first = Math.min(first, at - started);
        }
        firsts.push(first);
      }
      firsts.sort((a, b) => a - b);
      const sorted = latencies.sort((a, b) => a - b);
      const [load1] = os.loadavg();
      const results: BenchResult[] = [
        {
          kind: 'measure',
          name: `chat delivery to ${SOCKETS} sockets on 2 instances, p99`,
          value: percentile(sorted, 99),
          unit: 'ms',
          budget: P99_BUDGET_MS,
          detail: `p50 ${Math.round(percentile(sorted, 50))} ms, p90 ${Math.round(percentile(sorted, 90))} ms, max ${Math.round(sorted.at(-1)!)} ms, a message's first delivery p50 ${Math.round(percentile(firsts, 50))} ms, over ${sorted.length.toLocaleString('en-US')} deliveries of ${texts.length} messages (a sender on each instance; ${processes} receiving processes; load average ${load1!.toFixed(2)})`,
        },
        {
          kind: 'measure',
          name: 'chat: server CPU per message (both instances)',
          value: cpuUsed.servers / texts.length,
          unit: 'ms',
          // Informational: a message's fan-out must fit well within the latency budget.
          budget: P99_BUDGET_MS,
          detail: `${Math.round(cpuUsed.servers)} ms of CPU for ${texts.length} messages to ${SOCKETS} sockets; the receiving processes used ${Math.round(cpuUsed.receivers)} ms`,
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
      for (const socket of senders) socket.terminate();
      await receivers?.close();
      await cluster.close();
    }
  },
};
