import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs in its own process, like the server under test, so both compete with autocannon alike. */
const CEILING_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const body = fs.readFileSync(process.argv[1]);
const headers = JSON.parse(process.argv[2]);
const server = http.createServer((request, response) => {
  response.writeHead(200, { ...headers, 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/**
 * The ceiling a Node server can reach on this machine for one response: a bare node:http process
 * answering every request with the same bytes from memory. Our server is measured against it.
 */
export async function startCeiling(
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ baseUrl: string; pid: number; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-ceiling-'));
  const file = path.join(dir, 'body');
  writeFileSync(file, body);
  const child = spawn(process.execPath, ['-e', CEILING_SERVER, file, JSON.stringify(headers)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    close: async () => {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
