import { Wallet } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../auth-provider';
import { preloadAuthDialogs } from './auth-dialogs-slot';

/** Opens the Connect Wallet dialog; used by the top bar and by every connect prompt. */
export function ConnectWalletButton(props: Omit<ComponentProps<typeof Button>, 'onClick' | 'children'>) {
  const { openConnect } = useAuth();
  return (
    <Button {...props} onClick={openConnect} onPointerEnter={preloadAuthDialogs} onFocus={preloadAuthDialogs}>
      <Wallet aria-hidden />
      Connect Wallet
    </Button>
  );
}
