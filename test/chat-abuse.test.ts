import { desc, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_LIMITS, CHAT_MESSAGES } from '#contract/chat';
import { TRY_AGAIN_LATER_CLOSE_CODE } from '#contract/chat-limits';
import { chatMessages, dares } from '#server/db/schema';
import { loggerOptions } from '#server/logger';
import { type ChatClient, connectChat, isError, isPresence, listen } from './helpers/chat';
import { dareBody, payStake } from './helpers/money';
import { setupApiSuite } from './helpers/suite';
import { bearer } from './helpers/wallet';

/**
 * What one address can make the chat do (docs/decisions/029-chat-floods.md): sockets held open and
 * rooms joined are counted per client address; dare lookups for joins are remembered until a write;
 * a client's protocol mistakes and NUL characters are answered, not logged as server errors.
 * Behind one proxy (TRUST_PROXY=1), so each test speaks from addresses of its own.
 */
interface Line {
  level: number;
  msg?: string;
  code?: string;
}
const lines: Line[] = [];
const {
  ctx,
  actors: { ann },
} = setupApiSuite({
  env: { TRUST_PROXY: '1', RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  context: {
    app: {
      logger: {
        ...loggerOptions({ logLevel: 'info' }, { pretty: false }),
        stream: { write: (line: string) => lines.push(JSON.parse(line)) },
      },
    },
  },
  actors: { ann: { sol: '5' } },
});

let url: string;
let dareId: number;
const clients: ChatClient[] = [];
let addressSeq = 0;
/** An address of the test's own (what the proxy says the client is). */
const newAddress = () => `203.0.113.${++addressSeq}`;

async function client(address: string, token?: string): Promise<ChatClient> {
  const chat = await connectChat(url, { headers: { 'x-forwarded-for': address } });
  clients.push(chat);
  if (token) {
    chat.send({ type: 'auth', token });
    await chat.next((frame) => frame.type === 'auth' && frame.ok);
  }
  return chat;
}

async function createDare(): Promise<number> {
  const paid = await payStake(ctx.app, ann.token, ann.wallet, '0.1');
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/dares',
    payload: dareBody(ann.wallet, paid, '0.1'),
    headers: bearer(ann.token),
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

const errorLines = (since: number) => lines.slice(since).filter((line) => line.level >= 50);

beforeAll(async () => {
  url = await listen(ctx.app);
  dareId = await createDare();
});
afterEach(() => {
  for (const chat of clients.splice(0)) chat.close();
});

describe('chat sockets per address', () => {
  it(`keeps ${CHAT_LIMITS.socketsPerAddress} sockets of one address open and closes the next with 1013`, async () => {
    const address = newAddress();
    const held = [];
    for (let i = 0; i < CHAT_LIMITS.socketsPerAddress; i++) held.push(await client(address));
    // Each one is fully in: it hears the global room's count.
    await Promise.all(held.map((chat) => chat.next((frame) => frame.type === 'presence')));
    const extra = await client(address);
    expect(await extra.closed).toBe(TRY_AGAIN_LATER_CLOSE_CODE);
    // Another address is not affected.
    const neighbour = await client(newAddress());
    await neighbour.next((frame) => frame.type === 'presence');

    // A closed socket gives its slot back.
    held[0]!.close();
    await held[0]!.closed;
    await expect
      .poll(async () => {
        const next = await client(address);
        const outcome = await Promise.race([
          next.next((frame) => frame.type === 'presence', 1000).then(() => 'open'),
          next.closed.then(() => 'closed'),
        ]);
        return outcome;
      })
      .toBe('open');
  });

  it(`answers joins past ${CHAT_LIMITS.joinsPerAddress} a minute from one address with an error, however many sockets`, async () => {
    const address = newAddress();
    // Below each socket's own budget (20 lookups in 10 s): only the per-address count can refuse.
    const perSocket = CHAT_LIMITS.lookupsPerWindow - 2;
    const sockets = Math.ceil(CHAT_LIMITS.joinsPerAddress / perSocket) + 1;
    const chats = await Promise.all(Array.from({ length: sockets }, () => client(address)));
    for (const chat of chats) {
      for (let i = 0; i < perSocket; i++) {
        chat.send({ type: 'join', dareId });
        chat.send({ type: 'leave', dareId });
      }
    }
    // Exactly the joins past the address's allowance are refused, whichever sockets sent them.
    const refused = () =>
      chats.flatMap((chat) => chat.frames).filter(isError(CHAT_MESSAGES.tooManyJoins)).length;
    await expect.poll(refused, { timeout: 10_000 }).toBe(sockets * perSocket - CHAT_LIMITS.joinsPerAddress);
    // The sockets stay open, and another address joins as before.
    expect(chats.every((chat) => chat.socket.readyState === chat.socket.OPEN)).toBe(true);
    const other = await client(newAddress());
    other.send({ type: 'join', dareId });
    await other.next(isPresence(dareId, 1));
  });
});

describe('dare lookups for joins', () => {
  it('lets a dare created after a refused join be joined: the remembered "not found" is forgotten', async () => {
    const address = newAddress();
    const chat = await client(address);
    const [latest] = await ctx.database.db
      .select({ id: dares.id })
      .from(dares)
      .orderBy(desc(dares.id))
      .limit(1);
    // The id the next dare gets (ids are handed out in order).
    const next = latest!.id + 1;
    chat.send({ type: 'join', dareId: next });
    await chat.next(isError(CHAT_MESSAGES.dareNotFound));
    const created = await createDare();
    expect(created).toBe(next);
    chat.send({ type: 'join', dareId: created });
    await chat.next(isPresence(created, 1));
  });
});

describe("a client's mistakes are not server errors", () => {
  it('refuses a chat message with a NUL character with an error event, stores nothing, logs no error', async () => {
    const since = lines.length;
    const chat = await client(newAddress(), ann.token);
    chat.send({ type: 'chat_message', message: 'hi\u0000there', dareId: null });
    await chat.next(isError(CHAT_MESSAGES.nulCharacter));
    chat.send({ type: 'chat_message', message: 'hi there', dareId: null });
    await chat.next((frame) => frame.type === 'chat_message' && frame.message.message === 'hi there');
    const stored = await ctx.database.db.select().from(chatMessages).where(eq(chatMessages.userId, ann.id));
    expect(stored.map((row) => row.message)).toEqual(['hi there']);
    expect(errorLines(since)).toEqual([]);
  });

  it('logs oversized frames at info, one line each without a stack, never as errors', async () => {
    const since = lines.length;
    for (let i = 0; i < 5; i++) {
      const huge = await client(newAddress());
      huge.send({ type: 'chat_message', message: 'x'.repeat(CHAT_LIMITS.maxFrameBytes + 100), dareId: null });
      expect(await huge.closed).toBe(1009);
    }
    await expect
      .poll(() => lines.slice(since).filter((line) => line.code?.startsWith('WS_ERR_')).length)
      .toBe(5);
    const protocol = lines.slice(since).filter((line) => line.code?.startsWith('WS_ERR_'));
    expect(protocol.every((line) => line.level === 30 && !('stack' in line) && !('err' in line))).toBe(true);
    expect(errorLines(since)).toEqual([]);
  });
});
