/**
 * Issue 34, item 5: the embedded chain's faucet key was derived from the source, so anyone reaching
 * the served RPC could sign transfers from it. Now each data folder has a random faucet key of its
 * own, kept beside the chain's state; a folder made before moves the old faucet's balance to it.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLedger } from '#server/chain/embedded/embedded-ledger';
import { Faucet } from '#server/chain/embedded/faucet';
import { ChainStateFiles } from '#server/chain/embedded/state-files';
import { readLegacyFixture, unpackLegacyDataFolder } from './fixtures/legacy-data-folder';

const dirs: string[] = [];
const ledgers: EmbeddedLedger[] = [];
afterEach(async () => {
  for (const ledger of ledgers.splice(0)) await ledger.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(dir: string, clock: () => Date = () => new Date()): EmbeddedLedger {
  const ledger = EmbeddedLedger.open(new ChainStateFiles(dir), clock);
  ledgers.push(ledger);
  return ledger;
}

const legacyAddress = Faucet.legacy().address;

/** A transfer signed with the key anyone can derive from the source, sent to `ledger`. */
function sendFromLegacyKey(ledger: EmbeddedLedger, to: string): unknown {
  const bytes = Faucet.legacy().transferTransaction(
    to as Parameters<Faucet['transferTransaction']>[0],
    1_000_000_000n,
    ledger.latestBlockhash().blockhash,
  );
  return ledger.send(ledger.decode(bytes, bytes.length, 'base64'), { skipPreflight: false });
}

describe("the embedded chain's faucet", () => {
  it('is a random key per data folder, kept across restarts, and the key in the source holds nothing', async () => {
    const [first, second] = [0, 1].map(() => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-faucet-'));
      dirs.push(dir);
      return dir;
    });
    const a = open(first!);
    const b = open(second!);
    expect(a.faucetAddress).not.toBe(b.faucetAddress);
    expect(a.faucetAddress).not.toBe(legacyAddress);
    expect(statSync(path.join(first!, 'faucet-key')).mode & 0o777).toBe(0o600);
    const wallet = (await generateKeyPairSigner()).address;
    a.airdrop(wallet, 2_000_000_000n);
    expect(a.balance(wallet)).toBe(2_000_000_000n);
    expect(a.balance(legacyAddress)).toBe(0n);
    expect(() => sendFromLegacyKey(a, wallet)).toThrow();
    expect(a.balance(wallet)).toBe(2_000_000_000n);

    const faucet = a.faucetAddress;
    const key = readFileSync(path.join(first!, 'faucet-key'), 'utf8');
    await a.close();
    ledgers.splice(ledgers.indexOf(a), 1);
    const again = open(first!);
    expect(again.faucetAddress).toBe(faucet);
    expect(readFileSync(path.join(first!, 'faucet-key'), 'utf8')).toBe(key);
    again.airdrop(wallet, 1_000_000_000n);
    expect(again.balance(wallet)).toBe(3_000_000_000n);
  });

  it("moves an older data folder's faucet balance to its own key at the first start", async () => {
    const dataDir = unpackLegacyDataFolder();
    dirs.push(dataDir);
    const fixture = readLegacyFixture();
    const clock = () => new Date(Date.parse(fixture.closedAt) + 60_000);
    const chainDir = path.join(dataDir, 'chain');
    const ledger = open(chainDir, clock);
    expect(ledger.balance(legacyAddress)).toBe(0n);
    expect(ledger.balance(ledger.faucetAddress)).toBeGreaterThan(10n ** 17n);
    const wallet = (await generateKeyPairSigner()).address;
    expect(() => sendFromLegacyKey(ledger, wallet)).toThrow();
    ledger.airdrop(wallet, 1_000_000_000n);
    expect(ledger.balance(wallet)).toBe(1_000_000_000n);
    // Kept: the next start neither moves anything again nor loses the balance.
    const faucet = ledger.faucetAddress;
    await ledger.close();
    ledgers.splice(ledgers.indexOf(ledger), 1);
    const again = open(chainDir, clock);
    expect(again.faucetAddress).toBe(faucet);
    expect(again.balance(legacyAddress)).toBe(0n);
    expect(again.balance(wallet)).toBe(1_000_000_000n);
  });
});
