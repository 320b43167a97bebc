import { describe, expect, it } from 'vitest';
import { createVideoAccess } from './video-access';

const secret = new Uint8Array(32).fill(1);
const pending = { id: 7, status: 'pending', videoUrl: `/uploads/videos/${'a'.repeat(32)}` };

function at(iso: string) {
  const now = { date: new Date(iso) };
  return { now, access: createVideoAccess({ secret, clock: () => now.date }) };
}

const parts = (src: string) => {
  const url = new URL(src, 'http://x');
  return { expires: Number(url.searchParams.get('expires')), signature: url.searchParams.get('signature')! };
};

describe('signed video links', () => {
  it('gives public videos their plain address and pending external links none', () => {
    const { access } = at('2026-01-01T00:00:00Z');
    expect(access.sourceFor({ ...pending, status: 'approved' })).toBe('/api/video-proxy/7');
    expect(access.sourceFor({ ...pending, status: 'winner' })).toBe('/api/video-proxy/7');
    expect(access.sourceFor({ ...pending, videoUrl: 'https://v.example/a.mp4' })).toBeNull();
  });

  it('keeps one link for five minutes, valid 15 to 20 minutes, for one submission only', () => {
    const { now, access } = at('2026-01-01T00:00:30Z');
    const first = access.sourceFor(pending)!;
    now.date = new Date('2026-01-01T00:04:59Z');
    expect(access.sourceFor(pending)).toBe(first);
    const { expires, signature } = parts(first);
    expect(expires * 1000).toBe(Date.parse('2026-01-01T00:20:00Z'));
    expect(access.check(7, expires, signature)).toBe('valid');
    expect(access.check(8, expires, signature)).toBe('invalid');
    expect(access.check(7, expires + 300, signature)).toBe('invalid');
    expect(access.check(7, expires, undefined)).toBe('invalid');
    now.date = new Date('2026-01-01T00:20:01Z');
    expect(access.check(7, expires, signature)).toBe('expired');
    expect(
      createVideoAccess({ secret: new Uint8Array(32), clock: () => now.date }).check(7, expires, signature),
    ).toBe('invalid');
  });
});
