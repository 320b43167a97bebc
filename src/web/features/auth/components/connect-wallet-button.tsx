import { Wallet } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../auth-provider';

export function ConnectWalletButton({ className }: { className?: string }) {
  const { openConnect } = useAuth();
  return (
    <Button className={className} onClick={openConnect}>
      <Wallet aria-hidden />
      Connect Wallet
    </Button>
  );
}
