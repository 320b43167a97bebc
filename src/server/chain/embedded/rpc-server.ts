import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { WebSocket, WebSocketServer } from 'ws';
import { answerJsonRpc, errorResponse, JsonRpcError, type JsonRpcResponse, RPC_ERROR } from './json-rpc';
import type { EmbeddedLedger } from './ledger';
import { createPubSub } from './pubsub';
import type { RpcHandler } from './rpc-handler';

/** Far above any honest batch (a transaction is at most 1232 bytes), far below a memory problem. */
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_WS_MESSAGE_BYTES = 64 * 1024;

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
 * Port 0 picks free ports for both (tests). CORS is open, as on agave, so Solana Explorer in the
 * user's browser can read it; binding to loopback is what keeps it local.
 * Rejects with ChainRpcListenError when either port cannot be bound, leaving nothing open.
 */
export async function serveChainRpc(options: {
  ledger: EmbeddedLedger;
  handle: RpcHandler;
  host: string;
  port: number;
}): Promise<ChainRpcServer> {
  const { ledger, handle, host, port } = options;
  const http = createServer((request, response) => {
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

async function answerPayload(
  payload: unknown,
  handle: RpcHandler,
  ledger: EmbeddedLedger,
): Promise<JsonRpcResponse | JsonRpcResponse[]> {
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
  if (!Array.isArray(payload)) return answer(payload);
  if (payload.length === 0)
    return errorResponse(null, new JsonRpcError(RPC_ERROR.invalidRequest, 'Invalid request'));
  // Each request runs its synchronous part in order before any awaits, so a batch shares one save.
  return Promise.all(payload.map(answer));
}

const CORS_HEADERS = { 'access-control-allow-origin': '*' };

async function serveHttp(
  request: IncomingMessage,
  response: ServerResponse,
  answer: (payload: unknown) => Promise<unknown>,
): Promise<void> {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'POST, GET, OPTIONS',
      'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'content-type',
      'access-control-max-age': '86400',
      // Chrome asks before a public site (explorer.solana.com) may call a loopback address.
      ...(request.headers['access-control-request-private-network'] === 'true'
        ? { 'access-control-allow-private-network': 'true' }
        : {}),
    });
    response.end();
    return;
  }
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'GET' && path === '/health') {
    response.writeHead(200, { ...CORS_HEADERS, 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (request.method !== 'POST' || path !== '/') {
    response
      .writeHead(request.method === 'POST' ? 404 : 405, { ...CORS_HEADERS, allow: 'POST' })
      .end('Used by HTTP POST only: Solana JSON-RPC\n');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      response.writeHead(413, { ...CORS_HEADERS, connection: 'close' }).end('Request body too large\n');
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
  const body =
    payload === undefined
      ? errorResponse(null, new JsonRpcError(RPC_ERROR.parseError, 'Parse error'))
      : await answer(payload);
  response
    .writeHead(200, { ...CORS_HEADERS, 'content-type': 'application/json' })
    .end(stringifyJsonWithBigInts(body));
}
