import { generateKeyPairSigner, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from './pda';

const text = new TextEncoder();
const address = getAddressEncoder();

describe('derived addresses', () => {
  it('are the program-derived addresses of their seeds, the first time and every time after', async () => {
    const programId = (await generateKeyPairSigner()).address;
    const otherProgram = (await generateKeyPairSigner()).address;
    const payer = (await generateKeyPairSigner()).address;
    for (let i = 0; i < 3; i++) {
      const dareId = crypto.getRandomValues(new Uint8Array(32));
      const [vault, vaultBump] = await getProgramDerivedAddress({
        programAddress: programId,
        seeds: [text.encode('vault'), dareId],
      });
      const [receipt, receiptBump] = await getProgramDerivedAddress({
        programAddress: programId,
        seeds: [text.encode('receipt'), address.encode(vault), address.encode(payer)],
      });
      const [entry, entryBump] = await getProgramDerivedAddress({
        programAddress: programId,
        seeds: [text.encode('entry'), address.encode(vault), address.encode(payer)],
      });
      for (let round = 0; round < 2; round++) {
        expect(await findVaultAddress(programId, dareId)).toEqual({ address: vault, bump: vaultBump });
        expect(await findReceiptAddress(programId, vault, payer)).toEqual({
          address: receipt,
          bump: receiptBump,
        });
        expect(await findEntryAddress(programId, vault, payer)).toEqual({ address: entry, bump: entryBump });
      }
      // The same seeds under another program are another address.
      expect((await findVaultAddress(otherProgram, dareId)).address).not.toBe(vault);
    }
  });
});
