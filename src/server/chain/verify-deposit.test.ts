import { describe, expect, it } from 'vitest';
import {
  checkDeposit,
  type ExpectedDeposit,
  type ParsedTransactionView,
  SYSTEM_PROGRAM,
} from './verify-deposit';

const expected: ExpectedDeposit = {
  from: 'Payer1111111111111111111111111111111111111',
  escrow: 'Escrow111111111111111111111111111111111111',
  lamports: 250_000_000n,
  reference: 'Ref11111111111111111111111111111111111111',
  minSlot: 100n,
};

const transfer = (source: string, destination: string, lamports: number) => ({
  programId: SYSTEM_PROGRAM,
  parsed: { type: 'transfer', info: { source, destination, lamports } },
});

function goodTransaction(): ParsedTransactionView {
  return {
    slot: 120n,
    err: null,
    accountKeys: [
      { pubkey: expected.from, signer: true, writable: true },
      { pubkey: expected.escrow, signer: false, writable: true },
      { pubkey: SYSTEM_PROGRAM, signer: false, writable: false },
      { pubkey: expected.reference, signer: false, writable: false },
    ],
    preBalances: [1_000_000_000n, 0n, 1n, 0n],
    postBalances: [749_995_000n, 250_000_000n, 1n, 0n],
    instructions: [
      { programId: 'ComputeBudget111111111111111111111111111111', parsed: undefined },
      transfer(expected.from, expected.escrow, 250_000_000),
    ],
  };
}

describe('checkDeposit', () => {
  it('accepts one exact transfer from the signer to the escrow carrying the reference, whatever else the wallet added', () => {
    expect(checkDeposit(goodTransaction(), expected)).toBeNull();
  });

  it.each<[string, (tx: ParsedTransactionView) => void, string]>([
    ['failed on chain', (tx) => (tx.err = { InstructionError: [0, { Custom: 1 }] }), 'failed-on-chain'],
    ['older than the intent', (tx) => (tx.slot = 99n), 'too-old'],
    [
      'no transfer to the escrow',
      (tx) => (tx.instructions = [transfer(expected.from, 'Other', 250_000_000)]),
      'no-transfer',
    ],
    [
      'two transfers to the escrow',
      (tx) => tx.instructions.push(transfer(expected.from, expected.escrow, 1)),
      'several-transfers',
    ],
    [
      'another payer',
      (tx) => (tx.instructions = [transfer('Mallory', expected.escrow, 250_000_000)]),
      'wrong-payer',
    ],
    [
      'a different amount',
      (tx) => (tx.instructions = [transfer(expected.from, expected.escrow, 249_999_999)]),
      'wrong-amount',
    ],
    ['payer did not sign', (tx) => (tx.accountKeys[0]!.signer = false), 'payer-not-signer'],
    ['without the reference', (tx) => tx.accountKeys.pop(), 'missing-reference'],
    ['balance not credited', (tx) => (tx.postBalances[1] = 1n), 'escrow-not-credited'],
    [
      'also draining the escrow',
      (tx) => tx.instructions.push(transfer(expected.escrow, 'Mallory', 250_000_000)),
      'escrow-debited',
    ],
    [
      'draining the escrow through an account creation',
      (tx) =>
        tx.instructions.push({
          programId: SYSTEM_PROGRAM,
          parsed: { type: 'createAccount', info: { source: expected.escrow, newAccount: 'X', lamports: 1 } },
        }),
      'escrow-debited',
    ],
  ])('rejects a transaction %s', (_name, mutate, failure) => {
    const tx = goodTransaction();
    mutate(tx);
    expect(checkDeposit(tx, expected)).toBe(failure);
  });
});
