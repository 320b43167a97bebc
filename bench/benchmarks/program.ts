import type { Address } from '@solana/kit';
import { ENTRY_SIZE, RECEIPT_SIZE, VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { type Landed, SOL } from '#test/support/chain/escrow-chain';
import { EscrowV1Chain } from '#test/support/chain/escrow-v1-chain';
import { getCreateVaultInstruction } from '#test/support/chain/v1-vaults';
import type { Benchmark, MeasureResult } from '../types';
import { measureProgramV2 } from './program-v2';

/** The goal for every instruction of the escrow program. */
const CU_BUDGET = 10_000;

/**
 * Compute units of each escrow instruction on LiteSVM (the deployed program, through the
 * loader), the rent each account holds while it lives, and what a whole dare leaves behind.
 * In-process: it does not use the server the runner starts.
 */
export const program: Benchmark = {
  name: 'program',
  description: 'escrow programs v1 and v2: compute units per instruction, rent per account',
  inProcess: true,
  run: async () => {
    const chain = await EscrowV1Chain.start(await startLiteSvmRuntime());
    const { svm } = chain.runtime;
    const results: MeasureResult[] = [];
    const cu = (name: string, sent: Pick<Landed, 'computeUnits'>, detail?: string) =>
      results.push({
        kind: 'measure',
        name: `CU ${name}`,
        value: Number(sent.computeUnits),
        unit: 'CU',
        budget: CU_BUDGET,
        detail,
      });

    const createVault = async (kind: 'community' | 'major', prefund = false) => {
      const creator = await chain.wallet();
      const dareId = crypto.getRandomValues(new Uint8Array(32));
      const vault = (await findVaultAddress(chain.programId, dareId)).address;
      if (prefund) await chain.gift(await chain.wallet(), vault, svm.minimumBalanceForRentExemption(0n));
      const input = await chain.createInput({ creator, dareId, amount: SOL, kind });
      const sent = await chain.must([await getCreateVaultInstruction(input)]);
      return { creator, vault, sent };
    };

    cu(
      'create_vault (address pre-funded)',
      (await createVault('community', true)).sent,
      'transfer + allocate + assign',
    );

    // A community dare's whole life: the platform (fee payer) pays fees and lends rent.
    const platformStart = await chain.balance(chain.platform.address);
    const feesStart = chain.feesPaidBy(chain.platform.address);
    const community = await createVault('community');
    cu('create_vault', community.sent, 'creates vault + receipt, moves the stake');
    const payer = await chain.wallet();
    const balances = async () =>
      (await chain.balance(community.creator.address)) + (await chain.balance(payer.address));
    const usersStart = (await balances()) + SOL;
    const { vault } = community;
    cu(
      'deposit (first: creates receipt)',
      await chain.must([await chain.depositInstruction(vault, payer, SOL)]),
    );
    cu(
      'deposit (adds to receipt)',
      await chain.must([await chain.depositInstruction(vault, payer, SOL, chain.platform.address)]),
    );
    const winner = await chain.wallet(0n);
    cu('enter', await chain.must([await chain.enterInstruction(vault, winner)]));
    cu('settle (community)', await chain.must([await chain.settleInstruction(vault, [winner.address])]));
    cu('close_receipt', await chain.must([await chain.closeReceiptInstruction(vault, payer.address)]));
    await chain.must([await chain.closeReceiptInstruction(vault, community.creator.address)]);
    cu(
      'close_entry (closes the vault)',
      await chain.must([await chain.closeEntryInstruction(vault, winner.address)]),
    );
    const platformFees = chain.feesPaidBy(chain.platform.address) - feesStart;
    results.push({
      kind: 'measure',
      name: 'rent not returned after a dare ends',
      value: Number(platformStart - (await chain.balance(chain.platform.address)) - platformFees),
      unit: 'lamports',
      budget: 0,
      detail: 'vault, receipts and entry all closed',
    });
    results.push({
      kind: 'measure',
      name: "users' cost beyond their stake and pool",
      value: Number(usersStart - (await balances()) - 3n * SOL),
      unit: 'lamports',
      budget: 0,
      detail: `the platform paid ${platformFees} lamports of fees`,
    });

    // A major dare, paid out 70/30.
    const major = await createVault('major');
    const [first, second] = [await chain.wallet(0n), await chain.wallet(0n)];
    for (const entrant of [first, second])
      await chain.must([await chain.enterInstruction(major.vault, entrant)]);
    cu(
      'settle (major, 70/30)',
      await chain.must([await chain.settleInstruction(major.vault, [first.address, second.address])]),
    );

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
    for (const [name, size] of [
      ['vault', VAULT_SIZE],
      ['receipt', RECEIPT_SIZE],
      ['entry', ENTRY_SIZE],
    ] as const) {
      results.push({
        kind: 'measure',
        name: `rent held by one ${name} (${size} bytes)`,
        value: rent(size),
        unit: 'lamports',
        budget: rent(size),
        detail: 'paid by the platform, returned when it closes',
      });
    }
    results.push(...(await measureProgramV2()));
    return results;
  },
};
