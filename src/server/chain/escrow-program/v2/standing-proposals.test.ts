/**
 * The guardian's reading of the chain, piece by piece: shares as execute pays them, which dare a
 * vault is for (the create's memo, never a stranger's earlier mention), and how times and memos
 * are shown. The whole script runs against a localnet in test/guardian-script.test.ts.
 */
import { type Address, generateKeyPairSigner, getBase58Decoder, type Signature } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { MEMO_PROGRAM } from '#server/chain/memo';
import { printableMemo, timeUntil, utcMinute } from './proposal-text';
import { dareIdOfMemo, findVaultCreation, payoutSharesV2 } from './standing-proposals';

describe('payoutSharesV2', () => {
  it('pays a community pot whole and a major one 70/30, the odd lamport to the first share', () => {
    expect(payoutSharesV2('community', 351_000_000n)).toEqual([351_000_000n]);
    expect(payoutSharesV2('major', 100n)).toEqual([70n, 30n]);
    expect(payoutSharesV2('major', 123_456_789n)).toEqual([86_419_753n, 37_037_036n]);
    expect(payoutSharesV2('major', 1n)).toEqual([1n, 0n]);
    // The program's overflow-free form: no u64 pot loses a lamport.
    const pot = 2n ** 64n - 1n;
    const [first, second] = payoutSharesV2('major', pot);
    expect(first! + second!).toBe(pot);
    expect(second).toBe((pot * 30n) / 100n);
  });
});

describe('dareIdOfMemo', () => {
  it("reads '… dare <id>' and nothing else", () => {
    expect(dareIdOfMemo('DarePool dare 42')).toBe('42');
    expect(dareIdOfMemo('DarePool prize payout of dare 12, attempt 1')).toBe('12');
    expect(dareIdOfMemo('7Xk2ReferenceOfAnIntent')).toBeNull();
    expect(dareIdOfMemo(null)).toBeNull();
    expect(dareIdOfMemo('dare \u001b[31m')).toBeNull();
  });
});

describe('proposal text', () => {
  it('counts down in days, hours and minutes', () => {
    expect(timeUntil(5n * 3600n + 3n * 60n + 59n)).toBe('in 5 h 3 min');
    expect(timeUntil(86_400n + 3600n)).toBe('in 1 d 1 h 0 min');
    expect(timeUntil(12n * 60n)).toBe('in 12 min');
    expect(timeUntil(45n)).toBe('in 45 s');
    expect(timeUntil(-5n)).toBe('in 0 s');
    expect(utcMinute(1_795_874_700n)).toBe('2026-11-28 14:05 UTC');
  });

  it('keeps terminal escapes and direction overrides of a memo off the screen', () => {
    expect(printableMemo('\u001b[2Jdare 1\u202egpj.exe')).toBe('?[2Jdare 1?gpj.exe');
    expect(printableMemo('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
  });
});

describe('findVaultCreation', () => {
  const base58 = getBase58Decoder();
  let next = 0;
  const signature = () => `sig${String(next++).padStart(85, '0')}` as Signature;

  /** A fake node: `history` oldest first, as transactions of memo and program instructions. */
  function node(
    history: { memo?: string; createsVault?: Address; err?: unknown; program?: Address }[],
    programId: Address,
  ) {
    const records = history.map((h) => ({ ...h, signature: signature() }));
    const fetched: string[] = [];
    const rpc = {
      getSignaturesForAddress: (_address: Address, config: { limit: number; before?: Signature }) => ({
        send: async () => {
          const newestFirst = [...records].reverse();
          const from = config.before ? newestFirst.findIndex((r) => r.signature === config.before) + 1 : 0;
          return newestFirst.slice(from, from + config.limit).map((r) => ({
            signature: r.signature,
            err: r.err ?? null,
            blockTime: 1n,
            memo: null,
            slot: 1n,
            confirmationStatus: 'confirmed',
          }));
        },
      }),
      getTransaction: (sig: Signature) => ({
        send: async () => {
          fetched.push(sig);
          const r = records.find((x) => x.signature === sig)!;
          const keys: string[] = [
            MEMO_PROGRAM,
            r.program ?? programId,
            'creator',
            'payer',
            r.createsVault ?? 'x',
          ];
          const instructions = [];
          if (r.memo)
            instructions.push({
              programIdIndex: 0,
              accounts: [],
              data: base58.decode(new TextEncoder().encode(r.memo)),
            });
          if (r.createsVault)
            instructions.push({
              programIdIndex: 1,
              accounts: [2, 3, 4],
              data: base58.decode(new Uint8Array([0, 1, 2])),
            });
          return {
            transaction: { message: { accountKeys: keys, instructions } },
            meta: { err: r.err ?? null, loadedAddresses: { writable: [], readonly: [] } },
          };
        },
      }),
    };
    return { rpc: rpc as never, records, fetched };
  }

  it("takes the create's memo, not an earlier stranger's mention nor a later one", async () => {
    const programId = (await generateKeyPairSigner()).address;
    const vault = (await generateKeyPairSigner()).address;
    const { rpc, records } = node(
      [
        { memo: 'DarePool dare 666' },
        { memo: 'failed create', createsVault: vault, err: { InstructionError: [0, { Custom: 1 }] } },
        // A create of the same vault by another program is not this vault's creation.
        { memo: 'DarePool dare 13', createsVault: vault, program: (await generateKeyPairSigner()).address },
        { memo: 'DarePool dare 42', createsVault: vault },
        { memo: 'DarePool dare 7' },
      ],
      programId,
    );
    const found = await findVaultCreation(rpc, programId, vault);
    expect(found).toEqual({ signature: records[3]!.signature, memo: 'DarePool dare 42', blockTime: 1n });
  });

  it('gives up rather than guess past its bounds', async () => {
    const programId = (await generateKeyPairSigner()).address;
    const vault = (await generateKeyPairSigner()).address;
    const mentions = Array.from({ length: 12 }, () => ({ memo: 'DarePool dare 666' }));
    const crowded = node([...mentions, { memo: 'DarePool dare 42', createsVault: vault }], programId);
    expect(await findVaultCreation(crowded.rpc, programId, vault)).toBeNull();
    // Ten transactions read at most, oldest first.
    expect(crowded.fetched).toEqual(crowded.records.slice(0, 10).map((r) => r.signature));

    const spammed = node(
      [{ memo: 'DarePool dare 42', createsVault: vault }, ...Array.from({ length: 2500 }, () => ({}))],
      programId,
    );
    expect(await findVaultCreation(spammed.rpc, programId, vault, { maxSignatures: 2000 })).toBeNull();
    expect(spammed.fetched).toEqual([]);
    expect(await findVaultCreation(spammed.rpc, programId, vault)).toMatchObject({
      memo: 'DarePool dare 42',
    });
  });
});
