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
    // Live messages keep it current; a remount after a reconnect reloads what was missed.
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
    const unsubscribe = connection.subscribe((frame) => {
      if (frame.type === 'chat_message' && frame.message.dareId === dareId) {
        queryClient.setQueryData<ChatMessage[]>(chatMessagesKey(dareId), (messages) =>
          appendMessage(messages, frame.message),
        );
      } else if (frame.type === 'presence' && frame.dareId === dareId) {
        setOnline(frame.online);
      }
    });
    return () => {
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
