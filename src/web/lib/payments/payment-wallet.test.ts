import type { WalletAccount } from '@wallet-standard/base';
import { describe, expect, it, vi } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import type { SigningWallet } from '#web/lib/wallet/wallets';
import { resolveJudgeWallet, resolvePaymentWallet, WalletNotFoundError } from './payment-wallet';

const OWN = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const OTHER = 'So11111111111111111111111111111111111111112';

const account = (address: string): WalletAccount => ({
  address,
  publicKey: new Uint8Array(32),
  chains: ['solana:localnet'],
  features: [],
});

function fakeWallet(name: string, address: string, local = false) {
  const signTransaction = vi.fn(async (_account: WalletAccount, tx: Uint8Array) =>
    Uint8Array.from([...tx, 1]),
  );
  const connect = vi.fn(async () => account(address));
  const wallet = {
    name,
    icon: '',
    local,
    connect,
    disconnect: async () => {},
    signMessage: async () => ({ signedMessage: new Uint8Array(), signature: new Uint8Array() }),
    signTransaction,
    onAccountsChanged: () => () => {},
  } satisfies SigningWallet;
  return wallet;
}

describe('resolvePaymentWallet', () => {
  it('uses the wallet this tab signed in with, without connecting again', async () => {
    const wallet = fakeWallet('Phantom', OWN);
    const signer = await resolvePaymentWallet(OWN, {
      current: { wallet, account: account(OWN) },
      installed: [fakeWallet('Other', OTHER)],
    });
    expect(wallet.connect).not.toHaveBeenCalled();
    expect(await signer.signTransaction(Uint8Array.from([7]))).toEqual(Uint8Array.from([7, 1]));
    expect(wallet.signTransaction.mock.calls[0]![0].address).toBe(OWN);
  });

  it('connects installed wallets in turn until one holds the address', async () => {
    const other = fakeWallet('Backpack', OTHER);
    const own = fakeWallet('E2E Test Wallet', OWN);
    const signer = await resolvePaymentWallet(OWN, { current: null, installed: [other, own] });
    expect(signer).toMatchObject({ address: OWN, walletName: 'E2E Test Wallet' });
    expect(other.connect).toHaveBeenCalledOnce();
  });

  it('falls back to the local dev wallet, tried last', async () => {
    const local = fakeWallet('Local dev wallet', OWN, true);
    const signer = await resolvePaymentWallet(OWN, {
      current: null,
      installed: [],
      local: async () => local,
    });
    expect(signer.walletName).toBe('Local dev wallet');
  });

  it("says Phantom is missing when there is no wallet at all (spec's text)", async () => {
    const failure = resolvePaymentWallet(OWN, { current: null, installed: [] });
    await expect(failure).rejects.toBeInstanceOf(WalletNotFoundError);
    await expect(failure).rejects.toThrow(
      'Phantom wallet not found. Please install Phantom wallet extension.',
    );
  });

  it('refuses a wallet on another account, naming both', async () => {
    await expect(
      resolvePaymentWallet(OWN, { current: null, installed: [fakeWallet('Phantom', OTHER)] }),
    ).rejects.toThrow('Connect the wallet of your account (9xQe…VFin) to pay: Phantom is on So11…1112.');
  });

  it("passes the wallet's own rejection of the connect prompt through", async () => {
    const wallet = fakeWallet('Phantom', OWN);
    wallet.connect.mockRejectedValueOnce(
      Object.assign(new Error('User rejected the request.'), { code: 4001 }),
    );
    await expect(resolvePaymentWallet(OWN, { current: null, installed: [wallet] })).rejects.toThrow(
      'User rejected the request.',
    );
  });
});

describe('resolveJudgeWallet', () => {
  const JUDGE = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

  it("uses this tab's wallet when it is one of the judges", async () => {
    const wallet = fakeWallet('Phantom', JUDGE);
    const signer = await resolveJudgeWallet([OTHER, JUDGE], {
      current: { wallet, account: account(JUDGE) },
      installed: [],
    });
    expect(signer.address).toBe(JUDGE);
    expect(wallet.connect).not.toHaveBeenCalled();
  });

  it('looks past a signed-in wallet that does not judge the dare', async () => {
    const judge = fakeWallet('E2E Test Wallet', JUDGE);
    const signer = await resolveJudgeWallet([JUDGE], {
      current: { wallet: fakeWallet('Phantom', OWN), account: account(OWN) },
      installed: [judge],
    });
    expect(signer).toMatchObject({ address: JUDGE, walletName: 'E2E Test Wallet' });
  });

  it('says to connect the judging wallet before signing anything', async () => {
    const other = fakeWallet('Phantom', OWN);
    const local = fakeWallet('Local dev wallet', OTHER, true);
    await expect(
      resolveJudgeWallet([JUDGE], {
        current: { wallet: other, account: account(OWN) },
        installed: [other],
        local: async () => local,
      }),
    ).rejects.toThrow(JUDGING_MESSAGES.noJudgeWallet);
    expect(other.signTransaction).not.toHaveBeenCalled();
    expect(local.signTransaction).not.toHaveBeenCalled();
  });
});
