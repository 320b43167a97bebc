import { expect } from 'vitest';
import { waitForConfirmation } from '#server/chain/confirmation';
import type { TestContext } from './app';
import { walletSigns } from './entries';
import type { TestWallet } from './wallet';

/**
 * Backs a dare through its Action as a blink client does: POST for the transaction, the wallet
 * signs and sends it to the chain, then `links.next` (the callback that credits it).
 */
export async function backByBlink(ctx: TestContext, dareId: number, wallet: TestWallet, sol: string) {
  const post = await ctx.app.inject({
    method: 'POST',
    url: `/api/actions/dare/${dareId}?amount=${sol}`,
    payload: { account: wallet.address },
  });
  expect(post.statusCode, post.body).toBe(200);
  const signed = await walletSigns(wallet, post.json().transaction);
  const signature = await ctx.chain.rpc.sendTransaction(signed as never, { encoding: 'base64' }).send();
  await waitForConfirmation(ctx.chain.rpc, signature);
  const done = await ctx.app.inject({
    method: 'POST',
    url: `/api/actions/dare/${dareId}/completed`,
    payload: { account: wallet.address, signature },
  });
  expect(done.statusCode, done.body).toBe(200);
  return signature;
}
