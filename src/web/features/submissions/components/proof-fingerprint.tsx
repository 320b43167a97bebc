import { AlertTriangle, CheckCircle2, Copy, Fingerprint } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '#web/components/ui/use-toast';
import { cn } from '#web/lib/utils';
import { FINGERPRINT_TEXT, fingerprintStatus, shortFingerprint } from '../lib/fingerprint';

/**
 * A proof's fingerprint (the SHA-256 its on-chain entry holds) and whether the served video still
 * matches it. The short form fits a phone's line; hovering shows the whole one, and tapping it
 * (a phone cannot hover) unfolds it, wrapped, to read or select. Copy puts the whole one on the
 * clipboard, to compare with an explorer's view of the entry.
 */
export function ProofFingerprint({
  proofHash,
  proofMatches,
}: {
  proofHash: string | null;
  proofMatches: boolean | null;
}) {
  const [full, setFull] = useState(false);
  const fullId = useId();
  if (!proofHash) return null;
  const status = fingerprintStatus(proofMatches);

  async function copy() {
    try {
      await navigator.clipboard.writeText(proofHash!);
      toast({ title: FINGERPRINT_TEXT.copied });
    } catch {
      setFull(true);
      toast({ title: FINGERPRINT_TEXT.copyFailed, variant: 'destructive' });
    }
  }

  return (
    <div className="space-y-1 text-xs" data-proof-hash={proofHash}>
      <div className="flex min-w-0 items-center gap-1.5">
        <Fingerprint className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
        <span className="text-muted-foreground">{FINGERPRINT_TEXT.label}</span>
        <button
          type="button"
          className="min-h-8 rounded px-1 font-mono underline decoration-dotted underline-offset-2 hover:bg-muted"
          title={proofHash}
          aria-expanded={full}
          aria-controls={fullId}
          aria-label={full ? FINGERPRINT_TEXT.showShort : FINGERPRINT_TEXT.showFull}
          onClick={() => setFull((shown) => !shown)}
        >
          {shortFingerprint(proofHash)}
        </button>
        <button
          type="button"
          className="inline-flex size-8 shrink-0 items-center justify-center rounded hover:bg-muted"
          aria-label={FINGERPRINT_TEXT.copy}
          title={FINGERPRINT_TEXT.copy}
          onClick={() => void copy()}
        >
          <Copy className="size-3.5" aria-hidden />
        </button>
      </div>
      {full && (
        <p id={fullId} className="select-all rounded bg-muted px-2 py-1 font-mono break-all">
          {proofHash}
        </p>
      )}
      {status && (
        <p
          className={cn(
            'flex items-center gap-1.5',
            status.tone === 'ok' ? 'text-success' : 'font-medium text-destructive',
          )}
        >
          {status.tone === 'ok' ? (
            <CheckCircle2 className="size-3.5 shrink-0" aria-hidden />
          ) : (
            <AlertTriangle className="size-3.5 shrink-0" aria-hidden />
          )}
          {status.text}
        </p>
      )}
    </div>
  );
}
