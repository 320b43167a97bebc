import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '#contract/chat';
import { appendMessage, withHistory } from './use-chat';

const message = (id: number): ChatMessage => ({
  id,
  dareId: null,
  userId: 1,
  username: 'ann',
  message: `m${id}`,
  messageType: 'user',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('appendMessage', () => {
  it('adds a live message once, in id order', () => {
    const list = appendMessage([message(1), message(3)], message(2));
    expect(list.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(appendMessage(list, message(2))).toBe(list);
  });
});

describe('withHistory', () => {
  it('fills the gap a reconnect left with the history read back, keeping what was shown around it', () => {
    // Shown before the drop: 1-3; said meanwhile: 4-6 (never seen live); arrived live while the
    // history was on its way: 7.
    const shown = [message(1), message(2), message(3), message(7)];
    const history = [message(2), message(3), message(4), message(5), message(6)];
    expect(withHistory(shown, history).map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(withHistory(undefined, history).map((m) => m.id)).toEqual([2, 3, 4, 5, 6]);
  });

  it('drops what was shown before a gap longer than a history page, rather than hide the gap', () => {
    const shown = [message(1), message(2), message(3)];
    const history = [message(10), message(11), message(12)];
    expect(withHistory(shown, history).map((m) => m.id)).toEqual([10, 11, 12]);
  });
});
