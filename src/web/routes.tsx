import { createBrowserRouter } from 'react-router';
import { AppLayout } from './components/layout/app-layout';
import HomePage from './features/home/home-page';

/** Every page is its own chunk: the first load carries only the shell and the page it opens. */
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      // Home is the landing page: bundled with the shell so its hero paints without a second round trip.
      { index: true, Component: HomePage },
      {
        path: 'community-dares',
        lazy: async () => ({ Component: (await import('./features/dares/community-dares-page')).default }),
      },
      {
        path: 'dare/:id',
        lazy: async () => ({ Component: (await import('./features/dares/dare-details-page')).default }),
      },
      {
        path: 'major-dare',
        lazy: async () => ({ Component: (await import('./features/major-dare/major-dare-page')).default }),
      },
      {
        path: 'leaderboard',
        lazy: async () => ({ Component: (await import('./features/leaderboard/leaderboard-page')).default }),
      },
      {
        path: 'profile',
        lazy: async () => ({ Component: (await import('./features/profile/profile-page')).default }),
      },
      {
        path: 'create-dare',
        lazy: async () => ({ Component: (await import('./features/create-dare/create-dare-page')).default }),
      },
      {
        path: 'admin',
        lazy: async () => ({ Component: (await import('./features/admin/admin-page')).default }),
      },
      {
        path: 'instructions',
        lazy: async () => ({
          Component: (await import('./features/instructions/instructions-page')).default,
        }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('./features/not-found/not-found-page')).default }),
      },
    ],
  },
]);
