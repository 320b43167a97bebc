import { generateKeyPair, getAddressFromPublicKey, signBytes } from '@solana/kit';
import { createSignInMessageText } from '@solana/wallet-standard-util';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ChallengeStore,
  createSignInChallenge,
  type IssuedChallenge,
  SIGN_IN_TTL_MS,
  verifySignInProof,
} from './siws';

const DOMAIN = 'localhost:5000';
const encode = (text: string) => new TextEncoder().encode(text);

function memoryStore(): ChallengeStore & { add(challenge: IssuedChallenge): void } {
  const challenges = new Map<string, IssuedChallenge>();
  return {
    add: (challenge) => challenges.set(challenge.nonce, { ...challenge }),
    find: async (nonce) => challenges.get(nonce) ?? null,
    consume: async (nonce, now) => {
      const challenge = challenges.get(nonce);
      if (!challenge || challenge.usedAt || challenge.expiresAt <= now) return false;
      challenge.usedAt = now;
      return true;
    },
  };
}

async function wallet() {
  const keys = await generateKeyPair();
  const address = await getAddressFromPublicKey(keys.publicKey);
  return {
    address,
    sign: async (bytes: Uint8Array) => new Uint8Array(await signBytes(keys.privateKey, bytes)),
  };
}

let store: ReturnType<typeof memoryStore>;
let alice: Awaited<ReturnType<typeof wallet>>;
let mallory: Awaited<ReturnType<typeof wallet>>;
const now = new Date('2026-11-22T10:00:00.000Z');

beforeEach(async () => {
  store = memoryStore();
  alice = await wallet();
  mallory = await wallet();
});

function issue(address: string, at = now) {
  const challenge = createSignInChallenge({
    walletAddress: address,
    domain: DOMAIN,
    origin: `http://${DOMAIN}`,
    cluster: 'localnet',
    now: at,
  });
  store.add(challenge);
  return challenge;
}

const verify = (
  proof: Parameters<typeof verifySignInProof>[0],
  options: { domain?: string; at?: Date } = {},
) => verifySignInProof(proof, { domain: options.domain ?? DOMAIN, now: options.at ?? now, store });

describe('Sign-In With Solana verification', () => {
  it('issues the standard SIWS text for the input it stores', () => {
    const challenge = issue(alice.address);
    expect(challenge.input).toMatchObject({
      domain: DOMAIN,
      address: alice.address,
      version: '1',
      chainId: 'solana:localnet',
    });
    expect(challenge.input.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(challenge.input.expirationTime).getTime() - now.getTime()).toBe(SIGN_IN_TTL_MS);
    expect(challenge.message).toBe(createSignInMessageText(challenge.input));
    expect(
      challenge.message.startsWith(
        `${DOMAIN} wants you to sign in with your Solana account:\n${alice.address}`,
      ),
    ).toBe(true);
  });

  it('accepts a good proof once', async () => {
    const challenge = issue(alice.address);
    const signedMessage = encode(challenge.message);
    const proof = { walletAddress: alice.address, signedMessage, signature: await alice.sign(signedMessage) };
    expect(await verify(proof)).toEqual({ ok: true });
    expect(await verify(proof)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('rejects a signature by another key for the same message', async () => {
    const challenge = issue(alice.address);
    const signedMessage = encode(challenge.message);
    const proof = {
      walletAddress: alice.address,
      signedMessage,
      signature: await mallory.sign(signedMessage),
    };
    expect(await verify(proof)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('rejects a message naming another address than the one claimed', async () => {
    const challenge = issue(alice.address);
    const signedMessage = encode(challenge.message);
    // Mallory signs Alice's message with her own key and claims her own address.
    const proof = {
      walletAddress: mallory.address,
      signedMessage,
      signature: await mallory.sign(signedMessage),
    };
    expect(await verify(proof)).toEqual({ ok: false, reason: 'address-mismatch' });
  });

  it('rejects a nonce issued for another wallet', async () => {
    const challenge = issue(alice.address);
    const text = challenge.message.replace(alice.address, mallory.address);
    const signedMessage = encode(text);
    const proof = {
      walletAddress: mallory.address,
      signedMessage,
      signature: await mallory.sign(signedMessage),
    };
    expect(await verify(proof)).toEqual({ ok: false, reason: 'address-mismatch' });
  });

  it('rejects a message for another domain', async () => {
    const challenge = issue(alice.address);
    const signedMessage = encode(challenge.message.replace(DOMAIN, 'evil.example'));
    const proof = { walletAddress: alice.address, signedMessage, signature: await alice.sign(signedMessage) };
    expect(await verify(proof)).toEqual({ ok: false, reason: 'wrong-domain' });
    const good = encode(challenge.message);
    const sent = { walletAddress: alice.address, signedMessage: good, signature: await alice.sign(good) };
    expect(await verify(sent, { domain: 'evil.example' })).toEqual({ ok: false, reason: 'wrong-domain' });
  });

  it('rejects an expired challenge', async () => {
    const challenge = issue(alice.address);
    const signedMessage = encode(challenge.message);
    const proof = { walletAddress: alice.address, signedMessage, signature: await alice.sign(signedMessage) };
    expect(await verify(proof, { at: new Date(now.getTime() + SIGN_IN_TTL_MS) })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('rejects a nonce it never issued', async () => {
    const challenge = createSignInChallenge({
      walletAddress: alice.address,
      domain: DOMAIN,
      origin: `http://${DOMAIN}`,
      cluster: 'localnet',
      now,
    });
    const signedMessage = encode(challenge.message);
    const proof = { walletAddress: alice.address, signedMessage, signature: await alice.sign(signedMessage) };
    expect(await verify(proof)).toEqual({ ok: false, reason: 'unknown-nonce' });
  });

  it('rejects a tampered message, even one signed by the right key', async () => {
    const challenge = issue(alice.address);
    const original = encode(challenge.message);
    const signature = await alice.sign(original);
    const later = new Date(now.getTime() + 60 * 60 * 1000).toISOString();
    const tampered = encode(challenge.message.replace(challenge.input.expirationTime, later));
    expect(await verify({ walletAddress: alice.address, signedMessage: tampered, signature })).toEqual({
      ok: false,
      reason: 'message-mismatch',
    });
    const resigned = {
      walletAddress: alice.address,
      signedMessage: tampered,
      signature: await alice.sign(tampered),
    };
    expect(await verify(resigned)).toEqual({ ok: false, reason: 'message-mismatch' });
    const extra = encode(`${challenge.message}\nRequest ID: 1`);
    expect(
      await verify({
        walletAddress: alice.address,
        signedMessage: extra,
        signature: await alice.sign(extra),
      }),
    ).toEqual({
      ok: false,
      reason: 'message-mismatch',
    });
  });

  it('rejects bad encodings and shapes', async () => {
    const challenge = issue(alice.address);
    const signedMessage = encode(challenge.message);
    const signature = await alice.sign(signedMessage);
    const cases = [
      { walletAddress: 'not-an-address', signedMessage, signature },
      { walletAddress: alice.address, signedMessage, signature: signature.slice(0, 63) },
      { walletAddress: alice.address, signedMessage: new Uint8Array(), signature },
      { walletAddress: alice.address, signedMessage: new Uint8Array([0xff, 0xfe, 0xfd]), signature },
      { walletAddress: alice.address, signedMessage: encode('hello'), signature },
    ];
    for (const proof of cases) expect(await verify(proof)).toEqual({ ok: false, reason: 'malformed-proof' });
    // None of those burnt the nonce: the real proof still works.
    expect(await verify({ walletAddress: alice.address, signedMessage, signature })).toEqual({ ok: true });
  });
});
