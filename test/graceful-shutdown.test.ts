import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SERVICE_RESTART_CLOSE_CODE } from '#contract/chat-limits';
import { type RunningServer, startServer } from '../e2e/fixtures/server';

/**
 * The real server process (`npm start`'s command) drains on SIGTERM: a request under way gets its
 * answer, chat sockets are told to reconnect, new connections are refused, and the process exits 0.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO_DATA: 'false', SHUTDOWN_TIMEOUT_SECONDS: '10' } });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('SIGTERM', () => {
  it('lets a request under way finish, tells chat sockets to reconnect, refuses new work, exits 0', async () => {
    const chat = new WebSocket(`ws://127.0.0.1:${server.port}/ws`);
    await new Promise((resolve, reject) => {
      chat.once('open', resolve);
      chat.once('error', reject);
    });
    const chatClosed = new Promise<{ code: number; reason: string }>((resolve) =>
      chat.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );

    // A login whose body is still on its way when the signal comes. Its 100 Continue says the
    // server has taken the request, instead of a sleep long enough for it to have.
    const body = JSON.stringify({ username: 'nobody', password: 'not-the-password' });
    const slow = await openSocket(server.port);
    let answer = '';
    slow.on('data', (chunk) => {
      answer += chunk.toString();
    });
    const continued = new Promise((resolve) => slow.once('data', resolve));
    const answered = new Promise<void>((resolve) => slow.once('end', resolve));
    slow.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await continued;
    expect(answer).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    answer = '';
    slow.write(body.slice(0, 10));

    process.kill(server.pid, 'SIGTERM');
    expect(await chatClosed).toEqual({
      code: SERVICE_RESTART_CLOSE_CODE,
      reason: 'The server is restarting; reconnect',
    });
    // The listener closes right after the sockets are told: polled rather than slept for.
    const refused = () =>
      openSocket(server.port).then(
        (socket) => {
          socket.destroy();
          return 'accepted';
        },
        (error: NodeJS.ErrnoException) => error.code,
      );
    await expect.poll(refused, { timeout: 5_000, interval: 20 }).toBe('ECONNREFUSED');
    await expect(openSocket(server.port)).rejects.toThrow(/ECONNREFUSED/);

    slow.write(body.slice(10));
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"INVALID_CREDENTIALS"');

    expect(await server.exited).toEqual({ code: 0, signal: null });
    // Drained, not cut off at the 10 s limit (which logs "requests still under way" and closes the
    // slow request's connection before its answer).
    expect(server.output()).not.toMatch(/requests still under way/);
  });

  it('cuts a chat socket that never answers the close, and still exits 0 in time', async () => {
    const other = await startServer({ env: { SEED_DEMO_DATA: 'false', SHUTDOWN_TIMEOUT_SECONDS: '2' } });
    try {
      const chat = new WebSocket(`ws://127.0.0.1:${other.port}/ws`);
      await new Promise((resolve, reject) => {
        chat.once('open', resolve);
        chat.once('error', reject);
      });
      // The client reads nothing more: it never sees the server's close frame, never answers it.
      chat.pause();
      const signalled = Date.now();
      process.kill(other.pid, 'SIGTERM');
      expect(await other.exited).toEqual({ code: 0, signal: null });
      // Within the drain's 2 s and the socket's grace, not ws's 30 s wait for a close frame.
      expect(Date.now() - signalled).toBeLessThan(12_000);
      expect(other.output()).not.toMatch(/did not finish in time/);
      chat.terminate();
    } finally {
      await other.stop();
    }
  }, 90_000);
});
