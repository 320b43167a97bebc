/**
 * getProgramAccounts on the embedded chain, asked through kit's RPC client the way the app and
 * the refund script ask any node: the escrow program's vaults, receipts and entries, filtered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Address,
  type Base58EncodedBytes,
  type Base64EncodedBytes,
  getAddressEncoder,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getU64Decoder,
  isSolanaError,
  type KeyPairSigner,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeReceipt, ENTRY_SIZE, RECEIPT_SIZE, VAULT_SIZE } from '#server/chain/escrow-program/layout';
import { findEntryAddress, findReceiptAddress } from '#server/chain/escrow-program/pda';
import { EmbeddedEscrowChain, SOL } from '#test/support/chain/embedded-escrow-chain';
import { createEmbeddedChain } from '.';

let stateDir: string;
let t: EmbeddedEscrowChain;
beforeAll(async () => {
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-gpa-'));
  t = await EmbeddedEscrowChain.open({ stateDir });
});
afterAll(async () => {
  await t.close();
  rmSync(stateDir, { recursive: true, force: true });
});

async function createVault(creator: KeyPairSigner, stake: bigint): Promise<Address> {
  return (await t.createDare({ creator, stake })).vault;
}

const vaultFilter = (vault: Address) => ({
  memcmp: { offset: 8n, bytes: vault as string as Base58EncodedBytes, encoding: 'base58' as const },
});

async function invalidParams(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSolanaError(error, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)) return error.message;
    throw error;
  }
  throw new Error('expected invalid params');
}

describe('getProgramAccounts on the embedded chain', () => {
  let vaultA: Address;
  let vaultB: Address;
  let creator: KeyPairSigner;
  let payer: KeyPairSigner;
  let entrant: KeyPairSigner;

  beforeAll(async () => {
    [creator, payer, entrant] = [await t.wallet(), await t.wallet(), await t.wallet(0n)];
    vaultA = await createVault(creator, SOL / 10n);
    vaultB = await createVault(creator, SOL / 5n);
    await t.must([await t.depositInstruction(vaultA, payer, 123_456_789n)]);
    await t.must([await t.enterInstruction(vaultA, entrant)]);
  });

  it("lists every account the program owns, in address byte order, with agave's shape", async () => {
    const all = await t.rpc.getProgramAccounts(t.programId, { encoding: 'base64' }).send();
    const sizes = all.map(({ account }) => getBase64Encoder().encode(account.data[0]).length);
    expect(sizes.sort()).toEqual([
      ENTRY_SIZE,
      RECEIPT_SIZE,
      RECEIPT_SIZE,
      RECEIPT_SIZE,
      VAULT_SIZE,
      VAULT_SIZE,
    ]);
    const keys = all.map(({ pubkey }) => Buffer.from(getAddressEncoder().encode(pubkey)));
    expect(keys).toEqual([...keys].sort(Buffer.compare));
    const vault = all.find(({ pubkey }) => pubkey === vaultA)!.account;
    expect(vault).toMatchObject({ owner: t.programId, executable: false, space: BigInt(VAULT_SIZE) });
    expect(vault.lamports).toBe(await t.balance(vaultA));
  });

  it("filters by dataSize and memcmp at offset 8 (a receipt's or an entry's vault), base58 or base64", async () => {
    const receipts = await t.rpc
      .getProgramAccounts(t.programId, {
        encoding: 'base64',
        filters: [{ dataSize: BigInt(RECEIPT_SIZE) }, vaultFilter(vaultA)],
      })
      .send();
    const expected = await Promise.all(
      [creator, payer].map(async (p) => (await findReceiptAddress(t.programId, vaultA, p.address)).address),
    );
    expect(receipts.map((r) => r.pubkey).sort()).toEqual(expected.sort());
    const amounts = receipts.map(
      ({ account }) => decodeReceipt(new Uint8Array(getBase64Encoder().encode(account.data[0])))!.amount,
    );
    expect(amounts.sort()).toEqual([SOL / 10n, 123_456_789n].sort());

    const vaultBytes = getBase64Decoder().decode(getAddressEncoder().encode(vaultA)) as Base64EncodedBytes;
    const entries = await t.rpc
      .getProgramAccounts(t.programId, {
        encoding: 'base64',
        filters: [
          { dataSize: BigInt(ENTRY_SIZE) },
          { memcmp: { offset: 8n, bytes: vaultBytes, encoding: 'base64' } },
        ],
      })
      .send();
    expect(entries.map((e) => e.pubkey)).toEqual([
      (await findEntryAddress(t.programId, vaultA, entrant.address)).address,
    ]);

    const ofB = await t.rpc
      .getProgramAccounts(t.programId, { encoding: 'base64', filters: [vaultFilter(vaultB)] })
      .send();
    expect(ofB).toHaveLength(1); // B's creator receipt; vaults hold their seed at offset 8
    const none = await t.rpc
      .getProgramAccounts(t.programId, {
        encoding: 'base64',
        filters: [
          { dataSize: BigInt(RECEIPT_SIZE) },
          { memcmp: { offset: 200n, bytes: '1' as Base58EncodedBytes, encoding: 'base58' } },
        ],
      })
      .send();
    expect(none).toEqual([]);
  });

  it('slices data, answers with context, and writes base58 for small slices', async () => {
    const { context, value } = await t.rpc
      .getProgramAccounts(t.programId, {
        encoding: 'base58',
        withContext: true,
        dataSlice: { offset: 104, length: 8 },
        filters: [{ dataSize: BigInt(RECEIPT_SIZE) }, vaultFilter(vaultA)],
      })
      .send();
    expect(context.slot).toBe(await t.rpc.getSlot().send());
    const amounts = value.map(({ account }) =>
      getU64Decoder().decode(getBase58Encoder().encode(account.data[0])),
    );
    expect(amounts.sort()).toEqual([SOL / 10n, 123_456_789n].sort());
  });

  it('refuses what agave refuses, and what the embedded chain cannot encode, with invalid params', async () => {
    const ask = (config: object) =>
      t.rpc.getProgramAccounts(t.programId, config as { encoding: 'base64' }).send();
    expect(await invalidParams(ask({ encoding: 'base64+zstd' }))).toMatch(/unsupported encoding/);
    expect(await invalidParams(ask({ encoding: 'base64', filters: Array(5).fill({ dataSize: 1 }) }))).toMatch(
      /Too many filters provided; max 4/,
    );
    const tooLong = getBase58Decoder().decode(new Uint8Array(129).fill(1));
    expect(
      await invalidParams(ask({ encoding: 'base64', filters: [{ memcmp: { offset: 0, bytes: tooLong } }] })),
    ).toMatch(/DataTooLarge/);
    expect(await invalidParams(ask({ encoding: 'base64', filters: [{ tokenAccountState: {} }] }))).toMatch(
      /unsupported filter/,
    );
    expect(
      await invalidParams(ask({ encoding: 'base64', filters: [{ memcmp: { offset: 0, bytes: '0OIl' } }] })),
    ).toMatch(/not base58/);
    // Legacy base58 (no encoding) cannot carry a 144-byte vault, as on agave.
    expect(await invalidParams(ask({}))).toMatch(/base 58/);
  });

  it('forgets accounts that closed, and answers the same after a restart', async () => {
    await t.must([
      t.cancelInstruction(vaultA),
      ...(await t.closeInstructions(vaultA, [creator.address, payer.address], [entrant.address], {
        refund: true,
      })),
    ]);
    expect(await t.exists(vaultA)).toBe(false);
    const left = await t.rpc.getProgramAccounts(t.programId, { encoding: 'base64' }).send();
    const receiptB = (await findReceiptAddress(t.programId, vaultB, creator.address)).address;
    expect(left.map((a) => a.pubkey).sort()).toEqual([vaultB, receiptB].sort());

    await t.close(); // closing twice (again in afterAll) is harmless
    const reopened = await createEmbeddedChain({ stateDir });
    try {
      const again = await reopened.rpc.getProgramAccounts(t.programId, { encoding: 'base64' }).send();
      expect(again).toEqual(left);
    } finally {
      await reopened.close();
    }
  });
});
