import { ExternalLink, Landmark } from 'lucide-react';
import { useConfig } from '#web/lib/config';
import { accountUrl } from '#web/lib/payments/explorer';
import { shortAddress } from '#web/lib/utils';

/**
 * Where a dare's SOL is: its vault, an account of the DarePool escrow program that only the
 * program's rules can move (docs/program.md), linked on Solana Explorer so anyone can check it.
 * Without an explorer that reads this chain, the address is shown to copy.
 */
export function VaultLink({ vault }: { vault: string | null }) {
  const { data: config } = useConfig();
  if (!vault || !config) return null;
  const href = accountUrl(config.solanaExplorerUrl, vault);
  // The explorer names the vault's owner, v2 for new dares or v1 for older ones (Instructions lists both).
  const title = `Vault ${vault}, an account of DarePool's escrow program`;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
      <Landmark className="size-4" aria-hidden />
      <span>The pool is held on chain by the escrow program, in this dare's vault</span>
      {href ? (
        <a
          href={href}
          title={title}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-medium text-foreground underline underline-offset-2"
        >
          <span className="font-mono">{shortAddress(vault)}</span>
          View vault
          <ExternalLink className="size-3" aria-hidden />
        </a>
      ) : (
        <span title={title} className="font-mono break-all text-foreground">
          {vault}
        </span>
      )}
    </p>
  );
}
