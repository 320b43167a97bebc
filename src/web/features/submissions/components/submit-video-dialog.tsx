import { CheckCircle2, Lock, Video } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { PaymentWalletGate } from '#web/components/payments/payment-wallet-gate';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/auth-provider';
import { useDareSubmissions } from '../api/list-dare-submissions';

// The form (upload, validation) is fetched when the dialog first opens.
const SubmitVideoForm = lazy(() => import('./submit-video-form'));

/**
 * The Submit Video action (docs/product.md#dare-details). It reads 'Submissions Closed' (disabled) once the dare
 * no longer takes proofs, 'Submitted' right after this user's proof went in, and 'Already
 * Submitted' when the user had one before; a visitor is asked to connect first, and a user whose
 * account's wallet is not connected in this browser is asked for it before the form.
 */
export function SubmitVideoDialog({
  dareId,
  dareTitle,
  closed,
}: {
  dareId: number;
  dareTitle: string;
  closed: boolean;
}) {
  const { user, openConnect } = useAuth();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [justSubmitted, setJustSubmitted] = useState(false);
  const { data: submissions } = useDareSubmissions(dareId, user?.id ?? null);
  const hadSubmission =
    !justSubmitted && user !== null && (submissions ?? []).some((s) => s.userId === user.id);

  if (justSubmitted || hadSubmission) {
    return (
      <Button variant="outline" disabled>
        <CheckCircle2 aria-hidden />
        {justSubmitted ? 'Submitted' : SUBMISSION_MESSAGES.alreadySubmitted}
      </Button>
    );
  }
  if (closed) {
    return (
      <Button disabled>
        <Lock aria-hidden />
        {SUBMISSION_MESSAGES.submissionsClosed}
      </Button>
    );
  }
  if (!user) {
    return (
      <Button onClick={openConnect}>
        <Video aria-hidden />
        Submit Video
      </Button>
    );
  }
  const walletAddress = user.walletAddress;
  const form = walletAddress && (
    <Suspense fallback={<Spinner label="Loading" className="p-4" />}>
      <SubmitVideoForm
        dareId={dareId}
        walletAddress={walletAddress}
        onBusyChange={setBusy}
        onSubmitted={() => {
          setJustSubmitted(true);
          setOpen(false);
        }}
      />
    </Suspense>
  );
  return (
    <Dialog open={open} onOpenChange={(next) => (busy ? undefined : setOpen(next))}>
      <DialogTrigger asChild>
        <Button>
          <Video aria-hidden />
          Submit Video
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Submit Video</DialogTitle>
          <DialogDescription>
            Your proof for "{dareTitle}". Your wallet enters the dare on chain, so it can be paid; an admin
            approves the proof before the community can vote.
          </DialogDescription>
        </DialogHeader>
        {/* The account's wallet enters the dare on chain: without one there is no form. */}
        <PaymentWalletGate
          walletAddress={walletAddress}
          intro="Proofs are submitted from your account's wallet"
          action="submit a video"
        >
          {form}
        </PaymentWalletGate>
      </DialogContent>
    </Dialog>
  );
}
