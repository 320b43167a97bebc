import {
  AuthorityType,
  getBurnCheckedInstructionDataEncoder,
  getCloseAccountInstructionDataEncoder,
  getSetAuthorityInstructionDataEncoder,
  getTransferInstructionDataEncoder,
} from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { parseAssociatedTokenInstruction, parseTokenInstruction } from './parse-token-instruction';

const bytes = (encoded: ArrayLike<number>) => new Uint8Array(encoded);

describe("token instructions in agave's jsonParsed form", () => {
  it('names a multisig authority and its signers, or the single authority', () => {
    const data = bytes(getTransferInstructionDataEncoder().encode({ amount: 42n }));
    expect(parseTokenInstruction(data, ['src', 'dst', 'multisig', 'signer1', 'signer2'])).toEqual({
      type: 'transfer',
      info: {
        source: 'src',
        destination: 'dst',
        amount: '42',
        multisigAuthority: 'multisig',
        signers: ['signer1', 'signer2'],
      },
    });
    expect(parseTokenInstruction(data, ['src', 'dst', 'owner'])).toEqual({
      type: 'transfer',
      info: { source: 'src', destination: 'dst', amount: '42', authority: 'owner' },
    });
    // Fewer accounts than the instruction needs: shown raw, as agave does.
    expect(parseTokenInstruction(data, ['src', 'dst'])).toBeNull();
  });

  it('parses setAuthority, closeAccount and burnChecked with their field names', () => {
    const setAuthority = getSetAuthorityInstructionDataEncoder().encode({
      authorityType: AuthorityType.CloseAccount,
      newAuthority: null,
    });
    expect(parseTokenInstruction(bytes(setAuthority), ['account', 'owner'])).toEqual({
      type: 'setAuthority',
      info: { account: 'account', authorityType: 'closeAccount', newAuthority: null, authority: 'owner' },
    });
    const close = getCloseAccountInstructionDataEncoder().encode({});
    expect(parseTokenInstruction(bytes(close), ['account', 'dest', 'owner'])).toEqual({
      type: 'closeAccount',
      info: { account: 'account', destination: 'dest', owner: 'owner' },
    });
    const burn = getBurnCheckedInstructionDataEncoder().encode({ amount: 1_234_500n, decimals: 4 });
    expect(parseTokenInstruction(bytes(burn), ['account', 'mint', 'owner'])).toEqual({
      type: 'burnChecked',
      info: {
        account: 'account',
        mint: 'mint',
        authority: 'owner',
        tokenAmount: { amount: '1234500', decimals: 4, uiAmount: 123.45, uiAmountString: '123.45' },
      },
    });
  });

  it('leaves truncated data, Token-2022 extension instructions and unknown ATA data raw', () => {
    expect(parseTokenInstruction(bytes([3, 1, 2]), ['src', 'dst', 'owner'])).toBeNull();
    // 26: Token-2022's TransferFeeExtension.
    expect(parseTokenInstruction(bytes([26, 1]), ['mint', 'authority'])).toBeNull();
    expect(parseTokenInstruction(bytes([]), ['a'])).toBeNull();
    expect(parseAssociatedTokenInstruction(bytes([9]), ['a', 'b', 'c', 'd', 'e', 'f'])).toBeNull();
    expect(
      parseAssociatedTokenInstruction(bytes([]), ['payer', 'ata', 'wallet', 'mint', 'system', 'token']),
    ).toEqual({
      type: 'create',
      info: {
        source: 'payer',
        account: 'ata',
        wallet: 'wallet',
        mint: 'mint',
        systemProgram: 'system',
        tokenProgram: 'token',
      },
    });
  });
});
