import { describe, expect, it, vi } from 'vitest';
import { SUBMISSION_MESSAGES, type Submission } from '#contract/submissions';
import { ApiError } from '#web/lib/api-client';
import { type EnterAndSubmitDeps, enterAndSubmit } from './enter-and-submit';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const input = { dareId: 3, walletAddress: WALLET, videoUrl: 'https://v.example/a.mp4', description: 'Done' };

function deps(overrides: Partial<EnterAndSubmitDeps> = {}) {
  return {
    requestEntry: vi.fn(async () => ({ transaction: 'AQID' })),
    connectWallet: vi.fn(async () => ({
      address: WALLET,
      walletName: 'E2E Test Wallet',
      // The wallet adds its signature: here, one more byte.
      signTransaction: async (tx: Uint8Array) => new Uint8Array([...tx, 4]),
    })),
    submit: vi.fn(async () => ({ id: 11 }) as Submission),
    ...overrides,
  };
}

describe('enterAndSubmit', () => {
  it('has the wallet sign the entry the server built and sends it with the proof', async () => {
    const calls = deps();
    const stages: string[] = [];
    const submission = await enterAndSubmit(input, calls, (stage) => stages.push(stage));
    expect(submission.id).toBe(11);
    // The entry is asked for the very video submitted: a v2 entry carries its fingerprint.
    expect(calls.requestEntry).toHaveBeenCalledWith(3, { videoUrl: 'https://v.example/a.mp4' });
    expect(calls.connectWallet).toHaveBeenCalledWith(WALLET);
    expect(calls.submit).toHaveBeenCalledWith(3, {
      videoUrl: 'https://v.example/a.mp4',
      description: 'Done',
      signedEntryTransaction: 'AQIDBA==',
    });
    expect(stages).toEqual(['entering', 'signing', 'submitting']);
  });

  it('submits without signing again when the entry is already on chain', async () => {
    const calls = deps({
      requestEntry: vi.fn(async () => {
        throw new ApiError(SUBMISSION_MESSAGES.alreadyEntered, 409, '{}', 'CONFLICT');
      }),
    });
    await enterAndSubmit(input, calls);
    expect(calls.connectWallet).not.toHaveBeenCalled();
    expect(calls.submit).toHaveBeenCalledWith(3, {
      videoUrl: 'https://v.example/a.mp4',
      description: 'Done',
      signedEntryTransaction: undefined,
    });
  });

  it('stops when the entry cannot be had or the wallet refuses: nothing is submitted', async () => {
    for (const failing of [
      deps({
        requestEntry: vi.fn(async () => {
          throw new ApiError('Submissions Closed', 409, '{}', 'CONFLICT');
        }),
      }),
      deps({
        connectWallet: vi.fn(async () => {
          throw new Error('User rejected the request');
        }),
      }),
    ]) {
      await expect(enterAndSubmit(input, failing)).rejects.toThrow();
      expect(failing.submit).not.toHaveBeenCalled();
    }
  });
});
