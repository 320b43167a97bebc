/**
 * `npm run program:deploy` end to end: the script, in its own process, against an HTTP JSON-RPC
 * node (the embedded chain's handler served over node:http, as a cluster would answer).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { address, lamports } from '@solana/kit';
import { stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EmbeddedLedger } from '#server/chain/embedded/embedded-ledger';
import { JsonRpcError } from '#server/chain/embedded/json-rpc';
import { createRpcHandler } from '#server/chain/embedded/rpc-handler';
import { runScript } from '#test/support/scripts';
import { readKeypairFile, writeNewKeypairFile } from './keypair-file';
import { readEscrowProgram, sha256Hex } from './program';
import { readEscrowProgramV2 } from './v2/program';

let server: Server;
let rpcUrl: string;
let work: string;
let ledger: EmbeddedLedger;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'darepool-program-deploy-'));
  ledger = EmbeddedLedger.open(null, () => new Date());
  const handle = createRpcHandler(ledger);
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { id, method, params } = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
      let answer: unknown;
      try {
        answer = { jsonrpc: '2.0', id, result: handle(method, params ?? []) };
      } catch (error) {
        if (!(error instanceof JsonRpcError)) throw error;
        answer = {
          jsonrpc: '2.0',
          id,
          error: { code: error.code, message: error.message, data: error.data },
        };
      }
      response.setHeader('content-type', 'application/json');
      response.end(stringifyJsonWithBigInts(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ledger.close();
  rmSync(work, { recursive: true, force: true });
});

const deployScript = (args: string[]) =>
  runScript('scripts/program-deploy.ts', args, { ...process.env, SOLANA_RPC_URL: rpcUrl });

/**
 * A new authority with 10 SOL deploys the committed program (`versionArgs` ['--v2']: v2's) with
 * `--final`, to a new program keypair in `program<name>.json`.
 */
async function deployFinal(name: string, versionArgs: string[]) {
  const authorityFile = path.join(work, `authority${name}.json`);
  const programFile = path.join(work, `program${name}.json`);
  writeNewKeypairFile(authorityFile);
  const authority = await readKeypairFile(authorityFile);
  createRpcHandler(ledger)('requestAirdrop', [authority.address, Number(lamports(10_000_000_000n))]);
  const args = [...versionArgs, '--keypair', authorityFile, '--program-keypair', programFile, '--final'];
  const deployed = await deployScript(args);
  return { authority, programFile, deployed, programId: (await readKeypairFile(programFile)).address };
}

it('deploys the committed program immutable with --final, and --verify ties the deployed bytes to it', async () => {
  const { authority, programFile, deployed, programId } = await deployFinal('', []);
  expect(deployed.stdout).toContain(`Wrote a new program keypair to ${programFile}`);
  expect(deployed.stdout).toContain(`Deployed ${programId}`);
  expect(deployed.stdout).toContain('Immutable: no key can change this program.');

  const verified = await deployScript(['--verify', programId]);
  expect(verified.stdout).toContain(`deployed  ${sha256Hex(readEscrowProgram())}`);
  expect(verified.stdout).toContain('Immutable.');
  expect(verified.stdout).toContain('The deployed program is this source.');
  expect(readFileSync(programFile, 'utf8')).toMatch(/^\[(\d+,){63}\d+\]\n$/);

  const notAProgram = deployScript(['--verify', address(authority.address)]);
  await expect(notAProgram).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('is not an upgradeable-loader program'),
  });
}, 60_000);

it('deploys escrow v2 with --v2, and --verify tells v2 from v1', async () => {
  const { deployed, programId } = await deployFinal('-v2', ['--v2']);
  expect(deployed.stdout).toContain(`sha256 ${sha256Hex(readEscrowProgramV2())}`);
  const verified = await deployScript(['--v2', '--verify', programId]);
  expect(verified.stdout).toContain('committed');
  expect(verified.stdout).toContain('(program/build/darepool_escrow_v2.so)');
  expect(verified.stdout).toContain('The deployed program is this source.');
  await expect(deployScript(['--verify', programId])).rejects.toMatchObject({
    code: 1,
    stdout: expect.stringContaining('DIFFERENT'),
  });
}, 180_000);
