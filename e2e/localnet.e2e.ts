import {
  type Address,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  generateKeyPairSigner,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { getFreePortPair } from './fixtures/server';

// Other servers run in parallel, so not 8899 itself: the same code on a free pair of ports.
const chainPort = await getFreePortPair();
const app = setupApp({
  env: { CHAIN_RPC_PORT: String(chainPort), SEED_DEMO_DATA: 'false' },
  logLevel: 'info',
});

describe('the real server serves its embedded chain as a localnet', () => {
  it("answers kit's clients on the chain RPC port, and the /tx page links Solana Explorer to it", async () => {
    const httpUrl = `http://127.0.0.1:${chainPort}`;
    await expect
      .poll(() => app.server.output())
      .toContain(
        `Chain RPC for wallets, the solana CLI and Solana Explorer: ${httpUrl} (PubSub ws://127.0.0.1:${chainPort + 1})`,
      );
    const rpc = createSolanaRpc(httpUrl);
    const rpcSubscriptions = createSolanaRpcSubscriptions(`ws://127.0.0.1:${chainPort + 1}`);
    const wallet = (await generateKeyPairSigner()).address;
    const abort = new AbortController();
    const notifications = await rpcSubscriptions
      .accountNotifications(wallet, { encoding: 'base64' })
      .subscribe({ abortSignal: abort.signal });
    const notified = notifications[Symbol.asyncIterator]().next();

    // 'Get test SOL' in the app, seen by a wallet-like client over HTTP and WebSocket.
    const airdrop = await fetch(app.url('/api/dev/airdrop'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ walletAddress: wallet, amount: '1' }),
    });
    expect(airdrop.status).toBe(200);
    const { signature } = (await airdrop.json()) as { signature: string };
    expect((await notified).value).toMatchObject({ value: { lamports: 1_000_000_000n } });
    abort.abort();
    expect((await rpc.getBalance(wallet as Address).send()).value).toBe(1_000_000_000n);

    const { page } = await app.newPage();
    await page.goto(app.url(`/tx/${signature}`));
    const link = page.getByRole('link', { name: 'Open in Solana Explorer' });
    expect(await link.getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${signature}?cluster=custom&customUrl=${encodeURIComponent(httpUrl)}`,
    );
    expect(await link.getAttribute('target')).toBe('_blank');
  });
});
