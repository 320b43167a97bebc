/**
 * Phantom's universal 'browse' link (docs.phantom.com, deeplinks, Browse): on a phone it opens
 * `url` inside Phantom's in-app browser, where the wallet is injected; without the app, Phantom's
 * site offers it. `ref` names the requesting app.
 */
export function phantomBrowseLink(url: string, ref: string): string {
  return `https://phantom.app/ul/browse/${encodeURIComponent(url)}?ref=${encodeURIComponent(ref)}`;
}

/** A phone or tablet: a touch screen as the main pointer, or a phone-wide window. */
export function looksLikeAPhone(): boolean {
  return (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(pointer: coarse), (max-width: 639px)').matches
  );
}
