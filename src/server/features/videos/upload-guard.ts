import { Transform, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES, sniffVideoType } from './sniff';

export class UploadTooLargeError extends Error {}
export class UnsupportedVideoError extends Error {}
export class StorageFullError extends Error {}

/**
 * Passes an upload through, counting: past `maxBytes` it fails (the store then deletes what it
 * wrote), and it holds the first bytes back until they prove a video container. Every chunk is
 * claimed from the disk cap before it goes on: a refused claim fails the upload.
 */
export function createUploadGuard(
  maxBytes: number,
  onType: (type: string) => void,
  claim: (bytes: number) => boolean = () => true,
): Transform {
  let seen = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const checkHead = (final: boolean): Error | null => {
    if (!head || (head.length < SNIFF_BYTES && !final)) return null;
    const type = sniffVideoType(head);
    if (!type) return new UnsupportedVideoError();
    onType(type);
    return null;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) return callback(new UploadTooLargeError());
      if (!claim(chunk.length)) return callback(new StorageFullError());
      if (!head) return callback(null, chunk);
      head = Buffer.concat([head, chunk]);
      const error = checkHead(false);
      if (error) return callback(error);
      if (head.length < SNIFF_BYTES) return callback();
      const held = head;
      head = null;
      callback(null, held);
    },
    flush(callback) {
      if (!head) return callback();
      const error = checkHead(true);
      if (error) return callback(error);
      callback(null, head);
    },
  });
}
