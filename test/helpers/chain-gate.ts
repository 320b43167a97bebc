import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';

/** A `sendTransaction` that passed through the gate: who sent what, and when. */
export interface SeenSend {
  /** The transaction's first signature (its id on the chain). */
  signature: string;
  at: number;
}

/** A `sendTransaction` the gate holds: it has not reached the chain yet. */
export interface HeldSend {
  signature: string;
  /**
   * Sends it on to the chain and resolves with the chain's answer, which the instance that sent it
   * never hears: the transaction lands while its sender still waits (kill the sender to make it
   * one that died between sending and booking).
   */
  deliverToChain(): Promise<unknown>;
  /** Sends it on and answers the instance with the chain's answer, as if it had never been held. */
  passThrough(): Promise<void>;
}

/**
 * A JSON-RPC proxy between one server instance and the chain (its SOLANA_RPC_URL): the test sees
 * every transaction the instance sends, can hold the next one before it reaches the chain, or
 * slow all of them down. Test code only: the server runs unchanged, as against a slow or distant
 * RPC node.
 */
export interface ChainGate {
  /** What the instance is given as SOLANA_RPC_URL. */
  url: string;
  /** Every sendTransaction so far, in order. */
  readonly sends: readonly SeenSend[];
  /** The next sendTransaction is held, not forwarded; resolves once it has arrived. */
  holdNextSend(): Promise<HeldSend>;
  /** Every sendTransaction waits this long before it is forwarded (0: none). */
  delaySends(ms: number): void;
  /**
   * From now on nothing passes either way: requests are neither forwarded nor answered, and
   * answers still on their way are dropped, as when the instance's network to the chain goes away.
   */
  cut(): void;
  close(): Promise<void>;
}

interface JsonRpcRequest {
  method?: string;
  params?: unknown[];
}

/** The first signature of a wire transaction: a compact-u16 count, then 64-byte signatures. */
function firstSignature(wire: string, encoding: string): string {
  const bytes = encoding === 'base64' ? Buffer.from(wire, 'base64') : getBase58Encoder().encode(wire);
  // Fewer than 128 signatures: the count is one byte.
  return getBase58Decoder().decode(bytes.subarray(1, 65));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startChainGate(upstream: string): Promise<ChainGate> {
  const sends: SeenSend[] = [];
  let delayMs = 0;
  let armed: ((held: HeldSend) => void) | null = null;
  let isCut = false;

  const forward = async (body: string) => {
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: answer.status, text: await answer.text() };
  };
  const answer = (response: ServerResponse, status: number, text: string) => {
    // The instance may have been killed while its request was held: nobody is left to answer.
    if (isCut || response.destroyed || response.writableEnded) return;
    response.writeHead(status, { 'content-type': 'application/json' }).end(text);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (isCut) return;
      const parsed = JSON.parse(body) as JsonRpcRequest | JsonRpcRequest[];
      const sendTransaction = (Array.isArray(parsed) ? parsed : [parsed]).find(
        (call) => call.method === 'sendTransaction',
      );
      if (sendTransaction) {
        const [wire, config] = (sendTransaction.params ?? []) as [string, { encoding?: string } | undefined];
        const signature = firstSignature(wire, config?.encoding ?? 'base58');
        sends.push({ signature, at: Date.now() });
        if (armed) {
          const hand = armed;
          armed = null;
          hand({
            signature,
            deliverToChain: async () => JSON.parse((await forward(body)).text) as unknown,
            passThrough: async () => {
              const forwarded = await forward(body);
              answer(response, forwarded.status, forwarded.text);
            },
          });
          return;
        }
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      const forwarded = await forward(body);
      answer(response, forwarded.status, forwarded.text);
    })().catch((error: unknown) => {
      if (!isCut && !response.headersSent && !response.destroyed) response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sends,
    holdNextSend() {
      return new Promise((resolve) => {
        armed = resolve;
      });
    },
    delaySends(ms) {
      delayMs = ms;
    },
    cut() {
      isCut = true;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
