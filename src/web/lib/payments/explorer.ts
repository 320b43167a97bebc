/**
 * The explorer page of a transaction: the server's template (GET /api/config `explorerUrl`) with
 * its `{signature}` replaced. On the embedded chain that is our own `/tx/{signature}` page.
 */
export function transactionUrl(explorerUrl: string, signature: string): string {
  return explorerUrl.replaceAll('{signature}', encodeURIComponent(signature));
}

/** Our own page (same origin) opens in place; a public explorer in a new tab. */
export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/**
 * The transaction on Solana Explorer as a second link, when it is one: on the embedded chain
 * served as a localnet (cluster=custom, read from this machine's browser); null on a real cluster,
 * where the first link already is Solana Explorer, and when the chain is not served.
 */
export function solanaExplorerLink(
  config: { explorerUrl: string; solanaExplorerUrl: string | null },
  signature: string,
): string | null {
  if (config.solanaExplorerUrl === null || config.solanaExplorerUrl === config.explorerUrl) return null;
  return transactionUrl(config.solanaExplorerUrl, signature);
}

/**
 * Solana Explorer's page of an account (a dare's vault), made from its transaction link
 * (`solanaExplorerUrl`, same cluster parameters); null when Solana Explorer cannot read this chain.
 * On the embedded chain that is the custom cluster at the chain's served RPC, read from this
 * machine's browser (docs/decisions/025-entering-and-refund-me.md).
 */
export function accountUrl(solanaExplorerUrl: string | null, address: string): string | null {
  if (solanaExplorerUrl === null || !isExternalUrl(solanaExplorerUrl)) return null;
  if (!solanaExplorerUrl.includes('/tx/{signature}')) return null;
  return solanaExplorerUrl.replace('/tx/{signature}', `/address/${encodeURIComponent(address)}`);
}
