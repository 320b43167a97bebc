import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import Fastify from 'fastify';
import { createS3Client, createS3Storage } from '#server/storage/s3';
import { startTestS3Server } from '#test/support/storage/s3-server';
import type { Benchmark, MeasureResult } from '../types';

const MiB = 1024 * 1024;
const VIDEO_BYTES = 8 * MiB;
const RANGE_BYTES = MiB;
const SEQUENTIAL = 40;
const CONCURRENT = 16;
const CONCURRENT_TOTAL = 64;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!;

/**
 * Decision 020: a 1 MiB range of a video in an S3 bucket (s3rver on loopback), read the two ways
 * the video route could serve it: through the server (stat, then GetObject with Range, streamed
 * on, as the video route does) or as a 302 to a presigned URL the player then fetches from the bucket.
 * The bucket read alone is the floor. In-process: a bare Fastify with just these two routes, so
 * what differs is only the storage path (auth and the signed-link check cost the same either way).
 */
export const videoStorage: Benchmark = {
  name: 'video-storage',
  description: 'a 1 MiB video range from S3: through the server vs a redirect to a presigned URL',
  inProcess: true,
  async run() {
    const s3 = await startTestS3Server();
    const client = createS3Client(s3.settings('bench/'));
    const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-bench-spool-'));
    const storage = createS3Storage({ client, bucket: s3.bucket, prefix: 'bench/', spoolDir });
    const app = Fastify();
    try {
      const { key } = await storage.put(Readable.from([randomBytes(VIDEO_BYTES)]), 'video/mp4');
      app.get<{ Params: { key: string } }>('/proxy/:key', async (request, reply) => {
        const object = await storage.stat(request.params.key);
        if (!object) return reply.code(404).send();
        // The bench only asks for `bytes=a-b` inside the object.
        const [start = 0, end = 0] =
          /^bytes=(\d+)-(\d+)$/
            .exec(request.headers.range ?? '')
            ?.slice(1)
            .map(Number) ?? [];
        const range = { start, end };
        reply
          .code(206)
          .header('content-type', object.contentType)
          .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
          .header('content-length', range.end - range.start + 1);
        return reply.send(storage.read(request.params.key, range));
      });
      const presign = () =>
        getSignedUrl(client, new GetObjectCommand({ Bucket: s3.bucket, Key: `bench/${key}` }), {
          expiresIn: 60,
        });
      app.get<{ Params: { key: string } }>('/presigned/:key', async (_request, reply) =>
        reply.redirect(await presign(), 302),
      );
      await app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const directUrl = await presign();

      const ways = {
        proxy: `${base}/proxy/${key}`,
        presigned: `${base}/presigned/${key}`,
        direct: directUrl,
      };
      const fetchRange = async (url: string, index: number) => {
        const start = ((index * 7 + 3) % (VIDEO_BYTES / RANGE_BYTES - 1)) * RANGE_BYTES;
        const started = performance.now();
        const res = await fetch(url, { headers: { range: `bytes=${start}-${start + RANGE_BYTES - 1}` } });
        const body = await res.arrayBuffer();
        if (res.status !== 206 || body.byteLength !== RANGE_BYTES)
          throw new Error(`${url} answered ${res.status} with ${body.byteLength} bytes`);
        return performance.now() - started;
      };
      // Warm up each way (keep-alive sockets, JIT), then interleave them so drift hits all alike.
      for (const url of Object.values(ways)) await fetchRange(url, 0);
      const times: Record<keyof typeof ways, number[]> = { proxy: [], presigned: [], direct: [] };
      for (let i = 0; i < SEQUENTIAL; i++)
        for (const [way, url] of Object.entries(ways))
          times[way as keyof typeof ways].push(await fetchRange(url, i));

      const concurrent = async (url: string) => {
        let next = 0;
        const started = performance.now();
        await Promise.all(
          Array.from({ length: CONCURRENT }, async () => {
            while (next < CONCURRENT_TOTAL) await fetchRange(url, next++);
          }),
        );
        return performance.now() - started;
      };
      const results: MeasureResult[] = [];
      const fmt = (values: number[]) =>
        `median ${median(values).toFixed(1)} ms, p90 ${p90(values).toFixed(1)} ms`;
      for (const way of ['proxy', 'presigned', 'direct'] as const) {
        const total = await concurrent(ways[way]);
        results.push({
          kind: 'measure',
          name: `1 MiB range, ${way === 'proxy' ? 'through the server' : way === 'presigned' ? 'redirect to a presigned URL' : 'bucket alone (floor)'}`,
          value: Math.round(median(times[way]) * 10) / 10,
          unit: 'ms',
          budget: 250,
          detail: `sequential ${fmt(times[way])}; ${CONCURRENT_TOTAL} with ${CONCURRENT} in flight: ${Math.round(total)} ms (${((CONCURRENT_TOTAL * RANGE_BYTES) / MiB / (total / 1000)).toFixed(0)} MiB/s)`,
        });
      }
      const presignTimes: number[] = [];
      for (let i = 0; i < 200; i++) {
        const started = performance.now();
        await presign();
        presignTimes.push(performance.now() - started);
      }
      results.push({
        kind: 'measure',
        name: 'presigning one URL',
        value: Math.round(median(presignTimes) * 1000) / 1000,
        unit: 'ms',
        budget: 20,
      });
      return results;
    } finally {
      await app.close();
      client.destroy();
      await s3.close();
      rmSync(spoolDir, { recursive: true, force: true });
    }
  },
};
