/**
 * The escrow test chain on the embedded chain (embedded-runtime.ts), with program v1 deployed the
 * way the server deploys it: where the app's escrow transactions are tested through a real kit
 * RPC client, wallets signing what the app built for them. Not used by the server.
 */
import {
  type Address,
  type Base64EncodedWireTransaction,
  createNoopSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  type KeyPairSigner,
  type Signature,
  type SignatureBytes,
  signBytes,
} from '@solana/kit';
import {
  buildCancelAndRefundTransactions,
  buildCloseRecordsTransactions,
  buildRefundTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { ensureProgramDeployed } from '#server/chain/escrow-program/deploy';
import { type DareKind, ENTRY_SIZE } from '#server/chain/escrow-program/layout';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import {
  type EmbeddedRuntime,
  type EmbeddedRuntimeOptions,
  startEmbeddedRuntime,
} from '#test/support/chain/embedded-runtime';
import { type DareKeys, fundedDareKeys, HOUR, SIGNATURE_FEE } from '#test/support/chain/escrow-chain';
import { EscrowV1Chain } from '#test/support/chain/escrow-v1-chain';
import {
  buildCreateVaultTransaction,
  buildDepositV1Transaction,
  buildEnterTransaction,
  getCloseInstructions,
} from '#test/support/chain/v1-vaults';

export { SIGNATURE_FEE, SOL } from '#test/support/chain/escrow-chain';

export class EmbeddedEscrowChain extends EscrowV1Chain<EmbeddedRuntime> {
  private constructor(runtime: EmbeddedRuntime, programId: Address, keys: DareKeys) {
    super(runtime, programId, keys);
  }

  /** A new embedded chain, its clock at `options.start` (default 2026-11-22T10:00Z). */
  static async open(options: EmbeddedRuntimeOptions = {}): Promise<EmbeddedEscrowChain> {
    const runtime = await startEmbeddedRuntime(options);
    const { programId } = await ensureProgramDeployed({
      rpc: runtime.chain.rpc,
      authority: runtime.payer,
      keypairFile: null,
      bytes: readEscrowProgram(),
    });
    return new EmbeddedEscrowChain(runtime, programId, await fundedDareKeys(runtime));
  }

  get chain() {
    return this.runtime.chain;
  }

  get rpc() {
    return this.runtime.chain.rpc;
  }

  sendWire(wire: Base64EncodedWireTransaction): Promise<Signature> {
    return this.runtime.sendWire(wire);
  }

  costOf(signature: Signature): Promise<{ fee: bigint; computeUnits: bigint }> {
    return this.runtime.costOf(signature);
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
    const settle = this.settleInstruction(vault, winners);
    if (!closes) return (await this.must([await settle])).signature;
    const account = await this.vault(vault);
    if (!account) throw new Error(`settleV1: no vault at ${vault}`);
    const records = await listVaultRecords(this.rpc, this.programId, vault);
    const rentBack = { ...this.rentBack(vault), vaultRentPayer: account.rentPayer };
    const closing = await getCloseInstructions({ ...rentBack, ...records, refund: false });
    return (await this.must([await settle, ...closing])).signature;
  }

  /**
   * create_vault as the app builds it for the creator's wallet to sign (the platform, lending the
   * rent, has signed): the deadline in an hour, refunds an hour later unless told.
   */
  async buildCreateVault(
    creator: Address,
    stake: bigint,
    options: { kind?: DareKind; refundAfter?: bigint } = {},
  ): Promise<Awaited<ReturnType<typeof buildCreateVaultTransaction>>> {
    const deadline = (await this.now()) + HOUR;
    const input = await this.createInput({
      creator: createNoopSigner(creator),
      deadline,
      refundAfter: options.refundAfter ?? deadline + HOUR,
      amount: stake,
      kind: options.kind ?? 'community',
    });
    return buildCreateVaultTransaction(this.rpc, { ...input, creator });
  }

  /** A dare created by its creator's wallet, signing what the app built. */
  async createDareByWallet(
    creator: KeyPairSigner,
    stake: bigint,
    options: { kind?: DareKind; refundAfter?: bigint } = {},
  ): Promise<{ vault: Address; signature: Signature }> {
    const built = await this.buildCreateVault(creator.address, stake, options);
    return { vault: built.vault, signature: await this.sendWire(await walletSigns(built.base64, creator)) };
  }

  /** A deposit by the payer's wallet; the platform lends a new receipt's rent. */
  async depositByWallet(vault: Address, payer: KeyPairSigner, amount: bigint) {
    const built = await buildDepositV1Transaction(this.rpc, {
      programId: this.programId,
      vault,
      payer: payer.address,
      rentPayer: this.platform,
      amount,
    });
    return { built, signature: await this.sendWire(await walletSigns(built.base64, payer)) };
  }

  /**
   * An entry by the entrant's wallet, the fee payer, the entry's rent payer and the only signer:
   * it is given exactly the rent and the fee first. `paid`: what its balance went down by.
   */
  async enterByWallet(vault: Address, entrant: KeyPairSigner) {
    const built = await buildEnterTransaction(this.rpc, {
      programId: this.programId,
      vault,
      entrant: entrant.address,
    });
    await this.fund(
      entrant.address,
      (await this.runtime.minimumBalanceForRentExemption(ENTRY_SIZE)) + SIGNATURE_FEE,
    );
    const before = await this.balance(entrant.address);
    const signature = await this.sendWire(await walletSigns(built.base64, entrant));
    return { built, signature, paid: before - (await this.balance(entrant.address)) };
  }

  /** The app's cancel and refunds of `vault`: the moderator signs, the platform pays. */
  appCancelAndRefunds(vault: Address) {
    const keys = { moderator: this.moderator, feePayer: this.platform };
    return buildCancelAndRefundTransactions(this.rpc, { programId: this.programId, vault, ...keys });
  }

  /** The app's closes of `vault`'s records; `feePayer` (default the platform) pays. */
  appRecordCloses(vault: Address, feePayer: KeyPairSigner = this.platform) {
    return buildCloseRecordsTransactions(this.rpc, { programId: this.programId, vault, feePayer });
  }

  /** The app's 'Refund me' of `payer`'s receipt, for its wallet to sign. */
  appRefund(vault: Address, payer: Address) {
    return buildRefundTransaction(this.rpc, { programId: this.programId, vault, payer });
  }

  close(): Promise<void> {
    return this.runtime.close();
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
