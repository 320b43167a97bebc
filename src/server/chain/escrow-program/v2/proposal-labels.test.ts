import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProposalLabeller } from './proposal-labels';

const sha = (data: string) => createHash('sha256').update(data).digest('hex');
const VIDEO = 'the bytes of an uploaded proof';
const LINK = 'https://videos.example/proof.mp4';

/** A DarePool site as the guardian reads it: two pages of dares, the Major Dare, proofs and videos. */
const routes: Record<string, { status?: number; body: string; headers?: Record<string, string> }> = {
  '/api/major-dare': {
    body: JSON.stringify({ isActive: true, id: 9, title: 'The big one', escrowWallet: 'VaultM' }),
  },
  '/api/dares?limit=100': {
    body: JSON.stringify([{ id: 3, title: 'Newest', escrowWallet: 'VaultN' }]),
    headers: { 'x-next-cursor': '3' },
  },
  '/api/dares?limit=100&cursor=3': {
    body: JSON.stringify([{ id: 1, title: 'Older one', escrowWallet: 'VaultO' }]),
  },
  '/api/approved-submissions/1': {
    body: JSON.stringify([
      { id: 11, videoUrl: '/uploads/videos/aaaa', proofHash: sha(VIDEO), users: { username: 'walker1' } },
      { id: 12, videoUrl: LINK, proofHash: sha(LINK), users: { username: 'linker' } },
      { id: 13, videoUrl: '/uploads/videos/bbbb', proofHash: sha('deleted'), users: { username: 'gone' } },
    ]),
  },
  '/api/video-proxy/11': { body: VIDEO },
  '/api/video-proxy/13': { status: 404, body: '{"error":"Video not found"}' },
  '/api/approved-submissions/9': { status: 500, body: '{"error":"boom"}' },
};

let site: Server;
let url: string;
const asked: string[] = [];

beforeAll(async () => {
  site = createServer((request, response) => {
    asked.push(request.url!);
    const route = routes[request.url!];
    response.writeHead(route?.status ?? (route ? 200 : 404), route?.headers ?? {});
    response.end(route?.body ?? '');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

describe('createProposalLabeller', () => {
  it("finds the vault's dare across pages once, and checks each winner's proof against its entry", async () => {
    const labeller = createProposalLabeller(url);
    const label = await labeller.label('VaultO', [
      { proofHashes: [sha('not listed'), sha(VIDEO)] },
      { proofHashes: [sha(LINK)] },
      { proofHashes: [sha('deleted')] },
      { proofHashes: [sha('nobody')] },
    ]);
    expect(label.dare).toEqual({ id: 1, title: 'Older one' });
    expect(label.winners.map((w) => [w.username, w.proofHash, w.video])).toEqual([
      ['walker1', sha(VIDEO), 'matches'],
      ['linker', sha(LINK), 'link'],
      ['gone', sha('deleted'), 'missing'],
      [null, null, 'unknown'],
    ]);
    expect(labeller.problem()).toBeNull();
    // A second vault of pages already read asks for no page again.
    const before = asked.filter((path) => path.startsWith('/api/dares')).length;
    expect((await labeller.label('VaultN', [])).dare).toEqual({ id: 3, title: 'Newest' });
    expect(asked.filter((path) => path.startsWith('/api/dares')).length).toBe(before);
  });

  it('names the Major Dare, and says so when the site cannot answer, labelling nothing it could not read', async () => {
    const labeller = createProposalLabeller(url);
    const major = await labeller.label('VaultM', [{ proofHashes: [sha(VIDEO)] }]);
    expect(major.dare).toEqual({ id: 9, title: 'The big one' });
    expect(major.winners[0]).toMatchObject({ username: null, video: 'unknown' });
    expect(labeller.problem()).toMatch(
      /could not be read \(\/api\/approved-submissions\/9 answered HTTP 500\)/,
    );
    expect((await labeller.label('VaultX', [{ proofHashes: [] }])).dare).toBeNull();

    const down = createProposalLabeller('http://127.0.0.1:9');
    expect(await down.label('VaultO', [{ proofHashes: [sha(VIDEO)] }])).toEqual({
      dare: null,
      winners: [{ username: null, submissionId: null, proofHash: null, video: 'unknown', servedHash: null }],
    });
    expect(down.problem()).toMatch(/^the DarePool site at http:\/\/127\.0\.0\.1:9 could not be read/);
  });
});
