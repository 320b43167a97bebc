import path from 'node:path';
import type { KeyPairSigner } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { getVetoInstruction } from '#server/chain/escrow-program/v2/instructions';
import { proposeNonceAddress } from '#server/chain/escrow-program/v2/propose-nonce-account';
import { dareSubmissions } from '#server/db/schema';
import { GUARDIAN_KEYPAIR_FILE } from '#server/judging-keys';
import type { TestContext } from './app';
import { enterAndSubmit } from './entries';
import { judgeSigns, sendInstructions } from './judging';
import { type Actor, api, contribute, createFundedDare } from './payouts';

/**
 * A judged v2 dare as issue 33 found them: its creator's stake and a backer's, two entries, winners
 * proposed by two judges in turn (so the fee payer's propose nonce exists), then vetoed by the
 * guardian (the embedded data folder's key): the vault is open again. Needs JUDGE_THRESHOLD=2 and
 * `judges` the two judges' keys with their admin accounts.
 */
export async function vetoedJudgedDare(
  ctx: TestContext,
  actors: { creator: Actor; backer: Actor; entrants: [Actor, Actor] },
  judges: { keys: [KeyPairSigner, KeyPairSigner]; admins: [Actor, Actor] },
) {
  const dare = await createFundedDare(ctx, actors.creator, '0.3');
  await contribute(ctx, actors.backer, dare, '0.045');
  const winning = await enterAndSubmit(ctx, actors.entrants[0], dare.id);
  await enterAndSubmit(ctx, actors.entrants[1], dare.id);
  await ctx.database.db
    .update(dareSubmissions)
    .set({ status: 'approved' })
    .where(eq(dareSubmissions.id, winning.id));
  const url = `/api/admin/submissions/${winning.id}/mark-winner`;
  const offered = await api(ctx).post(url, { dareId: dare.id }, judges.admins[0].token);
  expect(offered.statusCode, offered.body).toBe(200);
  const waiting = await api(ctx).post(
    url,
    { dareId: dare.id, signedTransaction: await judgeSigns(judges.keys[0], offered.json().transaction) },
    judges.admins[0].token,
  );
  expect(waiting.json()).toMatchObject({ signaturesNeeded: 1 });
  const relayed = await api(ctx).post(
    url,
    { dareId: dare.id, signedTransaction: await judgeSigns(judges.keys[1], waiting.json().transaction) },
    judges.admins[1].token,
  );
  expect(relayed.json(), relayed.body).toHaveProperty('proposal');
  const proposed = await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault);
  expect(proposed?.status).toBe('proposed');

  const veto = async () => {
    const guardian = await readKeypairFile(path.join(ctx.dataDir, GUARDIAN_KEYPAIR_FILE));
    await ctx.chain.airdrop(guardian.address, 10_000_000n);
    await sendInstructions(ctx, guardian, [
      getVetoInstruction({ programId: ctx.escrowProgramV2Id, vault: dare.vault, guardian }),
    ]);
    expect(await fetchVault(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault)).toMatchObject({
      status: 'open',
      judging: expect.objectContaining({ vetoCount: 1, proposal: null }),
    });
  };
  const nonceAccount = await proposeNonceAddress((await ctx.escrowKeys.feePayer()).address, dare.vault);
  return { dare, veto, nonceAccount };
}
