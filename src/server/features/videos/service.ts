/**
 * Uploading proof videos, and who may play which one. The parts, each a module of named functions
 * taking the deps first: upload-video.ts (an upload stored within what its uploader may hold),
 * playback.ts (what a video address plays, for whom), upload-quota.ts (the storage cap). This
 * module only puts them together under the names callers use.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '#server/features/auth/user';
import { openStoredVideo, publicUpload, submissionPlayback } from './playback';
import { recordStoredUpload, uploadVideo } from './upload-video';
import type { VideosDeps } from './videos-deps';

export type { Playback } from './playback';
export { createUploadQuota } from './upload-quota';
export type { VideosDeps } from './videos-deps';

export function createVideosService(deps: VideosDeps) {
  return {
    /** Stores a user's video and answers the URL a submission then points at. */
    upload: (user: UserRow, request: FastifyRequest, reply: FastifyReply) =>
      uploadVideo(deps, user, request, reply),
    /** A video already in the store recorded as a pending upload (the demo seed's). */
    recordStoredUpload: (
      userId: number,
      dareId: number,
      stored: { key: string; size: number; sha256: string },
    ) => recordStoredUpload(deps, userId, dareId, stored),
    /** An upload's own address plays only once a public submission points at it. */
    publicUpload: (key: string) => publicUpload(deps, key),
    /** A submission's video for this viewer (author, admin, or a signed link while not public). */
    playback: (
      submissionId: number,
      viewer: UserRow | null,
      link: { expires?: number; signature?: string },
    ) => submissionPlayback(deps, submissionId, viewer, link),
    /** A stored video's size and type, and its bytes; 404 when it is gone. */
    open: (key: string) => openStoredVideo(deps, key),
  };
}

export type VideosService = ReturnType<typeof createVideosService>;
