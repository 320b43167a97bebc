import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '#server/logger';
import { createRequestLog } from './request-log';

interface Line {
  level: number;
  msg: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  answeredInMs?: number;
}

const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 };

/** An app under the request-log policy whose answers take as long as `answerMs` says. */
async function appWithLog(logLevel = 'info') {
  const lines: Line[] = [];
  const clock = { answerMs: 0 };
  const requestLog = createRequestLog({ slowMs: 500, answerTime: () => clock.answerMs });
  const app = Fastify({
    logger: {
      ...loggerOptions({ logLevel }, { pretty: false }),
      stream: { write: (line: string) => lines.push(JSON.parse(line)) },
    },
    logController: requestLog.controller,
  });
  await app.register(requestLog.plugin);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/missing', async (_request, reply) => reply.status(404).send({ error: 'no' }));
  app.get('/broken', async () => {
    throw new Error('boom');
  });
  await app.ready();
  const requestLines = () => lines.filter((line) => line.req || line.res);
  return { app, clock, lines, requestLines };
}

describe('request log policy', () => {
  it('writes no line for a fast successful request', async () => {
    const { app, requestLines } = await appWithLog();
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/ok' })).statusCode).toBe(200);
    expect(requestLines()).toEqual([]);
    await app.close();
  });

  it('writes one line for a failure: 4xx at info, 5xx at error, with method, URL and status', async () => {
    const { app, requestLines } = await appWithLog();
    await app.inject({ url: '/missing?x=1' });
    await app.inject({ url: '/broken' });
    const completed = requestLines().filter((line) => line.msg === 'request completed');
    expect(completed).toMatchObject([
      { level: LEVEL.info, req: { method: 'GET', url: '/missing?x=1' }, res: { statusCode: 404 } },
      { level: LEVEL.error, req: { method: 'GET', url: '/broken' }, res: { statusCode: 500 } },
    ]);
    await app.close();
  });

  it('writes a warning for a successful answer that took at least the threshold', async () => {
    const { app, clock, requestLines } = await appWithLog();
    clock.answerMs = 499;
    await app.inject({ url: '/ok' });
    expect(requestLines()).toEqual([]);
    clock.answerMs = 500;
    await app.inject({ url: '/ok' });
    expect(requestLines()).toMatchObject([
      {
        level: LEVEL.warn,
        msg: 'slow request',
        answeredInMs: 500,
        req: { url: '/ok' },
        res: { statusCode: 200 },
      },
    ]);
    await app.close();
  });

  it('logs every request at debug, as Fastify does by default', async () => {
    const { app, requestLines } = await appWithLog('debug');
    await app.inject({ url: '/ok' });
    expect(requestLines().map((line) => [line.level, line.msg])).toEqual([
      [LEVEL.debug, 'incoming request'],
      [LEVEL.debug, 'request completed'],
    ]);
    await app.close();
  });
});
