/**
 * `npm run guardian -- list --app <site>` against a real DarePool server (its own process, its
 * embedded chain's RPC): a proposal in its window is named by its dare's id and title, its winner
 * by username and proof fingerprint, and the proof video the site serves is hashed by the script
 * itself — it notices when the stored file no longer has the fingerprint the entry holds on chain.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  createKeyPairFromPrivateKeyBytes,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDareOverHttp, newClient, request, submitOverHttp } from '../e2e/fixtures/http-client';
import { REPO_ROOT } from '../e2e/fixtures/paths';
import { getFreePortPair, type RunningServer, startServer } from '../e2e/fixtures/server';
import { loginAsDemoAdmin } from '../e2e/fixtures/sessions';

const run = promisify(execFile);
let server: RunningServer;
let chainRpc: string;

beforeAll(async () => {
  const rpcPort = await getFreePortPair();
  server = await startServer({ env: { CHAIN_RPC_PORT: String(rpcPort) } });
  chainRpc = `http://127.0.0.1:${rpcPort}`;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** An MP4 header ('ftyp' box) followed by random bytes. */
function mp4(size: number): Buffer {
  const file = randomBytes(size);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  return file;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function guardianList(args: string[]) {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/guardian.ts', 'list', ...args],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        // The server's data folder names its chain's v2 program (DATA_DIR/chain).
        DATA_DIR: server.dataDir,
        SOLANA_RPC_URL: chainRpc,
        ESCROW_PROGRAM_V2_ID: '',
        GUARDIAN_WALLET: '',
        DAREPOOL_URL: '',
      },
    },
  );
  return stdout;
}

/** Mark Winner as the demo admin's wallet (every vault's judge here) signs it, relayed. */
async function nameWinner(token: string, submissionId: number, dareId: number) {
  const markWinner = `/api/admin/submissions/${submissionId}/mark-winner`;
  const { transaction } = await request<{ transaction: string }>(server, 'POST', markWinner, token, {
    dareId,
  });
  const key = JSON.parse(
    readFileSync(path.join(server.dataDir, 'demo-admin-wallet.json'), 'utf8'),
  ) as number[];
  const judge = await createKeyPairFromPrivateKeyBytes(Uint8Array.from(key).slice(0, 32));
  const signed = await partiallySignTransaction(
    [judge],
    getTransactionDecoder().decode(Buffer.from(transaction, 'base64')),
  );
  await request(server, 'POST', markWinner, token, {
    dareId,
    signedTransaction: getBase64EncodedWireTransaction(signed),
  });
}

it("names the dare, the winner and the proof's fingerprint, and sees a stored video change", async () => {
  const creator = await newClient(server, 71);
  const walker = await newClient(server, 72);
  const dare = await createDareOverHttp(server, creator, {
    title: 'Balance a spoon on your nose',
    stake: '0.2',
  });
  const video = mp4(64 * 1024);
  const form = new FormData();
  form.append('dareId', String(dare.id));
  form.append('video', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'proof.mp4');
  const uploaded = await fetch(new URL('/api/upload-video', server.baseUrl), {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${walker.token}` },
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(200);
  const { url } = (await uploaded.json()) as { url: string };
  const proof = await submitOverHttp(server, walker, dare.id, { videoUrl: url, description: 'Steady' });
  const admin = await loginAsDemoAdmin(server);
  await request(server, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });
  await nameWinner(admin.token, proof.id, dare.id);

  const listed = async () => {
    const all = JSON.parse(await guardianList(['--all', '--json', '--app', server.baseUrl]));
    expect(all.siteProblem).toBeNull();
    return all.proposals.find((p: { vault: string }) => p.vault === dare.escrowWallet);
  };
  const fingerprint = sha256(video);
  const before = await listed();
  expect(before).toMatchObject({
    dare: { id: String(dare.id), title: 'Balance a spoon on your nose' },
    winners: [
      {
        wallet: walker.address,
        username: walker.username,
        proofHash: fingerprint,
        proofHashes: [fingerprint],
        video: 'matches',
        servedHash: null,
      },
    ],
  });
  const text = await guardianList(['--all', '--app', server.baseUrl]);
  expect(text).toContain(`Vault ${dare.escrowWallet}: dare ${dare.id} "Balance a spoon on your nose"`);
  expect(text).toContain(
    `winner ${walker.address} (${walker.username}) gets 0.2 SOL; proof hash ${fingerprint}`,
  );
  expect(text).toContain(`    proof ${fingerprint}: the stored video still has this fingerprint`);

  // The stored file is swapped behind the site's back: the script hashes what is served now.
  const replaced = mp4(64 * 1024);
  writeFileSync(path.join(server.dataDir, 'videos', url.split('/').at(-1)!), replaced);
  const after = await listed();
  expect(after.winners[0]).toMatchObject({
    username: walker.username,
    proofHash: fingerprint,
    video: 'changed',
    servedHash: sha256(replaced),
  });

  // Without a site the chain's facts stand alone, and the list says how to get the rest.
  const bare = await guardianList(['--all']);
  expect(bare).toContain('pass --app <DarePool site URL>');
  expect(bare).toContain(`winner ${walker.address} gets 0.2 SOL; proof hash ${fingerprint}`);
}, 240_000);
