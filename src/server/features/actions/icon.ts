import type { Dare } from '#contract/dares';
import { normalizeSol } from '#contract/money';

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );

/** The title's words on at most three lines of about `width` characters, the last cut with '…'. */
function lines(text: string, width: number, max: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      if (line) out.push(line);
      line = word.slice(0, width);
    }
  }
  if (line) out.push(line);
  if (out.length <= max) return out;
  const kept = out.slice(0, max);
  kept[max - 1] = `${kept[max - 1]!.slice(0, width - 1)}…`;
  return kept;
}

/**
 * A dare's share image (the Action's icon, square as blink clients show it): its title and its
 * pool, drawn as SVG from the dare itself, so there is no image to store or render per dare.
 */
export function dareIconSvg(dare: Pick<Dare, 'title' | 'totalPool'>): string {
  const title = lines(dare.title, 18, 3)
    .map(
      (text, i) =>
        `<text x="48" y="${170 + i * 64}" font-size="52" font-weight="700">${escapeXml(text)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600">
<rect width="600" height="600" fill="#0f172a"/>
<g fill="#f8fafc" font-family="system-ui, sans-serif">
<text x="48" y="84" font-size="34" fill="#a78bfa" font-weight="700">DarePool</text>
${title}
<text x="48" y="520" font-size="40" fill="#34d399" font-weight="700">${escapeXml(normalizeSol(dare.totalPool))} SOL pool</text>
</g>
</svg>`;
}
