import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '#contract/chat';
import { appendMessage } from './use-chat';

describe('appendMessage', () => {
  const message = (id: number): ChatMessage => ({
    id,
    dareId: null,
    userId: 1,
    username: 'ann',
    message: `m${id}`,
    messageType: 'user',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  it('adds a live message once, in id order', () => {
    const list = appendMessage([message(1), message(3)], message(2));
    expect(list.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(appendMessage(list, message(2))).toBe(list);
  });
});
