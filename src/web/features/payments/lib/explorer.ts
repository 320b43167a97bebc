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
