import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/**
 * Answers a request itself and says true, or says false and leaves the request untouched for
 * Fastify. Runs for every request, before any parsing or routing: it must cost next to nothing
 * when it says no.
 */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse) => boolean;

/** Where the front door goes once the app is ready (the read cache's); empty until then. */
export interface FrontDoorSlot {
  door: FrontDoor | null;
}

/**
 * The HTTP server Fastify runs on, made as Fastify makes its own (its timeouts and limits), with
 * the front door in front of Fastify's handler: a fresh cached public read is answered there, for
 * a fraction of what routing, the request and reply objects and the hooks cost
 * (docs/decisions/027-front-door.md).
 */
export function serverWithFrontDoor(slot: FrontDoorSlot): FastifyServerFactory {
  return (handler, options) => {
    const server = http.createServer(
      (options.http ?? {}) as http.ServerOptions,
      (request: IncomingMessage, response: ServerResponse) => {
        if (slot.door?.(request, response)) return;
        handler(request, response);
      },
    );
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    const maxRequestsPerSocket = options.maxRequestsPerSocket as number | null | undefined;
    if (maxRequestsPerSocket && maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
}
