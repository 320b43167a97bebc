import { useId, useState } from 'react';
import { REJECTION_REASON_MAX } from '#contract/notifications';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Label } from '#web/components/ui/label';
import { Textarea } from '#web/components/ui/textarea';

/**
 * Reject, asking for an optional reason first (issue 35, issue 37 item 4): the author is told the
 * reason in their notification and on the dare page.
 */
export function RejectDialog({
  username,
  disabled,
  onReject,
}: {
  username: string;
  disabled: boolean;
  onReject: (reason: string | undefined) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const trimmed = reason.trim();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setReason('');
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="destructive" disabled={disabled}>
          Reject
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reject {username}'s proof?</DialogTitle>
          <DialogDescription>
            The proof is hidden from others and cannot win. {username} is told, with your reason if you give
            one.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-reason`}>Reason (optional)</Label>
          <Textarea
            id={`${id}-reason`}
            value={reason}
            maxLength={REJECTION_REASON_MAX}
            placeholder="e.g. The video does not show the whole dare"
            onChange={(event) => setReason(event.target.value)}
            aria-describedby={`${id}-count`}
          />
          <p id={`${id}-count`} className="text-right text-xs text-muted-foreground">
            {reason.length}/{REJECTION_REASON_MAX}
          </p>
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button
            variant="destructive"
            onClick={() => {
              setOpen(false);
              setReason('');
              onReject(trimmed === '' ? undefined : trimmed);
            }}
          >
            Reject proof
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
