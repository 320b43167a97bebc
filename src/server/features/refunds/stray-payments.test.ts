import { describe, expect, it } from 'vitest';
import { type ParsedTransactionView, SYSTEM_PROGRAM } from '../../chain/verify-deposit';
import { inboundTransfers } from './stray-payments';

const ESCROW = 'Escrow1111111111111111111111111111111111111';

function view(
  instructions: ParsedTransactionView['instructions'],
  err: unknown = null,
): ParsedTransactionView {
  return { slot: 1n, err, accountKeys: [], preBalances: [], postBalances: [], instructions };
}

const transfer = (source: string, destination: string, lamports: number, type = 'transfer') => ({
  programId: SYSTEM_PROGRAM,
  parsed: { type, info: { source, destination, lamports } },
});

describe('inboundTransfers', () => {
  it('sums what each sender moved into the escrow, inner instructions and transferWithSeed included', () => {
    const tx = view([
      transfer('alice', ESCROW, 100),
      transfer('bob', ESCROW, 5),
      transfer('alice', ESCROW, 20, 'transferWithSeed'),
      transfer('alice', 'someone-else', 1_000),
    ]);
    expect(inboundTransfers(tx, ESCROW)).toEqual(
      new Map([
        ['alice', 120n],
        ['bob', 5n],
      ]),
    );
  });

  it('ignores transfers out of the escrow, other programs and failed transactions', () => {
    const memo = { programId: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', parsed: { type: 'transfer' } };
    expect(inboundTransfers(view([transfer(ESCROW, 'alice', 100), memo]), ESCROW).size).toBe(0);
    expect(
      inboundTransfers(view([transfer('alice', ESCROW, 100)], { InstructionError: [0, 'x'] }), ESCROW).size,
    ).toBe(0);
  });
});
