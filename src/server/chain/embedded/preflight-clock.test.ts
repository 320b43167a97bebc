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
import { getRefundInstruction } from '#server/chain/escrow-program/instructions';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { EmbeddedEscrowChain, SOL } from '#test/support/chain/embedded-escrow-chain';
import { getCreateVaultInstruction, getDepositInstruction } from '#test/support/chain/v1-vaults';

let t: EmbeddedEscrowChain;
beforeAll(async () => {
  t = await EmbeddedEscrowChain.start();
});
afterAll(() => t.close());

it('refuses at preflight, for free, a deposit that became too late while the chain sat idle', async () => {
  const creator = await t.wallet();
  const dareId = crypto.getRandomValues(new Uint8Array(32));
  await t.send(
    [
      await getCreateVaultInstruction({
        programId: t.programId,
        creator,
        rentPayer: t.platform,
        dareId,
        moderator: t.moderator.address,
        deadline: t.now() + 60n,
        refundAfter: t.now() + 120n,
        amount: SOL,
        kind: 'community',
      }),
    ],
    creator,
  );
  const vault = (await findVaultAddress(t.programId, dareId)).address;
  const payer = await t.wallet();
  const before = await t.balance(payer.address);
  t.tick(60n);
  const late = await getDepositInstruction({
    programId: t.programId,
    vault,
    payer,
    rentPayer: t.platform,
    amount: SOL,
  });
  const refused = await t.send([late], payer).catch((error: unknown) => error);
  expect(
    isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
  ).toBe(true);
  expect(((refused as Error).cause as Error).message).toMatch(/Custom program error: #18/); // DeadlinePassed
  expect(await t.balance(payer.address)).toBe(before);

  // And a refund that became due while idle passes preflight.
  t.tick(60n);
  const refund = await getRefundInstruction({
    programId: t.programId,
    vault,
    payer: creator.address,
    receiptRentPayer: t.platform.address,
    vaultRentPayer: t.platform.address,
  });
  const creatorBefore = await t.balance(creator.address);
  await t.send([refund]);
  expect(await t.balance(creator.address)).toBe(creatorBefore + SOL);
});
