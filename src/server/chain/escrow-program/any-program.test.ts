import { type Address, type GetAccountInfoApi, generateKeyPairSigner, type Rpc } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { fetchVault } from './accounts';
import { programIds, programOfVersion } from './any-program';
import { ACCOUNT_TYPE, VAULT_SIZE } from './layout';
import { VAULT_V2_SIZE } from './v2/layout';

/** A node that holds one account at any address asked: `owner`'s, with `data`. */
function rpcHolding(owner: Address, data: Uint8Array | null): Rpc<GetAccountInfoApi> {
  return {
    getAccountInfo: () => ({
      send: async () => ({
        context: { slot: 1n },
        value:
          data === null
            ? null
            : {
                data: [Buffer.from(data).toString('base64'), 'base64'],
                executable: false,
                lamports: 1_000_000n,
                owner,
                space: BigInt(data.length),
                rentEpoch: 0n,
              },
      }),
    }),
  } as unknown as Rpc<GetAccountInfoApi>;
}

/** An open vault's bytes, deadline at 1000: v1's layout or v2's (one judge). */
function vaultBytes(version: 1 | 2): Uint8Array {
  const data = new Uint8Array(version === 1 ? VAULT_SIZE : VAULT_V2_SIZE);
  data[0] = ACCOUNT_TYPE.vault;
  new DataView(data.buffer).setBigInt64(104, 1000n, true);
  if (version === 2) data[140] = 1;
  return data;
}

describe('a vault of either escrow program', () => {
  it('is read under the program that owns it, in that program’s layout only', async () => {
    const v1 = (await generateKeyPairSigner()).address;
    const v2 = (await generateKeyPairSigner()).address;
    const programs = { v1, v2 };
    const vault = (await generateKeyPairSigner()).address;
    expect(await fetchVault(rpcHolding(v1, vaultBytes(1)), programs, vault)).toMatchObject({
      version: 1,
      programId: v1,
      status: 'open',
      deadline: 1000n,
      judging: null,
    });
    expect(await fetchVault(rpcHolding(v2, vaultBytes(2)), programs, vault)).toMatchObject({
      version: 2,
      programId: v2,
      status: 'open',
      deadline: 1000n,
      judging: { threshold: 0, proposal: null, vetoCount: 0 },
    });
    // A third program's vault-looking account is nobody's; no account is none.
    const stranger = (await generateKeyPairSigner()).address;
    expect(await fetchVault(rpcHolding(stranger, vaultBytes(2)), programs, vault)).toBeNull();
    expect(await fetchVault(rpcHolding(stranger, vaultBytes(1)), programs, vault)).toBeNull();
    expect(await fetchVault(rpcHolding(v1, null), programs, vault)).toBeNull();
    // The owner decides the layout: the other program's bytes under an id are no vault.
    expect(await fetchVault(rpcHolding(v1, vaultBytes(2)), programs, vault)).toBeNull();
    expect(await fetchVault(rpcHolding(v2, vaultBytes(1)), programs, vault)).toBeNull();
    // Asked for one program only, its own account still reads.
    expect((await fetchVault(rpcHolding(v1, vaultBytes(1)), v1, vault))?.version).toBe(1);
    expect(await fetchVault(rpcHolding(v1, vaultBytes(1)), v2, vault)).toBeNull();
  });
});

describe('a chain without escrow program v1 (decision 081)', () => {
  it('reads v2 vaults only, and names no program for a v1 vault', async () => {
    const v2 = (await generateKeyPairSigner()).address;
    const programs = { v1: null, v2 };
    const vault = (await generateKeyPairSigner()).address;
    expect(programIds(programs)).toEqual([v2]);
    expect(await fetchVault(rpcHolding(v2, vaultBytes(2)), programs, vault)).toMatchObject({
      version: 2,
      programId: v2,
    });
    // v1's bytes under any other program are nobody's vault here.
    const other = (await generateKeyPairSigner()).address;
    expect(await fetchVault(rpcHolding(other, vaultBytes(1)), programs, vault)).toBeNull();
    expect(programOfVersion(programs, 2)).toBe(v2);
    expect(() => programOfVersion(programs, 1)).toThrow(/this chain runs no v1 program \(ESCROW_PROGRAM_ID/);
    const v1 = (await generateKeyPairSigner()).address;
    expect(programOfVersion({ v1, v2 }, 1)).toBe(v1);
  });
});
