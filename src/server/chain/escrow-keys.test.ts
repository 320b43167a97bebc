import { ed25519 } from '@noble/curves/ed25519.js';
import { getAddressDecoder } from '@solana/kit';
import { HDKey } from 'micro-key-producer/slip10.js';
import { describe, expect, it } from 'vitest';
import { createEscrowKeys, FEE_PAYER_DERIVATION_PATH, MODERATOR_DERIVATION_PATH } from './escrow-keys';

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

  it('derives the fee payer at its path: the same for the same seed, another for another seed', async () => {
    const seed = hex('ab'.repeat(64));
    const [feePayer, again, other] = await Promise.all([
      createEscrowKeys(seed).feePayer(),
      createEscrowKeys(seed).feePayer(),
      createEscrowKeys(hex('cd'.repeat(64))).feePayer(),
    ]);
    expect(again.address).toBe(feePayer.address);
    expect(other.address).not.toBe(feePayer.address);
    // The ed25519 public key of the SLIP-0010 key at that path (what Phantom would import).
    expect(feePayer.address).toBe(
      getAddressDecoder().decode(HDKey.fromMasterSeed(seed).derive(FEE_PAYER_DERIVATION_PATH).publicKeyRaw),
    );
  });

  it('holds no key for a dare: only the fee payer, the moderator and non-money secrets', () => {
    const keys = createEscrowKeys(hex('ab'.repeat(64)));
    // heldKeys gives addresses only, to refuse them where a key apart from the server is needed.
    expect(Object.keys(keys).sort()).toEqual(['feePayer', 'heldKeys', 'moderator', 'secretFor']);
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
    const signer = await createEscrowKeys(hex('ab'.repeat(64))).feePayer();
    expect(signer.keyPair.privateKey.extractable).toBe(false);
  });

  it('derives the moderator at its own path: stable, apart from the fee payer', async () => {
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
  });

  it("lists every key the seed gives, the server's own and the wallet paths a tool would derive", async () => {
    const seed = hex('cd'.repeat(64));
    const keys = createEscrowKeys(seed);
    const held = keys.heldKeys();
    const root = HDKey.fromMasterSeed(seed);
    const at = (path: string) => getAddressDecoder().decode(root.derive(path).publicKeyRaw);
    expect(held.get((await keys.feePayer()).address)).toBe('the platform fee payer');
    expect(held.get((await keys.moderator()).address)).toBe('the moderator (canceller) key');
    expect(held.get(at("m/44'/501'/0'/0'"))).toBe("the key at m/44'/501'/0'/0'");
    expect(held.get(at("m/44'/501'/11'"))).toBe("the key at m/44'/501'/11'");
    expect(held.get(at("m/44'/501'/7'/3'"))).toBe("the key at m/44'/501'/7'/3'");
    const rawSeedKey = getAddressDecoder().decode(ed25519.getPublicKey(seed.slice(0, 32)));
    expect(held.get(rawSeedKey)).toBe("the seed's first 32 bytes taken as a key");
    // Another seed's keys are not the server's.
    expect(held.has((await createEscrowKeys(hex('ef'.repeat(64))).feePayer()).address)).toBe(false);
    // The seed is left as it was: the signers still derive the same keys.
    expect((await keys.feePayer()).address).toBe(at("m/44'/501'/0'/1'"));
  });
});
