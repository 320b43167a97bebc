import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import type { TestContext } from './app';

/** The test chain's time now (its Clock sysvar): what the program compares deadlines with. */
export async function chainNow(ctx: Pick<TestContext, 'chain'>): Promise<Date> {
  return new Date(Number(await fetchChainTime(ctx.chain.rpc)) * 1000);
}

/** Moves the test chain's clock forward instead of sleeping until a deadline passes. */
export async function warpChain(ctx: Pick<TestContext, 'chain'>, seconds: number): Promise<void> {
  const controls = ctx.chain.testControls;
  if (!controls) throw new Error('warpChain: this test chain has no test controls');
  await controls.warp(seconds);
}
