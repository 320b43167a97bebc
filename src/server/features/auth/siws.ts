import { randomBytes } from 'node:crypto';
import { getPublicKeyFromAddress, isAddress, type SignatureBytes, verifySignature } from '@solana/kit';
import { createSignInMessageText, parseSignInMessageText } from '@solana/wallet-standard-util';
import type { SignInInput } from '#contract/auth';
import type { Cluster } from '#contract/config';

export const SIGN_IN_TTL_MS = 10 * 60 * 1000;
export const SIGN_IN_STATEMENT =
  'Sign in to DarePool. This request will not trigger a transaction or cost any fees.';

/** A challenge as stored: the exact input and text issued, so a proof is compared with what we sent. */
export interface IssuedChallenge {
  nonce: string;
  walletAddress: string;
  input: SignInInput;
  message: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface ChallengeStore {
  find(nonce: string): Promise<IssuedChallenge | null>;
  /** Marks the nonce used if it is still unused and unexpired; false when someone got there first. */
  consume(nonce: string, now: Date): Promise<boolean>;
}

export function chainIdFor(cluster: Cluster): string {
  return `solana:${cluster === 'mainnet-beta' ? 'mainnet' : cluster}`;
}

export function createSignInChallenge(options: {
  walletAddress: string;
  domain: string;
  origin: string;
  cluster: Cluster;
  now: Date;
}): IssuedChallenge {
  // Hex: SIWS nonces must be 8+ alphanumerics (notes, section 1); 128 bits cannot be guessed.
  const nonce = randomBytes(16).toString('hex');
  const expiresAt = new Date(options.now.getTime() + SIGN_IN_TTL_MS);
  const input: SignInInput = {
    domain: options.domain,
    address: options.walletAddress,
    statement: SIGN_IN_STATEMENT,
    uri: options.origin,
    version: '1',
    chainId: chainIdFor(options.cluster),
    nonce,
    issuedAt: options.now.toISOString(),
    expirationTime: expiresAt.toISOString(),
  };
  return {
    nonce,
    walletAddress: options.walletAddress,
    input,
    message: createSignInMessageText(input),
    expiresAt,
    usedAt: null,
  };
}

export type SignInFailure =
  | 'missing-proof'
  | 'malformed-proof'
  | 'address-mismatch'
  | 'wrong-domain'
  | 'unknown-nonce'
  | 'expired'
  | 'replayed'
  | 'message-mismatch'
  | 'bad-signature';

export const SIGN_IN_FAILURE_MESSAGES: Record<SignInFailure, string> = {
  'missing-proof': 'A signed sign-in message is required',
  'malformed-proof': 'The sign-in proof is malformed',
  'address-mismatch': 'The signed message is for another wallet',
  'wrong-domain': 'The signed message is for another site',
  'unknown-nonce': 'This sign-in request was not issued by DarePool',
  expired: 'The sign-in request has expired. Please try again.',
  replayed: 'This sign-in request was already used',
  'message-mismatch': 'The signed message does not match the sign-in request',
  'bad-signature': 'The signature does not match the wallet',
};

export interface SignInProof {
  walletAddress: string;
  signedMessage: Uint8Array;
  signature: Uint8Array;
}

const SIGNED_FIELDS = [
  'domain',
  'address',
  'statement',
  'uri',
  'version',
  'chainId',
  'nonce',
  'issuedAt',
  'expirationTime',
] as const;

/**
 * Verifies a Sign-In With Solana proof against a challenge we issued. Unlike the library's
 * `verifySignIn`, it also binds the message to the claimed address's key, to our domain, to an
 * unexpired nonce we issued, and consumes that nonce exactly once (notes, section 1).
 */
export async function verifySignInProof(
  proof: SignInProof,
  context: { domain: string; now: Date; store: ChallengeStore },
): Promise<{ ok: true } | { ok: false; reason: SignInFailure }> {
  const fail = (reason: SignInFailure) => ({ ok: false as const, reason });
  if (!isAddress(proof.walletAddress)) return fail('malformed-proof');
  if (
    proof.signature.length !== 64 ||
    proof.signedMessage.length === 0 ||
    proof.signedMessage.length > 2048
  ) {
    return fail('malformed-proof');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(proof.signedMessage);
  } catch {
    return fail('malformed-proof');
  }
  const parsed = parseSignInMessageText(text);
  if (!parsed?.nonce) return fail('malformed-proof');
  if (parsed.address !== proof.walletAddress) return fail('address-mismatch');
  if (parsed.domain !== context.domain) return fail('wrong-domain');

  const issued = await context.store.find(parsed.nonce);
  if (!issued) return fail('unknown-nonce');
  if (issued.walletAddress !== proof.walletAddress) return fail('address-mismatch');
  if (issued.input.domain !== context.domain) return fail('wrong-domain');
  if (issued.usedAt) return fail('replayed');
  if (issued.expiresAt.getTime() <= context.now.getTime()) return fail('expired');
  // Every field we issued must come back unchanged, and nothing may be added (no extra
  // resources or a Not Before): the text must be exactly what we would have written.
  for (const field of SIGNED_FIELDS)
    if (parsed[field] !== issued.input[field]) return fail('message-mismatch');
  if (text !== issued.message) return fail('message-mismatch');

  const publicKey = await getPublicKeyFromAddress(
    proof.walletAddress as Parameters<typeof getPublicKeyFromAddress>[0],
  );
  const valid = await verifySignature(publicKey, proof.signature as SignatureBytes, proof.signedMessage);
  if (!valid) return fail('bad-signature');
  // Consumed only after the signature checks out, so a forger cannot burn someone's nonce.
  if (!(await context.store.consume(parsed.nonce, context.now))) return fail('replayed');
  return { ok: true };
}
