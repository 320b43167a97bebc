import type { ReactNode } from 'react';

/** Where a page needs a user (docs/product.md#roles), a visitor sees 'Connect Your Wallet' and a way to do it. */
export function ConnectPrompt({ text, action }: { text?: string; action?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 rounded-lg border bg-card p-8 text-center md:p-10">
      <h2 className="text-xl font-semibold">Connect Your Wallet</h2>
      {text && <p className="text-muted-foreground">{text}</p>}
      {action}
    </div>
  );
}
