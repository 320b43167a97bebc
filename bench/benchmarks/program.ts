import {
  getCancelInstruction,
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
  getRefundInstruction,
} from '#server/chain/escrow-program/instructions';
import { ENTRY_SIZE, RECEIPT_SIZE, VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { EscrowTestChain, SOL } from '#test/support/chain/escrow-v1-chain';
import {
  getCreateVaultInstruction,
  getDepositInstruction,
  getEnterInstruction,
  getSettleInstruction,
} from '#test/support/chain/v1-vaults';
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
    const chain = await EscrowTestChain.start();
    const results: MeasureResult[] = [];
    const cu = (name: string, value: bigint, detail?: string) =>
      results.push({
        kind: 'measure',
        name: `CU ${name}`,
        value: Number(value),
        unit: 'CU',
        budget: CU_BUDGET,
        detail,
      });
    const ids = { programId: chain.programId };

    const createVault = async (kind: 'community' | 'major', prefund = false) => {
      const creator = await chain.wallet();
      const dareId = crypto.getRandomValues(new Uint8Array(32));
      const vault = (await findVaultAddress(chain.programId, dareId)).address;
      if (prefund)
        await chain.gift(await chain.wallet(), vault, chain.svm.minimumBalanceForRentExemption(0n));
      const units = await chain.must([
        await getCreateVaultInstruction({
          ...ids,
          creator,
          rentPayer: chain.platform,
          dareId,
          moderator: chain.moderator.address,
          deadline: chain.now() + 3600n,
          refundAfter: chain.now() + 7200n,
          amount: SOL,
          kind,
        }),
      ]);
      return { creator, vault, units };
    };
    const common = (vault: string) => ({
      ...ids,
      vault: vault as never,
      vaultRentPayer: chain.platform.address,
    });

    cu(
      'create_vault (address pre-funded)',
      (await createVault('community', true)).units,
      'transfer + allocate + assign',
    );

    // A community dare's whole life: the platform (fee payer) pays fees and lends rent.
    const platformStart = chain.balance(chain.platform.address);
    const feesStart = chain.feesPaidBy(chain.platform.address);
    const community = await createVault('community');
    cu('create_vault', community.units, 'creates vault + receipt, moves the stake');
    const payer = await chain.wallet();
    const usersStart = chain.balance(community.creator.address) + SOL + chain.balance(payer.address);
    cu(
      'deposit (first: creates receipt)',
      await chain.must([
        await getDepositInstruction({
          ...common(community.vault),
          payer,
          rentPayer: chain.platform,
          amount: SOL,
        }),
      ]),
    );
    cu(
      'deposit (adds to receipt)',
      await chain.must([
        await getDepositInstruction({
          ...common(community.vault),
          payer,
          rentPayer: chain.platform.address,
          amount: SOL,
        }),
      ]),
    );
    const winner = await chain.wallet(0n);
    cu(
      'enter',
      await chain.must([
        await getEnterInstruction({ ...common(community.vault), entrant: winner, rentPayer: chain.platform }),
      ]),
    );
    cu(
      'settle (community)',
      await chain.must([
        await getSettleInstruction({
          ...common(community.vault),
          moderator: chain.moderator,
          winners: [winner.address],
        }),
      ]),
    );
    cu(
      'close_receipt',
      await chain.must([
        await getCloseReceiptInstruction({
          ...common(community.vault),
          payer: payer.address,
          receiptRentPayer: chain.platform.address,
        }),
      ]),
    );
    await chain.must([
      await getCloseReceiptInstruction({
        ...common(community.vault),
        payer: community.creator.address,
        receiptRentPayer: chain.platform.address,
      }),
    ]);
    cu(
      'close_entry (closes the vault)',
      await chain.must([
        await getCloseEntryInstruction({
          ...common(community.vault),
          entrant: winner.address,
          entryRentPayer: chain.platform.address,
        }),
      ]),
    );
    const platformFees = chain.feesPaidBy(chain.platform.address) - feesStart;
    results.push({
      kind: 'measure',
      name: 'rent not returned after a dare ends',
      value: Number(platformStart - chain.balance(chain.platform.address) - platformFees),
      unit: 'lamports',
      budget: 0,
      detail: 'vault, receipts and entry all closed',
    });
    results.push({
      kind: 'measure',
      name: "users' cost beyond their stake and pool",
      value: Number(
        usersStart - chain.balance(community.creator.address) - chain.balance(payer.address) - 3n * SOL,
      ),
      unit: 'lamports',
      budget: 0,
      detail: `the platform paid ${platformFees} lamports of fees`,
    });

    // A major dare, paid out 70/30.
    const major = await createVault('major');
    const [first, second] = [await chain.wallet(0n), await chain.wallet(0n)];
    for (const entrant of [first, second])
      await chain.must([
        await getEnterInstruction({ ...common(major.vault), entrant, rentPayer: chain.platform }),
      ]);
    cu(
      'settle (major, 70/30)',
      await chain.must([
        await getSettleInstruction({
          ...common(major.vault),
          moderator: chain.moderator,
          winners: [first.address, second.address],
        }),
      ]),
    );

    // A cancelled dare, refunded by anyone.
    const cancelled = await createVault('community');
    const other = await chain.wallet();
    await chain.must([
      await getDepositInstruction({
        ...common(cancelled.vault),
        payer: other,
        rentPayer: chain.platform,
        amount: SOL,
      }),
    ]);
    cu(
      'cancel',
      await chain.must([getCancelInstruction({ ...common(cancelled.vault), moderator: chain.moderator })]),
    );
    const refund = (p: string) =>
      getRefundInstruction({
        ...common(cancelled.vault),
        payer: p as never,
        receiptRentPayer: chain.platform.address,
      });
    cu('refund', await chain.must([await refund(other.address)], await chain.wallet(1n)));
    cu(
      'refund (last: closes the vault)',
      await chain.must([await refund(cancelled.creator.address)], await chain.wallet(1n)),
    );

    const rent = (size: number) => Number(chain.svm.minimumBalanceForRentExemption(BigInt(size)));
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
