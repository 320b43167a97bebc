import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSigner, isSolanaError } from '@solana/kit';
import { stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedChain } from './embedded';
import { createChain } from './index';
import type { ChainPort } from './port';
import { createRpcChain, explorerUrlTemplate } from './rpc-chain';

type Call = { jsonrpc: '2.0'; id: unknown; method: string; params: unknown[] };
type Answer = { result: unknown } | { error: { code: number; message: string } };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A JSON-RPC endpoint over real HTTP, so createRpcChain runs exactly as against a cluster. */
async function serve(answer: (call: Call) => Promise<Answer>): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', async () => {
      const call = JSON.parse(body) as Call;
      const reply = { jsonrpc: '2.0', id: call.id, ...(await answer(call)) };
      response.setHeader('content-type', 'application/json');
      response.end(stringifyJsonWithBigInts(reply));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Relays calls to an embedded chain, which then plays a local validator behind HTTP. */
function relayTo(chain: ChainPort) {
  const methods = chain.rpc as unknown as Record<
    string,
    (...params: unknown[]) => { send(): Promise<unknown> }
  >;
  return async (call: Call): Promise<Answer> => {
    try {
      return { result: await methods[call.method]!(...call.params).send() };
    } catch (error) {
      if (!isSolanaError(error)) throw error;
      return { error: { code: Number(error.context.__code), message: error.message } };
    }
  };
}

describe('createRpcChain', () => {
  it('airdrops by polling until confirmed and reports health, over HTTP', async () => {
    const embedded = await createEmbeddedChain({ stateDir: null });
    const url = await serve(relayTo(embedded));
    const chain = createRpcChain({ url, cluster: 'localnet' });
    expect(chain.embedded).toBe(false);

    const wallet = (await generateKeyPairSigner()).address;
    const signature = await chain.airdrop(wallet, 2_000_000_000n);
    expect((await chain.rpc.getBalance(wallet).send()).value).toBe(2_000_000_000n);
    const [status] = (await embedded.rpc.getSignatureStatuses([signature]).send()).value;
    expect(status?.err).toBeNull();
    expect(await chain.health()).toEqual({ ok: true, slot: await embedded.rpc.getSlot().send() });
  });

  it('reports an unhealthy node and an unreachable one without throwing', async () => {
    const lagging = await serve(async (call) =>
      call.method === 'getHealth'
        ? { error: { code: -32005, message: 'Node is behind by 42 slots' } }
        : { result: 1 },
    );
    const unhealthy = await createRpcChain({ url: lagging, cluster: 'devnet' }).health();
    expect(unhealthy).toMatchObject({ ok: false });

    const closed = await serve(async () => ({ result: null }));
    servers.pop()!.close();
    const unreachable = await createRpcChain({ url: closed, cluster: 'devnet' }).health();
    expect(unreachable).toMatchObject({ ok: false, error: expect.stringContaining('127.0.0.1') });
  });

  it('refuses airdrops on mainnet-beta before asking the network', async () => {
    let calls = 0;
    const url = await serve(async () => {
      calls += 1;
      return { result: null };
    });
    const chain = createRpcChain({ url, cluster: 'mainnet-beta' });
    await expect(chain.airdrop((await generateKeyPairSigner()).address, 1n)).rejects.toThrow(/mainnet-beta/);
    expect(calls).toBe(0);
  });

  it('links each cluster to its explorer view', () => {
    expect(explorerUrlTemplate('devnet', 'https://api.devnet.solana.com')).toBe(
      'https://explorer.solana.com/tx/{signature}?cluster=devnet',
    );
    expect(explorerUrlTemplate('testnet', 'https://api.testnet.solana.com')).toBe(
      'https://explorer.solana.com/tx/{signature}?cluster=testnet',
    );
    expect(explorerUrlTemplate('mainnet-beta', 'https://api.mainnet-beta.solana.com')).toBe(
      'https://explorer.solana.com/tx/{signature}',
    );
    expect(explorerUrlTemplate('localnet', 'http://127.0.0.1:8899')).toBe(
      'https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
    );
  });
});

describe('createChain', () => {
  it('picks the embedded chain without an RPC URL and a cluster client with one', async () => {
    const embedded = await createChain({ stateDir: null });
    expect(embedded).toMatchObject({
      embedded: true,
      cluster: 'localnet',
      explorerUrlTemplate: '/tx/{signature}',
    });
    const remote = await createChain({
      rpcUrl: 'https://api.devnet.solana.com',
      cluster: 'devnet',
      stateDir: null,
    });
    expect(remote).toMatchObject({ embedded: false, cluster: 'devnet' });
    await expect(
      createChain({ rpcUrl: 'https://rpc.example?api-key=secret', stateDir: null }),
    ).rejects.toThrow(/^createChain: a cluster is required/);
    await expect(createChain({ cluster: 'devnet', stateDir: null })).rejects.toThrow(/needs an RPC URL/);
  });
});
