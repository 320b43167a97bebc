/**
 * Pins every escrow instruction the client builds, both program versions: its data byte for byte
 * and its accounts (address, role, whether a signer is attached), as program/src reads them. The
 * expected values were captured from the builders before their encoders moved onto @solana/kit
 * codecs (issue 39 item 5), so a change of encoder cannot change a byte any vault sees.
 */
import { type Address, createNoopSigner, getAddressDecoder, type Instruction } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import * as v1vaults from '#test/support/chain/v1-vaults';
import { entryV1Codec, entryV2Codec, receiptCodec, vaultV1Codec, vaultV2Codec } from './codec';
import * as ended from './instructions';
import { ENTRY_SIZE, RECEIPT_SIZE, VAULT_SIZE } from './layout';
import * as v2 from './v2/instructions';
import { ENTRY_V2_SIZE, VAULT_V2_SIZE } from './v2/layout';

/** Fixed addresses: 32 bytes of `n` after a leading 7 (any 32 bytes are an address). */
function addr(n: number): Address {
  const bytes = new Uint8Array(32).fill(n);
  bytes[0] = 7;
  return getAddressDecoder().decode(bytes);
}

const P1 = addr(1);
const P2 = addr(2);
const creator = createNoopSigner(addr(3));
const rentPayer = createNoopSigner(addr(4));
const moderator = addr(5);
const vault = addr(6);
const payer = createNoopSigner(addr(7));
const dareId = new Uint8Array(32).map((_, i) => i * 7 + 1);
const closeArgs = { programId: P1, vault, receiptRentPayer: addr(4), vaultRentPayer: addr(3) };

const build: Record<string, () => Instruction | Promise<Instruction>> = {
  'v1 createVault': () =>
    v1vaults.getCreateVaultInstruction({
      programId: P1,
      creator,
      rentPayer,
      dareId,
      moderator,
      deadline: 1_900_000_000n,
      refundAfter: -5n,
      amount: 123_456_789_012n,
      kind: 'major',
    }),
  'v1 deposit': () =>
    v1vaults.getDepositInstruction({
      programId: P1,
      vault,
      payer,
      rentPayer: addr(8),
      amount: 0xfedcba9876543210n,
    }),
  'v1 enter': () => v1vaults.getEnterInstruction({ programId: P1, vault, entrant: payer, rentPayer }),
  'v1 settle': () =>
    v1vaults.getSettleInstruction({ programId: P1, vault, moderator: creator, winners: [addr(9), addr(10)] }),
  'v1 cancel': () => ended.getCancelInstruction({ programId: P1, vault, moderator: creator }),
  'v1 refund': () => ended.getRefundInstruction({ ...closeArgs, payer: addr(7) }),
  'v1 closeEntry': () =>
    ended.getCloseEntryInstruction({
      programId: P1,
      vault,
      entrant: addr(7),
      entryRentPayer: addr(4),
      vaultRentPayer: addr(3),
    }),
  'v1 closeReceipt': () => ended.getCloseReceiptInstruction({ ...closeArgs, payer: addr(7) }),
  'v2 createVault': () =>
    v2.getCreateVaultV2Instruction({
      programId: P2,
      creator,
      rentPayer,
      dareId,
      kind: 'major',
      deadline: 1_900_000_000n,
      refundAfter: 1_900_086_400n,
      judges: [addr(11), addr(12), addr(13)],
      threshold: 2,
      guardian: addr(14),
      canceller: moderator,
      payoutWindow: 3600n,
      amount: 10_000_000n,
    }),
  'v2 deposit': () =>
    v2.getDepositV2Instruction({ programId: P2, vault, payer, rentPayer: payer, amount: 20_000_000n }),
  'v2 enter': () =>
    v2.getEnterV2Instruction({
      programId: P2,
      vault,
      entrant: payer,
      proofHash: new Uint8Array(32).map((_, i) => 255 - i),
    }),
  'v2 enter rent': () =>
    v2.getEnterV2Instruction({
      programId: P2,
      vault,
      entrant: payer,
      rentPayer,
      proofHash: new Uint8Array(32).fill(9),
    }),
  'v2 propose': () =>
    v2.getProposeInstruction({
      programId: P2,
      vault,
      winners: [addr(9), addr(10)],
      judges: [addr(11), createNoopSigner(addr(12))],
    }),
  'v2 veto': () => v2.getVetoInstruction({ programId: P2, vault, guardian: addr(14) }),
  'v2 execute': () => v2.getExecuteInstruction({ programId: P2, vault, winners: [addr(9)] }),
  'v2 cancel': () => v2.getCancelV2Instruction({ programId: P2, vault, canceller: creator }),
};

/** `address:role` and `:signer` when a signer is attached, as captured before the change. */
const expected: Record<string, { data: string; accounts: string[] }> = {
  'v1 createVault': {
    data: [
      '0001080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3da070505050505050505050505050505',
      '050505050505050505050505050505050500b33f7100000000fbffffffffffffff141a99be1c00000001feff',
    ].join(''),
    accounts: [
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:3:signer',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:3:signer',
      'DSigbr9j8oKU1foRp1HwzzbPJcqJGHULW6f3hnNRa5wF:1',
      '6qzFsj8rfNyAg1LbAHVE4vpR3jBosL5RD7AUE5dUEoqN:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v1 deposit': {
    data: '011032547698badcfefd',
    accounts: [
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:3:signer',
      'USxVuzzqYt6i2t5ytLuS5RshG7qgZPetQ2Mxr3oFrvK:1',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'HSwpehkF1k4MvudA7tLrhGfN5ZmrMWE8YnFBZVT7Qexx:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v1 enter': {
    data: '02ff',
    accounts: [
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:2:signer',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:3:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'JDKL5ve1PN5WqNXsQsDcygizBUixMY3MU55NCxc8ut5K:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v1 settle': {
    data: '03',
    accounts: [
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:2:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'UTqzijvY1gcSS1cugQNq2TQgQmGefyZrwP8X2nQHPag:1',
      'bTcd9e41vkgE88CHG6GPiimF9YWLMhqJqhmV45ETYJS:0',
      'UUjVXUrEUV8Aq99qUTrDyUwfZQhcnZUqUju5DX1JvF3:1',
      'E6zDb6m9LrpcZ7z7binxFi2Fexe37QRPWEuTzB54CdS7:0',
    ],
  },
  'v1 cancel': {
    data: '04',
    accounts: [
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:2:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
    ],
  },
  'v1 refund': {
    data: '05',
    accounts: [
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'HSwpehkF1k4MvudA7tLrhGfN5ZmrMWE8YnFBZVT7Qexx:1',
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:1',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:1',
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:1',
    ],
  },
  'v1 closeEntry': {
    data: '06',
    accounts: [
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'JDKL5ve1PN5WqNXsQsDcygizBUixMY3MU55NCxc8ut5K:1',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:1',
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:1',
    ],
  },
  'v1 closeReceipt': {
    data: '07',
    accounts: [
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'HSwpehkF1k4MvudA7tLrhGfN5ZmrMWE8YnFBZVT7Qexx:1',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:1',
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:1',
    ],
  },
  'v2 createVault': {
    data: [
      '0001080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3da070505050505050505050505050505',
      '0505050505050505050505050505050505070e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e',
      '0e00b33f71000000008004417100000000100e0000000000008096980000000000010203fffc070b0b0b0b0b0b0b0b0b',
      '0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b070c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c',
      '0c0c0c0c0c0c070d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d',
    ].join(''),
    accounts: [
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:3:signer',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:3:signer',
      'EgW9ASCfJ3s2pP73ywVBwmXkWq4TXPBt4pch3iZRz3GQ:1',
      '7bHAGqurjyqmuvcM8xhf9da1zxxq7sJdZcTPFq5bhwwo:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v2 deposit': {
    data: '01002d310100000000ff',
    accounts: [
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:3:signer',
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:3:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      '5Yzrvk45vW4YJcbEFMeYrLwkPXjmmMUGGCM1DLCdLKTj:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v2 enter': {
    data: '02fffffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0',
    accounts: [
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:3:signer',
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:3:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      '8qK9ekrfWWGwcMjBhTM2v797TCqdZLGN2gGAPGS4GZ54:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v2 enter rent': {
    data: '02ff0909090909090909090909090909090909090909090909090909090909090909',
    accounts: [
      'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx:2:signer',
      'UPQWh3J3hg3nSMxGi71rHKjkfY7p73zzEbHk77P9kGs:3:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      '8qK9ekrfWWGwcMjBhTM2v797TCqdZLGN2gGAPGS4GZ54:1',
      '11111111111111111111111111111111:0',
    ],
  },
  'v2 propose': {
    data: '0802',
    accounts: [
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'UTqzijvY1gcSS1cugQNq2TQgQmGefyZrwP8X2nQHPag:0',
      'AisJc11rqut4wzDqcoXsv11cyN896fgvqKNbuKDJH4rq:0',
      'UUjVXUrEUV8Aq99qUTrDyUwfZQhcnZUqUju5DX1JvF3:0',
      'FeG2Ytbw2Rbp9S5VAWiDzfhb8SRmUNW2CNrVBwQBjzvg:0',
      'UVczLDmvwHduEGgmGXKcvWUei48au9Pp26fdQFcLSuQ:2',
      'UWWV8xhdQ69ddQDh4ao1sY1drhZZ1jJnZTSBazDMyZm:2:signer',
    ],
  },
  'v2 veto': {
    data: '09',
    accounts: [
      'UYHUkSZ2KhB6RfHYehjomb5c9zRVEu8jeAyHxTRR2tV:2',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
    ],
  },
  'v2 execute': {
    data: '0a',
    accounts: [
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
      'UTqzijvY1gcSS1cugQNq2TQgQmGefyZrwP8X2nQHPag:1',
    ],
  },
  'v2 cancel': {
    data: '04',
    accounts: [
      'UNX1tJNMEsY43ERLv3YTLJCmWtgqzU61hEXBvNn8DcW:2:signer',
      'URBWJX9SdH5FEd28JDxeBNoixpykLDpwKJprUabCobb:1',
    ],
  },
};

describe('the escrow instructions the client encodes', () => {
  it.each(Object.keys(expected))('%s: the same data bytes and accounts as captured', async (name) => {
    const ix = await build[name]!();
    expect(ix.programAddress).toBe(name.startsWith('v1') ? P1 : P2);
    expect(Buffer.from(ix.data!).toString('hex')).toBe(expected[name]!.data);
    expect(ix.accounts!.map((m) => `${m.address}:${m.role}${'signer' in m ? ':signer' : ''}`)).toEqual(
      expected[name]!.accounts,
    );
  });

  it('reads accounts of the sizes the programs make', () => {
    expect(
      [vaultV1Codec, receiptCodec, entryV1Codec, vaultV2Codec, entryV2Codec].map((c) => c.fixedSize),
    ).toEqual([VAULT_SIZE, RECEIPT_SIZE, ENTRY_SIZE, VAULT_V2_SIZE, ENTRY_V2_SIZE]);
  });

  it('pins every builder', () => {
    expect(Object.keys(build).sort()).toEqual(Object.keys(expected).sort());
  });

  it('refuses data of the wrong size rather than writing it short', async () => {
    await expect(
      v1vaults.getCreateVaultInstruction({
        programId: P1,
        creator,
        rentPayer,
        dareId: new Uint8Array(31),
        moderator,
        deadline: 0n,
        refundAfter: 0n,
        amount: 0n,
        kind: 'community',
      }),
    ).rejects.toThrow();
    await expect(
      v2.getEnterV2Instruction({ programId: P2, vault, entrant: payer, proofHash: new Uint8Array(31) }),
    ).rejects.toThrow('A proof hash is 32 bytes');
  });
});
