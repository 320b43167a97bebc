import { CheckCircle2, Lock, Video } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { SUBMISSION_MESSAGES } from '../../../../contract/submissions';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../auth/auth-provider';
import { useDareSubmissions } from '../api/submissions';

// The form (upload, validation) is fetched when the dialog first opens.
const SubmitVideoForm = lazy(() => import('./submit-video-form'));

/**
 * The Submit Video action (spec section 2). It reads 'Submissions Closed' (disabled) once the dare
 * no longer takes proofs, 'Submitted' right after this user's proof went in, and 'Already
 * Submitted' when the user had one before; a visitor is asked to connect first.
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
            Your proof for "{dareTitle}". An admin approves it before the community can vote.
          </DialogDescription>
        </DialogHeader>
        <Suspense fallback={<Spinner label="Loading" className="p-4" />}>
          <SubmitVideoForm
            dareId={dareId}
            onBusyChange={setBusy}
            onSubmitted={() => {
              setJustSubmitted(true);
              setOpen(false);
            }}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
