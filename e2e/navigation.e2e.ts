import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';

const app = setupApp();

/** Each route of spec section 2, its side-menu entry (if any) and a text the page must show to a visitor. */
const ROUTES = [
  { path: '/', menu: 'Home', text: 'Major Dare of the Week' },
  {
    path: '/community-dares',
    menu: 'Community Dares',
    text: 'Be the first to create a dare for the community!',
  },
  { path: '/major-dare', menu: 'Major Dare', text: 'The next major dare will be announced soon!' },
  { path: '/leaderboard', menu: 'Leaderboard', text: 'Top Earners' },
  { path: '/profile', menu: 'Profile', text: 'Please connect your wallet to view your profile' },
  { path: '/create-dare', menu: 'Create Dare', text: 'Connect Your Wallet' },
  { path: '/instructions', menu: 'Instructions', text: 'entertainment only' },
  {
    path: '/admin',
    menu: null,
    text: "Access Denied - You don't have admin privileges to access this panel.",
  },
  { path: '/dare/1', menu: null, text: 'Dare not found' },
];

describe('navigation for a visitor', () => {
  it('opens every route, shows its content and highlights it in the side menu', async () => {
    const { page } = await app.newPage();
    for (const route of ROUTES) {
      await page.goto(app.url(route.path));
      await page.getByText(route.text).first().waitFor();
      const menu = page.getByRole('navigation', { name: 'Main' });
      const current = menu.locator('[aria-current="page"]');
      if (route.menu) {
        expect((await current.textContent())?.trim(), route.path).toBe(route.menu);
      } else {
        expect(await current.count(), route.path).toBe(0);
      }
    }
    // Visitors get no admin entries.
    expect(await page.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0);
    expect(await page.getByText('Online').count()).toBeGreaterThan(0);
  });

  it('follows side-menu links without a reload', async () => {
    const { page } = await app.newPage();
    await page.goto(app.url('/'));
    await page.evaluate(() => {
      (window as unknown as { marker: boolean }).marker = true;
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByText('Top Earners').waitFor();
    expect(new URL(page.url()).pathname).toBe('/leaderboard');
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
  });

  it('shows the 404 page on an unknown path', async () => {
    const { page } = await app.newPage();
    const response = await page.goto(app.url('/no-such-page'));
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
  });

  it('turns the side menu into a drawer at 375 px', async () => {
    const { page } = await app.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(app.url('/'));
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'Instructions' }).click();
    await page.getByText('entertainment only').first().waitFor();
    expect(await drawer.count()).toBe(0);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
