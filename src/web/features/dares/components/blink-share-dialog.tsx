import { QrCode } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Input } from '#web/components/ui/input';
import { Label } from '#web/components/ui/label';
import { blinkLinks } from '../lib/blink-links';

/** The QR code of `text`, drawn once the dialog is open: the QR library never loads with the page. */
function QrImage({ text }: { text: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode-generator').then(({ default: qrcode }) => {
      const qr = qrcode(0, 'M');
      qr.addData(text);
      qr.make();
      if (live) setSrc(qr.createDataURL(5, 4));
    });
    return () => {
      live = false;
    };
  }, [text]);
  return src ? (
    <img src={src} alt="QR code of the dare's Solana Action" className="mx-auto size-48 rounded bg-white" />
  ) : (
    <div className="mx-auto size-48" aria-hidden />
  );
}

function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex min-w-0 gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          className="min-w-0 flex-1"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}

/**
 * Share as a blink: the dare's link for wallets and blink clients (X, Discord, a QR code), where
 * backing it needs no DarePool account: the wallet signs the deposit right there.
 */
export function BlinkShareDialog({ dareId, title }: { dareId: number; title: string }) {
  const { actionUrl, solanaAction, blinkUrl } = blinkLinks(dareId, window.location.origin);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline">
          <QrCode aria-hidden />
          Blink
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Share as a blink</DialogTitle>
          <DialogDescription>
            Anyone can back “{title}” from this link with their wallet, where the link goes: a post, a chat, a
            QR code.
          </DialogDescription>
        </DialogHeader>
        <div className="grid min-w-0 gap-3">
          <CopyField id="blink-url" label="Blink link" value={blinkUrl} />
          <CopyField id="action-url" label="Action URL" value={actionUrl} />
          <QrImage text={solanaAction} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
