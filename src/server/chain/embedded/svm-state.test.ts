import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { type Address, generateKeyPairSigner, lamports } from '@solana/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainStateError, createEmbeddedChain } from '.';
import { decodeSvmState, encodeSvmState, type SvmState } from './svm-state';

const SOL = 1_000_000_000n;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-svm-state-'));
  dirs.push(dir);
  return dir;
}

/** Rewrites state.bin's header and snapshot as `edit` says, with a checksum that matches. */
function rewriteState(
  stateDir: string,
  edit: (header: Record<string, unknown>, svm: Uint8Array) => Uint8Array,
): Record<string, unknown> {
  const file = path.join(stateDir, 'state.bin');
  const bytes = readFileSync(file);
  const newline = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.subarray(0, newline).toString('utf8')) as Record<string, unknown>;
  const svm = edit(header, new Uint8Array(bytes.subarray(newline + 1)));
  header.svmBytes = svm.length;
  header.svmCrc32 = crc32(svm);
  writeFileSync(file, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), svm]));
  return header;
}

const stateHeader = (stateDir: string) =>
  JSON.parse(readFileSync(path.join(stateDir, 'state.bin'), 'utf8').split('\n')[0]!) as { format: number };

async function balanceOf(chain: Awaited<ReturnType<typeof createEmbeddedChain>>, address: Address) {
  return (await chain.rpc.getBalance(address).send()).value;
}

describe('embedded chain snapshots without LiteSVM snapshots (litesvm 1.4.1)', () => {
  it('encodes accounts exactly and refuses truncated or padded bytes', () => {
    const state: SvmState = {
      blockhashesExpired: 7,
      latestBlockhash: 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky',
      accounts: [
        {
          address: '11111111111111111111111111111112' as Address,
          programAddress: 'BPFLoaderUpgradeab1e11111111111111111111111' as Address,
          lamports: lamports(2n ** 64n - 1n),
          executable: true,
          data: new Uint8Array([1, 2, 3]),
          space: 3n,
        },
        {
          address: 'SysvarC1ock11111111111111111111111111111111' as Address,
          programAddress: 'Sysvar1111111111111111111111111111111111111' as Address,
          lamports: lamports(0n),
          executable: false,
          data: new Uint8Array(),
          space: 0n,
        },
      ],
    };
    const bytes = encodeSvmState(state);
    expect(decodeSvmState(bytes)).toEqual(state);
    expect(() => decodeSvmState(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    expect(() => decodeSvmState(new Uint8Array([...bytes, 0]))).toThrow(/trailing/);
  });

  it('continues the blockhash chain after a restart instead of handing out old blockhashes again', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    const wallet = (await generateKeyPairSigner()).address;
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      await chain.airdrop(wallet, SOL);
      seen.add((await chain.rpc.getLatestBlockhash().send()).value.blockhash);
    }
    await chain.close();

    const reopened = await createEmbeddedChain({ stateDir });
    await reopened.airdrop(wallet, SOL);
    const { blockhash } = (await reopened.rpc.getLatestBlockhash().send()).value;
    expect(seen.has(blockhash)).toBe(false);
    expect(await balanceOf(reopened, wallet)).toBe(4n * SOL);
    await reopened.close();

    // A blockhash chain that does not end where it was saved is damage, not a fresh start.
    rewriteState(stateDir, (_header, svm) => {
      const state = decodeSvmState(svm);
      return encodeSvmState({ ...state, blockhashesExpired: state.blockhashesExpired - 1 });
    });
    const error = await createEmbeddedChain({ stateDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainStateError);
    expect((error as Error).message).toMatch(/blockhash after \d+ expirations/);
  });

  it('rebuilds a chain saved by litesvm 1.5 (format 1) from its log, then saves it in format 2', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    const alice = await generateKeyPairSigner();
    await chain.airdrop(alice.address, 3n * SOL);
    await chain.airdrop(alice.address, SOL);
    const slot = await chain.rpc.getSlot().send();
    const signatures = await chain.rpc.getSignaturesForAddress(alice.address).send();
    await chain.close();
    expect(stateHeader(stateDir).format).toBe(2);

    // LiteSVM 1.5's snapshot bytes mean nothing to 1.4.1: stand-in bytes, as unreadable.
    rewriteState(stateDir, (header) => {
      header.format = 1;
      return new Uint8Array(4096).fill(0xab);
    });

    const rebuilt = await createEmbeddedChain({ stateDir });
    expect(await balanceOf(rebuilt, alice.address)).toBe(4n * SOL);
    expect(await rebuilt.rpc.getSlot().send()).toBe(slot);
    expect(await rebuilt.rpc.getSignaturesForAddress(alice.address).send()).toEqual(signatures);
    expect(stateHeader(stateDir).format).toBe(2);
    await rebuilt.airdrop(alice.address, SOL);
    await rebuilt.close();

    const again = await createEmbeddedChain({ stateDir });
    expect(await balanceOf(again, alice.address)).toBe(5n * SOL);
    await again.close();
  });
});
