/**
 * The embedded chain takes transactions that live by a durable nonce, as a node does: the lifetime
 * token is the nonce account's current value and the first instruction advances it. A judge's
 * partly signed propose lives so (decision 042); once the nonce moved on, the same bytes are refused.
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  isSolanaError,
  pipe,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingDurableNonce,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import { waitForConfirmation } from '#server/chain/confirmation';
import { currentNonce, proposeNonce } from '#server/features/judging/propose-nonce';
import { createEmbeddedChain } from '.';

describe('embedded chain: durable nonce transactions', () => {
  it('lands one after its blockhash would have expired, advances the nonce, and refuses a stale one', async () => {
    const chain = await createEmbeddedChain({ stateDir: null, testControls: true });
    try {
      const payer = await generateKeyPairSigner();
      const vault = (await generateKeyPairSigner()).address;
      await chain.airdrop(payer.address, 1_000_000_000n);
      const lifetime = await proposeNonce(chain.rpc, payer, vault);
      // The same account again, not a second one.
      expect((await proposeNonce(chain.rpc, payer, vault)).nonceAccountAddress).toBe(
        lifetime.nonceAccountAddress,
      );
      const build = async (lamports: bigint) =>
        getBase64EncodedWireTransaction(
          await signTransactionMessageWithSigners(
            pipe(
              createTransactionMessage({ version: 0 }),
              (m) => setTransactionMessageFeePayerSigner(payer, m),
              (m) => setTransactionMessageLifetimeUsingDurableNonce(lifetime, m),
              (m) =>
                appendTransactionMessageInstructions(
                  [getTransferSolInstruction({ source: payer, destination: vault, amount: lamports })],
                  m,
                ),
            ),
          ),
        );
      const first = await build(1_000_000n);
      const stale = await build(2_000_000n);
      await chain.testControls!.warp(600);
      const signature = await chain.rpc.sendTransaction(first, { encoding: 'base64' }).send();
      await waitForConfirmation(chain.rpc, signature, { timeoutMs: 10_000 });
      expect(await currentNonce(chain.rpc, lifetime.nonceAccountAddress)).not.toBe(lifetime.nonce);
      const refused = await chain.rpc
        .sendTransaction(stale, { encoding: 'base64' })
        .send()
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(
        isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
      ).toBe(true);
      expect((await chain.rpc.getBalance(vault).send()).value).toBe(1_000_000n);
    } finally {
      await chain.close();
    }
  });
});
