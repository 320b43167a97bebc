import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { FromReceiver, ReceiverSocket, ToReceiver } from './chat-receiver';

export { monotonicMs } from './ws-reader';

/** How many receiving processes to start: BENCH_CHAT_RECEIVERS, or one per core (more only take turns on the same cores). */
export function receiverProcesses(): number {
  const raw = process.env.BENCH_CHAT_RECEIVERS;
  const value = raw ? Number(raw) : os.availableParallelism();
  if (!Number.isInteger(value) || value < 1) throw new Error(`Invalid BENCH_CHAT_RECEIVERS: ${raw}`);
  return value;
}

type Report = Extract<FromReceiver, { type: 'report' }>;

export interface ChatReceivers {
  /** Resolves once every receiving process has `text` on each of its sockets. */
  complete(text: string, timeoutMs: number): Promise<void>;
  /** Every process's arrivals, (socket, text) pairs not received exactly once, close codes. */
  report(texts: string[]): Promise<{ arrivals: Map<string, number[]>; wrong: number; closed: number[] }>;
  close(): Promise<void>;
  /** The receiving processes' ids (their CPU is read from /proc). */
  pids: number[];
}

/**
 * Opens `sockets` spread over `processes` child processes (bench/lib/chat-receiver.ts), socket i
 * in process i % processes, and resolves once all are open.
 */
export async function startChatReceivers(
  sockets: ReceiverSocket[],
  processes: number,
): Promise<ChatReceivers> {
  const children: ChildProcess[] = [];
  const completed = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const failures: string[] = [];
  const close = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            if (child.connected) child.send({ type: 'close' } satisfies ToReceiver);
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
          }),
      ),
    );
  };

  try {
    const opened = sockets.length === 0 ? [] : Array.from({ length: Math.min(processes, sockets.length) });
    await Promise.all(
      opened.map(async (_, index) => {
        const child = fork(path.join(import.meta.dirname, 'chat-receiver.ts'), [], {
          // BENCH_RECEIVER_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the readers.
          execArgv: [
            '--import',
            'tsx',
            ...(process.env.BENCH_RECEIVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
          ],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        children.push(child);
        child.on('message', (message: FromReceiver) => {
          if (message.type === 'complete') {
            const count = (completed.get(message.text) ?? 0) + 1;
            completed.set(message.text, count);
            if (count === children.length) waiting.get(message.text)?.();
          } else if (message.type === 'failed') failures.push(message.error);
        });
        await new Promise<void>((resolve, reject) => {
          child.on('message', (message: FromReceiver) => {
            if (message.type === 'opened') resolve();
            if (message.type === 'failed')
              reject(new Error(`a receiver could not open its sockets: ${message.error}`));
          });
          child.once('exit', (code) =>
            reject(new Error(`a receiver exited (${code}) before its sockets were open`)),
          );
          child.send({
            type: 'open',
            sockets: sockets.filter((_, i) => i % opened.length === index),
          } satisfies ToReceiver);
        });
      }),
    );
  } catch (error) {
    await close();
    throw error;
  }

  return {
    complete(text, timeoutMs) {
      if ((completed.get(text) ?? 0) === children.length) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(text);
          reject(
            new Error(
              `'${text}' reached every socket of ${completed.get(text) ?? 0}/${children.length} receivers within ${timeoutMs} ms${failures.length ? ` (${failures.join('; ')})` : ''}`,
            ),
          );
        }, timeoutMs);
        waiting.set(text, () => {
          clearTimeout(timer);
          waiting.delete(text);
          resolve();
        });
      });
    },
    async report(texts) {
      if (failures.length > 0) throw new Error(`a receiver failed: ${failures.join('; ')}`);
      const reports = await Promise.all(
        children.map(
          (child) =>
            new Promise<Report>((resolve) => {
              const onMessage = (message: FromReceiver) => {
                if (message.type !== 'report') return;
                child.off('message', onMessage);
                resolve(message);
              };
              child.on('message', onMessage);
              child.send({ type: 'report', texts } satisfies ToReceiver);
            }),
        ),
      );
      const arrivals = new Map<string, number[]>();
      for (const report of reports)
        for (const [text, times] of Object.entries(report.arrivals))
          arrivals.set(text, [...(arrivals.get(text) ?? []), ...times]);
      return {
        arrivals,
        wrong: reports.reduce((sum, report) => sum + report.wrong, 0),
        closed: reports.flatMap((report) => report.closed),
      };
    },
    close,
    pids: children.map((child) => child.pid!),
  };
}
