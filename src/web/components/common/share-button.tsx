import { Share2 } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { shareUrl } from './share-url';

/** Share: opens a social-post composer in a new tab, prefilled with the title, description and page URL. */
export function ShareButton({
  title,
  description,
  path,
}: {
  title: string;
  description: string;
  path: string;
}) {
  const href = shareUrl({ title, description, url: new URL(path, window.location.origin).toString() });
  return (
    <Button asChild variant="outline">
      <a href={href} target="_blank" rel="noopener noreferrer">
        <Share2 aria-hidden />
        Share
      </a>
    </Button>
  );
}
