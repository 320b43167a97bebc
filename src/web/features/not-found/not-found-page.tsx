import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { useDocumentTitle } from '#web/lib/use-document-title';

/** Any path no route matches. The server answers 200 with the app; this page says 404. */
export default function NotFoundPage() {
  useDocumentTitle('404 Page Not Found');
  return (
    <div className="flex flex-col items-center gap-4 py-20 text-center">
      <p className="text-6xl font-extrabold text-primary" aria-hidden>
        404
      </p>
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link to="/">Go Home</Link>
      </Button>
    </div>
  );
}
