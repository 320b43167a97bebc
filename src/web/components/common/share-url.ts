/** Post composers cut long posts; the description is shortened so the link always fits. */
const TEXT_MAX = 200;

/**
 * A prefilled post composer (docs/product.md#dare-details): the title and description as the text, the
 * page as the link, so the composer shows it with its preview card.
 */
export function shareUrl({ title, description, url }: { title: string; description: string; url: string }) {
  const summary = description.trim();
  const shortened = summary.length > TEXT_MAX ? `${summary.slice(0, TEXT_MAX - 1).trimEnd()}…` : summary;
  const text = shortened ? `${title}\n\n${shortened}` : title;
  const params = new URLSearchParams({ text, url });
  return `https://twitter.com/intent/tweet?${params}`;
}
