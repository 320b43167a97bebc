import { createSolanaRpcFromTransport, lamports, type RpcTransport } from '@solana/kit';
import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import type { ChainPort } from '../port';
import { JsonRpcError } from './json-rpc';
import { EmbeddedLedger } from './ledger';
import { createRpcHandler } from './rpc-handler';
import { ChainStateFiles } from './state-files';

export { ChainStateError } from './state-files';

type JsonRpcRequest = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown };

/**
 * The embedded chain: LiteSVM in-process behind a JSON-RPC handler of our own, reached through a
 * kit transport that calls the handler directly. Requests and responses still pass through kit's
 * JSON codec, so the app sees exactly what it would see from a cluster over HTTP.
 *
 * `stateDir` null keeps the chain in memory (tests); otherwise it is saved there after each change
 * and restored on the next start. Throws ChainStateError when the saved state is damaged.
 */
export async function createEmbeddedChain(options: {
  stateDir: string | null;
  clock?: () => Date;
}): Promise<ChainPort> {
  const ledger = EmbeddedLedger.open(
    options.stateDir === null ? null : new ChainStateFiles(options.stateDir),
    options.clock ?? (() => new Date()),
  );
  const handle = createRpcHandler(ledger);

  const transport = (async ({ payload }) => {
    // kit refuses integers above 2^53 in requests, so plain JSON numbers carry them exactly.
    const request = JSON.parse(stringifyJsonWithBigInts(payload)) as JsonRpcRequest;
    let response: Record<string, unknown>;
    try {
      const params = request.params ?? [];
      if (!Array.isArray(params)) throw new JsonRpcError(-32602, 'Invalid params: expected an array');
      response = { jsonrpc: '2.0', id: request.id, result: handle(request.method, params) };
      // Answer only once the change is on disk: a caller told "sent" must find it after a crash.
      await ledger.whenSaved();
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      const { code, message, data } = error;
      response = {
        jsonrpc: '2.0',
        id: request.id,
        error: { code, message, ...(data === undefined ? {} : { data }) },
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
      try {
        return { ok: true, slot: await rpc.getSlot().send() };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
    airdrop(address, amount) {
      return rpc.requestAirdrop(address, lamports(amount)).send();
    },
    close() {
      return ledger.close();
    },
  };
}
