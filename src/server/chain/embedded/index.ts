import { createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import type { ChainPort } from '../port';
import { EmbeddedSolana, JsonRpcError } from './embedded-solana';
import { ChainFiles } from './ledger-store';

/**
 * The embedded chain as a ChainPort. The app talks to it with the same @solana/kit RPC client it
 * would use for a cluster; the transport calls the in-process handler instead of HTTP, and goes
 * through the same JSON (de)serialisation so numbers arrive as they would over the wire.
 */
export async function createEmbeddedChain(options: {
  stateDir: string | null;
  clock?: () => Date;
}): Promise<ChainPort> {
  const solana = EmbeddedSolana.open(
    options.stateDir ? new ChainFiles(options.stateDir) : null,
    options.clock ?? (() => new Date()),
  );

  const transport = (async ({ payload }: { payload: unknown }) => {
    const request = JSON.parse(stringifyJsonWithBigInts(payload)) as {
      id: unknown;
      method: string;
      params?: unknown[];
    };
    let response: unknown;
    try {
      response = {
        jsonrpc: '2.0',
        id: request.id,
        result: solana.handle(request.method, request.params ?? []),
      };
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      response = {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: error.code, message: error.message, data: error.data },
      };
    }
    return parseJsonWithBigInts(stringifyJsonWithBigInts(response));
  }) as RpcTransport;

  const rpc = createSolanaRpcFromTransport(transport);
  return {
    cluster: 'localnet',
    embedded: true,
    rpc,
    explorerUrlTemplate: '/tx/{signature}',
    async health() {
      const slot = await rpc.getSlot().send();
      return { ok: true, slot };
    },
    async airdrop(address, lamports) {
      return rpc.requestAirdrop(address, lamports as never).send();
    },
    async close() {
      solana.flush();
    },
  };
}
