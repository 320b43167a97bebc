import { CheckCircle2, Lock, Video, XCircle } from 'lucide-react';
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
 * The author of a rejected proof is told so where they look (issue 37, item 4): the status, the
 * admin's reason when one was given, and that no other proof can follow: their entry on chain holds
 * the rejected video's fingerprint (decision 038) and a dare takes one proof per user (the server
 * refuses a second, 409 'Already Submitted'), so Submit Video is not offered again.
 */
export function RejectedProof({ reason }: { reason: string | null }) {
  return (
    <div
      role="status"
      aria-label="Your proof"
      data-testid="own-proof-rejected"
      className="max-w-prose space-y-1 rounded-md border border-destructive/50 p-3 text-sm"
    >
      <p className="flex items-center gap-2 font-medium">
        <XCircle className="size-4 text-destructive" aria-hidden />
        Your proof: <span className="text-destructive">Rejected</span>
      </p>
      {reason ? (
        <p className="break-words">
          <span className="font-medium">Reason:</span> {reason}
        </p>
      ) : (
        <p className="text-muted-foreground">The admin gave no reason.</p>
      )}
      <p className="text-muted-foreground">
        It is not shown to others and cannot win. A new proof cannot be submitted for this dare: your entry on
        chain holds this video's fingerprint, and a dare takes one proof per user.
      </p>
    </div>
  );
}

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
  const own =
    justSubmitted || user === null ? undefined : (submissions ?? []).find((s) => s.userId === user.id);

  if (own?.status === 'rejected') return <RejectedProof reason={own.rejection_reason ?? null} />;
  if (justSubmitted || own) {
    return (
      <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
        <Button variant="outline" disabled>
          <CheckCircle2 aria-hidden />
          {justSubmitted ? 'Submitted' : SUBMISSION_MESSAGES.alreadySubmitted}
        </Button>
        {(justSubmitted || own?.status === 'pending') && (
          <span className="text-xs text-muted-foreground" data-testid="own-proof-status">
            Your proof is waiting for an admin's review
          </span>
        )}
      </span>
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
