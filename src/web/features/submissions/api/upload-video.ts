import type { z } from 'zod';
import type { uploadVideoResponseSchema } from '#contract/submissions';
import { ApiError, reportIfSessionEnded } from '#web/lib/api-client';
import { readToken } from '#web/lib/storage';

type UploadVideoResponse = z.infer<typeof uploadVideoResponseSchema>;

/** Same reading of an error body as the API client (docs/product.md#reading-errors). */
function toUploadError(status: number, statusText: string, text: string): ApiError {
  const body = text || statusText;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const message =
      typeof json.error === 'string' ? json.error : typeof json.message === 'string' ? json.message : body;
    return new ApiError(message, status, body, typeof json.code === 'string' ? json.code : undefined);
  } catch {
    return new ApiError(`${status}: ${body}`, status, body);
  }
}

/**
 * POST /api/upload-video, multipart {video, dareId} → {url}. XMLHttpRequest rather than fetch:
 * it reports upload progress, which fetch does not. `onProgress` gets 0..1.
 */
export function uploadVideo(
  file: File,
  dareId: number,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadVideoResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload-video');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as UploadVideoResponse);
        } catch {
          reject(new ApiError(`${xhr.status}: ${xhr.responseText}`, xhr.status, xhr.responseText));
        }
      } else {
        const error = toUploadError(xhr.status, xhr.statusText, xhr.responseText);
        reportIfSessionEnded(error, token);
        reject(error);
      }
    };
    xhr.onerror = () => reject(new Error('Failed to upload video'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    // The dare id first: the server reads the fields in order and streams the file as it comes.
    form.append('dareId', String(dareId));
    form.append('video', file);
    xhr.send(form);
  });
}
