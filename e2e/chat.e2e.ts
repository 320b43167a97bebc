import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { registerWithWallet } from './fixtures/users';

const app = setupApp();

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });

async function say(page: Page, text: string) {
  const input = page.getByLabel('Message', { exact: true });
  await input.fill(text);
  await input.press('Enter');
}

describe('live chat in the browser', () => {
  it("shows two users in one dare's room each other's messages live, and not the Home chat", async () => {
    const read = async <T>(path: string) => (await (await fetch(app.url(path))).json()) as T;
    const dares = await read<{ id: number; status: string }[]>('/api/dares');
    // A room with no history yet (the demo data talks in some), so the counts below are this test's.
    let dare: { id: number } | undefined;
    for (const candidate of dares.filter((d) => d.status === 'active')) {
      if ((await read<unknown[]>(`/api/chat-messages?dareId=${candidate.id}`)).length === 0) {
        dare = candidate;
        break;
      }
    }
    if (!dare) throw new Error('the demo data has an active dare whose chat room is empty');
    const globalHistory = await read<{ message: string }[]>('/api/chat-messages');

    const first = await app.newPage({ wallet: true });
    const second = await app.newPage({ wallet: true });
    const onHome = await app.newPage();
    await registerWithWallet(first.page, app.baseUrl, 'chat_ann');
    await registerWithWallet(second.page, app.baseUrl, 'chat_ben');
    await onHome.page.goto(app.url('/'));
    await expect
      .poll(() => onHome.page.getByText('Connect your wallet to join the conversation.').count())
      .toBe(1);

    await first.page.goto(app.url(`/dare/${dare.id}`));
    await second.page.goto(app.url(`/dare/${dare.id}`));
    // The badge counts who is in this dare's room: both pages.
    await first.page.getByText('2 online', { exact: true }).waitFor();

    await say(first.page, 'Ready for the cold shower?');
    await messages(second.page).getByText('Ready for the cold shower?').waitFor();
    await say(second.page, '<b>Born</b> ready');
    // Shown as the text that was typed, never as HTML.
    await messages(first.page).getByText('<b>Born</b> ready').waitFor();
    expect(await messages(first.page).locator('b').count()).toBe(0);
    // Blank messages are not sent.
    await say(first.page, '   ');
    await say(first.page, 'last one');
    await messages(second.page).getByText('last one').waitFor();
    expect(await messages(second.page).getByRole('listitem').count()).toBe(3);

    // Home shows the global room: none of the dare's messages arrived there.
    expect(await messages(onHome.page).getByText('Ready for the cold shower?').count()).toBe(0);
    await expect.poll(() => messages(onHome.page).getByRole('listitem').count()).toBe(globalHistory.length);

    // A reload reads the room's history back.
    await second.page.reload();
    await messages(second.page).getByText('last one').waitFor();
    expect(await messages(second.page).getByRole('listitem').count()).toBe(3);
  });

  it('reads back what was said while its socket was away', async () => {
    const away = await app.newPage();
    const speaker = await app.newPage({ wallet: true });
    await registerWithWallet(speaker.page, app.baseUrl, 'chat_cal');
    // The page's chat socket goes through a route the test can cut, as a dropped network or a
    // server that cut a socket for falling behind does. The page's next socket reaches the server
    // only when the test lets it: what is said until then, it can only read back.
    const routes: WebSocketRoute[] = [];
    let letBack = () => {};
    const back = new Promise<void>((resolve) => {
      letBack = resolve;
    });
    await away.page.routeWebSocket(/\/ws$/, (route) => {
      routes.push(route);
      if (routes.length === 1) route.connectToServer();
      else void back.then(() => route.connectToServer());
    });
    await away.page.goto(app.url('/'));
    await speaker.page.goto(app.url('/'));
    await say(speaker.page, 'before the drop');
    await messages(away.page).getByText('before the drop').waitFor();

    // Cut: the page reconnects a second later. Said meanwhile, stored before it is back.
    await routes[0]!.close();
    await say(speaker.page, 'while you were away');
    await messages(speaker.page).getByText('while you were away').waitFor();
    await expect.poll(() => routes.length).toBe(2);
    letBack();
    // Back in the room on its new socket, the page reads the history again and shows what it
    // missed, once.
    await messages(away.page).getByText('while you were away').waitFor();
    expect(await messages(away.page).getByText('before the drop').count()).toBe(1);
    await say(speaker.page, 'after the return');
    await messages(away.page).getByText('after the return').waitFor();
  });
});
