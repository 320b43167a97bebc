import type { Address } from '@solana/kit';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { getCreateVaultV2Instruction } from '#server/chain/escrow-program/v2/instructions';
import { ENTRY_V2_SIZE, RECEIPT_SIZE, VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import { DAY, type Landed, SOL } from '#test/support/chain/escrow-chain';
import { EscrowV2Chain } from '#test/support/chain/escrow-v2-chain';
import type { MeasureResult } from '../types';

/** The goal for every instruction of the escrow program. */
const CU_BUDGET = 10_000;

/**
 * Escrow v2's compute units per instruction on LiteSVM (deployed through the loader), with five
 * judges wherever their number matters, the rent each account holds, and what a whole dare
 * leaves behind (execute and each record close sent on their own, as the client does).
 */
export async function measureProgramV2(): Promise<MeasureResult[]> {
  const runtime = await startLiteSvmRuntime();
  const chain = await EscrowV2Chain.start(runtime);
  const judges = [...chain.judges, await chain.wallet(1n), await chain.wallet(1n)];
  const results: MeasureResult[] = [];
  const cu = (name: string, sent: Pick<Landed, 'computeUnits'>, detail?: string) =>
    results.push({
      kind: 'measure',
      name: `CU v2 ${name}`,
      value: Number(sent.computeUnits),
      unit: 'CU',
      budget: CU_BUDGET,
      detail,
    });
  const { svm } = runtime;

  const createVault = async (kind: 'community' | 'major', prefund = false) => {
    const creator = await chain.wallet();
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const vault = (await findVaultAddress(chain.programId, dareId)).address;
    if (prefund) await chain.gift(await chain.wallet(), vault, svm.minimumBalanceForRentExemption(0n));
    const fiveJudges = { judges: judges.map((j) => j.address), threshold: 5 };
    const input = await chain.createInput({ ...fiveJudges, kind, creator, dareId });
    const sent = await chain.must([await getCreateVaultV2Instruction(input)]);
    return { creator, vault, sent };
  };
  const enter = async (vault: Address, proofByte: number) => {
    const entrant = await chain.wallet(1n);
    const proof = new Uint8Array(32).fill(proofByte);
    return {
      entrant,
      sent: await chain.must([await chain.enterInstruction(vault, entrant, proof)], entrant),
    };
  };
  const propose = async (vault: Address, winners: Address[]) =>
    chain.must([await chain.proposeInstruction(vault, winners, judges)]);
  const execute = async (vault: Address, winners: Address[]) => {
    await chain.tick(DAY);
    return chain.must([chain.executeInstruction(vault, winners)], await chain.wallet(1n));
  };

  cu(
    'create_vault (address pre-funded, 5 judges)',
    (await createVault('community', true)).sent,
    'transfer + allocate + assign',
  );

  // A community dare's whole life: the platform lends the vault's and receipts' rent, the entrants their entries'.
  const platformStart = await chain.balance(chain.platform.address);
  const feesStart = chain.feesPaidBy(chain.platform.address);
  const community = await createVault('community');
  cu('create_vault (5 judges)', community.sent, 'creates vault + receipt, moves the stake');
  const payer = await chain.wallet();
  const { vault } = community;
  cu(
    'deposit (first: creates receipt)',
    await chain.must([await chain.depositInstruction(vault, payer, SOL)]),
  );
  cu(
    'deposit (adds to receipt)',
    await chain.must([await chain.depositInstruction(vault, payer, SOL, chain.platform.address)]),
  );
  const winner = await enter(vault, 1);
  cu('enter (entrant pays the rent)', winner.sent);
  const entrantStart = await chain.balance(winner.entrant.address);
  cu('propose (community, 5 judges sign)', await propose(vault, [winner.entrant.address]));
  cu('veto', await chain.must([chain.vetoInstruction(vault)], chain.guardian));
  await propose(vault, [winner.entrant.address]);
  cu('execute (community)', await execute(vault, [winner.entrant.address]));
  const closes = await chain.closePlan(
    vault,
    [payer.address, community.creator.address],
    [winner.entrant.address],
  );
  const closed: Landed[] = [];
  for (const step of closes) closed.push(await chain.must(step.instructions));
  cu('close_receipt', closed[0]!);
  cu('close_entry (closes the vault)', closed[2]!);
  const platformFees = chain.feesPaidBy(chain.platform.address) - feesStart;
  results.push({
    kind: 'measure',
    name: 'v2 rent not returned after a dare ends',
    value: Number(platformStart - (await chain.balance(chain.platform.address)) - platformFees),
    unit: 'lamports',
    budget: 0,
    detail: 'vault, receipts and entry all closed, each in its own transaction',
  });
  const entryRent = svm.minimumBalanceForRentExemption(BigInt(ENTRY_V2_SIZE));
  results.push({
    kind: 'measure',
    name: "v2 winner's gain beyond the pot",
    value: Number((await chain.balance(winner.entrant.address)) - entrantStart - 3n * SOL - entryRent),
    unit: 'lamports',
    budget: 0,
    detail: `its entry's rent (${entryRent}) came back to it`,
  });

  // A major dare, paid out 70/30.
  const major = await createVault('major');
  const [first, second] = [await enter(major.vault, 2), await enter(major.vault, 3)];
  const majorWinners = [first.entrant.address, second.entrant.address];
  cu('propose (major, 5 judges sign)', await propose(major.vault, majorWinners));
  cu('execute (major, 70/30)', await execute(major.vault, majorWinners));

  // A cancelled dare, refunded by anyone.
  const cancelled = await createVault('community');
  const other = await chain.wallet();
  await chain.must([await chain.depositInstruction(cancelled.vault, other, SOL)]);
  cu('cancel', await chain.must([chain.cancelInstruction(cancelled.vault)]));
  const refund = (p: Address) => chain.refundInstruction(cancelled.vault, p);
  cu('refund', await chain.must([await refund(other.address)], await chain.wallet(1n)));
  cu(
    'refund (last: closes the vault)',
    await chain.must([await refund(cancelled.creator.address)], await chain.wallet(1n)),
  );

  const rent = (size: number) => Number(svm.minimumBalanceForRentExemption(BigInt(size)));
  for (const [name, size, payerName] of [
    ['vault', VAULT_V2_SIZE, 'the platform'],
    ['receipt', RECEIPT_SIZE, 'the platform'],
    ['entry', ENTRY_V2_SIZE, 'the entrant'],
  ] as const) {
    results.push({
      kind: 'measure',
      name: `v2 rent held by one ${name} (${size} bytes)`,
      value: rent(size),
      unit: 'lamports',
      budget: rent(size),
      detail: `paid by ${payerName}, returned when it closes`,
    });
  }
  return results;
}
