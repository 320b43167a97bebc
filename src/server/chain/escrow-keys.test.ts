import { getAddressDecoder } from '@solana/kit';
import { HDKey } from 'micro-key-producer/slip10.js';
import { describe, expect, it } from 'vitest';
import {
  createEscrowKeys,
  escrowDerivationPath,
  FEE_PAYER_DERIVATION_PATH,
  MODERATOR_DERIVATION_PATH,
} from './escrow-keys';

const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));

describe('escrow key derivation', () => {
  it('matches SLIP-0010 ed25519 test vector 1', () => {
    // https://github.com/satoshilabs/slips/blob/master/slip-0010.md, test vector 1 for ed25519.
    const node = HDKey.fromMasterSeed(hex('000102030405060708090a0b0c0d0e0f')).derive(
      "m/0'/1'/2'/2'/1000000000'",
    );
    expect(Buffer.from(node.privateKey).toString('hex')).toBe(
      '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
    );
  });

  it('uses the Solana wallet path per escrow index', () => {
    expect(escrowDerivationPath(0)).toBe("m/44'/501'/0'/0'");
    expect(escrowDerivationPath(42)).toBe("m/44'/501'/42'/0'");
    expect(() => escrowDerivationPath(-1)).toThrow();
    expect(() => escrowDerivationPath(2 ** 31)).toThrow();
  });

  it('derives the same address for the same seed and index, and distinct ones otherwise', async () => {
    const seed = hex('ab'.repeat(64));
    const keys = createEscrowKeys(seed);
    const again = createEscrowKeys(seed);
    const other = createEscrowKeys(hex('cd'.repeat(64)));
    const [a0, a0again, a1, b0] = await Promise.all([
      keys.signerFor(0),
      again.signerFor(0),
      keys.signerFor(1),
      other.signerFor(0),
    ]);
    expect(a0.address).toBe(a0again.address);
    expect(new Set([a0.address, a1.address, b0.address]).size).toBe(3);
    // The address is the ed25519 public key of the SLIP-0010 key at that path (what Phantom would import).
    const expected = HDKey.fromMasterSeed(seed).derive("m/44'/501'/0'/0'").publicKeyRaw;
    expect(a0.address).toBe(getAddressDecoder().decode(expected));
  });

  it('derives other secrets one-way, per purpose and per seed', () => {
    const seed = new Uint8Array(64).fill(7);
    const keys = createEscrowKeys(seed);
    const secret = keys.secretFor('video-links');
    expect(secret).toHaveLength(32);
    expect(Buffer.from(secret).equals(Buffer.from(createEscrowKeys(seed).secretFor('video-links')))).toBe(
      true,
    );
    expect(Buffer.from(secret).equals(Buffer.from(keys.secretFor('other')))).toBe(false);
    const otherSeed = createEscrowKeys(new Uint8Array(64).fill(8)).secretFor('video-links');
    expect(Buffer.from(secret).equals(Buffer.from(otherSeed))).toBe(false);
    expect(Buffer.from(seed).includes(Buffer.from(secret.subarray(0, 8)))).toBe(false);
  });

  it('keeps key bytes out of reach', async () => {
    const signer = await createEscrowKeys(hex('ab'.repeat(64))).signerFor(3);
    expect(signer.keyPair.privateKey.extractable).toBe(false);
  });

  it('derives the moderator at its own path: stable, apart from the fee payer and from every escrow', async () => {
    const seed = hex('ab'.repeat(64));
    const keys = createEscrowKeys(seed);
    const [moderator, again, feePayer] = await Promise.all([
      keys.moderator(),
      createEscrowKeys(seed).moderator(),
      keys.feePayer(),
    ]);
    expect((await keys.moderator()).address).toBe(moderator.address);
    expect(again.address).toBe(moderator.address);
    expect(moderator.address).not.toBe(feePayer.address);
    expect(moderator.address).toBe(
      getAddressDecoder().decode(HDKey.fromMasterSeed(seed).derive(MODERATOR_DERIVATION_PATH).publicKeyRaw),
    );
    expect(moderator.keyPair.privateKey.extractable).toBe(false);
    // Every escrow path ends in /0' (change level 0); the fee payer's ends in /1', the moderator's in /2'.
    const escrowPath = /^m\/44'\/501'\/\d+'\/0'$/;
    for (const index of [0, 1, 2, 2 ** 31 - 1]) expect(escrowDerivationPath(index)).toMatch(escrowPath);
    expect(MODERATOR_DERIVATION_PATH).not.toMatch(escrowPath);
    expect(FEE_PAYER_DERIVATION_PATH).not.toMatch(escrowPath);
    const escrows = await Promise.all([0, 1, 2].map((index) => keys.signerFor(index)));
    for (const escrow of escrows) expect(escrow.address).not.toBe(moderator.address);
  });
});
