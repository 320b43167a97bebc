import { Wallet } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '#web/components/ui/button';
import { useAuth } from '#web/lib/session/auth-provider';

/** Opens the Connect Wallet dialog; used by the top bar and by every connect prompt. */
export function ConnectWalletButton(props: Omit<ComponentProps<typeof Button>, 'onClick' | 'children'>) {
  const { openConnect, preloadConnect } = useAuth();
  return (
    <Button {...props} onClick={openConnect} onPointerEnter={preloadConnect} onFocus={preloadConnect}>
      <Wallet aria-hidden />
      Connect Wallet
    </Button>
  );
}
