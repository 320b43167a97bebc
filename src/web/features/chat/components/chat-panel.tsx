import { MessageSquare, Send } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { CHAT_LIMITS } from '#contract/chat-limits';
import { ConnectWalletButton } from '#web/components/common/connect-wallet-button';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { useAuth } from '#web/lib/session/auth-provider';
import { useChat } from '../hooks/use-chat';

/** Live chat: global on Home (`dareId` null), per dare on a dare's page. */
export function ChatPanel({ dareId = null }: { dareId?: number | null }) {
  const { user } = useAuth();
  const { messages, send, online, status, isLoading } = useChat(dareId);
  const [draft, setDraft] = useState('');
  const inputId = useId();
  const listRef = useRef<HTMLUListElement>(null);

  // Follow the conversation: the newest message stays in view.
  useEffect(() => {
    const list = listRef.current;
    if (list && messages.length > 0) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  function submit(event: FormEvent) {
    event.preventDefault();
    // docs/product.md#chat-rules: empty or whitespace-only messages are not sent.
    const text = draft.trim();
    if (!text || !send) return;
    send(text);
    setDraft('');
  }

  return (
    <Card className="flex h-fit flex-col">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2">
          <MessageSquare className="size-5 text-primary" aria-hidden /> Live Chat
        </CardTitle>
        {/* The first brief's badge always showed 0 (docs/product.md#dare-details); here it is the real number online in this room. */}
        <Badge variant="secondary">{online} online</Badge>
      </CardHeader>
      <CardContent className="space-y-3">
        {status === 'reconnecting' && (
          <p role="status" className="text-xs text-amber-600">
            Reconnecting…
          </p>
        )}
        {status === 'offline' && (
          <p role="status" className="text-xs text-destructive">
            Chat is offline. Reload the page to reconnect.
          </p>
        )}
        {/* Messages are rendered as text: React escapes them, no HTML is ever interpreted. */}
        <ul
          ref={listRef}
          aria-label="Messages"
          aria-live="polite"
          className="max-h-72 min-h-24 space-y-2 overflow-y-auto text-sm"
        >
          {messages.map((message) =>
            message.messageType === 'system' ? (
              <li key={message.id} className="text-xs italic text-primary">
                {message.message}
              </li>
            ) : (
              <li key={message.id}>
                <span className="font-semibold">{message.username}</span>{' '}
                <span className="break-words text-muted-foreground">{message.message}</span>
              </li>
            ),
          )}
          {!isLoading && messages.length === 0 && <li className="text-muted-foreground">No messages yet.</li>}
        </ul>
        {user ? (
          <form onSubmit={submit} className="flex gap-2">
            <Label htmlFor={inputId} className="sr-only">
              Message
            </Label>
            <Input
              id={inputId}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder={send ? 'Say something…' : 'Connecting to chat…'}
              maxLength={CHAT_LIMITS.messageMax}
              disabled={!send}
              autoComplete="off"
            />
            <Button type="submit" size="icon" aria-label="Send" disabled={!send || !draft.trim()}>
              <Send aria-hidden />
            </Button>
          </form>
        ) : (
          <div className="flex flex-col items-start gap-2 text-sm text-muted-foreground">
            <p>Connect your wallet to join the conversation.</p>
            <ConnectWalletButton size="sm" variant="outline" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
