import type { ChatMessage } from '#contract/chat';
import { apiGet } from '#web/lib/api-client';

export const chatMessagesKey = (dareId: number | null) => ['/api/chat-messages', dareId ?? 'global'] as const;

export function fetchChatMessages(dareId: number | null): Promise<ChatMessage[]> {
  return apiGet<ChatMessage[]>(
    dareId === null ? '/api/chat-messages' : `/api/chat-messages?dareId=${dareId}`,
  );
}
