/** A chat message as the UI shows it (spec section 3 'chat message'). */
export interface ChatMessage {
  id: number;
  dareId: number | null;
  userId: number;
  username: string;
  message: string;
  createdAt: string;
}

export interface ChatState {
  messages: ChatMessage[];
  /** Absent while there is no connection to send through. */
  send?: (message: string) => void;
}

/**
 * The chat of one dare, or the global chat for `null`. The chat issue replaces this body with
 * GET /api/chat-messages plus the /ws socket (auth message, reconnect 5 times at 1 s x attempt);
 * the panel already renders whatever it returns.
 */
export function useChat(_dareId: number | null): ChatState {
  return { messages: [] };
}
