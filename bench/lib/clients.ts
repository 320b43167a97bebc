import { generateKeyPair, getAddressFromPublicKey, signBytes } from '@solana/kit';
import type { BenchContext } from '../types';

export interface BenchClient {
  address: string;
  keys: CryptoKeyPair;
  token: string;
}

// biome-ignore lint/suspicious/noExplicitAny: each call site reads the fields the wire contract documents.
export async function call(context: BenchContext, path: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(`${context.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A wallet that signs in with Solana, registers and gets test SOL, over HTTP like the web app. */
export async function newClient(context: BenchContext, index: number): Promise<BenchClient> {
  const keys = await generateKeyPair();
  const address = await getAddressFromPublicKey(keys.publicKey);
  const { message } = await call(context, '/api/auth/challenge', { walletAddress: address });
  const signedMessage = new TextEncoder().encode(message);
  const signature = new Uint8Array(await signBytes(keys.privateKey, signedMessage));
  const login = await fetch(`${context.baseUrl}/api/auth/wallet-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      walletAddress: address,
      signedMessage: b64(signedMessage),
      signature: b64(signature),
    }),
  });
  const { registrationToken } = await login.json();
  const username = `bench${index}${address.slice(0, 6).toLowerCase()}`;
  const { token } = await call(context, '/api/auth/register', {
    username,
    password: 'bench-password-1',
    walletAddress: address,
    registrationToken,
  });
  await call(context, '/api/dev/airdrop', { walletAddress: address, amount: '10' });
  return { address, keys, token };
}
