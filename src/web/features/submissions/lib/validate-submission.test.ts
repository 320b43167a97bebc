import { describe, expect, it } from 'vitest';
import { SUBMISSION_LIMITS } from '#contract/limits';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { validateSubmission } from './validate-submission';

const file = (size: number, type = 'video/mp4', name = 'proof.mp4') =>
  new File([new Uint8Array(size)], name, { type });

describe('validateSubmission', () => {
  it('needs a video and a description', () => {
    expect(validateSubmission({ videoUrl: '', file: null, description: 'did it' })).toBe(
      SUBMISSION_MESSAGES.videoAndDescription,
    );
    expect(validateSubmission({ videoUrl: 'https://v.example/a.mp4', file: null, description: '  ' })).toBe(
      SUBMISSION_MESSAGES.videoAndDescription,
    );
  });

  it("accepts an https URL only, with the server's message for anything else", () => {
    expect(
      validateSubmission({ videoUrl: 'https://v.example/a.mp4', file: null, description: 'x' }),
    ).toBeNull();
    expect(validateSubmission({ videoUrl: 'http://v.example/a.mp4', file: null, description: 'x' })).toBe(
      'Please use an https:// video link',
    );
    expect(validateSubmission({ videoUrl: 'javascript:alert(1)', file: null, description: 'x' })).toBe(
      'Please use an https:// video link',
    );
  });

  it('accepts links to video files only, not to pages such as YouTube', () => {
    for (const videoUrl of [
      'https://v.example/a.WEBM',
      'https://v.example/b.ogv?t=3',
      'https://v.example/c.ogg',
    ])
      expect(validateSubmission({ videoUrl, file: null, description: 'x' })).toBeNull();
    for (const videoUrl of [
      'https://www.youtube.com/watch?v=abc',
      'https://v.example/a',
      'https://v.example/a.mp4/page',
    ])
      expect(validateSubmission({ videoUrl, file: null, description: 'x' })).toBe(
        SUBMISSION_MESSAGES.videoFileLink,
      );
  });

  it('takes a file of exactly 10 MB and refuses one byte more', () => {
    const max = SUBMISSION_LIMITS.videoMaxBytes;
    expect(validateSubmission({ videoUrl: '', file: file(max), description: 'x' })).toBeNull();
    expect(validateSubmission({ videoUrl: '', file: file(max + 1), description: 'x' })).toBe(
      'Video file must be under 10MB',
    );
  });

  it('accepts MP4, WebM and OGG only', () => {
    expect(validateSubmission({ videoUrl: '', file: file(10, 'video/webm'), description: 'x' })).toBeNull();
    expect(validateSubmission({ videoUrl: '', file: file(10, 'video/ogg'), description: 'x' })).toBeNull();
    expect(
      validateSubmission({ videoUrl: '', file: file(10, 'text/plain', 'a.txt'), description: 'x' }),
    ).toBe(SUBMISSION_MESSAGES.videoType);
    // No type from the browser: the extension decides; the server sniffs the bytes anyway.
    expect(
      validateSubmission({ videoUrl: '', file: file(10, '', 'clip.webm'), description: 'x' }),
    ).toBeNull();
  });

  it('limits the description', () => {
    const long = 'a'.repeat(SUBMISSION_LIMITS.descriptionMax + 1);
    expect(validateSubmission({ videoUrl: 'https://v.example/a.mp4', file: null, description: long })).toBe(
      SUBMISSION_MESSAGES.descriptionMax,
    );
  });
});
