/**
 * A dare's Action as a blink client shows it (issue 38, decision 066): Dialect's published
 * `<Blink>` component on another site's page renders our Action URL, the injected E2E Test Wallet
 * signs from it, the wallet's RPC sends it, the client calls `links.next`, and the dare's pool on
 * our API grows by exactly 0.1 SOL once; the dare's page lists the wallet by its short address. Nothing reaches dial.to (this machine is offline; any
 * request there is refused and counted).
 */
import { createSolanaRpc, type Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { type BlinkClientSite, startBlinkClientSite } from './fixtures/blink-client/server';
import { getFreePortPair } from './fixtures/server';

const chainPort = await getFreePortPair();
const app = setupApp({ env: { CHAIN_RPC_PORT: String(chainPort) } });
const rpc = createSolanaRpc(`http://127.0.0.1:${chainPort}`);

let site: BlinkClientSite;
beforeAll(async () => {
  site = await startBlinkClientSite();
});
afterAll(async () => {
  await site?.close();
});

interface DareSummary {
  id: number;
  status: string;
  totalPool: string;
}

const getJson = async <T>(path: string): Promise<T> => {
  const res = await fetch(app.url(path));
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

/** An active dare whose Action takes SOL (its vault ours in every term). */
async function backableDare(): Promise<DareSummary> {
  const list = await getJson<DareSummary[]>('/api/dares?filter=active&limit=50');
  for (const dare of list) {
    const action = await getJson<{ disabled?: boolean }>(`/api/actions/dare/${dare.id}`);
    if (!action.disabled) return dare;
  }
  throw new Error('no active dare takes SOL through its Action');
}

const lamports = (sol: string) => {
  const [whole = '0', fraction = ''] = sol.split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
};

describe('a blink client renders the Action and the wallet signs from it', () => {
  it("'Add 0.1 SOL' in Dialect's <Blink> adds exactly 0.1 SOL to the pool, once", async () => {
    const dare = await backableDare();
    const before = lamports(dare.totalPool);
    const genesis = await rpc.getGenesisHash().send();
    const blockchainId = `solana:${genesis.slice(0, 32)}`;

    const { page, wallet } = await app.newPage({ wallet: true });
    const airdrop = await fetch(app.url('/api/dev/airdrop'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ walletAddress: wallet!.address, amount: '1' }),
    });
    expect(airdrop.status).toBe(200);

    const dialect: string[] = [];
    await page.context().route(/^https:\/\/([a-z0-9-]+\.)*dial\.to\//, (route) => {
      dialect.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const sent: string[] = [];
    await page.exposeFunction('e2eChainSend', async (signedTransaction: string) => {
      const signature = await rpc.sendTransaction(signedTransaction as never, { encoding: 'base64' }).send();
      sent.push(signature);
      return signature;
    });
    await page.exposeFunction('e2eChainConfirm', async (signature: string) => {
      for (let tries = 0; tries < 150; tries++) {
        const [status] = (await rpc.getSignatureStatuses([signature as Signature]).send()).value;
        if (status?.err) throw new Error(`the transaction failed: ${JSON.stringify(status.err)}`);
        if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('not confirmed in 30 s');
    });

    const actionUrl = app.url(`/api/actions/dare/${dare.id}`);
    await page.goto(site.pageUrl(actionUrl, blockchainId));
    const add = page.getByRole('button', { name: 'Add 0.1 SOL' });
    await add.waitFor();
    await expect.poll(() => add.isEnabled()).toBe(true);
    await add.click();

    // links.next answered: the client shows the completed action's description.
    await page.getByText(/You added 0\.1 SOL\. The pool is now/).waitFor({ timeout: 30_000 });
    expect(sent).toHaveLength(1);
    expect(
      wallet!.requests.filter((r) => r.method === 'signTransaction').map((r) => [r.origin, r.outcome]),
    ).toEqual([[site.origin, 'approved']]);

    const poolNow = async () => lamports((await getJson<DareSummary>(`/api/dares/${dare.id}`)).totalPool);
    expect(await poolNow()).toBe(before + 100_000_000n);
    // The payout job's notice runs again later: the deposit stays credited once.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await poolNow()).toBe(before + 100_000_000n);
    expect(dialect).toEqual([]);

    // The dare's page lists the wallet, which has no account, by its short address.
    const { page: darePage } = await app.newPage();
    await darePage.goto(app.url(`/dare/${dare.id}`));
    const short = `${wallet!.address.slice(0, 4)}…${wallet!.address.slice(-4)}`;
    const backer = darePage
      .getByRole('region', { name: 'Backers' })
      .getByRole('listitem')
      .filter({ hasText: short });
    await backer.waitFor();
    expect(await backer.textContent()).toBe(`${short}0.1 SOL`);
  });
});
