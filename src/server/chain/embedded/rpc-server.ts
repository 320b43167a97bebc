import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { EmbeddedLedger } from './embedded-ledger';
import { jsonTextWithin } from './json-pieces';
import { answerJsonRpc, errorResponse, JsonRpcError, type JsonRpcResponse, RPC_ERROR } from './json-rpc';
import { createPubSub } from './pubsub';
import { BusyBudget, EXPLORER_ORIGIN, isAllowedOrigin, RPC_LIMITS } from './rpc-guard';
import type { RpcHandler } from './rpc-handler';

const MAX_WS_MESSAGE_BYTES = 64 * 1024;
/** Characters of an HTTP answer written between two turns of the event loop. */
const WRITE_CHARS = 256 * 1024;
/** WebSocket connections at once: each holds subscriptions (at most 1,000) in this process. */
const MAX_WS_CONNECTIONS = 64;

export interface ChainRpcServer {
  /** What a wallet, the solana CLI or Solana Explorer is given, e.g. http://127.0.0.1:8899. */
  httpUrl: string;
  wsUrl: string;
  close(): Promise<void>;
}

export class ChainRpcListenError extends Error {}

/**
 * Serves the embedded chain like a local validator: HTTP JSON-RPC (batches too) on `port` and
 * Solana's WebSocket PubSub on `port + 1`, as solana-test-validator does and as clients derive it.
 * Port 0 picks free ports for both (tests). It runs inside the app's process, so it is guarded
 * (rpc-guard.ts, decision 031): only Solana Explorer's origin (and wallet extensions) may call it
 * from a browser, batches and answers are capped, expensive methods spend time budgets (per client
 * address and all together; a wallet's sendTransaction only its own), and
 * airdrops are rate-limited. The app's own calls never come through here.
 * Rejects with ChainRpcListenError when either port cannot be bound, leaving nothing open.
 */
export async function serveChainRpc(options: {
  ledger: EmbeddedLedger;
  handle: RpcHandler;
  host: string;
  port: number;
}): Promise<ChainRpcServer> {
  const { ledger, host, port } = options;
  const budget = new BusyBudget();
  // Budgets are per caller: the address the connection comes from (no proxy speaks for anyone here).
  const handleFor =
    (client: string): RpcHandler =>
    (method, params) =>
      budget.run(method, () => options.handle(method, params), client);
  const http = createServer((request, response) => {
    const handle = handleFor(request.socket.remoteAddress ?? 'unknown');
    serveHttp(request, response, (payload) => answerPayload(payload, handle, ledger)).catch(() =>
      response.destroy(),
    );
  });
  await listen(http, host, port);

  const pubsub = createPubSub(ledger);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  sockets.on('connection', (socket) => {
    const client = pubsub.connect((text) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    });
    socket.on('message', (data) => {
      try {
        client.receive(data.toString());
      } catch {
        socket.close(1011, 'Internal error');
      }
    });
    socket.on('close', () => client.close());
    socket.on('error', () => socket.terminate());
  });
  const ws = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only: Solana PubSub\n');
  });
  ws.on('upgrade', (request, socket, head) => {
    if (!isAllowedOrigin(request.headers.origin) || sockets.clients.size >= MAX_WS_CONNECTIONS) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (upgraded) => sockets.emit('connection', upgraded, request));
  });
  try {
    await listen(ws, host, port === 0 ? 0 : port + 1);
  } catch (error) {
    pubsub.close();
    await closeServer(http);
    throw error;
  }

  const shownHost = displayHost(host);
  return {
    httpUrl: `http://${shownHost}:${(http.address() as AddressInfo).port}`,
    wsUrl: `ws://${shownHost}:${(ws.address() as AddressInfo).port}`,
    async close() {
      pubsub.close();
      for (const socket of sockets.clients) socket.terminate();
      await Promise.all([
        closeServer(http),
        closeServer(ws),
        new Promise((resolve) => sockets.close(resolve)),
      ]);
    },
  };
}

/** The address clients are told: a wildcard bind is reached on loopback from this machine. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${error.code ?? error.message})`;
      reject(new ChainRpcListenError(`${displayHost(host)}:${port} ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * The whole HTTP answer to `payload` as JSON text in pieces, built over several turns of the event
 * loop (json-pieces.ts): the app's own requests run between two requests of a batch and between
 * two slices of a large answer. At most RPC_LIMITS.maxAnswerBytes of answers, all requests of a
 * batch together: an answer that would pass it is replaced by an error, and is not built further.
 */
async function answerPayload(
  payload: unknown,
  handle: RpcHandler,
  ledger: EmbeddedLedger,
): Promise<string[]> {
  const answer = async (request: unknown): Promise<JsonRpcResponse> => {
    try {
      return await answerJsonRpc(request, handle, () => ledger.whenSaved());
    } catch (error) {
      const id = (request as { id?: unknown } | null)?.id ?? null;
      return errorResponse(
        id,
        new JsonRpcError(RPC_ERROR.internal, `Internal error: ${(error as Error).message}`),
      );
    }
  };
  const idOf = (request: unknown) => (request as { id?: unknown } | null)?.id ?? null;
  const text = async (request: unknown, room: number): Promise<string[]> => {
    const response = await answer(request);
    return (
      (await jsonTextWithin(response, room)) ?? [
        JSON.stringify(errorResponse(response.id ?? idOf(request), answerTooLarge())),
      ]
    );
  };
  if (!Array.isArray(payload)) return text(payload, RPC_LIMITS.maxAnswerBytes);
  if (payload.length === 0)
    return [
      JSON.stringify(errorResponse(null, new JsonRpcError(RPC_ERROR.invalidRequest, 'Invalid request'))),
    ];
  if (payload.length > RPC_LIMITS.maxBatchLength) {
    return [
      JSON.stringify(
        errorResponse(
          null,
          new JsonRpcError(
            RPC_ERROR.invalidRequest,
            `Batch too large: at most ${RPC_LIMITS.maxBatchLength} requests in one batch`,
          ),
        ),
      ),
    ];
  }
  const pieces = ['['];
  let bytes = 0;
  for (const [index, request] of payload.entries()) {
    await new Promise((resolve) => setImmediate(resolve));
    const answered =
      bytes >= RPC_LIMITS.maxAnswerBytes
        ? [JSON.stringify(errorResponse(idOf(request), answerTooLarge()))]
        : await text(request, RPC_LIMITS.maxAnswerBytes - bytes);
    for (const piece of answered) bytes += piece.length;
    if (index > 0) pieces.push(',');
    pieces.push(...answered);
  }
  pieces.push(']');
  return pieces;
}

/** Writes `pieces` a few hundred KB at a time, handing the event loop back in between. */
async function writePieces(response: ServerResponse, pieces: readonly string[]): Promise<void> {
  let group: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    group.push(piece);
    size += piece.length;
    if (size < WRITE_CHARS) continue;
    response.write(group.join(''));
    group = [];
    size = 0;
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end(group.join(''));
}

function answerTooLarge(): JsonRpcError {
  return new JsonRpcError(
    RPC_ERROR.invalidRequest,
    `Answer too large: one answer carries at most ${RPC_LIMITS.maxAnswerBytes / 1024 / 1024} MiB; narrow the request (filters, dataSlice) or split the batch`,
  );
}

/** CORS headers for an allowed browser origin (none for callers that are not pages). */
function corsHeaders(origin: string | undefined): Record<string, string> {
  return origin === undefined ? {} : { 'access-control-allow-origin': origin, vary: 'origin' };
}

async function serveHttp(
  request: IncomingMessage,
  response: ServerResponse,
  answer: (payload: unknown) => Promise<string[]>,
): Promise<void> {
  const origin = request.headers.origin;
  if (!isAllowedOrigin(origin)) {
    // Another site's page: nothing is read or run, and nothing it can read comes back. A text/plain
    // POST (which needs no preflight) ends here too.
    response
      .writeHead(403, { 'content-type': 'application/json', connection: 'close' })
      .end(JSON.stringify({ error: 'This RPC answers only Solana Explorer and local tools' }));
    request.resume();
    return;
  }
  const cors = corsHeaders(origin);
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'POST, GET, OPTIONS',
      'access-control-allow-headers': 'content-type, solana-client',
      'access-control-max-age': '86400',
      // Chrome asks before a public site may call a loopback address: granted to Explorer only.
      ...(request.headers['access-control-request-private-network'] === 'true' && origin === EXPLORER_ORIGIN
        ? { 'access-control-allow-private-network': 'true' }
        : {}),
    });
    response.end();
    return;
  }
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'GET' && path === '/health') {
    response.writeHead(200, { ...cors, 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (request.method !== 'POST' || path !== '/') {
    response
      .writeHead(request.method === 'POST' ? 404 : 405, { ...cors, allow: 'POST' })
      .end('Used by HTTP POST only: Solana JSON-RPC\n');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > RPC_LIMITS.maxBodyBytes) {
      response.writeHead(413, { ...cors, connection: 'close' }).end('Request body too large\n');
      return;
    }
    chunks.push(chunk);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    payload = undefined;
  }
  const pieces =
    payload === undefined
      ? [JSON.stringify(errorResponse(null, new JsonRpcError(RPC_ERROR.parseError, 'Parse error')))]
      : await answer(payload);
  response.writeHead(200, { ...cors, 'content-type': 'application/json' });
  await writePieces(response, pieces);
}
