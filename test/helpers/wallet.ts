import { generateKeyPair, getAddressFromPublicKey, signBytes } from '@solana/kit';
import type { FastifyInstance } from 'fastify';

export interface TestWallet {
  address: string;
  keys: CryptoKeyPair;
  signBytes(bytes: Uint8Array): Promise<Uint8Array>;
}

export async function createTestWallet(): Promise<TestWallet> {
  const keys = await generateKeyPair();
  const address = await getAddressFromPublicKey(keys.publicKey);
  return {
    address,
    keys,
    signBytes: async (bytes) => new Uint8Array(await signBytes(keys.privateKey, bytes)),
  };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Runs the SIWS round trip as a wallet with only `solana:signMessage` would. */
export async function walletLogin(app: FastifyInstance, wallet: TestWallet, options: { host?: string } = {}) {
  const headers = { host: options.host ?? 'localhost:5000' };
  const challenge = await app.inject({
    method: 'POST',
    url: '/api/auth/challenge',
    headers,
    payload: { walletAddress: wallet.address },
  });
  if (challenge.statusCode !== 200) throw new Error(`challenge failed: ${challenge.body}`);
  const { message } = challenge.json() as { message: string };
  const signedMessage = new TextEncoder().encode(message);
  const signature = await wallet.signBytes(signedMessage);
  return app.inject({
    method: 'POST',
    url: '/api/auth/wallet-login',
    headers,
    payload: { walletAddress: wallet.address, signedMessage: b64(signedMessage), signature: b64(signature) },
  });
}

/** Proves a wallet and registers it; returns the session token and user. */
export async function registerWithWallet(
  app: FastifyInstance,
  wallet: TestWallet,
  username: string,
  password = 'password123',
): Promise<{ token: string; user: { id: number; username: string; isAdmin: boolean } }> {
  const login = await walletLogin(app, wallet);
  if (login.statusCode !== 404) throw new Error(`expected an unregistered wallet: ${login.body}`);
  const { registrationToken } = login.json() as { registrationToken: string };
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { username, password, walletAddress: wallet.address, registrationToken },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.body}`);
  return res.json();
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
