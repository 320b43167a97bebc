import { type Address, type GetAccountInfoApi, generateKeyPairSigner, type Rpc } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, VAULT_SIZE } from './layout';
import { VAULT_V2_SIZE } from './v2/layout';
import { fetchVaultOnChain } from './vault-program';

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
  data[0] = version === 1 ? ACCOUNT_TYPE.vault : 1;
  new DataView(data.buffer).setBigInt64(104, 1000n, true);
  if (version === 2) data[140] = 1;
  return data;
}

describe('which program holds a vault', () => {
  it('is read from the vault account’s owner: v1’s id, else a v2 vault of its owner', async () => {
    const v1 = (await generateKeyPairSigner()).address;
    const v2 = (await generateKeyPairSigner()).address;
    const vault = (await generateKeyPairSigner()).address;
    expect(await fetchVaultOnChain(rpcHolding(v1, vaultBytes(1)), { v1ProgramId: v1 }, vault)).toEqual({
      version: 1,
      programId: v1,
      status: 'open',
      deadline: 1000n,
    });
    expect(await fetchVaultOnChain(rpcHolding(v2, vaultBytes(2)), { v1ProgramId: v1 }, vault)).toEqual({
      version: 2,
      programId: v2,
      status: 'open',
      deadline: 1000n,
    });
    // Known v2 id: a third program's v2-looking vault is nobody's to enter.
    const stranger = (await generateKeyPairSigner()).address;
    const programs = { v1ProgramId: v1, v2ProgramId: v2 };
    expect(await fetchVaultOnChain(rpcHolding(stranger, vaultBytes(2)), programs, vault)).toBeNull();
    expect((await fetchVaultOnChain(rpcHolding(v2, vaultBytes(2)), programs, vault))?.version).toBe(2);
    // No account, or bytes of the wrong kind for their owner.
    expect(await fetchVaultOnChain(rpcHolding(v1, null), programs, vault)).toBeNull();
    expect(await fetchVaultOnChain(rpcHolding(v1, vaultBytes(2)), programs, vault)).toBeNull();
    expect(await fetchVaultOnChain(rpcHolding(v2, vaultBytes(1)), programs, vault)).toBeNull();
  });
});
