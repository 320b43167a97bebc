/**
 * The embedded chain's clock moves only when a transaction lands, so after an idle spell the Clock
 * sysvar is stale. Preflight and simulateTransaction must judge a transaction at the time it would
 * execute (the next slot, now), as a cluster whose clock never stops does.
 */
import {
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
} from '@solana/kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EmbeddedEscrowChain, SOL } from '#test/support/chain/embedded-escrow-chain';

let t: EmbeddedEscrowChain;
beforeAll(async () => {
  t = await EmbeddedEscrowChain.open();
});
afterAll(() => t.close());

it('refuses at preflight, for free, a deposit that became too late while the chain sat idle', async () => {
  const now = await t.now();
  const { vault, creator } = await t.createDare({ stake: SOL, deadline: now + 60n, refundAfter: now + 120n });
  const payer = await t.wallet();
  const before = await t.balance(payer.address);
  await t.tick(60n);
  const late = await t.depositInstruction(vault, payer, SOL);
  const refused = await t.send([late], payer).catch((error: unknown) => error);
  expect(
    isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
  ).toBe(true);
  expect(((refused as Error).cause as Error).message).toMatch(/Custom program error: #18/); // DeadlinePassed
  expect(await t.balance(payer.address)).toBe(before);

  // And a refund that became due while idle passes preflight.
  await t.tick(60n);
  const refund = await t.refundInstruction(vault, creator.address);
  const creatorBefore = await t.balance(creator.address);
  await t.must([refund]);
  expect(await t.balance(creator.address)).toBe(creatorBefore + SOL);
});
