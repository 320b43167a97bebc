/** Error codes real Solana RPC nodes answer with; kit turns each into a typed SolanaError. */
export const RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  methodNotFound: -32601,
  internal: -32603,
  preflightFailure: -32002,
  signatureVerificationFailure: -32003,
  unsupportedTransactionVersion: -32015,
} as const;

export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function invalidParams(detail: string): JsonRpcError {
  return new JsonRpcError(RPC_ERROR.invalidParams, `Invalid params: ${detail}`);
}

/** The optional trailing config object most methods take; anything else is a client bug. */
export function configParam(params: readonly unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams('expected a config object');
  return value as Record<string, unknown>;
}

export function stringParam(params: readonly unknown[], index: number, what: string): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`expected ${what}`);
  return value;
}

export function u64Param(value: unknown, what: string): bigint {
  if (typeof value === 'bigint' && value >= 0n && value < 2n ** 64n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw invalidParams(`${what} must be an unsigned 64-bit integer`);
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export function errorResponse(id: unknown, error: JsonRpcError): JsonRpcResponse {
  const { code, message, data } = error;
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/**
 * Answers one JSON-RPC request object with `handle`, once the change it made is on disk (a caller
 * told "sent" must find it after a crash). Protocol and RPC errors become error responses; any
 * other error is a bug and is thrown.
 */
export async function answerJsonRpc(
  request: unknown,
  /** May answer with a promise (the served RPC queues expensive requests). */
  handle: (method: string, params: readonly unknown[]) => unknown,
  whenSaved: () => Promise<void>,
): Promise<JsonRpcResponse> {
  const envelope = (typeof request === 'object' && request !== null ? request : {}) as Record<
    string,
    unknown
  >;
  const id = envelope.id ?? null;
  try {
    if (envelope.jsonrpc !== '2.0' || typeof envelope.method !== 'string') {
      throw new JsonRpcError(RPC_ERROR.invalidRequest, 'Invalid request');
    }
    const params = envelope.params ?? [];
    if (!Array.isArray(params))
      throw new JsonRpcError(RPC_ERROR.invalidParams, 'Invalid params: expected an array');
    const result = await handle(envelope.method, params);
    await whenSaved();
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    if (!(error instanceof JsonRpcError)) throw error;
    return errorResponse(id, error);
  }
}
