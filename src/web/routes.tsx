import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './components/layout/app-layout';
import { RouteError } from './components/layout/route-error';
import { Spinner } from './components/ui/spinner';
import { AuthDialogsSlot } from './features/auth/components/auth-dialogs-slot';
import { ChatPanel } from './features/chat/components/chat-panel';
import { DareBrowser } from './features/dares/components/dare-browser';
import HomePage from './features/home/home-page';
import { MajorDareCard } from './features/major-dare/components/major-dare-card';
import { NotificationBellSlot } from './features/notifications/components/notification-bell-slot';

// Featured videos (votes, player) load when the Featured tab first opens, not with the landing page.
const FeaturedSubmissions = lazy(() => import('./features/submissions/components/featured-submissions'));

// Add to Pool on Home's Major Dare card (issue 37, item 1), fetched after the landing page.
const AddToPoolById = lazy(() => import('./features/dares/components/add-to-pool-by-id'));

const homeDares = <DareBrowser defaultFilter="active" createLabel="Create Dare" />;

function PageLoading() {
  return <Spinner label="Loading page" />;
}

/**
 * A route whose page is its own chunk, fetched on first visit. The fallback shows inside the
 * shell while a first visit straight to this URL loads it.
 */
function lazyPage(path: string, load: () => Promise<{ default: ComponentType }>): RouteObject {
  return {
    path,
    lazy: async () => ({ Component: (await load()).default }),
    HydrateFallback: PageLoading,
  };
}

/** The pages of docs/product.md#pages-and-routes; the server answers every non-API path with the app. */
export const routes: RouteObject[] = [
  {
    // The sign-in dialogs open from any page: the shell holds their slot, and the bell's (its
    // code and first read load after the page paints, for signed-in users only).
    element: <AppLayout dialogs={<AuthDialogsSlot />} bell={<NotificationBellSlot />} />,
    errorElement: <RouteError />,
    children: [
      {
        // Inside the shell: a page that fails keeps the top bar and menu around its error.
        errorElement: <RouteError />,
        children: [
          // Home is the landing page: bundled with the shell so its hero paints without a
          // second round trip. Its major dare card, chat panel, dare list and featured videos are
          // composed here so home imports no other feature.
          {
            index: true,
            element: (
              <HomePage
                majorDare={
                  <MajorDareCard
                    renderAddToPool={(dare) => (
                      <Suspense fallback={null}>
                        <AddToPoolById dareId={dare.id} closed={dare.closed} />
                      </Suspense>
                    )}
                  />
                }
                chat={<ChatPanel />}
                dares={homeDares}
                featured={<FeaturedSubmissions />}
              />
            ),
          },
          lazyPage('community-dares', () => import('./features/dares/community-dares-page')),
          // The dare's chat is composed here too, so the dares feature does not import chat.
          lazyPage('dare/:id', async () => {
            const [
              { default: DareDetailsPage },
              { SubmitVideoDialog, ApprovedSubmissions },
              { RefundMeButton },
              { RefundByWallet },
            ] = await Promise.all([
              import('./features/dares/dare-details-page'),
              import('./features/submissions/components/dare-submissions'),
              import('./features/refund-me/components/refund-me-button'),
              import('./features/refund-me/components/refund-by-wallet'),
            ]);
            return {
              default: () => (
                <DareDetailsPage
                  renderChat={(id) => <ChatPanel dareId={id} />}
                  renderSubmit={(dare) => (
                    <SubmitVideoDialog dareId={dare.id} dareTitle={dare.title} closed={dare.closed} />
                  )}
                  renderSubmissions={(id) => <ApprovedSubmissions dareId={id} />}
                  renderRefund={(dare) => (
                    <>
                      <RefundMeButton dare={dare} />
                      <RefundByWallet dare={dare} />
                    </>
                  )}
                />
              ),
            };
          }),
          lazyPage('major-dare', async () => {
            const [{ default: MajorDarePage }, { SubmitVideoDialog, ApprovedSubmissions }] =
              await Promise.all([
                import('./features/major-dare/major-dare-page'),
                import('./features/submissions/components/dare-submissions'),
              ]);
            return {
              default: () => (
                <MajorDarePage
                  renderSubmit={(dare) => (
                    <SubmitVideoDialog dareId={dare.id} dareTitle={dare.title} closed={dare.closed} />
                  )}
                  renderSubmissions={(id) => <ApprovedSubmissions dareId={id} />}
                  renderAddToPool={(dare) => (
                    <Suspense fallback={null}>
                      <AddToPoolById dareId={dare.id} closed={dare.closed} />
                    </Suspense>
                  )}
                />
              ),
            };
          }),
          lazyPage('leaderboard', () => import('./features/leaderboard/leaderboard-page')),
          // Profile's Notifications card (email, switches) comes from the notifications feature.
          lazyPage('profile', async () => {
            const [{ default: ProfilePage }, { default: NotificationSettingsCard }] = await Promise.all([
              import('./features/profile/profile-page'),
              import('./features/notifications/components/notification-settings'),
            ]);
            return { default: () => <ProfilePage notificationSettings={<NotificationSettingsCard />} /> };
          }),
          lazyPage('create-dare', () => import('./features/dares/create-dare-page')),
          // The notifications feature's deliveries list is the admin panel's Notifications tab.
          lazyPage('admin', async () => {
            const [{ default: AdminPage }, { default: NotificationDeliveries }] = await Promise.all([
              import('./features/admin/admin-page'),
              import('./features/notifications/components/notification-deliveries'),
            ]);
            return {
              default: () => (
                <AdminPage
                  renderDeliveries={(listClassName) => (
                    <NotificationDeliveries listClassName={listClassName} />
                  )}
                />
              ),
            };
          }),
          lazyPage('notifications', () => import('./features/notifications/notifications-page')),
          lazyPage('instructions', () => import('./features/instructions/instructions-page')),
          lazyPage('tx/:signature', () => import('./features/payments/transaction-page')),
          lazyPage('*', () => import('./features/not-found/not-found-page')),
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
