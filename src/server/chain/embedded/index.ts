import { createSolanaRpcFromTransport, lamports, type RpcTransport } from '@solana/kit';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import type { ChainPort, ChainRpcServerStatus } from '#server/chain/port';
import { explorerUrlTemplate } from '#server/chain/rpc-chain';
import { type Congestion, withCongestion } from './congestion';
import { EmbeddedLedger } from './embedded-ledger';
import { answerJsonRpc } from './json-rpc';
import { RPC_LIMITS } from './rpc-guard';
import { createRpcHandler } from './rpc-handler';
import { ChainRpcListenError, type ChainRpcServer, serveChainRpc } from './rpc-server';
import { ChainStateFiles } from './state-files';

export { ChainStateError } from './state-files';

/**
 * The embedded chain: LiteSVM in-process behind a JSON-RPC handler of our own, reached through a
 * kit transport that calls the handler directly. Requests and responses still pass through kit's
 * JSON codec, so the app sees exactly what it would see from a cluster over HTTP.
 *
 * `stateDir` null keeps the chain in memory (tests); otherwise each change is logged there before
 * it is answered, and restored on the next start (state-files.ts). Throws ChainStateError when
 * the saved state is damaged.
 */
export async function createEmbeddedChain(options: {
  stateDir: string | null;
  clock?: () => Date;
  /** Serve the chain's JSON-RPC (and PubSub on port + 1) for wallets and tools; port 0: any free. */
  rpcServer?: { host: string; port: number } | null;
  /** Give the port `testControls` (moving the clock); never for a normal start. */
  testControls?: boolean;
  /** The served RPC plays a busy cluster (`npm run localnet -- --drop-rate --min-priority-fee`). */
  congestion?: Congestion;
}): Promise<ChainPort> {
  const ledger = EmbeddedLedger.open(
    options.stateDir === null ? null : new ChainStateFiles(options.stateDir),
    options.clock ?? (() => new Date()),
  );
  const handle = createRpcHandler(ledger);

  const transport = (async ({ payload }) => {
    // kit refuses integers above 2^53 in requests, so plain JSON numbers carry them exactly.
    const request = JSON.parse(stringifyJsonWithBigInts(payload)) as unknown;
    const response = await answerJsonRpc(request, handle, () => ledger.whenSaved());
    return parseJsonWithBigInts(stringifyJsonWithBigInts(response));
  }) as RpcTransport;

  const rpc = createSolanaRpcFromTransport(transport);

  let server: ChainRpcServer | null = null;
  let rpcServer: ChainRpcServerStatus | undefined;
  if (options.rpcServer) {
    try {
      server = await serveChainRpc({
        ledger,
        handle: withCongestion(
          createRpcHandler(ledger, { maxAccountBytes: RPC_LIMITS.maxAnswerBytes }),
          options.congestion,
        ),
        ...options.rpcServer,
      });
      rpcServer = { serving: true, httpUrl: server.httpUrl, wsUrl: server.wsUrl };
    } catch (error) {
      // Wallets lose their view of the chain; the app itself needs none of it, so it keeps going.
      if (!(error instanceof ChainRpcListenError)) throw error;
      rpcServer = { serving: false, reason: error.message };
    }
  }

  return {
    cluster: 'localnet',
    embedded: true,
    rpc,
    // Our own page stays the primary link: it needs neither this server nor the internet.
    explorerUrlTemplate: '/tx/{signature}',
    solanaExplorerUrlTemplate: server ? explorerUrlTemplate('localnet', server.httpUrl) : null,
    ...(rpcServer ? { rpcServer } : {}),
    ...(options.testControls
      ? {
          testControls: {
            async warp(seconds: number) {
              ledger.warp(seconds);
              await ledger.whenSaved();
              return { slot: BigInt(ledger.currentSlot), unixTimestamp: BigInt(ledger.unixTime) };
            },
          },
        }
      : {}),
    async health() {
      try {
        return { ok: true, slot: await rpc.getSlot().send() };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
    airdrop(address, amount) {
      return rpc.requestAirdrop(address, lamports(amount)).send();
    },
    async close() {
      await server?.close();
      await ledger.close();
    },
  };
}
