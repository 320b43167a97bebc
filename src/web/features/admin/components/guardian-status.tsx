import { AlertTriangle } from 'lucide-react';
import { GUARDIAN_MIN_VETOES, type Health } from '#contract/health';
import { lamportsToSol } from '#contract/money';
import { formatSol } from '#web/lib/utils';

/**
 * The guardian's wallet (docs/operations.md, 'Keys'): it pays each veto's fee itself, so below
 * GUARDIAN_MIN_VETOES vetoes' fees (`guardian.ok` false in /api/health) the panel warns: a
 * guardian that cannot pay cannot stop a payout in its window.
 */
export function GuardianStatus({ guardian }: { guardian: Health['guardian'] | undefined }) {
  if (!guardian) return null;
  const balance = guardian.balance === undefined ? null : formatSol(lamportsToSol(BigInt(guardian.balance)));
  return (
    <section
      aria-label="Guardian"
      className="rounded-lg border bg-card p-4 text-sm"
      data-low={guardian.ok ? undefined : true}
    >
      <p>
        Guardian <span className="break-all font-mono text-xs">{guardian.address}</span>{' '}
        {balance === null ? (
          'balance unknown (the chain did not answer)'
        ) : (
          <>
            holds <strong className="tabular-nums">{balance}</strong> for its vetoes' fees.
          </>
        )}
      </p>
      {!guardian.ok && (
        <p role="alert" className="mt-2 flex items-start gap-2 font-medium text-destructive">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            The guardian cannot pay for {GUARDIAN_MIN_VETOES} vetoes: send SOL to its address, or it may be
            unable to stop a payout in its window.
          </span>
        </p>
      )}
    </section>
  );
}
