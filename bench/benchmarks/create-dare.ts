import { getBase64EncodedWireTransaction, getTransactionDecoder, signTransaction } from '@solana/kit';
import { type BenchClient as Client, call, newClient } from '../lib/clients';
import type { BenchContext, Benchmark } from '../types';

const USERS = 3;
const DARES_PER_USER = 15;
const WARMUP_DARES = 2;
const MEDIAN_BUDGET_MS = 100;
const P99_BUDGET_MS = 300;

/** The client's whole create-dare money path: escrow, build, sign, send, verify and record. */
async function createDare(context: BenchContext, client: Client, n: number): Promise<number> {
  const started = performance.now();
  const { publicKey: escrow } = await call(context, '/api/create-escrow-wallet', undefined, client.token);
  const stake = '0.01';
  const { transaction } = await call(
    context,
    '/api/create-transaction',
    { fromWallet: client.address, toWallet: escrow, amount: stake },
    client.token,
  );
  const unsigned = getTransactionDecoder().decode(Buffer.from(transaction, 'base64'));
  const signed = getBase64EncodedWireTransaction(await signTransaction([client.keys], unsigned));
  const { signature } = await call(
    context,
    '/api/send-transaction',
    { signedTransaction: signed },
    client.token,
  );
  await call(
    context,
    '/api/dares',
    {
      title: `Bench dare ${n}`,
      description: 'Measured by npm run bench.',
      stakeAmount: stake,
      difficulty: 'easy',
      category: 'skill',
      deadline: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
      userWallet: client.address,
      transactionSignature: signature,
      network: 'localnet',
      escrowWalletAddress: escrow,
    },
    client.token,
  );
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * One dare after another, as users create them: the latency of the five calls a client makes,
 * on the embedded chain (PGlite, LiteSVM), per dare.
 */
export const createDareBench: Benchmark = {
  name: 'create-dare',
  description: `create-dare money path, ${USERS * DARES_PER_USER} dares over 5 HTTP calls each`,
  async run(context) {
    const clients = [];
    for (let i = 0; i < USERS; i++) clients.push(await newClient(context, i));
    for (let i = 0; i < WARMUP_DARES; i++) await createDare(context, clients[0]!, -i);
    const times: number[] = [];
    for (let round = 0; round < DARES_PER_USER; round++) {
      for (const client of clients) times.push(await createDare(context, client, times.length));
    }
    times.sort((a, b) => a - b);
    const detail = `${times.length} dares, min ${Math.round(times[0]!)} ms, max ${Math.round(times.at(-1)!)} ms`;
    return [
      {
        kind: 'measure',
        name: 'create dare (5 calls), median',
        value: percentile(times, 50),
        unit: 'ms',
        budget: MEDIAN_BUDGET_MS,
        detail,
      },
      {
        kind: 'measure',
        name: 'create dare (5 calls), p99',
        value: percentile(times, 99),
        unit: 'ms',
        budget: P99_BUDGET_MS,
      },
    ];
  },
};
