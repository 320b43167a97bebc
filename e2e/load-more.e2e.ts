import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { createDareOverHttp, newClient } from './fixtures/http-client';

const app = setupApp();

describe("Community Dares' Load more", () => {
  it('pages through more dares than one page holds, without repeats', async () => {
    // 51 real dares (the create-dare money path over HTTP), on top of the demo data's active ones.
    const clients = await Promise.all([0, 1, 2].map((i) => newClient(app.server, i)));
    for (let i = 0; i < 51; i++) {
      await createDareOverHttp(app.server, clients[i % 3]!, { title: `Paged dare ${i}`, stake: '0.01' });
    }
    const active = (await (await fetch(app.url('/api/dares?filter=active&limit=100'))).json()) as {
      id: number;
    }[];
    expect(active.length).toBeGreaterThan(50);

    const { page } = await app.newPage();
    await page.goto(app.url('/community-dares'));
    const cards = page.getByRole('list', { name: 'Dares' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(50);
    await page.getByText('50+ dares available').waitFor();

    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => cards.count()).toBe(active.length);
    await page.getByText(`${active.length} dares available`, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const links = await page
      .getByRole('list', { name: 'Dares' })
      .getByRole('link')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href')));
    expect(new Set(links).size).toBe(active.length);
    expect(new Set(links)).toEqual(new Set(active.map((dare) => `/dare/${dare.id}`)));
  });
});
