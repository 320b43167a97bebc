import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Milliseconds from the request's arrival until its answer was ready to send; -1 before. */
    answeredInMs: number;
  }
}

export interface RequestLogOptions {
  /** An answer that took at least this long is logged whatever its status (LOG_SLOW_REQUEST_MS). */
  slowMs: number;
  /** How long the answer took to be ready; Fastify's own clock unless a test sets one. */
  answerTime?: (reply: FastifyReply) => number;
}

/**
 * Which requests leave a line in the log (docs/decisions/023-request-logging.md): failures (4xx at
 * info, 5xx at error, as Fastify's own error log does) and slow answers (warn), one line each with
 * the method, URL, status and times. A fast successful request leaves none (at `debug`, every
 * request does, as Fastify logs by default), so the hottest reads cost no log line and no disk.
 */
class RequestLogController extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // The answer could not be written (a broken socket, a failing stream): as Fastify logs it.
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const status = reply.statusCode;
    const answeredInMs = request.answeredInMs >= 0 ? request.answeredInMs : reply.elapsedTime;
    const slow = answeredInMs >= this.slowMs;
    if (status < 400 && !slow) {
      request.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
      return;
    }
    const line = { req: request, res: reply, answeredInMs, responseTime: reply.elapsedTime };
    const message = slow ? 'slow request' : 'request completed';
    if (status >= 500) request.log.error(line, message);
    else if (slow) request.log.warn(line, message);
    else request.log.info(line, message);
  }
}

/**
 * The request-log policy in two parts: the log controller for Fastify's options (it writes the
 * lines) and the plugin that notes when each answer was ready, so a slow download by the client
 * (a video to a phone) does not count as a slow answer.
 */
export function createRequestLog({ slowMs, answerTime = (reply) => reply.elapsedTime }: RequestLogOptions) {
  return {
    controller: new RequestLogController(slowMs),
    plugin: fp(async (app: FastifyInstance) => {
      app.decorateRequest('answeredInMs', -1);
      app.addHook('onSend', (request, reply, payload, done) => {
        request.answeredInMs = answerTime(reply);
        done(null, payload);
      });
    }),
  };
}
