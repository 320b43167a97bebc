/**
 * The embedded chain (LiteSVM behind our JSON-RPC handler) with the escrow program deployed the
 * way the server deploys it, a clock the test moves, and a funded platform fee payer and
 * moderator: where the app's escrow transactions are tested through a real kit RPC client.
 * Not used by the server.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Base64EncodedWireTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  type Signature,
  type SignatureBytes,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEmbeddedChain } from '#server/chain/embedded/index';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { ensureProgramDeployed } from '#server/chain/escrow-program/deploy';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import type { ChainPort } from '#server/chain/port';
import { getSettleAndCloseInstructions, getSettleInstruction } from '#test/support/chain/v1-vaults';

export const SOL = 1_000_000_000n;
/** LiteSVM's (and mainnet's) fee: 5000 lamports per signature. */
export const SIGNATURE_FEE = 5000n;

export class EmbeddedEscrowChain {
  private constructor(
    readonly chain: ChainPort,
    readonly programId: Address,
    /** The platform fee payer: pays fees and rent, gets the rent back. */
    readonly platform: KeyPairSigner,
    readonly moderator: KeyPairSigner,
    private readonly clock: { now: Date },
  ) {}

  static async start(
    options: { stateDir?: string | null; rpcServer?: boolean; start?: Date } = {},
  ): Promise<EmbeddedEscrowChain> {
    const clock = { now: options.start ?? new Date('2026-11-22T10:00:00.000Z') };
    const chain = await createEmbeddedChain({
      stateDir: options.stateDir ?? null,
      clock: () => clock.now,
      rpcServer: options.rpcServer ? { host: '127.0.0.1', port: 0 } : null,
    });
    const platform = await generateKeyPairSigner();
    await chain.airdrop(platform.address, 1_000n * SOL);
    const { programId } = await ensureProgramDeployed({
      rpc: chain.rpc,
      authority: platform,
      keypairFile: null,
      bytes: readEscrowProgram(),
    });
    return new EmbeddedEscrowChain(chain, programId, platform, await generateKeyPairSigner(), clock);
  }

  get rpc() {
    return this.chain.rpc;
  }

  /** Unix seconds of the app's clock: the time the next transaction executes at. */
  now(): bigint {
    return BigInt(Math.floor(this.clock.now.getTime() / 1000));
  }

  tick(seconds: bigint): void {
    this.clock.now = new Date(this.clock.now.getTime() + Number(seconds) * 1000);
  }

  async wallet(sol = 10n): Promise<KeyPairSigner> {
    const signer = await generateKeyPairSigner();
    if (sol > 0n) await this.chain.airdrop(signer.address, sol * SOL);
    return signer;
  }

  /** Exactly `lamports` more for `address` (an entrant's entry, to the lamport). */
  async fund(address: Address, lamports: bigint): Promise<void> {
    await this.chain.airdrop(address, lamports);
  }

  async balance(address: Address): Promise<bigint> {
    return (await this.rpc.getBalance(address, { commitment: 'confirmed' }).send()).value;
  }

  async exists(address: Address): Promise<boolean> {
    return (await this.rpc.getAccountInfo(address, { encoding: 'base64' }).send()).value !== null;
  }

  /** Sends wire bytes with preflight and waits until they are confirmed. */
  async sendWire(wire: Base64EncodedWireTransaction): Promise<Signature> {
    const signature = await this.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    await waitForConfirmation(this.rpc, signature, { intervalMs: 5, timeoutMs: 10_000 });
    return signature;
  }

  /** Instructions in one transaction paid by `feePayer` (default the platform). */
  async send(instructions: Instruction[], feePayer: KeyPairSigner = this.platform): Promise<Signature> {
    const { value: lifetime } = await this.rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    await this.sendWire(getBase64EncodedWireTransaction(transaction));
    return getSignatureFromTransaction(transaction);
  }

  /**
   * v1's `settle` signed by the moderator key, as only a test sends one now: the program still
   * allows it, the server signs none (docs/decisions/050-retire-v1.md). With `closes` (the
   * default), every record's close follows in the same transaction; without, the settle alone
   * (the app's buildCloseRecordsTransactions closes the rest, as for a vault paid before v1 was
   * retired). Returns its signature.
   */
  async settleV1(
    vault: Address,
    winners: readonly Address[],
    { closes = true }: { closes?: boolean } = {},
  ): Promise<Signature> {
    const account = await fetchVault(this.rpc, this.programId, vault);
    if (!account) throw new Error(`settleV1: no vault at ${vault}`);
    const input = { programId: this.programId, vault, moderator: this.moderator, winners };
    if (!closes) return this.send([await getSettleInstruction(input)]);
    const records = await listVaultRecords(this.rpc, this.programId, vault);
    return this.send(
      await getSettleAndCloseInstructions({
        ...input,
        vaultRentPayer: account.rentPayer,
        receipts: records.receipts,
        entries: records.entries,
      }),
    );
  }

  /** The fee and compute units a landed transaction was charged, as the chain recorded them. */
  async costOf(signature: Signature): Promise<{ fee: bigint; computeUnits: bigint }> {
    const transaction = await this.rpc
      .getTransaction(signature, {
        commitment: 'confirmed',
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    if (!transaction?.meta) throw new Error(`no transaction ${signature}`);
    return { fee: transaction.meta.fee, computeUnits: transaction.meta.computeUnitsConsumed ?? 0n };
  }

  close(): Promise<void> {
    return this.chain.close();
  }
}

/**
 * What a wallet does with a transaction the server built: decode it, sign its message bytes with
 * its own key, put the signature in its slot, encode it again. Other signatures stay as they are.
 */
export async function walletSigns(
  wire: string,
  wallet: KeyPairSigner,
): Promise<Base64EncodedWireTransaction> {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  if (!(wallet.address in transaction.signatures))
    throw new Error('the wallet is not a signer of this transaction');
  const signature = (await signBytes(wallet.keyPair.privateKey, transaction.messageBytes)) as SignatureBytes;
  const signed = { ...transaction, signatures: { ...transaction.signatures, [wallet.address]: signature } };
  return getBase64EncodedWireTransaction(signed);
}
