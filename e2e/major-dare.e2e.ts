import { describe, expect, it } from 'vitest';
import type { MajorDare } from '../src/contract/major-dare';
import { setupApp } from './fixtures/app';

const app = setupApp();

describe('Major Dare page in the browser', () => {
  it('shows the live major dare with its server-computed 70/30 prizes, Submit Video and Share', async () => {
    const major = (await (await fetch(app.url('/api/major-dare'))).json()) as MajorDare;
    if (!major.isActive) throw new Error('the demo data has an active major dare');

    const { page } = await app.newPage();
    await page.goto(app.url('/major-dare'));
    await page.getByRole('heading', { name: major.title }).waitFor();
    await page.getByText('LIVE', { exact: true }).waitFor();
    await page.getByText('MAJOR DARE', { exact: true }).waitFor();
    await page.getByText(`${major.adminPrize} SOL`, { exact: true }).waitFor();
    await page.getByText(`${major.communityPrize} SOL`, { exact: true }).waitFor();
    expect(await page.getByText('70%', { exact: true }).count()).toBe(1);
    expect(await page.getByText('30%', { exact: true }).count()).toBe(1);

    const share = page.getByRole('link', { name: 'Share' });
    const href = new URL((await share.getAttribute('href'))!);
    expect(href.searchParams.get('url')).toBe(app.url('/major-dare'));
    expect(href.searchParams.get('text')).toContain(major.title);

    // A visitor's Submit Video asks to connect a wallet first.
    await page.getByRole('button', { name: 'Submit Video' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByText('No approved submissions yet').waitFor();
  });
});
