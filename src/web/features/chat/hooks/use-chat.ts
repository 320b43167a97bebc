import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ChatMessage } from '#contract/chat';
import { toast } from '#web/components/ui/use-toast';
import { type LiveStatus, sharedLiveConnection } from '#web/lib/live-connection';
import { useAuth } from '#web/lib/session/auth-provider';
import { chatMessagesKey, fetchChatMessages } from '../api/chat-messages';

export interface ChatState {
  messages: ChatMessage[];
  isLoading: boolean;
  status: LiveStatus;
  /** Sockets in this room right now, across every server instance. */
  online: number;
  /** Absent while there is no open connection or no signed-in user to send as. */
  send?: (message: string) => void;
}

/** Appends a live message to the room's history once, in id order. */
export function appendMessage(messages: ChatMessage[] | undefined, message: ChatMessage): ChatMessage[] {
  const list = messages ?? [];
  if (list.some((existing) => existing.id === message.id)) return list;
  return [...list, message].sort((a, b) => a.id - b.id);
}

/**
 * The room's latest history page, read back after a reconnect, with what the panel already showed:
 * what was said while the socket was away (a restart, a dropped network, a socket the server cut
 * for falling behind) fills the gap. Shown messages older than the page stay only where the page
 * reaches them (it holds the oldest of them the page starts with); live messages newer than the
 * page stay.
 */
export function withHistory(shown: ChatMessage[] | undefined, history: ChatMessage[]): ChatMessage[] {
  const list = shown ?? [];
  const oldest = history[0]?.id;
  const newest = history.at(-1)?.id ?? 0;
  const joined = oldest !== undefined && list.some((message) => message.id === oldest);
  return list
    .filter((message) => message.id > newest || (joined && message.id < oldest))
    .reduce(appendMessage, history);
}

/** The chat of one dare, or the global chat for `null`: history, then live over /ws. */
export function useChat(dareId: number | null): ChatState {
  const { token, user } = useAuth();
  const queryClient = useQueryClient();
  const connection = sharedLiveConnection();
  const [status, setStatus] = useState<LiveStatus>(connection.status);
  const [online, setOnline] = useState(0);
  const history = useQuery({
    queryKey: chatMessagesKey(dareId),
    queryFn: () => fetchChatMessages(dareId),
    // Live messages keep it current; a reconnect reads back what was missed (below).
    staleTime: 0,
  });

  useEffect(() => {
    connection.start();
    return connection.onStatus(setStatus);
  }, [connection]);

  useEffect(() => {
    connection.setToken(token);
  }, [connection, token]);

  useEffect(() => {
    if (dareId !== null) connection.join(dareId);
    let rejoining = false;
    const stopStatus = connection.onStatus((next) => {
      if (next === 'reconnecting' || next === 'offline') rejoining = true;
    });
    const unsubscribe = connection.subscribe((frame) => {
      if (frame.type === 'chat_message' && frame.message.dareId === dareId) {
        queryClient.setQueryData<ChatMessage[]>(chatMessagesKey(dareId), (messages) =>
          appendMessage(messages, frame.message),
        );
      } else if (frame.type === 'presence' && frame.dareId === dareId) {
        setOnline(frame.online);
        // Back in the room after a drop (the server counts a socket once it is in the room): what
        // was said meanwhile is read back now, not at the socket's open, when a message stored
        // before the room had the socket would be in neither the history nor the live frames.
        if (rejoining) {
          rejoining = false;
          fetchChatMessages(dareId).then(
            (history) =>
              queryClient.setQueryData<ChatMessage[]>(chatMessagesKey(dareId), (shown) =>
                withHistory(shown, history),
              ),
            // The room's live messages go on; the next reconnect reads the history again.
            () => {},
          );
        }
      }
    });
    return () => {
      stopStatus();
      unsubscribe();
      if (dareId !== null) connection.leave(dareId);
    };
  }, [connection, dareId, queryClient]);

  // Refusals (rate limit, too long) are answered on the socket; the panel that sent shows them.
  useEffect(
    () =>
      connection.subscribe((frame) => {
        if (frame.type === 'error' && dareId === activeSender.dareId) {
          toast({ title: 'Message not sent', description: frame.error, variant: 'destructive' });
        }
      }),
    [connection, dareId],
  );

  const canSend = Boolean(user) && status === 'open';
  return {
    messages: history.data ?? [],
    isLoading: history.isLoading,
    status,
    online,
    send: canSend
      ? (message: string) => {
          activeSender.dareId = dareId;
          connection.send(message, dareId);
        }
      : undefined,
  };
}

/** Which room sent last: its panel is the one that reports the server's refusal. */
const activeSender: { dareId: number | null | undefined } = { dareId: undefined };
