import { type Address, createSolanaRpc, createSolanaRpcSubscriptions, type Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChain } from '#server/chain/index';
import { createTestContext, type TestContext } from './helpers/app';
import { createTestWallet } from './helpers/wallet';

/**
 * The app on the embedded chain served as a localnet (on free ports here: tests never take 8899),
 * seen through @solana/kit's own clients the way a wallet or the solana CLI sees it.
 */
describe('the embedded chain served as a localnet', () => {
  let ctx: TestContext;
  let httpUrl: string;
  let wsUrl: string;

  beforeAll(async () => {
    const chain = await createChain({ stateDir: null, rpcServer: { host: '127.0.0.1', port: 0 } });
    if (!chain.rpcServer?.serving) throw new Error('the chain RPC did not start');
    ({ httpUrl, wsUrl } = chain.rpcServer);
    ctx = await createTestContext({}, { chain });
  });
  afterAll(() => ctx.close());

  it('tells the web app to link Solana Explorer to it, after our own /tx page', async () => {
    const config = (await ctx.app.inject('/api/config')).json();
    expect(config.explorerUrl).toBe('/tx/{signature}');
    expect(config.solanaExplorerUrl).toBe(
      `https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=${encodeURIComponent(httpUrl)}`,
    );
  });

  it("shows the app's transfers to kit's HTTP and WebSocket clients as they land", async () => {
    const rpc = createSolanaRpc(httpUrl);
    const rpcSubscriptions = createSolanaRpcSubscriptions(wsUrl);
    const wallet = await createTestWallet();
    const abort = new AbortController();
    const notifications = await rpcSubscriptions
      .accountNotifications(wallet.address as Address, { encoding: 'base64' })
      .subscribe({ abortSignal: abort.signal });
    const notified = notifications[Symbol.asyncIterator]().next();

    // 'Get test SOL' in the app.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/airdrop',
      payload: { walletAddress: wallet.address, amount: '1.5' },
    });
    expect(res.statusCode).toBe(200);
    const { signature } = res.json() as { signature: Signature };

    const { value: account } = await notified;
    expect(account).toMatchObject({ value: { lamports: 1_500_000_000n } });
    abort.abort();
    expect((await rpc.getBalance(wallet.address as Address).send()).value).toBe(1_500_000_000n);
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    const page = (await ctx.app.inject(`/api/transactions/${signature}`)).json();
    expect(page.slot).toBe(String(status!.slot));
  });
});
