import { generateKeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { getDepositInstruction, getSettleInstruction } from '#test/support/chain/v1-vaults';
import { createInstructionDecoder, ESCROW_V1_INSTRUCTIONS, escrowProgramDecoder } from './decode';
import { INSTRUCTION } from './instructions';
import {
  getCreateVaultV2Instruction,
  getExecuteInstruction,
  getProposeInstruction,
  getVetoInstruction,
} from './v2/instructions';

const PROGRAM: string = (await generateKeyPairSigner()).address;

describe('the instruction decoder', () => {
  it('names every v1 instruction', () => {
    expect([...ESCROW_V1_INSTRUCTIONS.values()].map((spec) => spec.name)).toEqual([
      'create vault',
      'deposit',
      'enter',
      'settle',
      'cancel',
      'refund',
      'close entry',
      'close receipt',
    ]);
  });

  it("reads a deposit's accounts by role and its amount from the data the builder wrote", async () => {
    const payer = await generateKeyPairSigner();
    const rentPayer = await generateKeyPairSigner();
    const vault = (await generateKeyPairSigner()).address;
    const ix = await getDepositInstruction({
      programId: PROGRAM as never,
      vault,
      payer,
      rentPayer,
      amount: 50_000_000n,
    });
    const decoded = escrowProgramDecoder(PROGRAM)(
      PROGRAM,
      ix.accounts!.map((a) => a.address),
      new Uint8Array(ix.data!),
    );
    expect(decoded).toMatchObject({
      program: 'DarePool escrow',
      name: 'deposit',
      accounts: { payer: payer.address, rentPayer: rentPayer.address, vault },
      data: { amount: 50_000_000n },
    });
  });

  it("numbers settle's winners and leaves other programs, unknown tags and short data alone", async () => {
    const moderator = await generateKeyPairSigner();
    const vault = (await generateKeyPairSigner()).address;
    const [w1, w2] = [(await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address];
    const ix = await getSettleInstruction({
      programId: PROGRAM as never,
      vault,
      moderator,
      winners: [w1, w2],
    });
    const decode = escrowProgramDecoder(PROGRAM);
    const decoded = decode(
      PROGRAM,
      ix.accounts!.map((a) => a.address),
      new Uint8Array(ix.data!),
    );
    expect(decoded?.name).toBe('settle');
    expect(decoded?.accounts).toMatchObject({
      moderator: moderator.address,
      vault,
      winner1: w1,
      winner2: w2,
    });
    expect(decode('11111111111111111111111111111111', [], new Uint8Array([INSTRUCTION.deposit]))).toBeNull();
    expect(decode(PROGRAM, [], new Uint8Array([99]))).toBeNull();
    expect(decode(PROGRAM, [], new Uint8Array([INSTRUCTION.deposit, 1, 2]))).toBeNull();
  });

  it('takes a later version by adding rows: a v2 tag decodes by name beside v1', () => {
    const v2 = new Map(ESCROW_V1_INSTRUCTIONS).set(8, { name: 'propose', accounts: ['judge', 'vault'] });
    const decode = createInstructionDecoder([
      { programId: PROGRAM, program: 'DarePool escrow v2', instructions: v2 },
    ]);
    expect(decode(PROGRAM, ['J', 'V'], new Uint8Array([8]))).toMatchObject({
      name: 'propose',
      accounts: { judge: 'J', vault: 'V' },
    });
  });

  it('reads v2 by name from what its builders write: create vault, propose, veto, execute', async () => {
    const V2: string = (await generateKeyPairSigner()).address;
    const decode = escrowProgramDecoder(PROGRAM, V2);
    const creator = await generateKeyPairSigner();
    const [judge, guardian, canceller, w1, w2] = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => (await generateKeyPairSigner()).address),
    );
    const named = (ix: { accounts?: readonly { address: string }[]; data?: ArrayLike<number> }) =>
      decode(
        V2,
        ix.accounts!.map((a) => a.address),
        new Uint8Array(Array.from(ix.data!)),
      );
    const create = await getCreateVaultV2Instruction({
      programId: V2 as never,
      creator,
      rentPayer: creator,
      dareId: new Uint8Array(32).fill(1),
      amount: 70_000_000n,
      kind: 'major',
      deadline: 2_000n,
      refundAfter: 3_000n,
      judges: [judge!],
      threshold: 1,
      guardian: guardian!,
      canceller: canceller!,
      payoutWindow: 3_600n,
    });
    expect(named(create)).toMatchObject({
      name: 'create vault',
      accounts: { payer: creator.address },
      data: { amount: 70_000_000n, kind: 'major' },
    });
    const vault = create.accounts![2]!.address;
    const propose = await getProposeInstruction({
      programId: V2 as never,
      vault,
      winners: [w1!, w2!],
      judges: [judge!],
    });
    expect(named(propose)).toMatchObject({
      name: 'propose',
      accounts: { vault, winner1: w1, winner2: w2, judge1: judge },
    });
    expect(named(getVetoInstruction({ programId: V2 as never, vault, guardian: guardian! }))).toMatchObject({
      name: 'veto',
      accounts: { guardian, vault },
    });
    expect(
      named(getExecuteInstruction({ programId: V2 as never, vault, winners: [w1!, w2!] })),
    ).toMatchObject({
      name: 'execute',
      accounts: { vault, winner1: w1, winner2: w2 },
    });
    // v1's tags under v2's id mean v2's instructions: tag 3 (v1's settle) is nothing in v2.
    expect(decode(V2, [], new Uint8Array([INSTRUCTION.settle]))).toBeNull();
  });
});
