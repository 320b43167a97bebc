import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { encodeTextFrames } from './wire';

let server: WebSocketServer | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = null;
});

/** What a real client (ws) reads when the server writes `bytes` to the upgraded connection itself. */
async function received(bytes: Buffer, count: number): Promise<{ text: string; binary: boolean }[]> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server!.once('listening', resolve));
  server.on('connection', (_socket, request) => request.socket.write(bytes));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const messages: { text: string; binary: boolean }[] = [];
  await new Promise<void>((resolve, reject) => {
    client.on('message', (data, binary) => {
      messages.push({ text: data.toString(), binary });
      if (messages.length === count) resolve();
    });
    client.once('error', reject);
    client.once('close', (code) => reject(new Error(`closed with ${code} after ${messages.length}`)));
  });
  client.terminate();
  return messages;
}

describe('room-wide frames encoded once', () => {
  it('reads back as the same text messages, in order, at every length form', async () => {
    const texts = [
      '{"type":"presence","online":1}',
      `{"message":"${'é'.repeat(100)}"}`, // 125 < bytes < 65,536: a 16-bit length
      JSON.stringify({ message: 'x'.repeat(70_000) }), // a 64-bit length
      '',
    ];
    const messages = await received(encodeTextFrames(texts), texts.length);
    expect(messages).toEqual(texts.map((text) => ({ text, binary: false })));
  });
});
