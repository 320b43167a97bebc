import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '#server/config';
import { createS3Client } from '#server/storage/s3';

const BUCKET = 'darepool-test';
/** s3rver's only account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const PROCESS_FILE = fileURLToPath(new URL('./s3rver-process.ts', import.meta.url));

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** A client on the server, for looking behind the adapter's back. */
  client: S3Client;
  settings(prefix?: string): S3Settings;
  /** The environment that points the app at this server (VIDEO_STORAGE=s3 and the S3_ settings). */
  env(prefix?: string): Record<string, string>;
  /** Every object key and unfinished multipart upload under `prefix`, as `object:` / `upload:` lines. */
  contents(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** An S3-protocol server (s3rver) in its own process, on a free port, over a fresh temp folder. */
export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'darepool-s3-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--import', 'tsx', PROCESS_FILE, directory, BUCKET],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve((message as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`The test S3 server exited (${code}) before listening`)));
      child.once('error', reject);
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (prefix = ''): S3Settings => ({
    bucket: BUCKET,
    prefix,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: CREDENTIALS,
  });
  const client = createS3Client(settings());
  return {
    endpoint,
    bucket: BUCKET,
    client,
    settings,
    env: (prefix = '') => ({
      VIDEO_STORAGE: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_PREFIX: prefix,
    }),
    async contents(prefix = '') {
      const objects = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
      const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: prefix }));
      return [
        ...(objects.Contents ?? []).map((object) => `object:${object.Key}`),
        ...(uploads.Uploads ?? []).map((upload) => `upload:${upload.Key}`),
      ];
    },
    async close() {
      client.destroy();
      child.kill('SIGTERM');
      await exited(child);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
