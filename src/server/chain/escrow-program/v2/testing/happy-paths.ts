/**
 * Escrow v2's happy paths and its freezing case, written against a ProgramRuntime so that every
 * runtime that implements it runs the same checks with the same lamport results: LiteSVM in
 * escrow-v2-program.test.ts, and a second runtime (solana-bankrun) where one is plugged in.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEntryAddress, findReceiptAddress } from '../../pda';
import { readEscrowProgram } from '../../program';
import { ESCROW_V2_ERROR_CODE as E } from '../errors';
import {
  getCancelV2Instruction,
  getDepositV2Instruction,
  getEnterV2Instruction,
  getExecuteInstruction,
  getProposeInstruction,
  getRefundV2Instruction,
  getVetoInstruction,
} from '../instructions';
import { type PlannedTransaction, planRecordClosesV2 } from '../payout-plan';
import { DAY, EscrowV2Chain, SOL, type TestDareV2 } from './chain';
import { deployPrograms, type ProgramRuntime } from './runtime';

/** What the freezing case saw on this runtime: a close refused because its rent payer is executable, or paid to it. */
export type UnpayableCloseOutcome = 'refused' | 'credited';

export function escrowV2HappyPaths(
  runtimeName: string,
  makeRuntime: () => Promise<ProgramRuntime>,
  options: { onUnpayableClose?: (outcome: UnpayableCloseOutcome) => void } = {},
): void {
  let chain: EscrowV2Chain;
  let stranger: KeyPairSigner;

  beforeAll(async () => {
    chain = await EscrowV2Chain.start(await makeRuntime());
    stranger = await chain.wallet(100n);
  }, 60_000);

  const proofOf = (label: string) => new Uint8Array(32).fill(label.charCodeAt(0));

  async function deposit(dare: TestDareV2, payer: KeyPairSigner, amount: bigint) {
    await chain.must([
      await getDepositV2Instruction({
        programId: chain.programId,
        vault: dare.vault,
        payer,
        rentPayer: chain.platform,
        amount,
      }),
    ]);
  }

  /** The entrant signs, pays the fee and the entry's rent. */
  async function enter(dare: TestDareV2, entrant: KeyPairSigner, proof = proofOf('p')) {
    await chain.must(
      [
        await getEnterV2Instruction({
          programId: chain.programId,
          vault: dare.vault,
          entrant,
          proofHash: proof,
        }),
      ],
      entrant,
    );
  }

  async function propose(dare: TestDareV2, winners: Address[], judges = chain.judges.slice(0, 2)) {
    await chain.must([
      await getProposeInstruction({ programId: chain.programId, vault: dare.vault, winners, judges }),
    ]);
  }

  const entryOf = async (dare: TestDareV2, entrant: Address) =>
    (await findEntryAddress(chain.programId, dare.vault, entrant)).address;
  const receiptOf = async (dare: TestDareV2, payer: Address) =>
    (await findReceiptAddress(chain.programId, dare.vault, payer)).address;

  /** Sends each planned transaction on its own, by the stranger; returns the results in order. */
  async function sendEach(plan: PlannedTransaction[]) {
    const results = [];
    for (const step of plan) results.push(await chain.send(step.instructions, stranger));
    return results;
  }

  async function closes(dare: TestDareV2, payers: Address[], entrants: Address[], refund: boolean) {
    return planRecordClosesV2({
      programId: chain.programId,
      vault: dare.vault,
      vaultRentPayer: chain.platform.address,
      receipts: payers.map((payer) => ({ payer, rentPayer: chain.platform.address })),
      entries: entrants.map((entrant) => ({ entrant, rentPayer: entrant })),
      refund,
    });
  }

  describe(`escrow v2 on ${runtimeName}: payouts`, () => {
    it('pays a community winner named by 2 of 3 judges after the window; every record closes to its rent payer', async () => {
      const platformStart = await chain.balance(chain.platform.address);
      const platformFeesStart = chain.feesPaidBy(chain.platform.address);
      const dare = await chain.createDare();
      const payer = await chain.wallet();
      const [winner, loser] = [await chain.wallet(1n), await chain.wallet(1n)];
      await deposit(dare, payer, SOL);
      await enter(dare, winner, proofOf('w'));
      await enter(dare, loser, proofOf('l'));
      const winnerEntry = (await chain.entry(await entryOf(dare, winner.address)))!;
      expect(winnerEntry).toMatchObject({
        entrant: winner.address,
        rentPayer: winner.address,
        vault: dare.vault,
      });
      expect([...winnerEntry.proofHash]).toEqual([...proofOf('w')]);
      const entryRent = winnerEntry.rent;
      const vaultBefore = (await chain.vault(dare.vault))!;
      expect(vaultBefore).toMatchObject({
        status: 'open',
        judges: chain.judges.map((j) => j.address),
        threshold: 2,
        guardian: chain.guardian.address,
        canceller: chain.canceller.address,
        payoutWindow: DAY,
        proposal: null,
        entryCount: 2,
        receiptCount: 2,
        total: dare.stake + SOL,
      });

      const proposedAt = await chain.now();
      await propose(dare, [winner.address]);
      expect((await chain.vault(dare.vault))!.proposal).toEqual({
        winners: [winner.address],
        executesAt: proposedAt + DAY,
      });
      const winnerBefore = await chain.balance(winner.address);
      await chain.setTime(proposedAt + DAY);
      await chain.must(
        [getExecuteInstruction({ programId: chain.programId, vault: dare.vault, winners: [winner.address] })],
        stranger,
      );
      expect(await chain.balance(winner.address)).toBe(winnerBefore + dare.stake + SOL);
      expect((await chain.vault(dare.vault))!.status).toBe('settled');

      const loserBefore = await chain.balance(loser.address);
      const plan = await closes(
        dare,
        [dare.creator.address, payer.address],
        [winner.address, loser.address],
        false,
      );
      expect(plan).toHaveLength(4);
      for (const result of await sendEach(plan)) expect(result.ok).toBe(true);
      expect(await chain.balance(winner.address)).toBe(winnerBefore + dare.stake + SOL + entryRent);
      expect(await chain.balance(loser.address)).toBe(loserBefore + entryRent);
      for (const address of [
        dare.vault,
        await receiptOf(dare, payer.address),
        await receiptOf(dare, dare.creator.address),
        await entryOf(dare, winner.address),
        await entryOf(dare, loser.address),
      ])
        expect(await chain.data(address)).toBeNull();
      // The platform lent the vault's and receipts' rent and got all of it back: it paid fees only.
      expect(await chain.balance(chain.platform.address)).toBe(
        platformStart - (chain.feesPaidBy(chain.platform.address) - platformFeesStart),
      );
    });

    it('pays a major dare 70/30 with the odd lamport to the first share, and a wallet named for both shares gets everything', async () => {
      for (const same of [false, true]) {
        const dare = await chain.createDare({ kind: 'major', stake: SOL / 10n + 7n });
        await deposit(dare, await chain.wallet(), SOL + 6n);
        const first = await chain.wallet(1n);
        const second = same ? first : await chain.wallet(1n);
        await enter(dare, first);
        if (!same) await enter(dare, second);
        const proposedAt = await chain.now();
        await propose(dare, [first.address, second.address], chain.judges);
        const before = [await chain.balance(first.address), await chain.balance(second.address)];
        await chain.setTime(proposedAt + DAY);
        await chain.must(
          [
            getExecuteInstruction({
              programId: chain.programId,
              vault: dare.vault,
              winners: [first.address, second.address],
            }),
          ],
          stranger,
        );
        const pot = dare.stake + SOL + 6n; // 1.100000013 SOL
        const secondShare = (pot / 100n) * 30n + ((pot % 100n) * 30n) / 100n;
        if (same) expect(await chain.balance(first.address)).toBe(before[0]! + pot);
        else {
          expect(await chain.balance(first.address)).toBe(before[0]! + pot - secondShare);
          expect(await chain.balance(second.address)).toBe(before[1]! + secondShare);
        }
        await chain.setTime((await chain.now()) + 1n);
      }
    });

    it('reopens the vault on a veto; the judges propose again and the new winner is paid', async () => {
      const dare = await chain.createDare();
      const [vetoed, paid] = [await chain.wallet(1n), await chain.wallet(1n)];
      await enter(dare, vetoed);
      await enter(dare, paid);
      await propose(dare, [vetoed.address]);
      await chain.setTime((await chain.now()) + DAY - 1n);
      await chain.must([
        getVetoInstruction({ programId: chain.programId, vault: dare.vault, guardian: chain.guardian }),
      ]);
      expect(await chain.vault(dare.vault)).toMatchObject({ status: 'open', proposal: null, vetoCount: 1 });
      // Open under its old rules: deposits are accepted again before the deadline.
      const late = await chain.wallet();
      await deposit(dare, late, SOL);
      const proposedAt = await chain.now();
      await propose(dare, [paid.address], [chain.judges[2]!, chain.judges[0]!]);
      await chain.setTime(proposedAt + DAY);
      const before = await chain.balance(paid.address);
      await chain.must(
        [getExecuteInstruction({ programId: chain.programId, vault: dare.vault, winners: [paid.address] })],
        stranger,
      );
      expect(await chain.balance(paid.address)).toBe(before + dare.stake + SOL);
    });

    it('executes a proposal whose window passed even after refund_after, and refuses refunds while it stands', async () => {
      const dare = await chain.createDare();
      const winner = await chain.wallet(1n);
      await enter(dare, winner);
      // The latest proposal possible: its window ends exactly at refund_after.
      await chain.setTime(dare.refundAfter - DAY);
      await propose(dare, [winner.address]);
      await chain.setTime(dare.refundAfter + DAY);
      const refund = await getRefundV2Instruction({
        programId: chain.programId,
        vault: dare.vault,
        payer: dare.creator.address,
        receiptRentPayer: chain.platform.address,
        vaultRentPayer: chain.platform.address,
      });
      const refused = await chain.send([refund], stranger);
      expect(refused.ok ? null : refused.code).toBe(E.ProposalPending);
      const before = await chain.balance(winner.address);
      await chain.must(
        [getExecuteInstruction({ programId: chain.programId, vault: dare.vault, winners: [winner.address] })],
        stranger,
      );
      expect(await chain.balance(winner.address)).toBe(before + dare.stake);
    });
  });

  describe(`escrow v2 on ${runtimeName}: refunds`, () => {
    it('refunds every payer exactly after a cancel, and every entrant gets its rent back', async () => {
      const dare = await chain.createDare();
      const payer = await chain.wallet();
      const entrant = await chain.wallet(1n);
      await deposit(dare, payer, 2n * SOL + 3n);
      await enter(dare, entrant);
      const entryRent = (await chain.entry(await entryOf(dare, entrant.address)))!.rent;
      await chain.must([
        getCancelV2Instruction({ programId: chain.programId, vault: dare.vault, canceller: chain.canceller }),
      ]);
      const before = await Promise.all([dare.creator, payer, entrant].map((w) => chain.balance(w.address)));
      for (const result of await sendEach(
        await closes(dare, [dare.creator.address, payer.address], [entrant.address], true),
      ))
        expect(result.ok).toBe(true);
      expect(await chain.balance(dare.creator.address)).toBe(before[0]! + dare.stake);
      expect(await chain.balance(payer.address)).toBe(before[1]! + 2n * SOL + 3n);
      expect(await chain.balance(entrant.address)).toBe(before[2]! + entryRent);
      expect(await chain.data(dare.vault)).toBeNull();
    });

    it('lets anyone refund each payer once refund_after has passed with no proposal', async () => {
      const dare = await chain.createDare();
      const payer = await chain.wallet();
      await deposit(dare, payer, SOL);
      await chain.setTime(dare.refundAfter);
      const before = await chain.balance(payer.address);
      for (const result of await sendEach(
        await closes(dare, [payer.address, dare.creator.address], [], true),
      ))
        expect(result.ok).toBe(true);
      expect(await chain.balance(payer.address)).toBe(before + SOL);
      expect(await chain.data(dare.vault)).toBeNull();
    });
  });

  describe(`escrow v2 on ${runtimeName}: a record whose rent payer cannot be paid`, () => {
    it('holds up only its own close: execute and every other close succeed', async () => {
      const dare = await chain.createDare();
      const payer = await chain.wallet();
      const [winner, frozen] = [await chain.wallet(1n), await chain.wallet(1n)];
      await deposit(dare, payer, SOL);
      await enter(dare, winner);
      await enter(dare, frozen);
      const frozenEntry = await entryOf(dare, frozen.address);
      const entryRent = (await chain.entry(frozenEntry))!.rent;
      // The entrant empties its wallet and deploys a program at its own address: now executable.
      await chain.must(
        [
          getTransferSolInstruction({
            source: frozen,
            destination: stranger.address,
            amount: await chain.balance(frozen.address),
          }),
        ],
        chain.platform,
      );
      await deployPrograms(chain.runtime, [{ bytes: readEscrowProgram(), program: frozen }], {
        invoked: false,
      });
      expect((await chain.runtime.getAccount(frozen.address))!.executable).toBe(true);

      const proposedAt = await chain.now();
      await propose(dare, [winner.address]);
      await chain.setTime(proposedAt + DAY);
      const winnerBefore = await chain.balance(winner.address);
      await chain.must(
        [getExecuteInstruction({ programId: chain.programId, vault: dare.vault, winners: [winner.address] })],
        stranger,
      );
      expect(await chain.balance(winner.address)).toBe(winnerBefore + dare.stake + SOL);

      const plan = await closes(
        dare,
        [dare.creator.address, payer.address],
        [frozen.address, winner.address],
        false,
      );
      const frozenBefore = await chain.balance(frozen.address);
      const results = await sendEach(plan);
      const frozenIndex = plan.findIndex((step) => step.closes?.owner === frozen.address);
      results.forEach((result, index) => {
        if (index !== frozenIndex) expect(result.ok, `close ${index}`).toBe(true);
      });
      const platformRecords = [
        await receiptOf(dare, payer.address),
        await receiptOf(dare, dare.creator.address),
      ];
      for (const address of [...platformRecords, await entryOf(dare, winner.address)])
        expect(await chain.data(address)).toBeNull();
      const outcome: UnpayableCloseOutcome = results[frozenIndex]!.ok ? 'credited' : 'refused';
      options.onUnpayableClose?.(outcome);
      if (outcome === 'refused') {
        // Nothing moved: the entry and the vault (kept alive by it, holding only its rent) wait.
        expect((await chain.entry(frozenEntry))!.rent).toBe(entryRent);
        const vault = (await chain.vault(dare.vault))!;
        expect(vault).toMatchObject({ status: 'settled', entryCount: 1, receiptCount: 0 });
        expect(await chain.balance(dare.vault)).toBe(vault.rent);
        expect(await chain.balance(frozen.address)).toBe(frozenBefore);
      } else {
        expect(await chain.data(frozenEntry)).toBeNull();
        expect(await chain.balance(frozen.address)).toBe(frozenBefore + entryRent);
        expect(await chain.data(dare.vault)).toBeNull();
      }
    });
  });
}
