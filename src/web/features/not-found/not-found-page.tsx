import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/common/page';
import { Button } from '../../components/ui/button';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div className="flex flex-col items-center gap-4 py-20 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link to="/">Go Home</Link>
      </Button>
    </div>
  );
}
