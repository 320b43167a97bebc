import type { Address } from '@solana/kit';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import {
  getCancelV2Instruction,
  getCreateVaultV2Instruction,
  getDepositV2Instruction,
  getEnterV2Instruction,
  getExecuteInstruction,
  getProposeInstruction,
  getRefundV2Instruction,
  getVetoInstruction,
} from '#server/chain/escrow-program/v2/instructions';
import { ENTRY_V2_SIZE, RECEIPT_SIZE, VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import { planRecordClosesV2 } from '#server/chain/escrow-program/v2/payout-plan';
import { DAY, EscrowV2Chain, SOL } from '#test/support/chain/escrow-v2-chain';
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
  const cu = (name: string, value: bigint, detail?: string) =>
    results.push({
      kind: 'measure',
      name: `CU v2 ${name}`,
      value: Number(value),
      unit: 'CU',
      budget: CU_BUDGET,
      detail,
    });
  const programId = chain.programId;
  const terms = async () => ({
    ...(await chain.terms()),
    judges: judges.map((j) => j.address),
    threshold: 5,
  });

  const createVault = async (kind: 'community' | 'major', prefund = false) => {
    const creator = await chain.wallet();
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const vault = (await findVaultAddress(programId, dareId)).address;
    if (prefund)
      await chain.gift(await chain.wallet(), vault, runtime.svm.minimumBalanceForRentExemption(0n));
    const units = await chain.must([
      await getCreateVaultV2Instruction({
        ...(await terms()),
        kind,
        programId,
        creator,
        rentPayer: chain.platform,
        dareId,
        amount: SOL,
      }),
    ]);
    return { creator, vault, units };
  };
  const enter = async (vault: Address, proofByte: number) => {
    const entrant = await chain.wallet(1n);
    const units = await chain.must(
      [
        await getEnterV2Instruction({
          programId,
          vault,
          entrant,
          proofHash: new Uint8Array(32).fill(proofByte),
        }),
      ],
      entrant,
    );
    return { entrant, units };
  };
  const propose = async (vault: Address, winners: Address[]) =>
    chain.must([await getProposeInstruction({ programId, vault, winners, judges })]);
  const execute = async (vault: Address, winners: Address[]) => {
    await chain.setTime((await chain.now()) + DAY);
    return chain.must([getExecuteInstruction({ programId, vault, winners })], await chain.wallet(1n));
  };

  cu(
    'create_vault (address pre-funded, 5 judges)',
    (await createVault('community', true)).units,
    'transfer + allocate + assign',
  );

  // A community dare's whole life: the platform lends the vault's and receipts' rent, the entrants their entries'.
  const platformStart = await chain.balance(chain.platform.address);
  const feesStart = chain.feesPaidBy(chain.platform.address);
  const community = await createVault('community');
  cu('create_vault (5 judges)', community.units, 'creates vault + receipt, moves the stake');
  const payer = await chain.wallet();
  cu(
    'deposit (first: creates receipt)',
    await chain.must([
      await getDepositV2Instruction({
        programId,
        vault: community.vault,
        payer,
        rentPayer: chain.platform,
        amount: SOL,
      }),
    ]),
  );
  cu(
    'deposit (adds to receipt)',
    await chain.must([
      await getDepositV2Instruction({
        programId,
        vault: community.vault,
        payer,
        rentPayer: chain.platform.address,
        amount: SOL,
      }),
    ]),
  );
  const winner = await enter(community.vault, 1);
  cu('enter (entrant pays the rent)', winner.units);
  const entrantStart = await chain.balance(winner.entrant.address);
  cu('propose (community, 5 judges sign)', await propose(community.vault, [winner.entrant.address]));
  cu(
    'veto',
    await chain.must(
      [getVetoInstruction({ programId, vault: community.vault, guardian: chain.guardian })],
      chain.guardian,
    ),
  );
  await propose(community.vault, [winner.entrant.address]);
  cu('execute (community)', await execute(community.vault, [winner.entrant.address]));
  const closes = await planRecordClosesV2({
    programId,
    vault: community.vault,
    vaultRentPayer: chain.platform.address,
    receipts: [
      { payer: payer.address, rentPayer: chain.platform.address },
      { payer: community.creator.address, rentPayer: chain.platform.address },
    ],
    entries: [{ entrant: winner.entrant.address, rentPayer: winner.entrant.address }],
    refund: false,
  });
  const closeUnits: bigint[] = [];
  for (const step of closes) closeUnits.push(await chain.must(step.instructions));
  cu('close_receipt', closeUnits[0]!);
  cu('close_entry (closes the vault)', closeUnits[2]!);
  const platformFees = chain.feesPaidBy(chain.platform.address) - feesStart;
  results.push({
    kind: 'measure',
    name: 'v2 rent not returned after a dare ends',
    value: Number(platformStart - (await chain.balance(chain.platform.address)) - platformFees),
    unit: 'lamports',
    budget: 0,
    detail: 'vault, receipts and entry all closed, each in its own transaction',
  });
  const entryRent = runtime.svm.minimumBalanceForRentExemption(BigInt(ENTRY_V2_SIZE));
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
  await chain.must([
    await getDepositV2Instruction({
      programId,
      vault: cancelled.vault,
      payer: other,
      rentPayer: chain.platform,
      amount: SOL,
    }),
  ]);
  cu(
    'cancel',
    await chain.must([
      getCancelV2Instruction({ programId, vault: cancelled.vault, canceller: chain.canceller }),
    ]),
  );
  const refund = async (p: Address) =>
    getRefundV2Instruction({
      programId,
      vault: cancelled.vault,
      payer: p,
      receiptRentPayer: chain.platform.address,
      vaultRentPayer: chain.platform.address,
    });
  cu('refund', await chain.must([await refund(other.address)], await chain.wallet(1n)));
  cu(
    'refund (last: closes the vault)',
    await chain.must([await refund(cancelled.creator.address)], await chain.wallet(1n)),
  );

  const rent = (size: number) => Number(runtime.svm.minimumBalanceForRentExemption(BigInt(size)));
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
