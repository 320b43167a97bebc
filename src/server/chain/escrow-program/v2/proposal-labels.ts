/**
 * What a DarePool site says about a proposal the chain shows (docs/decisions/055): the dare whose
 * vault it is (id and title), each winner's username, and whether the proof video it serves still
 * has the fingerprint the winner's entry holds on chain. Read over the site's public API only, so
 * the guardian needs no DarePool credential, and checked against the chain wherever it can be: a
 * dare counts only if its own `escrowWallet` is the vault, a proof only if its fingerprint is the
 * entry's, and the video is hashed here, from the bytes the site serves, not taken from its word.
 */
import { createHash } from 'node:crypto';
import type { Dare } from '#contract/dares';
import type { MajorDare } from '#contract/major-dare';
import { type Submission, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';

/** How far back the dares' list is read to find a vault's dare (100 a page). */
const MAX_DARE_PAGES = 50;
/** A proof video larger than this is not downloaded to be hashed. */
const MAX_VIDEO_BYTES = 512 * 1024 * 1024;

/**
 * The stored video against the entry's fingerprint: `matches`, `changed` (it hashes to something
 * else), `missing` (the site no longer serves it), `link` (a link proof: its fingerprint is the
 * URL's, which matches; what the link points to is not fixed), or `unknown` (no such proof listed).
 */
export type VideoCheck = 'matches' | 'changed' | 'missing' | 'link' | 'unknown';

export interface WinnerLabel {
  username: string | null;
  submissionId: number | null;
  /** The fingerprint checked: the entry's that the site lists a proof for. */
  proofHash: string | null;
  video: VideoCheck;
  /** What the served video hashes to, when it differs. */
  servedHash: string | null;
}

export interface ProposalLabel {
  dare: { id: number; title: string } | null;
  winners: WinnerLabel[];
}

/** Why the site could not be read (one line for the list), or null. */
export type SiteProblem = string | null;

export interface ProposalLabeller {
  label(vault: string, winners: readonly { proofHashes: readonly string[] }[]): Promise<ProposalLabel>;
  problem(): SiteProblem;
}

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

async function getJson<T>(url: URL): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url.pathname} answered HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function hashServedVideo(url: URL): Promise<string | null> {
  const response = await fetch(url, { redirect: 'manual' });
  if (response.status === 404 || response.status === 410) return null;
  if (!response.ok || !response.body) throw new Error(`${url.pathname} answered HTTP ${response.status}`);
  const hash = createHash('sha256');
  const reader = response.body.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    if (bytes > MAX_VIDEO_BYTES) {
      await reader.cancel();
      throw new Error(`${url.pathname} is larger than ${MAX_VIDEO_BYTES} bytes`);
    }
    hash.update(read.value);
  }
  return hash.digest('hex');
}

async function checkVideo(site: URL, submission: Submission, proofHash: string): Promise<WinnerLabel> {
  const label = {
    username: submission.users?.username ?? null,
    submissionId: submission.id,
    proofHash,
    servedHash: null,
  };
  if (!submission.videoUrl.startsWith(UPLOADED_VIDEO_PREFIX))
    return { ...label, video: sha256Hex(submission.videoUrl) === proofHash ? 'link' : 'changed' };
  const served = await hashServedVideo(new URL(`/api/video-proxy/${submission.id}`, site));
  if (served === null) return { ...label, video: 'missing' };
  return served === proofHash
    ? { ...label, video: 'matches' }
    : { ...label, video: 'changed', servedHash: served };
}

/**
 * Labels proposals from the site at `siteUrl`. The dares' list is read once (newest first, until
 * every vault asked about is found or MAX_DARE_PAGES pages); a site that does not answer leaves
 * every label empty and `problem()` says why.
 */
export function createProposalLabeller(siteUrl: string): ProposalLabeller {
  const site = new URL(siteUrl);
  const byVault = new Map<string, { id: number; title: string }>();
  let scan: { cursor: string | null; pages: number; done: boolean } = { cursor: null, pages: 0, done: false };
  let failure: SiteProblem = null;
  const cannotRead = (error: unknown) =>
    `the DarePool site at ${site.origin} could not be read (${(error as Error).message})`;

  /** The Major Dare (not in the community list), then the community dares, newest first. */
  async function readNextPage(): Promise<void> {
    if (scan.pages === 0 && !scan.cursor) {
      const major = await getJson<Partial<MajorDare & { isActive: true }>>(new URL('/api/major-dare', site));
      if (major.escrowWallet && major.id !== undefined && major.title !== undefined)
        byVault.set(major.escrowWallet, { id: major.id, title: major.title });
    }
    const page = new URL('/api/dares', site);
    page.searchParams.set('limit', '100');
    if (scan.cursor) page.searchParams.set('cursor', scan.cursor);
    const response = await fetch(page, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${page.pathname} answered HTTP ${response.status}`);
    for (const dare of (await response.json()) as Dare[])
      if (dare.escrowWallet) byVault.set(dare.escrowWallet, { id: dare.id, title: dare.title });
    const next = response.headers.get('x-next-cursor');
    const pages = scan.pages + 1;
    scan = { cursor: next, pages, done: !next || pages >= MAX_DARE_PAGES };
  }

  async function dareOf(vault: string) {
    while (!byVault.has(vault) && !scan.done && failure === null) {
      try {
        await readNextPage();
      } catch (error) {
        failure = cannotRead(error);
      }
    }
    return byVault.get(vault) ?? null;
  }

  return {
    problem: () => failure,
    async label(vault, winners) {
      const empty: WinnerLabel = {
        username: null,
        submissionId: null,
        proofHash: null,
        video: 'unknown',
        servedHash: null,
      };
      const dare = await dareOf(vault);
      if (!dare) return { dare: null, winners: winners.map(() => empty) };
      let proofs: Submission[] = [];
      try {
        proofs = await getJson<Submission[]>(new URL(`/api/approved-submissions/${dare.id}`, site));
      } catch (error) {
        failure ??= cannotRead(error);
      }
      const labels = await Promise.all(
        winners.map(async (winner) => {
          for (const proofHash of winner.proofHashes) {
            const proof = proofs.find((p) => p.proofHash === proofHash);
            if (!proof) continue;
            try {
              return await checkVideo(site, proof, proofHash);
            } catch (error) {
              failure ??= `a proof video could not be read (${(error as Error).message})`;
              return { ...empty, username: proof.users?.username ?? null, submissionId: proof.id, proofHash };
            }
          }
          return empty;
        }),
      );
      return { dare, winners: labels };
    },
  };
}
