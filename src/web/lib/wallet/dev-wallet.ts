import {
  createKeyPairFromPrivateKeyBytes,
  getAddressFromPublicKey,
  getTransactionDecoder,
  getTransactionEncoder,
  signBytes,
} from '@solana/kit';
import { createSignInMessageText } from '@solana/wallet-standard-util';
import type { WalletAccount } from '@wallet-standard/base';
import type { SigningWallet } from './wallets';

const STORAGE_KEY = 'darepool-local-dev-wallet';
const ICON =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="8" fill="%236366f1"/%3E%3Ctext x="16" y="21" font-size="14" text-anchor="middle" fill="white" font-family="sans-serif"%3EDEV%3C/text%3E%3C/svg%3E';

/** Whether this browser already keeps a local dev wallet (without creating one). */
export function hasLocalDevWallet(): boolean {
  return localStorage.getItem(STORAGE_KEY) !== null;
}

function seedBytes(): Uint8Array {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored && /^[0-9a-f]{64}$/.test(stored)) {
    return Uint8Array.from(stored.match(/../g)!.map((byte) => Number.parseInt(byte, 16)));
  }
  const seed = crypto.getRandomValues(new Uint8Array(32));
  localStorage.setItem(STORAGE_KEY, Array.from(seed, (byte) => byte.toString(16).padStart(2, '0')).join(''));
  return seed;
}

/** A key file the local dev wallet cannot take, in words for the dialog. */
export class KeyFileError extends Error {}

/**
 * The seed of a solana-keygen key file (a JSON array of 64 bytes: seed, then public key), such as
 * the demo admin's `DATA_DIR/demo-admin-wallet.json`, checked: the public half must be the seed's.
 */
export async function seedFromKeyFile(text: string): Promise<Uint8Array> {
  let bytes: unknown;
  try {
    bytes = JSON.parse(text);
  } catch {
    throw new KeyFileError('This file is not a key file (a JSON array of 64 numbers)');
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every((b) => Number.isInteger(b) && b >= 0 && b < 256)
  )
    throw new KeyFileError('This file is not a key file (a JSON array of 64 numbers)');
  const seed = Uint8Array.from(bytes.slice(0, 32) as number[]);
  const keys = await createKeyPairFromPrivateKeyBytes(seed, true);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
  if (!publicKey.every((byte, index) => byte === bytes[32 + index]))
    throw new KeyFileError('The key file is damaged: its public key is not its secret key’s');
  return seed;
}

/**
 * Makes the key of a key file this browser's local dev wallet (embedded chain only): how an
 * operator judges as the demo admin, whose wallet the first start wrote into the data folder.
 * The key stays in this browser; the server never sees or serves it.
 */
export async function loadKeyFileIntoLocalDevWallet(text: string): Promise<void> {
  const seed = await seedFromKeyFile(text);
  localStorage.setItem(STORAGE_KEY, Array.from(seed, (byte) => byte.toString(16).padStart(2, '0')).join(''));
}

/**
 * A keypair kept in this browser's storage, offered only on the embedded chain so a newcomer
 * without Phantom can try every flow. Its SOL is test SOL on a chain that exists only locally.
 */
export async function createLocalDevWallet(): Promise<SigningWallet> {
  const keys = await createKeyPairFromPrivateKeyBytes(seedBytes());
  const address = await getAddressFromPublicKey(keys.publicKey);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
  const account: WalletAccount = { address, publicKey, chains: ['solana:localnet'], features: [] };
  const sign = async (bytes: Uint8Array) => new Uint8Array(await signBytes(keys.privateKey, bytes));
  return {
    name: 'Local dev wallet',
    icon: ICON,
    local: true,
    connect: async () => account,
    disconnect: async () => {},
    async signIn(input) {
      const signedMessage = new TextEncoder().encode(
        createSignInMessageText({ ...input, domain: input.domain!, address }),
      );
      return { account, signedMessage, signature: await sign(signedMessage) };
    },
    async signMessage(_account, message) {
      return { signedMessage: message, signature: await sign(message) };
    },
    async signTransaction(_account, wire) {
      const transaction = getTransactionDecoder().decode(wire);
      const signature = await sign(new Uint8Array(transaction.messageBytes));
      const signed = { ...transaction, signatures: { ...transaction.signatures, [address]: signature } };
      return new Uint8Array(getTransactionEncoder().encode(signed as never));
    },
    onAccountsChanged: () => () => {},
  };
}
