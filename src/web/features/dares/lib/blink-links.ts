/**
 * The dare's Solana Action URL and the links that open it (decision 066): `solana-action:` for
 * wallets and QR codes, and a blink interstitial (dial.to) for anywhere a plain link goes.
 */
export function blinkLinks(dareId: number, origin: string) {
  const actionUrl = `${origin}/api/actions/dare/${dareId}`;
  const solanaAction = `solana-action:${actionUrl}`;
  const blink = new URL('https://dial.to/');
  blink.searchParams.set('action', solanaAction);
  return { actionUrl, solanaAction, blinkUrl: blink.toString() };
}
