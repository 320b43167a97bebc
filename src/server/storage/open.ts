import type { AppConfig } from '../config';
import { createLocalDiskStorage } from './local-disk';
import type { StoragePort } from './port';
import { openS3Storage } from './s3';

/** The video storage VIDEO_STORAGE names: the data folder's `videos/`, or an S3 bucket (checked). */
export function openVideoStorage(settings: AppConfig['storage']): Promise<StoragePort> {
  return settings.s3
    ? openS3Storage(settings.s3, settings.tmpDir)
    : Promise.resolve(createLocalDiskStorage(settings.videoDir));
}

/** Where the videos are, for the start-up log. */
export function describeVideoStorage(settings: AppConfig['storage']): string {
  const { s3 } = settings;
  if (!s3) return `local disk, ${settings.videoDir}`;
  return `S3 bucket ${s3.bucket}${s3.prefix ? `, prefix ${s3.prefix}` : ''}, ${s3.endpoint ?? `AWS ${s3.region}`}`;
}
