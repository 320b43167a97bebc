/** Bytes needed to recognise every accepted container. */
export const SNIFF_BYTES = 12;

/**
 * The video type a file's first bytes prove, whatever its name or declared type: MP4 ('ftyp' box
 * at offset 4), WebM (EBML header), OGG ('OggS' page).
 */
export function sniffVideoType(head: Uint8Array): 'video/mp4' | 'video/webm' | 'video/ogg' | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 8 && ascii(4, 8) === 'ftyp') return 'video/mp4';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)
    return 'video/webm';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'video/ogg';
  return null;
}
