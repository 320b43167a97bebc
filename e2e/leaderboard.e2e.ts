import { describe, expect, it } from 'vitest';
import type { Leaderboard } from '../src/contract/leaderboard';
import { setupApp } from './fixtures/app';

const app = setupApp();

describe('Leaderboard in the browser', () => {
  it("shows the server's totals and each category's own leader", async () => {
    const board = (await (await fetch(app.url('/api/leaderboard'))).json()) as Leaderboard;
    // The demo data: users who pooled SOL but nobody has won yet.
    expect(board.categories.mostActive).not.toBeNull();
    expect(board.categories.mostWins).toBeNull();

    const { page } = await app.newPage();
    await page.goto(app.url('/leaderboard'));
    const category = (label: string) =>
      page
        .locator('dt', { hasText: label })
        .locator('xpath=following-sibling::dd[1]')
        .textContent({ timeout: 2000 })
        .catch(() => null);
    await expect.poll(() => category('Most Active')).toBe(board.categories.mostActive!.username);
    expect(await category('Most Wins')).toBe('N/A');
    expect(await category('Highest Earner')).toBe('N/A');
    const quickStats = page.getByText('Total Users').locator('xpath=../..');
    await expect.poll(() => quickStats.textContent()).toContain(String(board.stats.totalUsers));
    const earners = page.getByRole('list').filter({ hasText: board.topEarners[0]!.username }).first();
    await expect.poll(() => earners.getByRole('listitem').count()).toBe(board.topEarners.length);
  });
});
