import WebSocket from 'ws';
import { CHAT_LIMITS } from '#contract/chat-limits';
import { percentile } from '#test/helpers/read-latency';
import { type Instance, startProcessCluster } from '../../test/helpers/process-cluster';
import { monotonicMs, receiverProcesses, startChatReceivers } from '../lib/chat-receivers';
import { processCpuMs } from '../lib/proc-cpu';
import type { Benchmark, BenchResult } from '../types';

const SOCKETS = 5000;
/**
 * Client addresses the sockets come from (X-Forwarded-For; the instances trust one proxy), under
 * the per-address allowances: the open sockets, and the opens a second (each address opens its
 * few sockets once).
 */
const ADDRESSES = Math.max(
  Math.ceil(SOCKETS / (CHAT_LIMITS.socketsPerAddress / 2)),
  Math.ceil(SOCKETS / CHAT_LIMITS.opensPerAddressPerSecond),
);
/** Per sender: the per-user rate limit (5 in 10 s) allows this many without waiting. */
const ROUNDS = CHAT_LIMITS.ratePerWindow;
const P99_BUDGET_MS = 100;

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
 * signed-in sender on each. The listening sockets live in BENCH_CHAT_RECEIVERS (default one per core) child
 * processes (bench/lib/chat-receiver.ts), so that one client event loop reading 50,000 frames is
 * not what is measured. Each round both senders send at once; the round ends when every socket has
 * both messages. Five warm-up rounds from their own senders come first and are reported apart. Delivery latency is from the send to each socket's receipt, both on the
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
      // Warm-up rounds first, from their own senders (the per-user rate limit): a server's fan-out
      // and a reader's read path are compiled by V8 during their first rounds (a profile showed the
      // readers' compiler threads busy through all five), which a running server has long done.
      const [warmUpSenders, measuredSenders] = await Promise.all(
        ['warmup', 'sender'].map(async (role) => {
          const users = await Promise.all(
            instances.map((instance, i) => cluster.newUser(instance, `bench_${role}_${i}`, { sol: '0.01' })),
          );
          const sockets = await Promise.all(
            instances.map((instance, i) => sender(instance, users[i]!.token)),
          );
          senders.push(...sockets);
          return sockets;
        }),
      );
      // The joins' presence news settles before the first round.
      await new Promise((resolve) => setTimeout(resolve, 1000));

      const sentAt = new Map<string, number>();
      const texts: string[] = [];
      /** Rounds in which both senders send at once; each ends when every socket has both messages. */
      const rounds = async (from: WebSocket[], label: string) => {
        for (let round = 0; round < ROUNDS; round++) {
          const sent = from.map((socket, i) => {
            const text = `${label} ${round} from ${i === 0 ? 'A' : 'B'}`;
            texts.push(text);
            sentAt.set(text, monotonicMs());
            socket.send(JSON.stringify({ type: 'chat_message', message: text, dareId: null }));
            return text;
          });
          await Promise.all(sent.map((text) => receivers!.complete(text, 60_000)));
        }
      };
      await rounds(warmUpSenders!, 'warm-up');
      const measuredFrom = texts.length;

      // CPU (user + system, /proc) the instances and the receivers use while the rounds run: unlike
      // latency, it does not depend on what else the machine is doing.
      const cpu = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? Number.NaN), 0);
      const serverPids = instances.map((instance) => instance.pid);
      const cpuBefore = { servers: cpu(serverPids), receivers: cpu(receivers.pids) };
      await rounds(measuredSenders!, 'round');
      const measured = texts.slice(measuredFrom);
      const cpuUsed = {
        servers: cpu(serverPids) - cpuBefore.servers,
        receivers: cpu(receivers.pids) - cpuBefore.receivers,
      };
      // Late duplicates would arrive after every socket had its copy.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { arrivals, wrong, closed } = await receivers.report(texts);
      if (closed.length > 0)
        console.error(`  ${closed.length} listeners were closed (codes ${[...new Set(closed)].join(', ')})`);

      /** Every delivery's latency (ms, sorted) and each message's first delivery (sorted). */
      const latenciesOf = (messages: string[]) => {
        const latencies: number[] = [];
        /** Per message, its first delivery: what it took before any fan-out (storing, the bus, the window). */
        const firsts: number[] = [];
        for (const text of messages) {
          const started = sentAt.get(text)!;
          let first = Number.POSITIVE_INFINITY;
          for (const at of arrivals.get(text) ?? []) {
            latencies.push(at - started);
            first = Math.min(first, at - started);
          }
          firsts.push(first);
        }
        return { sorted: latencies.sort((a, b) => a - b), firsts: firsts.sort((a, b) => a - b) };
      };
      const { sorted, firsts } = latenciesOf(measured);
      const warmUp = latenciesOf(texts.slice(0, measuredFrom)).sorted;
      const results: BenchResult[] = [
        {
          kind: 'measure',
          name: `chat delivery to ${SOCKETS} sockets on 2 instances, p99`,
          value: percentile(sorted, 99),
          unit: 'ms',
          budget: P99_BUDGET_MS,
          detail: `p50 ${Math.round(percentile(sorted, 50))} ms, p90 ${Math.round(percentile(sorted, 90))} ms, max ${Math.round(sorted.at(-1)!)} ms, a message's first delivery p50 ${Math.round(percentile(firsts, 50))} ms, over ${sorted.length.toLocaleString('en-US')} deliveries of ${measured.length} messages after ${measuredFrom} warm-up messages (their p99 ${Math.round(percentile(warmUp, 99))} ms: the first rounds after a start, while V8 compiles the fan-out and the readers); a sender on each instance; ${processes} receiving processes`,
        },
        {
          kind: 'measure',
          name: 'chat: server CPU per message (both instances)',
          value: cpuUsed.servers / measured.length,
          unit: 'ms',
          // Informational: a message's fan-out must fit well within the latency budget.
          budget: P99_BUDGET_MS,
          detail: `${Math.round(cpuUsed.servers)} ms of CPU for ${measured.length} messages to ${SOCKETS} sockets; the receiving processes used ${Math.round(cpuUsed.receivers)} ms`,
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
