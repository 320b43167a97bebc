import { useAuth } from '#web/lib/session/auth-provider';
import { ConnectWalletDialog } from './connect-wallet-dialog';
import { RegistrationDialog } from './registration-dialog';

/**
 * The sign-in dialogs, loaded on demand (see `AuthDialogsSlot`): wallet discovery, signing and
 * the form schemas stay out of the first page load.
 */
export default function AuthDialogs() {
  const { connectOpen, pendingRegistration } = useAuth();
  return (
    <>
      {connectOpen && <ConnectWalletDialog />}
      {pendingRegistration && <RegistrationDialog pending={pendingRegistration} />}
    </>
  );
}
