import {
  AccountRole,
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  type Nonce,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import type { ProposalWinner } from '#contract/judging';
import { encodeProposeData } from '#contract/propose-layout';
import { PROPOSE_CHECK_MESSAGES as M } from './propose-check-messages';
import { checkPropose, type ProposeExpectations } from './verify-propose';

const addr = (n: number) => getAddressDecoder().decode(new Uint8Array(32).fill(n));
const PROGRAM = addr(1);
const VAULT = addr(2);
const FEE_PAYER = addr(3);
const JUDGE = addr(4);
const JUDGE_2 = addr(5);
const ALICE = addr(6);
const BOB = addr(7);
const MALLORY = addr(8);
const SYSTEM = '11111111111111111111111111111111' as Address;

function propose(input: {
  winners: Address[];
  judges?: Address[];
  program?: Address;
  vault?: Address;
  judgeRole?: AccountRole;
}): Instruction {
  return {
    programAddress: input.program ?? PROGRAM,
    accounts: [
      { address: input.vault ?? VAULT, role: AccountRole.WRITABLE },
      ...input.winners.flatMap((winner, i) => [
        { address: winner, role: AccountRole.READONLY },
        { address: addr(40 + i), role: AccountRole.READONLY },
      ]),
      ...(input.judges ?? [JUDGE]).map((judge) => ({
        address: judge,
        role: input.judgeRole ?? AccountRole.READONLY_SIGNER,
      })),
    ],
    data: encodeProposeData(input.winners.length),
  };
}

/** A transfer out of `from`: what a lying server would slip in. */
const transfer = (from: Address): Instruction => ({
  programAddress: SYSTEM,
  accounts: [
    { address: from, role: AccountRole.WRITABLE_SIGNER },
    { address: MALLORY, role: AccountRole.WRITABLE },
  ],
  data: Uint8Array.from([2, 0, 0, 0, 0, 202, 154, 59, 0, 0, 0, 0]),
});

const memo: Instruction = {
  programAddress: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address,
  data: new TextEncoder().encode('DarePool: name the winners'),
};

/** What the server puts first in every transaction it builds: a compute-unit limit (2) and price (3). */
const computeBudget = (tag: 2 | 3, accounts: Instruction['accounts'] = undefined): Instruction => ({
  programAddress: 'ComputeBudget111111111111111111111111111111' as Address,
  ...(accounts ? { accounts } : {}),
  data: Uint8Array.from([tag, 64, 13, 3, 0]),
});

function wire(instructions: Instruction[], options: { feePayer?: Address; nonceAuthority?: Address } = {}) {
  const feePayer = options.feePayer ?? FEE_PAYER;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) =>
      options.nonceAuthority
        ? setTransactionMessageLifetimeUsingDurableNonce(
            {
              nonce: addr(90) as string as Nonce,
              nonceAccountAddress: addr(91),
              nonceAuthorityAddress: options.nonceAuthority,
            },
            m,
          )
        : setTransactionMessageLifetimeUsingBlockhash(
            { blockhash: addr(92) as string as Blockhash, lastValidBlockHeight: 100n },
            m,
          ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}

const community = (picked: ProposeExpectations['picked']): ProposeExpectations => ({
  programId: PROGRAM,
  vault: VAULT,
  isMajor: false,
  judges: [JUDGE, JUDGE_2],
  picked,
});
const major = (picked: ProposeExpectations['picked']): ProposeExpectations => ({
  ...community(picked),
  isMajor: true,
});
const pickAlice = [{ wallet: ALICE, name: 'alice' }];
const pickPair = [
  { wallet: ALICE, name: 'alice' },
  { wallet: BOB, name: 'bob' },
];
const claimedAlice: ProposalWinner[] = [{ submissionId: 1, walletAddress: ALICE, amount: '0.35' }];
const claimedPair: ProposalWinner[] = [
  { submissionId: 1, walletAddress: ALICE, amount: '0.700000001' },
  { submissionId: 2, walletAddress: BOB, amount: '0.3' },
];

describe('checkPropose: the honest proposals pass, decoded from the transaction', () => {
  it("a community dare's one winner, paid the whole pot", () => {
    const check = checkPropose(wire([propose({ winners: [ALICE] })]), claimedAlice, community(pickAlice));
    expect(check).toEqual({
      ok: true,
      propose: {
        winners: [{ walletAddress: ALICE, lamports: 350_000_000n, percent: 100 }],
        judgeSlots: [JUDGE],
      },
    });
  });

  it("a Major Dare's pair by two judges, on a durable nonce with a compute budget and a memo: 70/30, the odd lamport first", () => {
    const transaction = wire(
      [
        computeBudget(2),
        computeBudget(3),
        memo,
        propose({ winners: [ALICE, BOB], judges: [JUDGE, JUDGE_2] }),
      ],
      { nonceAuthority: FEE_PAYER },
    );
    expect(checkPropose(transaction, claimedPair, major(pickPair))).toEqual({
      ok: true,
      propose: {
        winners: [
          { walletAddress: ALICE, lamports: 700_000_001n, percent: 70 },
          { walletAddress: BOB, lamports: 300_000_000n, percent: 30 },
        ],
        judgeSlots: [JUDGE, JUDGE_2],
      },
    });
  });

  it('a co-signer (nothing picked here) reads the winners the transaction names', () => {
    const transaction = wire([propose({ winners: [ALICE, BOB] })]);
    const check = checkPropose(transaction, claimedPair, major(null));
    expect(check.ok && check.propose.winners.map((w) => w.walletAddress)).toEqual([ALICE, BOB]);
  });
});

describe('checkPropose: a tampered proposal is refused, saying what differs', () => {
  const refused = (transaction: string, claimed: ProposalWinner[], expected: ProposeExpectations) => {
    const check = checkPropose(transaction, claimed, expected);
    return check.ok ? 'passed' : check.reason;
  };

  it("another winner's wallet, even when the server's description agrees with it", () => {
    const transaction = wire([propose({ winners: [MALLORY] })]);
    const claimed = [{ ...claimedAlice[0]!, walletAddress: MALLORY }];
    expect(refused(transaction, claimed, community(pickAlice))).toBe(
      M.wrongWinner(100, MALLORY, `alice (${ALICE})`),
    );
  });

  it('the shares swapped: the 30% winner first', () => {
    const transaction = wire([propose({ winners: [BOB, ALICE] })]);
    const claimed = [claimedPair[1]!, claimedPair[0]!];
    expect(refused(transaction, claimed, major(pickPair))).toBe(M.wrongWinner(70, BOB, `alice (${ALICE})`));
    // A co-signer has no picks, but the order against the server's own words still counts.
    expect(refused(transaction, claimedPair, major(null))).toBe(M.misdescribed);
  });

  it('amounts that do not follow the rules, or a description of other winners', () => {
    const transaction = wire([propose({ winners: [ALICE, BOB] })]);
    const even = claimedPair.map((winner) => ({ ...winner, amount: '0.5' }));
    expect(refused(transaction, even, major(pickPair))).toBe(M.misdescribed);
    expect(refused(transaction, claimedPair.slice(0, 1), major(pickPair))).toBe(M.misdescribed);
  });

  it('an added instruction: a transfer out of the judge, or of anyone', () => {
    expect(
      refused(wire([propose({ winners: [ALICE] }), transfer(JUDGE)]), claimedAlice, community(pickAlice)),
    ).toBe(M.extraInstruction(SYSTEM));
    expect(
      refused(wire([transfer(FEE_PAYER), propose({ winners: [ALICE] })]), claimedAlice, community(pickAlice)),
    ).toBe(M.extraInstruction(SYSTEM));
    // A memo naming accounts is not a plain memo.
    const loudMemo = { ...memo, accounts: [{ address: JUDGE, role: AccountRole.READONLY_SIGNER }] };
    expect(refused(wire([loudMemo, propose({ winners: [ALICE] })]), claimedAlice, community(pickAlice))).toBe(
      M.extraInstruction(memo.programAddress),
    );
    // Nor is a compute-budget instruction that names an account.
    const loudBudget = computeBudget(3, [{ address: JUDGE, role: AccountRole.WRITABLE }]);
    expect(
      refused(wire([loudBudget, propose({ winners: [ALICE] })]), claimedAlice, community(pickAlice)),
    ).toBe(M.extraInstruction(loudBudget.programAddress));
  });

  it('another program, or another vault', () => {
    expect(
      refused(wire([propose({ winners: [ALICE], program: MALLORY })]), claimedAlice, community(pickAlice)),
    ).toBe(M.noProposal(MALLORY, PROGRAM));
    expect(
      refused(wire([propose({ winners: [ALICE], vault: MALLORY })]), claimedAlice, community(pickAlice)),
    ).toBe(M.wrongVault(MALLORY, VAULT));
  });

  it("a judge's wallet asked for more than a judge's signature, or someone who does not judge", () => {
    expect(
      refused(wire([propose({ winners: [ALICE] })], { feePayer: JUDGE }), claimedAlice, community(pickAlice)),
    ).toBe(M.feePayerIsJudge);
    expect(
      refused(
        wire([propose({ winners: [ALICE], judgeRole: AccountRole.WRITABLE_SIGNER })]),
        claimedAlice,
        community(pickAlice),
      ),
    ).toBe(M.judgeWritable(JUDGE));
    expect(
      refused(wire([propose({ winners: [ALICE], judges: [MALLORY] })]), claimedAlice, community(pickAlice)),
    ).toBe(M.notAJudge(MALLORY));
    expect(
      refused(
        wire([propose({ winners: [ALICE] })], { nonceAuthority: JUDGE }),
        claimedAlice,
        community(pickAlice),
      ),
    ).toBe(M.misplacedNonce);
  });

  it('the wrong number of winners, a winner the page cannot place, or bytes that are no transaction', () => {
    expect(refused(wire([propose({ winners: [ALICE, BOB] })]), claimedPair, community(pickAlice))).toBe(
      M.winnerCount(2, 1),
    );
    expect(
      refused(wire([propose({ winners: [ALICE] })]), claimedAlice, community([{ wallet: null, name: 'x' }])),
    ).toBe(M.unknownWinner);
    expect(refused('AQID', claimedAlice, community(pickAlice))).toBe(M.unreadable);
  });
});
