/**
 * Self-test of the injected E2E Test Wallet: a page served by the real server discovers it the
 * way @wallet-standard/app does, and every signature it returns is checked in Node.
 */

import {
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
  pipe,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  verifySignature,
} from '@solana/kit';
import type { SolanaSignInInput } from '@solana/wallet-standard-features';
import { createSignInMessageText, verifySignIn } from '@solana/wallet-standard-util';
import { getTransferSolInstruction } from '@solana-program/system';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { setupApp } from './fixtures/app';
import { WALLET_NAME } from './fixtures/test-wallet/protocol';

const app = setupApp();

type DiscoveryWindow = Window & { __discovered?: Wallet };
type Failure = { failed: true; code: unknown; message: string };

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/**
 * Plays the app's side of the Wallet Standard handshake, as getWallets() does: listen for
 * register-wallet, then dispatch app-ready with a `register` API. Keeps the wallet on window.
 */
async function discoverWallet(page: Page, name: string) {
  return page.evaluate((walletName) => {
    const found: Wallet[] = [];
    const api = Object.freeze({
      register: (...wallets: Wallet[]) => {
        found.push(...wallets);
        return () => {};
      },
    });
    window.addEventListener('wallet-standard:register-wallet', (event) =>
      (event as CustomEvent<(registerApi: typeof api) => void>).detail(api),
    );
    window.dispatchEvent(new CustomEvent('wallet-standard:app-ready', { detail: api }));
    const wallet = found.find((candidate) => candidate.name === walletName);
    if (!wallet) return null;
    (window as DiscoveryWindow).__discovered = wallet;
    return {
      count: found.filter((candidate) => candidate.name === walletName).length,
      version: wallet.version,
      name: wallet.name,
      icon: wallet.icon,
      chains: [...wallet.chains],
      accounts: wallet.accounts.length,
      features: Object.fromEntries(
        Object.entries(wallet.features).map(([feature, value]) => [
          feature,
          (value as { version: string }).version,
        ]),
      ),
      transactionVersions: [
        ...(wallet.features['solana:signTransaction'] as { supportedTransactionVersions: unknown[] })
          .supportedTransactionVersions,
      ],
    };
  }, name);
}

/**
 * Runs one wallet feature in the page; a thrown wallet error comes back as data, not as a throw.
 * Sent as one expression so the function and its arguments travel together as source text.
 */
async function callWallet<Args, Result>(
  page: Page,
  run: (wallet: Wallet, args: Args) => Promise<Result>,
  args: Args,
): Promise<Result | Failure> {
  return page.evaluate(`(async () => {
    const wallet = window.__discovered;
    if (!wallet) throw new Error('discoverWallet() first');
    try {
      return await (${run.toString()})(wallet, ${JSON.stringify(args)});
    } catch (error) {
      return { failed: true, code: error?.code, message: String(error?.message) };
    }
  })()`) as Promise<Result | Failure>;
}

function isFailure(value: unknown): value is Failure {
  return typeof value === 'object' && value !== null && (value as Failure).failed === true;
}

function succeeded<T>(value: T | Failure): T {
  if (isFailure(value)) throw new Error(`wallet call failed: ${value.code} ${value.message}`);
  return value;
}

const toBase64 = (data: Uint8Array) => Buffer.from(data).toString('base64');

// These run inside the page (shipped as source by callWallet), so each is self-contained.
const connect = async (wallet: Wallet, args: { silent: boolean }) => {
  const feature = wallet.features['standard:connect'] as {
    connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }>;
  };
  const { accounts } = await feature.connect({ silent: args.silent });
  return accounts.map((account) => ({
    address: account.address,
    publicKey: btoa(String.fromCharCode(...account.publicKey)),
    chains: [...account.chains],
    features: [...account.features],
  }));
};

const signMessage = async (wallet: Wallet, args: { text: string }) => {
  const feature = wallet.features['solana:signMessage'] as {
    signMessage(
      ...inputs: { account: WalletAccount; message: Uint8Array }[]
    ): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }[]>;
  };
  const [account] = wallet.accounts;
  const fake = { address: 'none', publicKey: new Uint8Array(32), chains: [], features: [] } as WalletAccount;
  const [output] = await feature.signMessage({
    account: account ?? fake,
    message: new TextEncoder().encode(args.text),
  });
  const encode = (data: Iterable<number>) => btoa(String.fromCharCode(...data));
  return { signedMessage: encode(output!.signedMessage), signature: encode(output!.signature) };
};

const signIn = async (wallet: Wallet, args: { input: Record<string, string> }) => {
  const feature = wallet.features['solana:signIn'] as {
    signIn(
      ...inputs: Record<string, string>[]
    ): Promise<
      { account: WalletAccount; signedMessage: Uint8Array; signature: Uint8Array; signatureType?: string }[]
    >;
  };
  const [output] = await feature.signIn(args.input);
  const encode = (data: Iterable<number>) => btoa(String.fromCharCode(...data));
  return {
    address: output!.account.address,
    publicKey: encode(output!.account.publicKey),
    signedMessage: encode(output!.signedMessage),
    signature: encode(output!.signature),
    signatureType: output!.signatureType,
    accountsAfter: wallet.accounts.map((account) => account.address),
  };
};

const signTransaction = async (wallet: Wallet, args: { transaction: string; chain: string }) => {
  const feature = wallet.features['solana:signTransaction'] as {
    signTransaction(
      ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]
    ): Promise<{ signedTransaction: Uint8Array }[]>;
  };
  const [account] = wallet.accounts;
  const transaction = Uint8Array.from(atob(args.transaction), (char) => char.charCodeAt(0));
  const [output] = await feature.signTransaction({ account: account!, transaction, chain: args.chain });
  return btoa(String.fromCharCode(...output!.signedTransaction));
};

const disconnect = async (wallet: Wallet, _args: null) => {
  const changes: number[] = [];
  const events = wallet.features['standard:events'] as {
    on(event: 'change', listener: (properties: { accounts?: readonly WalletAccount[] }) => void): () => void;
  };
  const off = events.on('change', ({ accounts }) => changes.push(accounts?.length ?? -1));
  await (wallet.features['standard:disconnect'] as { disconnect(): Promise<void> }).disconnect();
  off();
  return { changes, accounts: wallet.accounts.length };
};

async function openWithWallet() {
  const opened = await app.newPage({ wallet: true });
  await opened.page.goto(app.url('/'));
  const discovered = await discoverWallet(opened.page, WALLET_NAME);
  expect(discovered).not.toBeNull();
  return { ...opened, wallet: opened.wallet! };
}

async function buildTransfer(options: { version: 0 | 'legacy'; from: Address; feePayer: Address }) {
  const destination = await getAddressFromPublicKey((await generateKeyPair()).publicKey);
  const blockhash = getBase58Decoder().decode(crypto.getRandomValues(new Uint8Array(32))) as Blockhash;
  const message = pipe(
    createTransactionMessage({ version: options.version }),
    (m) => setTransactionMessageFeePayer(options.feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 100n }, m),
    (m) =>
      appendTransactionMessageInstruction(
        getTransferSolInstruction({
          source: createNoopSigner(options.from),
          destination,
          amount: 10_000_000n,
        }),
        m,
      ),
  );
  return compileTransaction(message);
}

describe('E2E Test Wallet', () => {
  test('is discovered through the Wallet Standard app-ready handshake, with the advertised features', async () => {
    const { page } = await openWithWallet();
    const discovered = await discoverWallet(page, WALLET_NAME);
    expect(discovered).toEqual({
      count: 1,
      version: '1.0.0',
      name: 'E2E Test Wallet',
      icon: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      chains: ['solana:localnet', 'solana:devnet'],
      accounts: 0,
      features: {
        'standard:connect': '1.0.0',
        'standard:disconnect': '1.0.0',
        'standard:events': '1.0.0',
        'solana:signIn': '1.0.0',
        'solana:signMessage': '1.1.0',
        'solana:signTransaction': '1.0.0',
      },
      transactionVersions: ['legacy', 0],
    });
  });

  test('is absent from pages whose context did not install it', async () => {
    const { page } = await app.newPage();
    await page.goto(app.url('/'));
    expect(await discoverWallet(page, WALLET_NAME)).toBeNull();
  });

  test('connects on approval, stays trusted across a reload, and disconnects', async () => {
    const { page, wallet } = await openWithWallet();
    expect(succeeded(await callWallet(page, connect, { silent: true }))).toEqual([]);

    const [account] = succeeded(await callWallet(page, connect, { silent: false }));
    expect(account).toEqual({
      address: wallet.address,
      publicKey: toBase64(wallet.publicKeyBytes),
      chains: ['solana:localnet', 'solana:devnet'],
      features: ['solana:signIn', 'solana:signMessage', 'solana:signTransaction'],
    });
    expect(wallet.isConnected(new URL(app.baseUrl).origin)).toBe(true);

    await page.reload();
    await discoverWallet(page, WALLET_NAME);
    const [again] = succeeded(await callWallet(page, connect, { silent: true }));
    expect(again?.address).toBe(wallet.address);

    expect(succeeded(await callWallet(page, disconnect, null))).toEqual({ changes: [0], accounts: 0 });
    expect(wallet.isConnected(new URL(app.baseUrl).origin)).toBe(false);
  });

  test('signs a message with the key held in Node', async () => {
    const { page, wallet } = await openWithWallet();
    succeeded(await callWallet(page, connect, { silent: false }));
    const text = 'DarePool e2e: sign this exact text';
    const output = succeeded(await callWallet(page, signMessage, { text }));

    const message = bytes(output.signedMessage);
    expect(new TextDecoder().decode(message)).toBe(text);
    const signature = bytes(output.signature) as SignatureBytes;
    expect(await verifySignature(wallet.publicKey, signature, message)).toBe(true);
    const tampered = new TextEncoder().encode(`${text}!`);
    expect(await verifySignature(wallet.publicKey, signature, tampered)).toBe(false);
  });

  test('signs in with Solana: the message is createSignInMessageText of the input and its address', async () => {
    const { page, wallet } = await openWithWallet();
    const { host, origin } = new URL(app.baseUrl);
    const issuedAt = new Date();
    const input = {
      domain: host,
      statement: 'Sign in to DarePool',
      uri: origin,
      version: '1',
      chainId: 'solana:localnet',
      nonce: 'a1b2c3d4e5f60718',
      issuedAt: issuedAt.toISOString(),
      expirationTime: new Date(issuedAt.getTime() + 10 * 60_000).toISOString(),
    } satisfies SolanaSignInInput;

    const output = succeeded(await callWallet(page, signIn, { input }));
    expect(output.address).toBe(wallet.address);
    expect(output.accountsAfter).toEqual([wallet.address]);
    expect(output.signatureType).toBe('ed25519');

    const signedMessage = bytes(output.signedMessage);
    expect(new TextDecoder().decode(signedMessage)).toBe(
      createSignInMessageText({ ...input, address: wallet.address }),
    );
    const signature = bytes(output.signature) as SignatureBytes;
    expect(await verifySignature(wallet.publicKey, signature, signedMessage)).toBe(true);
    const account = {
      address: output.address,
      publicKey: bytes(output.publicKey),
      chains: [] as const,
      features: [] as const,
    };
    expect(verifySignIn(input, { account, signedMessage, signature })).toBe(true);
  });

  test('fills in the page host as the sign-in domain when the input has none, as Phantom does', async () => {
    const { page, wallet } = await openWithWallet();
    const output = succeeded(await callWallet(page, signIn, { input: { statement: 'Hello' } }));
    expect(new TextDecoder().decode(bytes(output.signedMessage))).toBe(
      `${new URL(app.baseUrl).host} wants you to sign in with your Solana account:\n${wallet.address}\n\nHello`,
    );
  });

  test.each([0, 'legacy'] as const)(
    'signs a version %s transaction built in Node, in its own signer slot',
    async (version) => {
      const { page, wallet } = await openWithWallet();
      succeeded(await callWallet(page, connect, { silent: false }));
      const feePayer = await generateKeyPair();
      const feePayerAddress = await getAddressFromPublicKey(feePayer.publicKey);
      const unsigned = await buildTransfer({ version, from: wallet.address, feePayer: feePayerAddress });

      const signedBase64 = succeeded(
        await callWallet(page, signTransaction, {
          transaction: getBase64EncodedWireTransaction(unsigned),
          chain: 'solana:localnet',
        }),
      );
      const signed = getTransactionDecoder().decode(bytes(signedBase64));
      expect(new Uint8Array(signed.messageBytes)).toEqual(new Uint8Array(unsigned.messageBytes));
      const walletSignature = signed.signatures[wallet.address];
      expect(walletSignature).toBeTruthy();
      expect(await verifySignature(wallet.publicKey, walletSignature!, signed.messageBytes)).toBe(true);
      expect(signed.signatures[feePayerAddress]).toBeNull();

      const complete = await partiallySignTransaction([feePayer], signed);
      expect(
        await verifySignature(
          feePayer.publicKey,
          complete.signatures[feePayerAddress]!,
          complete.messageBytes,
        ),
      ).toBe(true);
    },
  );

  test('refuses a transaction that does not ask for its signature', async () => {
    const { page } = await openWithWallet();
    succeeded(await callWallet(page, connect, { silent: false }));
    const stranger = await getAddressFromPublicKey((await generateKeyPair()).publicKey);
    const unsigned = await buildTransfer({ version: 0, from: stranger, feePayer: stranger });
    const result = await callWallet(page, signTransaction, {
      transaction: getBase64EncodedWireTransaction(unsigned),
      chain: 'solana:localnet',
    });
    expect(result).toMatchObject({ failed: true, code: -32000 });
  });

  test('will not sign for a site that has not connected', async () => {
    const { page } = await openWithWallet();
    expect(await callWallet(page, signMessage, { text: 'hello' })).toMatchObject({
      failed: true,
      code: 4100,
    });
  });

  test('in reject mode answers every prompt with 4001 User rejected the request', async () => {
    const { page, wallet } = await openWithWallet();
    const rejected = { failed: true, code: 4001, message: 'User rejected the request.' };
    wallet.setMode('reject');
    expect(await callWallet(page, connect, { silent: false })).toEqual(rejected);
    expect(await callWallet(page, signIn, { input: { statement: 'Hello' } })).toEqual(rejected);

    wallet.setMode('approve');
    succeeded(await callWallet(page, connect, { silent: false }));
    wallet.setMode('reject');
    expect(await callWallet(page, signMessage, { text: 'hello' })).toEqual(rejected);
    const unsigned = await buildTransfer({ version: 0, from: wallet.address, feePayer: wallet.address });
    const transaction = getBase64EncodedWireTransaction(unsigned);
    expect(await callWallet(page, signTransaction, { transaction, chain: 'solana:localnet' })).toEqual(
      rejected,
    );
    expect(
      wallet.requests.filter((request) => request.outcome === 'rejected').map((request) => request.method),
    ).toEqual(['connect', 'signIn', 'signMessage', 'signTransaction']);
  });

  test('refuses, without a prompt, a sign-in for another domain or origin', async () => {
    const { page, wallet } = await openWithWallet();
    const { origin } = new URL(app.baseUrl);
    const wrongDomain = await callWallet(page, signIn, {
      input: { domain: 'darepool.evil.example', uri: origin, statement: 'Hello' },
    });
    expect(wrongDomain).toMatchObject({
      failed: true,
      code: -32000,
      message: expect.stringMatching(/domain/),
    });
    const wrongPort = await callWallet(page, signIn, {
      input: { domain: `${new URL(app.baseUrl).hostname}:1`, statement: 'Hello' },
    });
    expect(wrongPort).toMatchObject({ failed: true, code: -32000 });
    const wrongUri = await callWallet(page, signIn, {
      input: { domain: new URL(app.baseUrl).host, uri: 'https://darepool.evil.example', statement: 'Hello' },
    });
    expect(wrongUri).toMatchObject({ failed: true, code: -32000, message: expect.stringMatching(/URI/) });
    expect(
      wallet.requests.filter((request) => request.method === 'signIn').map((request) => request.outcome),
    ).toEqual(['refused', 'refused', 'refused']);
    expect(wallet.isConnected(origin)).toBe(false);
  });
});
