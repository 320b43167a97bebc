import { describe, expect, it } from 'vitest';
import type { Leaderboard } from '#contract/leaderboard';
import { setupApp } from './fixtures/app';

const app = setupApp();

describe('Leaderboard in the browser', () => {
  it("shows the server's totals and each category's own leader", async () => {
    const board = (await (await fetch(app.url('/api/leaderboard'))).json()) as Leaderboard;
    // The demo data: users who pooled SOL and voted, and carol's paid win; the admin is not ranked.
    expect(board.categories.mostActive).not.toBeNull();
    expect(board.categories.mostWins).toMatchObject({ username: 'carol', dareWins: 1 });
    expect(board.topEarners.map((entry) => entry.username)).not.toContain('admin');

    const { page } = await app.newPage();
    await page.goto(app.url('/leaderboard'));
    const category = (label: string) =>
      page
        .locator('dt', { hasText: label })
        .locator('xpath=following-sibling::dd[1]')
        .textContent({ timeout: 2000 })
        .catch(() => null);
    await expect.poll(() => category('Most Active')).toBe(board.categories.mostActive!.username);
    expect(await category('Most Wins')).toBe('carol');
    expect(await category('Highest Earner')).toBe('carol');
    const quickStats = page.getByText('Total Users').locator('xpath=../..');
    await expect.poll(() => quickStats.textContent()).toContain(String(board.stats.totalUsers));
    const earners = page.getByRole('list').filter({ hasText: board.topEarners[0]!.username }).first();
    await expect.poll(() => earners.getByRole('listitem').count()).toBe(board.topEarners.length);
    // Counts read in the right number: carol has '1 win', not '1 wins'.
    await earners
      .getByRole('listitem')
      .filter({ hasText: 'carol' })
      .getByText('1 win', { exact: true })
      .waitFor();
  });
});
