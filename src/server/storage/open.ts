import type { AppConfig } from '#server/config';
import { createLocalDiskStorage } from './local-disk';
import type { StoragePort } from './port';

/** The video storage VIDEO_STORAGE names: the data folder's `videos/`, or an S3 bucket (checked). */
export async function openVideoStorage(settings: AppConfig['storage']): Promise<StoragePort> {
  if (!settings.s3) return createLocalDiskStorage(settings.videoDir);
  // Loaded only when asked for: the AWS SDK is a large import local storage never uses.
  const { openS3Storage } = await import('./s3');
  return openS3Storage(settings.s3, settings.tmpDir);
}

/** Where the videos are, for the start-up log. */
export function describeVideoStorage(settings: AppConfig['storage']): string {
  const { s3 } = settings;
  if (!s3) return `local disk, ${settings.videoDir}`;
  return `S3 bucket ${s3.bucket}${s3.prefix ? `, prefix ${s3.prefix}` : ''}, ${s3.endpoint ?? `AWS ${s3.region}`}`;
}
