/**
 * The durable nonce a propose lives by when several judges sign it in turn (decision 042): a
 * blockhash lives about a minute, too short for the second judge to come and sign. One nonce
 * account per vault, at an address derived from the fee payer and the vault (no key to keep),
 * owned by the System program, its authority the fee payer: created at the first multi-judge
 * proposal of the vault (rent from the fee payer), and advanced by the propose that lands, so a
 * stored proposal can land until then — and a replaced one never, as only the fee payer (the
 * authority) can sign the advance, which the server does only for the stored message.
 */
import type { Address, Instruction, KeyPairSigner, Nonce, Rpc, SolanaRpcApi } from '@solana/kit';
import {
  fetchMaybeNonce,
  getCreateAccountWithSeedInstruction,
  getInitializeNonceAccountInstruction,
  getNonceSize,
  getWithdrawNonceAccountInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import { priorityFeesOf } from '#server/chain/compute-budget';
import { proposeNonceAddress } from '#server/chain/escrow-program/v2/propose-nonce-account';
import { packSignedTransactions } from '#server/chain/escrow-program/wire-transactions';
import { sendServerSigned } from '#server/chain/server-signed';

export { proposeNonceAddress };

export interface NonceLifetime {
  nonce: Nonce;
  nonceAccountAddress: Address;
  nonceAuthorityAddress: Address;
}

/** Stored as a proposal's last valid block height: a nonce-lived transaction has none. */
export const NO_BLOCK_HEIGHT_LIMIT = 9_223_372_036_854_775_807n;

/** The nonce account's current value; null when it does not exist (yet). */
export async function currentNonce(rpc: Rpc<SolanaRpcApi>, nonceAccount: Address): Promise<Nonce | null> {
  const account = await fetchMaybeNonce(rpc, nonceAccount, { commitment: 'confirmed' });
  return account.exists ? (account.data.blockhash as string as Nonce) : null;
}

/** The vault's propose nonce, created (and paid for by the fee payer) when missing. */
export async function proposeNonce(
  rpc: Rpc<SolanaRpcApi>,
  feePayer: KeyPairSigner,
  vault: Address,
): Promise<NonceLifetime> {
  const nonceAccountAddress = await proposeNonceAddress(feePayer.address, vault);
  let nonce = await currentNonce(rpc, nonceAccountAddress);
  if (!nonce) {
    const space = BigInt(getNonceSize());
    const rent = await rpc.getMinimumBalanceForRentExemption(space).send();
    // Two judges asking at once may both create it: one lands, the other is refused; either way
    // the account exists afterwards.
    await sendAsFeePayer(rpc, feePayer, [
      getCreateAccountWithSeedInstruction({
        payer: feePayer,
        newAccount: nonceAccountAddress,
        baseAccount: feePayer,
        base: feePayer.address,
        seed: vault.slice(0, 32),
        amount: rent,
        space,
        programAddress: SYSTEM_PROGRAM_ADDRESS,
      }),
      getInitializeNonceAccountInstruction({
        nonceAccount: nonceAccountAddress,
        nonceAuthority: feePayer.address,
      }),
    ]).catch(() => undefined);
    nonce = await currentNonce(rpc, nonceAccountAddress);
    if (!nonce) throw new Error('The propose nonce account could not be created');
  }
  return { nonce, nonceAccountAddress, nonceAuthorityAddress: feePayer.address };
}

/**
 * Gives the vault's propose nonce account back to the fee payer: its whole balance (the rent the
 * fee payer lent it, and anything sent to it since) withdrawn by the fee payer as its authority,
 * which deletes the account. Only for a vault where no proposal can land any more (executed,
 * refunding or closed): a collecting proposal would lose its lifetime. Exactly once by the chain
 * itself: a second withdraw of a balance already taken is refused by the node's preflight and
 * moves nothing, and one interrupted by a crash is simply sent again by the next caller (the
 * account is still there). Returns the lamports withdrawn: 0n when there is no such account.
 */
export async function reclaimProposeNonce(
  rpc: Rpc<SolanaRpcApi>,
  feePayer: KeyPairSigner,
  vault: Address,
): Promise<bigint> {
  const nonceAccount = await proposeNonceAddress(feePayer.address, vault);
  const { value: account } = await rpc
    .getAccountInfo(nonceAccount, { commitment: 'confirmed', encoding: 'base64' })
    .send();
  if (!account) return 0n;
  await sendAsFeePayer(rpc, feePayer, [
    getWithdrawNonceAccountInstruction({
      nonceAccount,
      recipientAccount: feePayer.address,
      nonceAuthority: feePayer,
      withdrawAmount: account.lamports,
    }),
  ]);
  return account.lamports;
}

/** Signs `instructions` with the fee payer (and any signer in them), sends and waits for them. */
async function sendAsFeePayer(
  rpc: Rpc<SolanaRpcApi>,
  feePayer: KeyPairSigner,
  instructions: Instruction[],
): Promise<void> {
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const [transaction, ...more] = await packSignedTransactions({
    feePayer,
    lifetime,
    fees: priorityFeesOf(rpc),
    steps: instructions.map((instruction) => ({ instruction })),
  });
  if (!transaction || more.length > 0) throw new Error('The nonce instructions must fit in one transaction');
  await sendServerSigned(
    rpc,
    { ...transaction, lastValidBlockHeight: lifetime.lastValidBlockHeight },
    { timeoutMs: 60_000 },
  );
}
