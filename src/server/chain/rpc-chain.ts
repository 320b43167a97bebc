import { createSolanaRpc } from '@solana/kit';
import type { Cluster } from '../../contract/config';
import type { ChainPort } from './port';
import { waitForSignature } from './transfers';

function explorerTemplate(cluster: Cluster, rpcUrl: string): string {
  const base = 'https://explorer.solana.com/tx/{signature}';
  if (cluster === 'mainnet-beta') return base;
  if (cluster === 'localnet') return `${base}?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`;
  return `${base}?cluster=${cluster}`;
}

/** A real cluster (devnet, mainnet-beta, a local validator) over JSON-RPC. */
export function createRpcChain(options: { rpcUrl: string; cluster: Cluster }): ChainPort {
  const rpc = createSolanaRpc(options.rpcUrl);
  return {
    cluster: options.cluster,
    embedded: false,
    rpc,
    explorerUrlTemplate: explorerTemplate(options.cluster, options.rpcUrl),
    async health() {
      try {
        const signal = AbortSignal.timeout(3000);
        const slot = await rpc.getSlot().send({ abortSignal: signal });
        return { ok: true, slot };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
    async airdrop(address, lamports) {
      if (options.cluster === 'mainnet-beta') throw new Error('There are no airdrops on mainnet-beta');
      const signature = await rpc.requestAirdrop(address, lamports as never).send();
      await waitForSignature(rpc, signature, { commitment: 'confirmed', timeoutMs: 60_000 });
      return signature;
    },
    async close() {},
  };
}
