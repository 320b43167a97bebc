import { AlertTriangle, ExternalLink, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { lamportsToSol } from '#contract/money';
import { EmptyState } from '#web/components/common/empty-state';
import { PageHeader } from '#web/components/common/page-header';
import { Badge } from '#web/components/ui/badge';
import { Spinner } from '#web/components/ui/spinner';
import { ApiError } from '#web/lib/api-client';
import { useConfig } from '#web/lib/config';
import { transactionUrl } from '#web/lib/payments/explorer';
import { useDocumentTitle } from '#web/lib/use-document-title';
import { useTransaction } from './api/get-transaction';
import { TransactionAccounts } from './components/transaction-accounts';
import { TransactionInstructions } from './components/transaction-instructions';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-all">{children}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * /tx/:signature: the local explorer for the embedded chain, which Solana Explorer reads only when
 * the chain is served as a localnet (then linked here), and only from this machine's browser.
 * Status, slot, fee, every account's balance change, the instructions and the program logs.
 */
export default function TransactionPage() {
  const { signature = '' } = useParams();
  const { data: tx, isPending, error } = useTransaction(signature);
  const { data: config } = useConfig();
  // Here even on a real cluster, where it is the same as every other transaction link.
  const solanaExplorer =
    config?.solanaExplorerUrl && tx ? transactionUrl(config.solanaExplorerUrl, tx.signature) : null;
  // A malformed signature is a 400 from the route's validation: equally, no such transaction.
  const isMissing = error instanceof ApiError && (error.status === 404 || error.status === 400);
  useDocumentTitle(tx ? 'Transaction' : isMissing ? 'Transaction not found' : 'Transaction');

  if (isPending) return <Spinner label="Loading transaction" />;
  if (!tx) {
    return isMissing ? (
      <EmptyState
        icon={SearchX}
        title="Transaction not found"
        description="This chain has no confirmed transaction with that signature."
      />
    ) : (
      <EmptyState
        icon={AlertTriangle}
        title="The transaction could not be loaded"
        description={error instanceof Error ? error.message : undefined}
      />
    );
  }
  return (
    <div className="max-w-5xl space-y-8">
      <PageHeader
        title="Transaction"
        actions={
          solanaExplorer && (
            <a
              href={solanaExplorer}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-sm font-medium underline underline-offset-2"
            >
              Open in Solana Explorer
              <ExternalLink className="size-3" aria-hidden />
            </a>
          )
        }
      />
      {tx.summary.length > 0 && (
        // What the transaction did for people, before any address or byte.
        <section
          aria-label="What happened"
          className="space-y-1 rounded-lg border border-primary/50 bg-primary/10 p-4"
        >
          {tx.summary.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the sentences are fixed once loaded
            <p key={index} className="font-medium break-words">
              {line.text}
              {line.dareId !== null && (
                <>
                  {' · '}
                  <Link className="text-primary underline" to={`/dare/${line.dareId}`}>
                    Open dare
                  </Link>
                </>
              )}
            </p>
          ))}
        </section>
      )}
      <dl className="grid gap-4 rounded-lg border bg-card p-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field label="Signature">
            <span className="font-mono text-xs">{tx.signature}</span>
          </Field>
        </div>
        <Field label="Status">
          <Badge variant={tx.status === 'success' ? 'success' : 'destructive'} className="uppercase">
            {tx.status}
          </Badge>
          {tx.error && <span className="ml-2 text-destructive">{tx.error}</span>}
        </Field>
        <Field label="Slot">{tx.slot}</Field>
        <Field label="Fee">{lamportsToSol(BigInt(tx.fee))} SOL</Field>
        <Field label="Time">{tx.blockTime ? new Date(tx.blockTime).toLocaleString() : 'Unknown'}</Field>
      </dl>
      <Section title="Accounts">
        <TransactionAccounts accounts={tx.accounts} />
      </Section>
      <Section title="Instructions">
        <TransactionInstructions instructions={tx.instructions} />
      </Section>
      <Section title="Logs">
        <pre className="overflow-x-auto rounded-lg border bg-muted/30 p-3 text-xs leading-relaxed">
          {tx.logs.length > 0 ? tx.logs.join('\n') : 'No logs'}
        </pre>
      </Section>
    </div>
  );
}
