import { MessageSquare, Send } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useAuth } from '../../auth/auth-provider';
import { ConnectWalletButton } from '../../auth/components/connect-wallet-button';
import { useChat } from '../hooks/use-chat';

/** Live chat: global on Home (`dareId` null), per dare on a dare's page. */
export function ChatPanel({ dareId = null }: { dareId?: number | null }) {
  const { user } = useAuth();
  const { messages, send } = useChat(dareId);
  const [draft, setDraft] = useState('');
  const inputId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    // Spec section 5: empty or whitespace-only messages are not sent.
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
        {/* Spec: the chat badge's count always shows 0. */}
        <Badge variant="secondary">0</Badge>
      </CardHeader>
      <CardContent className="space-y-3">
        <ul aria-label="Messages" className="max-h-72 min-h-24 space-y-2 overflow-y-auto text-sm">
          {messages.map((message) => (
            <li key={message.id}>
              <span className="font-semibold">{message.username}</span>{' '}
              <span className="break-words text-muted-foreground">{message.message}</span>
            </li>
          ))}
          {messages.length === 0 && <li className="text-muted-foreground">No messages yet.</li>}
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
              placeholder={send ? 'Say something…' : 'Chat is offline'}
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
