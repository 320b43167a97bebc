import {
  createSolanaRpcFromTransport,
  createSolanaRpcSubscriptions,
  isSolanaError,
  lamports,
} from '@solana/kit';
import type { Cluster } from '#contract/config';
import { waitForConfirmation } from './confirmation';
import type { ChainPort } from './port';
import { createProviderTransport } from './rpc-transport';
import { pubSubUrlOf, watchSignaturesOn } from './signature-watch';

const HEALTH_TIMEOUT_MS = 3_000;
const AIRDROP_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RPS = 50;

export function explorerUrlTemplate(cluster: Cluster, url: string): string {
  const base = 'https://explorer.solana.com/tx/{signature}';
  switch (cluster) {
    case 'mainnet-beta':
      return base;
    case 'localnet':
      // The explorer reads a local validator straight from the browser.
      return `${base}?cluster=custom&customUrl=${encodeURIComponent(url)}`;
    default:
      return `${base}?cluster=${cluster}`;
  }
}

/** A real cluster (devnet, testnet, mainnet-beta, or a local validator) over HTTP JSON-RPC. */
export function createRpcChain(options: {
  url: string;
  cluster: Cluster;
  /** SOLANA_RPC_MAX_RPS: this instance's requests per second to the provider. */
  maxRequestsPerSecond?: number;
  /** SOLANA_WS_URL: the provider's PubSub, when it is not beside `url` (ws(s), next port locally). */
  wsUrl?: string | null;
}): ChainPort {
  const { url, cluster } = options;
  const rpc = createSolanaRpcFromTransport(
    createProviderTransport(url, { maxRequestsPerSecond: options.maxRequestsPerSecond ?? DEFAULT_MAX_RPS }),
  );
  // Confirmations are heard there as well as polled (signature-watch.ts).
  watchSignaturesOn(rpc, createSolanaRpcSubscriptions(options.wsUrl ?? pubSubUrlOf(url)));
  const explorer = explorerUrlTemplate(cluster, url);
  return {
    cluster,
    embedded: false,
    rpc,
    explorerUrlTemplate: explorer,
    solanaExplorerUrlTemplate: explorer,
    async health() {
      const abortSignal = AbortSignal.timeout(HEALTH_TIMEOUT_MS);
      try {
        // getHealth fails (-32005) when the node lags the cluster; getSlot proves it answers reads.
        const [, slot] = await Promise.all([
          rpc.getHealth().send({ abortSignal }),
          rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal }),
        ]);
        return { ok: true, slot };
      } catch (error) {
        return { ok: false, error: describeRpcFailure(error, url) };
      }
    },
    async airdrop(address, amount) {
      if (cluster === 'mainnet-beta')
        throw new Error('Airdrops do not exist on mainnet-beta: SOL there is real');
      const signature = await rpc
        .requestAirdrop(address, lamports(amount), { commitment: 'confirmed' })
        .send();
      await waitForConfirmation(rpc, signature, { commitment: 'confirmed', timeoutMs: AIRDROP_TIMEOUT_MS });
      return signature;
    },
    async close() {
      // HTTP requests hold nothing open between calls.
    },
  };
}

function describeRpcFailure(error: unknown, url: string): string {
  const host = URL.canParse(url) ? new URL(url).host : url;
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `${host} did not answer within ${HEALTH_TIMEOUT_MS} ms`;
  }
  if (isSolanaError(error)) {
    // kit leaves the node's own words in the context; its message is a bare code in production builds.
    const serverMessage = (error.context as { __serverMessage?: unknown }).__serverMessage;
    return `${host}: ${typeof serverMessage === 'string' ? serverMessage : error.message}`;
  }
  return `${host}: ${(error as Error).message}`;
}
