import { type Address, generateKeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Owned } from './accounts';
import type { AnyVault } from './any-program';
import { differingFromAll, differingTerm, type OurVaultTerms } from './our-vault';

const key = async () => (await generateKeyPairSigner()).address;

let ours: OurVaultTerms;
let vault: Owned<AnyVault>;

beforeAll(async () => {
  const [program, canceller, judgeA, judgeB, guardian, rentPayer, at] = await Promise.all(
    Array.from({ length: 7 }, key),
  );
  ours = {
    programId: program!,
    canceller: canceller!,
    judges: [judgeA!, judgeB!],
    threshold: 1,
    guardian: guardian!,
    payoutWindow: 86_400n,
    kind: 'community',
    deadline: 1_900_000_000n,
    refundAfter: 1_900_604_800n,
  };
  vault = {
    address: at!,
    programId: program!,
    lamports: 10n,
    version: 2,
    bump: 255,
    kind: 'community',
    status: 'open',
    receiptCount: 1,
    dareId: new Uint8Array(32),
    moderator: canceller!,
    rentPayer: rentPayer!,
    deadline: 1_900_000_000n,
    refundAfter: 1_900_604_800n,
    total: 10n,
    rent: 0n,
    entryCount: 0,
    judging: {
      judges: [judgeA!, judgeB!],
      threshold: 1,
      guardian: guardian!,
      payoutWindow: 86_400n,
      proposal: null,
      vetoCount: 0,
    },
  } as Owned<AnyVault>;
});

const withJudging = (judging: Partial<NonNullable<AnyVault['judging']>>) =>
  ({ ...vault, judging: { ...vault.judging!, ...judging } }) as Owned<AnyVault>;

describe('differingTerm: the one definition of our vault', () => {
  it('takes a vault whose every term is ours, the judges in any order', () => {
    expect(differingTerm(vault, ours)).toBeNull();
    expect(differingTerm(withJudging({ judges: [...vault.judging!.judges].reverse() }), ours)).toBeNull();
  });

  it('names the first term that differs', async () => {
    const stranger = await key();
    const cases: [string, Owned<AnyVault>][] = [
      ['program', { ...vault, programId: stranger }],
      ['program', { ...vault, version: 1, judging: null }],
      ['canceller', { ...vault, moderator: stranger }],
      ['judges', withJudging({ judges: [vault.judging!.judges[0]!, stranger] })],
      ['judges', withJudging({ judges: [vault.judging!.judges[0]!] })],
      ['judges', withJudging({ judges: [vault.judging!.judges[0]!, vault.judging!.judges[0]!] })],
      ['threshold', withJudging({ threshold: 2 })],
      ['guardian', withJudging({ guardian: stranger })],
      ['payoutWindow', withJudging({ payoutWindow: 3_600n })],
      ['kind', { ...vault, kind: 'major' }],
      ['deadline', { ...vault, deadline: vault.deadline + 1n }],
      ['refundAfter', { ...vault, refundAfter: vault.refundAfter + 1n }],
    ];
    for (const [term, other] of cases) expect(differingTerm(other, ours), term).toBe(term);
  });

  it('matches any of several candidates (creates built for one reservation), none: foreign', () => {
    const other: OurVaultTerms = {
      ...ours,
      deadline: ours.deadline + 60n,
      refundAfter: ours.refundAfter + 60n,
    };
    expect(differingFromAll(vault, [other, ours])).toBeNull();
    expect(differingFromAll(vault, [other])).toBe('deadline');
    expect(differingFromAll(vault, [])).toBe('deadline');
    expect(differingFromAll({ ...vault, moderator: 'x' as Address }, [other, ours])).toBe('canceller');
  });
});
