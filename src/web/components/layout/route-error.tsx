import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '#web/components/ui/button';

const RELOADED_AT = 'darepool-chunk-reload-at';

/** Chromium, Firefox and Safari word a failed `import()` differently. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|module script failed|error loading dynamically imported/i.test(error.message)
  );
}

/**
 * A page's code that fails to load almost always means a deploy replaced it while this tab was
 * open: reload once to pick up the new build. The timestamp keeps a broken build from looping.
 */
function reloadOnceForNewBuild(): boolean {
  const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
  if (Date.now() - last < 10_000) return false;
  sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  window.location.reload();
  return true;
}

/** The router's error element: a page that failed to load or render. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    if (isChunkLoadError(error)) reloadOnceForNewBuild();
  }, [error]);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">This page could not be shown. Reloading usually fixes it.</p>
      {detail && <p className="break-all font-mono text-xs text-muted-foreground">{detail}</p>}
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </div>
  );
}
