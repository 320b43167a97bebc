/**
 * An S3-protocol server for tests, run as its own process by `startTestS3Server` (s3-server.ts):
 * s3rver with one bucket in a temp folder, on a free loopback port sent to the parent over IPC.
 *
 * Its own process because s3rver signs ListObjectsV2 continuation tokens with DES, which Node's
 * OpenSSL 3 only has under --openssl-legacy-provider; and s3rver lacks two calls the adapter's
 * tests need (AbortMultipartUpload, ListMultipartUploads), answered here over the upload folders
 * s3rver itself keeps (`<bucket>/._S3rver_uploads/<uploadId>/key`).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) throw new Error('usage: s3rver-process.ts <directory> <bucket>');

const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
await s3rver.configureBuckets();
const s3rverHandler = s3rver.callback();
const uploadsDir = path.join(directory, bucket, '._S3rver_uploads');

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function sendXml(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function listMultipartUploads(prefix: string): string {
  const uploads = existsSync(uploadsDir) ? readdirSync(uploadsDir) : [];
  const entries = uploads
    .map((uploadId) => {
      const dir = path.join(uploadsDir, uploadId);
      return {
        uploadId,
        key: readFileSync(path.join(dir, 'key'), 'utf8'),
        initiated: statSync(dir).birthtime,
      };
    })
    .filter(({ key }) => key.startsWith(prefix))
    .map(
      ({ uploadId, key, initiated }) =>
        `<Upload><Key>${xmlText(key)}</Key><UploadId>${uploadId}</UploadId><Initiated>${initiated.toISOString()}</Initiated></Upload>`,
    );
  return (
    `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket>` +
    `<Prefix>${xmlText(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${entries.join('')}</ListMultipartUploadsResult>`
  );
}

/** Answers the two calls s3rver lacks; false for everything else. */
function extraCalls(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const [urlBucket, ...keyParts] = url.pathname.split('/').filter(Boolean);
  if (urlBucket !== bucket) return false;
  if (req.method === 'GET' && keyParts.length === 0 && url.searchParams.has('uploads')) {
    sendXml(res, 200, listMultipartUploads(url.searchParams.get('prefix') ?? ''));
    return true;
  }
  const uploadId = url.searchParams.get('uploadId');
  if (req.method === 'DELETE' && uploadId && keyParts.length > 0) {
    const dir = path.join(uploadsDir, path.basename(uploadId));
    if (!existsSync(dir)) {
      sendXml(
        res,
        404,
        '<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>',
      );
    } else {
      rmSync(dir, { recursive: true, force: true });
      res.writeHead(204).end();
    }
    return true;
  }
  return false;
}

const server = http.createServer((req, res) => {
  if (!extraCalls(req, res)) s3rverHandler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
// The parent going away (a crashed test run) ends this server too.
process.on('disconnect', () => process.exit(0));
