/**
 * solana-bankrun: solana-program-test's BanksServer (Agave 1.18) in process, a second runtime to
 * run a program on beside LiteSVM. Reached through the package's raw-bytes layer
 * (`solana-bankrun/dist/internal`: the `start` its public `start` wraps in web3.js 1.x types), so
 * kit transactions go in as their wire bytes and nothing of web3.js 1.x is needed.
 *
 * The package ships native binaries for macOS and Linux x64 (glibc, musl) only: `loadBankrun`
 * says why it cannot run on another platform (linux-arm64 among them) and fails loudly on one it
 * supports.
 */
import {
  type Address,
  createKeyPairSignerFromBytes,
  generateKeyPairSigner,
  getAddressDecoder,
  getAddressEncoder,
  getTransactionEncoder,
  type Transaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { type ProgramRuntime, type RuntimeResult, sendInstructions } from './runtime';

type Bankrun = typeof import('solana-bankrun/dist/internal.js');

/** Where solana-bankrun 0.4.0 publishes a native binary (its package.json's napi triples). */
const SUPPORTED = ['darwin-x64', 'darwin-arm64', 'linux-x64'];

export type BankrunAvailability = { ok: true; bankrun: Bankrun } | { ok: false; reason: string };

export async function loadBankrun(
  platform = `${process.platform}-${process.arch}`,
  load: () => Promise<Bankrun> = () => import('solana-bankrun/dist/internal.js'),
): Promise<BankrunAvailability> {
  try {
    return { ok: true, bankrun: await load() };
  } catch (error) {
    // Only where no binary exists is "cannot run here" an answer; elsewhere it is a broken install.
    if (SUPPORTED.includes(platform)) throw error;
    return {
      ok: false,
      reason: `solana-bankrun 0.4.0 has no native binary for ${platform} (only macOS and Linux x64): ${(error as Error).message.split('\n')[0]}`,
    };
  }
}

const PAYER_LAMPORTS = 1_000_000_000_000n;
const addressBytes = (address: Address) => new Uint8Array(getAddressEncoder().encode(address));

/** "Error processing Instruction 0: custom program error: 0x17" → 23. */
function customCode(error: string): number | null {
  const match = /custom program error: 0x([0-9a-f]+)/i.exec(error);
  return match ? Number.parseInt(match[1]!, 16) : null;
}

export async function startBankrunRuntime(bankrun: Bankrun): Promise<ProgramRuntime> {
  // The BanksServer logs every instruction at debug level to stderr unless told otherwise.
  process.env.RUST_LOG ??= 'off';
  // No program or account at genesis: programs are deployed through the loader like anywhere else.
  const context = await bankrun.start([], []);
  const client = context.banksClient;
  const encodeTransaction = getTransactionEncoder();

  // The genesis payer is the faucet: a transfer keeps the bank's capitalization right, which a
  // warp checks (an account written with `setAccount` out of thin air makes it panic).
  const faucet = await createKeyPairSignerFromBytes(context.payer);
  let runtime: ProgramRuntime;
  let warped = false;
  async function fund(address: Address, amount: bigint): Promise<void> {
    const result = await sendInstructions(
      runtime,
      [getTransferSolInstruction({ source: faucet, destination: address, amount })],
      faucet,
    );
    if (!result.ok) throw new Error(`bankrun: funding ${address} failed: ${result.error}`);
  }

  async function setClock(change: { slot?: bigint; unixTimestamp?: bigint }): Promise<void> {
    const clock = await client.getClock();
    context.setClock(
      new bankrun.Clock(
        change.slot ?? clock.slot,
        clock.epochStartTimestamp,
        clock.epoch,
        clock.leaderScheduleEpoch,
        change.unixTimestamp ?? clock.unixTimestamp,
      ),
    );
  }

  runtime = {
    name: 'bankrun',
    payer: await generateKeyPairSigner(),
    async latestBlockhash() {
      // One blockhash for the whole run (the bank moves on one slot at most): a transaction
      // identical to an earlier one is refused as already processed, so tests vary theirs.
      const latest = await client.getLatestBlockhash();
      if (!latest) throw new Error('bankrun: no blockhash');
      return { blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight };
    },
    async sendTransaction(transaction: Transaction): Promise<RuntimeResult> {
      const bytes = new Uint8Array(encodeTransaction.encode(transaction));
      const outcome = await client.tryProcessVersionedTransaction(bytes);
      const logs = outcome.meta?.logMessages ?? [];
      if (outcome.result !== null)
        return { ok: false, error: outcome.result, code: customCode(outcome.result), logs };
      return { ok: true, computeUnits: outcome.meta?.computeUnitsConsumed ?? 0n, logs };
    },
    async getAccount(address: Address) {
      const account = await client.getAccount(addressBytes(address));
      if (!account) return null;
      return {
        lamports: account.lamports,
        owner: getAddressDecoder().decode(account.owner),
        executable: account.executable,
        data: new Uint8Array(account.data),
      };
    },
    async getBalance(address: Address) {
      return client.getBalance(addressBytes(address));
    },
    async minimumBalanceForRentExemption(size: number) {
      return (await client.getRent()).minimumBalance(BigInt(size));
    },
    fund,
    async now() {
      return (await client.getClock()).unixTimestamp;
    },
    async setTime(unixTimestamp: bigint) {
      await setClock({ unixTimestamp });
    },
    async nextSlot() {
      // solana-program-test 1.18 hangs every later call of a program (the request times out after
      // 10 s) once the bank has been warped a second time, so a runtime moves on one slot only.
      if (warped)
        throw new Error('bankrun: cannot move on a second slot; deploy every invoked program at once');
      warped = true;
      const { unixTimestamp } = await client.getClock();
      context.warpToSlot((await client.getSlot()) + 1n);
      await setClock({ unixTimestamp });
    },
    async close() {},
  };
  await fund(runtime.payer.address, PAYER_LAMPORTS);
  return runtime;
}
