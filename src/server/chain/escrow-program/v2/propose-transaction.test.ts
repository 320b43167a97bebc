/**
 * A propose signed in turn by two judges' own wallets (the app passes the partly signed
 * transaction along as wire bytes), then relayed by the fee payer; and the plan that keeps
 * execute and each record close in transactions of their own.
 */
import {
  type Address,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  type Transaction,
} from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LiteSvmRuntime, startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { blockhashLifetime } from '#server/chain/escrow-program/runtimes/runtime';
import { EscrowV2Chain, type TestDareV2 } from '#test/support/chain/escrow-v2-chain';
import { ESCROW_V2_ERROR_CODE as E, ESCROW_V2_ERRORS, escrowV2ErrorName } from './errors';
import { INSTRUCTION_V2 } from './instructions';
import { planPayoutV2, planRecordClosesV2 } from './payout-plan';
import { addProposeSignatures, compileProposeTransaction, missingSignatures } from './propose-transaction';

let chain: EscrowV2Chain<LiteSvmRuntime>;
beforeAll(async () => {
  chain = await EscrowV2Chain.start(await startLiteSvmRuntime());
});

/** What travels between judges: the wire bytes, decoded again by the next one. */
const overTheWire = (transaction: Transaction): Transaction =>
  getTransactionDecoder().decode(getBase64Encoder().encode(getBase64EncodedWireTransaction(transaction)));

async function dareWithEntrant(): Promise<{ dare: TestDareV2; winner: Address }> {
  const dare = await chain.createDare();
  const entrant = await chain.wallet(1n);
  await chain.must([await chain.enterInstruction(dare.vault, entrant, new Uint8Array(32).fill(5))], entrant);
  return { dare, winner: entrant.address };
}

describe('escrow v2: a propose signed by several judges in turn', () => {
  it('collects each judge signature on the same message and is accepted once the threshold signed', async () => {
    const { dare, winner } = await dareWithEntrant();
    const [first, second] = chain.judges;
    const lifetime = await blockhashLifetime(chain.runtime);
    const unsigned = await compileProposeTransaction({
      programId: chain.programId,
      vault: dare.vault,
      winners: [winner],
      judges: [first!.address, second!.address],
      feePayer: chain.platform.address,
      lifetime,
    });
    expect(new Set(missingSignatures(unsigned))).toEqual(
      new Set([first!.address, second!.address, chain.platform.address]),
    );
    const byFirst = overTheWire(await addProposeSignatures(unsigned, [first!.keyPair]));
    expect(new Set(missingSignatures(byFirst))).toEqual(new Set([second!.address, chain.platform.address]));
    const bySecond = overTheWire(await addProposeSignatures(byFirst, [second!.keyPair]));
    const relayed = await addProposeSignatures(bySecond, [chain.platform.keyPair]);
    expect(missingSignatures(relayed)).toEqual([]);
    const result = await chain.runtime.sendTransaction(relayed);
    expect(result.ok, result.ok ? '' : result.error).toBe(true);
    expect((await chain.vault(dare.vault))!.proposal!.winners).toEqual([winner]);
  });

  it('cannot be sent while a judge has not signed, and by the program below the threshold', async () => {
    const { dare, winner } = await dareWithEntrant();
    const [first, second] = chain.judges;
    const lifetime = await blockhashLifetime(chain.runtime);
    const input = {
      programId: chain.programId,
      vault: dare.vault,
      winners: [winner],
      feePayer: chain.platform.address,
      lifetime,
    };
    const both = await compileProposeTransaction({ ...input, judges: [first!.address, second!.address] });
    const missingOne = await addProposeSignatures(both, [first!.keyPair, chain.platform.keyPair]);
    await expect(chain.runtime.sendTransaction(missingOne)).rejects.toThrow(/missing signatures/);
    const one = await compileProposeTransaction({ ...input, judges: [first!.address] });
    const result = await chain.runtime.sendTransaction(
      await addProposeSignatures(one, [first!.keyPair, chain.platform.keyPair]),
    );
    expect(result.ok ? null : result.code).toBe(E.NotEnoughJudges);
    expect((await chain.vault(dare.vault))!.status).toBe('open');
  });
});

describe('escrow v2: payout plan', () => {
  it('sends execute alone and then every record close in a transaction of its own', async () => {
    const [a, b, c, d] = chain.judges.map((j) => j.address).concat(chain.guardian.address);
    const plan = await planPayoutV2({
      programId: chain.programId,
      vault: a!,
      vaultRentPayer: b!,
      winners: [c!],
      receipts: [
        { payer: c!, rentPayer: b! },
        { payer: d!, rentPayer: b! },
      ],
      entries: [{ entrant: c!, rentPayer: c! }],
    });
    expect(plan.map((step) => step.instructions.length)).toEqual([1, 1, 1, 1]);
    expect(plan.map((step) => step.instructions[0]!.data![0])).toEqual([
      INSTRUCTION_V2.execute,
      INSTRUCTION_V2.closeReceipt,
      INSTRUCTION_V2.closeReceipt,
      INSTRUCTION_V2.closeEntry,
    ]);
    expect(plan.map((step) => step.closes?.kind ?? null)).toEqual([null, 'receipt', 'receipt', 'entry']);
    const refunds = await planRecordClosesV2({
      programId: chain.programId,
      vault: a!,
      vaultRentPayer: b!,
      receipts: [{ payer: d!, rentPayer: b! }],
      entries: [{ entrant: c!, rentPayer: c! }],
      refund: true,
    });
    expect(refunds.map((step) => step.instructions.map((i) => i.data![0]))).toEqual([
      [INSTRUCTION_V2.closeEntry],
      [INSTRUCTION_V2.refund],
    ]);
  });
});

describe('escrow v2: errors', () => {
  it("keeps version 1's codes and appends its own, each with a distinct name", () => {
    const names = Object.values(ESCROW_V2_ERRORS).map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
    expect(escrowV2ErrorName(30)).toBe('NotAnEntrant');
    expect(escrowV2ErrorName(19)).toBe('NotCanceller');
    expect(Object.keys(ESCROW_V2_ERRORS).map(Number)).toEqual(Array.from({ length: 44 }, (_, i) => i + 1));
  });
});
