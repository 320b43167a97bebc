import { describe, expect, it } from 'vitest';
import { loggerOptions } from '#server/logger';
import { setupApiSuite } from './helpers/suite';

/**
 * The server's request log as `npm start` writes it (docs/decisions/023-request-logging.md): the
 * hot reads leave no line; failures and slow answers leave one each. How long an answer took is
 * set by the test, so nothing here depends on the machine's speed.
 */
interface Line {
  level: number;
  msg: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

const lines: Line[] = [];
const answer = { ms: 0 };
const { ctx } = setupApiSuite({
  context: {
    app: {
      logger: {
        ...loggerOptions({ logLevel: 'info' }, { pretty: false }),
        stream: { write: (line: string) => lines.push(JSON.parse(line)) },
      },
      answerTime: () => answer.ms,
    },
  },
});

/** The request lines written while `run` ran. */
async function linesOf(run: () => Promise<unknown>): Promise<Line[]> {
  const before = lines.length;
  await run();
  return lines.slice(before).filter((line) => line.req || line.res);
}

describe('request log', () => {
  it('writes nothing for the polled reads when they answer fast', async () => {
    const written = await linesOf(async () => {
      for (const url of ['/api/dares?filter=active', '/api/dares?filter=all', '/api/stats', '/api/health']) {
        expect((await ctx.app.inject({ url })).statusCode).toBe(200);
      }
      const first = await ctx.app.inject({ url: '/api/stats' });
      const unchanged = await ctx.app.inject({
        url: '/api/stats',
        headers: { 'if-none-match': first.headers.etag as string },
      });
      expect(unchanged.statusCode).toBe(304);
    });
    expect(written).toEqual([]);
  });

  it('writes one line for each failed request, without the session token', async () => {
    const token = 'a'.repeat(43);
    const written = await linesOf(async () => {
      expect((await ctx.app.inject({ url: '/api/dares?limit=1000' })).statusCode).toBe(400);
      expect((await ctx.app.inject({ url: '/api/no-such-thing' })).statusCode).toBe(404);
      const me = await ctx.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
      expect(me.statusCode).toBe(401);
    });
    expect(written).toMatchObject([
      {
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', url: '/api/dares?limit=1000' },
        res: { statusCode: 400 },
      },
      {
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', url: '/api/no-such-thing' },
        res: { statusCode: 404 },
      },
      {
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', url: '/api/auth/me' },
        res: { statusCode: 401 },
      },
    ]);
    expect(JSON.stringify(written)).not.toContain(token);
  });

  it('writes a warning for a read that answered slowly', async () => {
    answer.ms = ctx.config.slowRequestMs;
    const written = await linesOf(async () => {
      expect((await ctx.app.inject({ url: '/api/dares?filter=all' })).statusCode).toBe(200);
    });
    answer.ms = 0;
    expect(written).toMatchObject([
      {
        level: 40,
        msg: 'slow request',
        req: { method: 'GET', url: '/api/dares?filter=all' },
        res: { statusCode: 200 },
      },
    ]);
  });
});
