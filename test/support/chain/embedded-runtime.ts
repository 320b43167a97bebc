/**
 * The embedded chain (LiteSVM behind the server's JSON-RPC handler) as a ProgramRuntime, reached
 * through kit's RPC client as the app reaches any node, on a clock the test sets. Unlike LiteSVM's
 * and bankrun's, a transaction the node refuses at preflight throws the RPC's error, as it does for
 * the app: it never landed and paid no fee. One that is accepted is waited for until confirmed.
 * Not used by the server.
 */
import {
  type Address,
  type Base64EncodedWireTransaction,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  type Signature,
} from '@solana/kit';
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEmbeddedChain } from '#server/chain/embedded/index';
import type { ProgramRuntime } from '#server/chain/escrow-program/runtimes/runtime';
import type { ChainPort } from '#server/chain/port';

export interface EmbeddedRuntime extends ProgramRuntime {
  readonly chain: ChainPort;
  /** Sends wire bytes with preflight and waits until they are confirmed. */
  sendWire(wire: Base64EncodedWireTransaction): Promise<Signature>;
  /** What a landed transaction was charged and logged, as the chain recorded it. */
  costOf(signature: Signature): Promise<{ fee: bigint; computeUnits: bigint; logs: string[] }>;
}

export interface EmbeddedRuntimeOptions {
  /** Where the chain keeps its state; null (the default) keeps it in memory. */
  stateDir?: string | null;
  /** Serve the chain's JSON-RPC over HTTP, as a localnet does. */
  rpcServer?: boolean;
  /** Where the chain's clock starts. */
  start?: Date;
}

export async function startEmbeddedRuntime(options: EmbeddedRuntimeOptions = {}): Promise<EmbeddedRuntime> {
  const clock = { now: options.start ?? new Date('2026-11-22T10:00:00.000Z') };
  const chain = await createEmbeddedChain({
    stateDir: options.stateDir ?? null,
    clock: () => clock.now,
    rpcServer: options.rpcServer ? { host: '127.0.0.1', port: 0 } : null,
  });
  const { rpc } = chain;
  const payer = await generateKeyPairSigner();
  await chain.airdrop(payer.address, 1_000_000_000_000n);
  const runtime: EmbeddedRuntime = {
    name: 'embedded',
    chain,
    payer,
    async latestBlockhash() {
      return (await rpc.getLatestBlockhash().send()).value;
    },
    async sendWire(wire) {
      const signature = await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
      await waitForConfirmation(rpc, signature, { intervalMs: 5, timeoutMs: 10_000 });
      return signature;
    },
    async sendTransaction(transaction) {
      const signature = await runtime.sendWire(getBase64EncodedWireTransaction(transaction));
      const { computeUnits, logs } = await runtime.costOf(signature);
      return { ok: true, computeUnits, logs };
    },
    async costOf(signature) {
      const transaction = await rpc
        .getTransaction(signature, {
          commitment: 'confirmed',
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send();
      if (!transaction?.meta) throw new Error(`no transaction ${signature}`);
      const { fee, computeUnitsConsumed, logMessages } = transaction.meta;
      return { fee, computeUnits: computeUnitsConsumed ?? 0n, logs: [...(logMessages ?? [])] };
    },
    async getAccount(address: Address) {
      const { value } = await rpc.getAccountInfo(address, { encoding: 'base64' }).send();
      if (!value) return null;
      const { lamports, owner, executable } = value;
      return { lamports, owner, executable, data: new Uint8Array(getBase64Encoder().encode(value.data[0])) };
    },
    async getBalance(address: Address) {
      return (await rpc.getBalance(address, { commitment: 'confirmed' }).send()).value;
    },
    minimumBalanceForRentExemption(size: number) {
      return rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
    },
    async fund(address: Address, lamports: bigint) {
      await chain.airdrop(address, lamports);
    },
    async now() {
      return BigInt(Math.floor(clock.now.getTime() / 1000));
    },
    async setTime(unixTimestamp: bigint) {
      // By whole seconds: a clock started at the machine's time keeps its milliseconds.
      const seconds = Number(unixTimestamp - (await runtime.now()));
      clock.now = new Date(clock.now.getTime() + seconds * 1000);
    },
    async nextSlot() {
      // Its slots move on as transactions land: a program deployed through its RPC runs from then on.
      throw new Error('the embedded chain moves on a slot by itself: deploy with ensureProgramDeployed');
    },
    close: () => chain.close(),
  };
  return runtime;
}
