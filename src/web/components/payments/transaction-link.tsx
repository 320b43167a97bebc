import { ExternalLink } from 'lucide-react';
import { useConfig } from '#web/lib/config';
import { isExternalUrl, solanaExplorerLink, transactionUrl } from '#web/lib/payments/explorer';

/**
 * 'Transaction 5h3kT9xQ...' and a link to it in the explorer: for success toasts. A plain anchor,
 * because toasts render outside the router; our own /tx page then loads like any other page. On
 * the embedded chain served as a localnet, Solana Explorer follows as a second link.
 */
export function TransactionLink({ signature, explorerUrl }: { signature: string; explorerUrl: string }) {
  const { data: config } = useConfig();
  const href = transactionUrl(explorerUrl, signature);
  const external = isExternalUrl(href);
  const solanaExplorer = config ? solanaExplorerLink({ ...config, explorerUrl }, signature) : null;
  return (
    <span>
      Transaction <span className="font-mono">{signature.slice(0, 8)}...</span>{' '}
      <a
        href={href}
        className="inline-flex items-center gap-1 font-medium underline underline-offset-2"
        {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      >
        View transaction
        {external && <ExternalLink className="size-3" aria-hidden />}
      </a>
      {solanaExplorer && (
        <>
          {' · '}
          <a
            href={solanaExplorer}
            className="inline-flex items-center gap-1 font-medium underline underline-offset-2"
            target="_blank"
            rel="noopener noreferrer"
          >
            Solana Explorer
            <ExternalLink className="size-3" aria-hidden />
          </a>
        </>
      )}
    </span>
  );
}
