import { Worker } from 'node:worker_threads';

/** One JSON-RPC answer as the attacker saw it (the result itself stays in the attacker's thread). */
export interface AnswerSummary {
  id: unknown;
  hasResult: boolean;
  error?: { code: number; message: string };
}

export interface ResponseSummary {
  status: number;
  bytes: number;
  /** The answers of a batch, or the one answer; null when the body was not JSON. */
  answers: AnswerSummary[] | AnswerSummary | null;
}

// Plain JavaScript, run as a worker thread's script: it needs nothing of the repository.
const ATTACKER = `
const { parentPort, workerData } = require('node:worker_threads');
const summary = (answer) => ({
  id: answer?.id ?? null,
  hasResult: answer != null && 'result' in answer,
  ...(answer?.error ? { error: { code: answer.error.code, message: answer.error.message } } : {}),
});
async function send(body) {
  const res = await fetch(workerData.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  let answers = null;
  try {
    const parsed = JSON.parse(text);
    answers = Array.isArray(parsed) ? parsed.map(summary) : summary(parsed);
  } catch {}
  return { status: res.status, bytes: text.length, answers };
}
(async () => {
  const results = [];
  const until = Date.now() + (workerData.forMs ?? 0);
  do {
    if (workerData.parallel) results.push(...(await Promise.all(workerData.bodies.map(send))));
    else for (const body of workerData.bodies) results.push(await send(body));
  } while (Date.now() < until);
  parentPort.postMessage(results);
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

/**
 * Sends `bodies` to the served chain RPC from another thread, as an attacker's page or program
 * would from outside the app: reading and parsing megabytes of answers is the attacker's work, not
 * the app's event loop's (the API tier runs the app in the test's own process).
 */
export function attackFromOutside(
  url: string,
  bodies: string[],
  /** `forMs`: sends `bodies` again and again until this long has passed (a sustained flood). */
  options: { parallel?: boolean; forMs?: number } = {},
): Promise<ResponseSummary[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(ATTACKER, {
      eval: true,
      workerData: { url, bodies, parallel: options.parallel ?? false, forMs: options.forMs ?? 0 },
    });
    worker.once('message', (message: ResponseSummary[] | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}
