import { readFileSync } from 'node:fs';
import { type HttpClient, newClient } from '../../e2e/fixtures/http-client';
import type { Benchmark } from '../types';

const UPLOADS = 20;
const FILE_BYTES = 10 * 1024 * 1024;
const CLIENTS = 4;
/**
 * Nothing is held in memory: on disk an upload streams to its file; on S3 (BENCH_VIDEO_STORAGE=s3)
 * it streams to a spool file and goes up from there as one PutObject (decision 020).
 */
const RSS_BUDGET_BYTES = 50 * 1024 * 1024;
const SAMPLE_MS = 10;
const STORAGE = process.env.BENCH_VIDEO_STORAGE === 's3' ? 'S3 (s3rver)' : 'local disk';

/** The server's resident memory now (VmRSS), or the most it ever had (VmHWM), from /proc (Linux). */
function rssOf(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!kb) throw new Error(`No ${field} in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

/** A 10 MB MP4 (an 'ftyp' box, then filler) as the web app's form sends it: dare id, then file. */
async function uploadForm(dareId: number): Promise<{ body: ArrayBuffer; contentType: string }> {
  const file = Buffer.alloc(FILE_BYTES, 0x61);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  const form = new FormData();
  form.append('dareId', String(dareId));
  form.append('video', new Blob([new Uint8Array(file)], { type: 'video/mp4' }), 'proof.mp4');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: await request.arrayBuffer(),
    contentType: request.headers.get('content-type')!,
  };
}

async function upload(baseUrl: string, client: HttpClient, form: { body: ArrayBuffer; contentType: string }) {
  const res = await fetch(`${baseUrl}/api/upload-video`, {
    method: 'POST',
    headers: { 'content-type': form.contentType, authorization: `Bearer ${client.token}` },
    body: form.body,
  });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
}

/**
 * Memory held by uploads in flight: 20 concurrent 10 MB uploads must stream to disk (the videos
 * folder, or the spool on their way to S3), not sit in memory. The server's RSS is sampled every
 * 10 ms; the measure is the peak over the baseline taken after one warm-up upload.
 *
 * Its start peaks at about 1 GB; some runs give ~400 MB of it back to the system (baseline ~550 MB),
 * others keep it resident (baseline ~950 MB), and what the uploads allocate can then fit in it
 * without growing the RSS: there, memory held by uploads can go unseen (lib-storage's parts showed +0 and +48 MB at
 * ~950 MB, +250 to +283 MB at ~550 MB). The detail says when a run's baseline is that close to the
 * high-water mark.
 */
export const uploadMemory: Benchmark = {
  name: 'upload',
  description: `${UPLOADS} concurrent ${FILE_BYTES / 1024 / 1024} MB uploads to ${STORAGE}: growth of the server's RSS`,
  async run(context) {
    const clients: HttpClient[] = [];
    for (let i = 0; i < CLIENTS; i++) clients.push(await newClient(context, 100 + i));
    const dares = (await (await fetch(`${context.baseUrl}/api/dares?filter=active`)).json()) as {
      id: number;
    }[];
    if (dares.length === 0) throw new Error('No active dare to upload to (the demo data should have some)');
    const form = await uploadForm(dares[0]!.id);

    await upload(context.baseUrl, clients[0]!, form);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const baseline = rssOf(context.serverPid);
    const highWater = rssOf(context.serverPid, 'VmHWM');
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(context.serverPid));
    }, SAMPLE_MS);
    const started = performance.now();
    try {
      await Promise.all(
        Array.from({ length: UPLOADS }, (_, i) => upload(context.baseUrl, clients[i % CLIENTS]!, form)),
      );
    } finally {
      clearInterval(sampler);
    }
    const elapsed = performance.now() - started;
    peak = Math.max(peak, rssOf(context.serverPid));
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    return [
      {
        kind: 'measure',
        name: `server RSS growth, ${UPLOADS} concurrent 10 MB uploads to ${STORAGE}`,
        value: peak - baseline,
        unit: 'bytes',
        budget: RSS_BUDGET_BYTES,
        detail:
          `baseline ${mb(baseline)}, peak ${mb(peak)}; all ${UPLOADS} stored in ${Math.round(elapsed)} ms` +
          (baseline > highWater * 0.8
            ? `; the baseline is near the start's high-water mark (${mb(highWater)}): memory the server keeps may hide growth, run again`
            : ''),
      },
    ];
  },
};
