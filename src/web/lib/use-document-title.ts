import { useEffect } from 'react';

export const APP_NAME = 'DarePool';

/** The tab's title for the current page: 'Leaderboard · DarePool', or 'DarePool' for none. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
