/**
 * Foundation: a visitor reaches every route of docs/product.md#pages-and-routes, sees the page it promises, the
 * side menu marks where they are, and nothing breaks in the console. The server starts without
 * demo data, so the empty states are what a visitor of a fresh install sees, before and after
 * the data features land.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { setupApp } from './fixtures/app';

const app = setupApp({ env: { SEED_DEMO_DATA: 'false' } });

/** docs/product.md#navigation, side menu links for a visitor (Admin Panel is for admins only). */
const VISITOR_MENU = [
  'Home',
  'Community Dares',
  'Major Dare',
  'Leaderboard',
  'Profile',
  'Create Dare',
  'Instructions',
];

interface RouteExpectation {
  path: string;
  /** The side menu link that must be current, or null for routes without one. */
  menu: string | null;
  /** Heading of the page (level 1 unless it is the page's only heading). */
  heading: string;
  /** Further text docs/product.md#pages-and-routes promises on this page for a logged-out visitor: a string is a whole element's text, a RegExp part of one. */
  texts: (string | RegExp)[];
}

const ROUTES: RouteExpectation[] = [
  {
    path: '/',
    menu: 'Home',
    heading: 'Dare. Prove it. Get paid.',
    texts: ['Major Dare of the Week', 'No dares found'],
  },
  {
    path: '/community-dares',
    menu: 'Community Dares',
    heading: 'Community Dares',
    texts: [
      'Active Dares',
      'Total SOL Pool',
      'Total Participants',
      'No dares found',
      'Be the first to create a dare for the community!',
      'Create First Dare',
    ],
  },
  {
    path: '/major-dare',
    menu: 'Major Dare',
    heading: 'Major Dare',
    texts: ['No Major Dare Active', 'The next major dare will be announced soon!'],
  },
  {
    path: '/leaderboard',
    menu: 'Leaderboard',
    heading: 'Leaderboard',
    texts: ['Top Earners', 'Quick Stats', 'Most Wins', 'Highest Earner', 'Most Active'],
  },
  {
    path: '/profile',
    menu: 'Profile',
    heading: 'Profile',
    texts: ['Connect Your Wallet', 'Please connect your wallet to view your profile'],
  },
  {
    path: '/create-dare',
    menu: 'Create Dare',
    heading: 'Create Dare',
    texts: ['Connect Your Wallet'],
  },
  { path: '/dare/1', menu: null, heading: 'Dare not found', texts: [] },
  {
    path: '/admin',
    menu: null,
    heading: 'Admin Panel',
    texts: ["Access Denied - You don't have admin privileges to access this panel."],
  },
  {
    path: '/instructions',
    menu: 'Instructions',
    heading: 'Instructions',
    // docs/product.md#instructions: the disclaimer's four points.
    texts: [
      'Disclaimer',
      /entertainment only/,
      /legal and safe/,
      /respect others/,
      /takes no\s+responsibility/,
    ],
  },
  { path: '/no-such-page', menu: null, heading: '404 Page Not Found', texts: [] },
];

const sideMenu = (scope: Page | Locator) => scope.getByRole('navigation', { name: 'Main' });

/** Playwright's locators wait; a plain poll keeps Vitest's expect as the one assertion style. */
async function expectVisible(locator: Locator, what: string) {
  await locator
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 })
    .catch(() => {
      throw new Error(`not visible: ${what}`);
    });
}

async function expectCurrentLink(menu: Locator, label: string | null) {
  const current = menu.locator('a[aria-current="page"]');
  await expect.poll(() => current.allTextContents()).toEqual(label ? [label] : []);
}

async function expectRoute(page: Page, route: RouteExpectation) {
  const main = page.getByRole('main');
  const heading = main.getByRole('heading', { name: route.heading, exact: true });
  // Dare not found is a status line rather than a heading.
  const title = route.path.startsWith('/dare/') ? main.getByText(route.heading, { exact: true }) : heading;
  await expectVisible(title, `"${route.heading}" on ${route.path}`);
  for (const text of route.texts)
    await expectVisible(main.getByText(text, { exact: true }), `"${text}" on ${route.path}`);
  await expectCurrentLink(sideMenu(page), route.menu);
}

describe('navigation (desktop)', () => {
  test.each(ROUTES)('$path shows $heading and marks its side menu link', async (route) => {
    const { page } = await app.newPage();
    const response = await page.goto(app.url(route.path));
    // Every path is the SPA: the not-found page is the app's, served with 200 like the others.
    expect(response?.status()).toBe(200);
    await expectRoute(page, route);
    expect(await sideMenu(page).getByRole('link').allTextContents()).toEqual(VISITOR_MENU);
    // docs/product.md#navigation: the side menu's fixed footer card shows an 'Online' status.
    await expectVisible(page.getByRole('complementary').getByText('Online', { exact: true }), 'Online');
  });

  test('the side menu takes a visitor to every page without a reload', async () => {
    const { page } = await app.newPage();
    await page.goto(app.url('/'));
    await expectRoute(page, ROUTES[0]!);
    const marker = await page.evaluate(() => {
      (window as Window & { __noReload?: boolean }).__noReload = true;
      return true;
    });
    expect(marker).toBe(true);
    for (const route of ROUTES.filter((candidate) => candidate.menu !== null).reverse()) {
      await sideMenu(page).getByRole('link', { name: route.menu!, exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(route.path);
      await expectRoute(page, route);
    }
    expect(await page.evaluate(() => (window as Window & { __noReload?: boolean }).__noReload)).toBe(true);
  });

  test('the top bar has no menu button on a desktop', async () => {
    const { page } = await app.newPage();
    await page.goto(app.url('/leaderboard'));
    await expectCurrentLink(sideMenu(page), 'Leaderboard');
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
  });
});

describe('navigation (375 px phone)', () => {
  const phone = { width: 375, height: 812 };

  test('the side menu is a drawer opened from the menu button', async () => {
    const { page } = await app.newPage({ viewport: phone });
    await page.goto(app.url('/'));
    await expectVisible(page.getByRole('heading', { name: 'Dare. Prove it. Get paid.' }), 'the Home hero');
    // Hidden, not just scrolled away: the inline menu would eat a third of a phone screen.
    expect(await sideMenu(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expectVisible(drawer, 'the menu drawer');
    expect(await sideMenu(drawer).getByRole('link').allTextContents()).toEqual(VISITOR_MENU);
    await expectCurrentLink(sideMenu(drawer), 'Home');
    const box = await drawer.boundingBox();
    expect(box?.x).toBe(0);
    expect(box!.width).toBeLessThanOrEqual(phone.width);

    await sideMenu(drawer).getByRole('link', { name: 'Leaderboard', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/leaderboard');
    await expect.poll(() => drawer.count()).toBe(0);
    await expectVisible(page.getByRole('main').getByRole('heading', { name: 'Leaderboard' }), 'Leaderboard');

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expectCurrentLink(sideMenu(page.getByRole('dialog', { name: 'Menu' })), 'Leaderboard');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Menu' }).count()).toBe(0);
  });

  test('no page is wider than the phone', async () => {
    const { page } = await app.newPage({ viewport: phone });
    for (const route of ROUTES) {
      await page.goto(app.url(route.path));
      await expectVisible(page.getByRole('main').getByText(route.heading, { exact: true }), route.heading);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `page width of ${route.path}`).toBeLessThanOrEqual(phone.width);
    }
  });
});
