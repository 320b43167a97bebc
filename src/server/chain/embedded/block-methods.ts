import type { EmbeddedLedger } from './embedded-ledger';
import { configParam, invalidParams, JsonRpcError, u64Param } from './json-rpc';
import { renderTransaction, renderTransactionAccounts, type TransactionEncoding } from './transaction-view';

// agave: MAX_GET_CONFIRMED_BLOCKS_RANGE.
const MAX_BLOCKS_RANGE = 500_000;
const BLOCK_NOT_AVAILABLE = -32004;
const SLOT_SKIPPED = -32007;

type Methods = Record<string, (params: readonly unknown[]) => unknown>;

/**
 * Blocks. A slot holds at most one transaction here; a slot that passed without one produced no
 * block and is answered as a validator answers a skipped slot. Block height equals the slot (what
 * getBlockHeight and lastValidBlockHeight say), so blockhash expiry reads the same everywhere.
 */
export function blockMethods(ledger: EmbeddedLedger): Methods {
  const slotParam = (params: readonly unknown[], index: number, what: string) =>
    Number(u64Param(params[index], what));

  function requireBlock(slot: number) {
    if (slot > ledger.currentSlot) {
      throw new JsonRpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
    }
    const record = ledger.transactionInSlot(slot);
    if (!record) {
      throw new JsonRpcError(
        SLOT_SKIPPED,
        `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`,
      );
    }
    return record;
  }

  function blocksBetween(start: number, end: number, limit: number): bigint[] {
    return ledger.slotsWithTransactions(start, Math.min(end, ledger.currentSlot), limit).map(BigInt);
  }

  return {
    getBlock: (params) => {
      const slot = slotParam(params, 0, 'slot');
      const config = configParam(params, 1);
      const encoding = (config.encoding ?? 'json') as TransactionEncoding;
      if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) {
        throw invalidParams(`unsupported encoding ${String(encoding)}`);
      }
      const details = config.transactionDetails ?? 'full';
      if (!['full', 'accounts', 'signatures', 'none'].includes(details as string)) {
        throw invalidParams(
          `unsupported transactionDetails ${String(details)}: full, accounts, signatures or none`,
        );
      }
      const maxVersion = config.maxSupportedTransactionVersion;
      if (maxVersion !== undefined && maxVersion !== 0) {
        throw invalidParams('maxSupportedTransactionVersion must be 0');
      }
      const record = requireBlock(slot);
      const block: Record<string, unknown> = {
        blockHeight: BigInt(slot),
        blockTime: BigInt(record.blockTime),
        blockhash: ledger.blockhashOf(slot),
        parentSlot: BigInt(slot - 1),
        previousBlockhash: ledger.blockhashOf(slot - 1),
      };
      if (details === 'full') {
        const { meta, transaction, version } = renderTransaction(record, encoding, maxVersion);
        block.transactions = [{ meta, transaction, ...(version === undefined ? {} : { version }) }];
      } else if (details === 'accounts') {
        block.transactions = [renderTransactionAccounts(record, maxVersion, config.rewards !== false)];
      } else if (details === 'signatures') {
        block.signatures = [record.signature];
      }
      if (config.rewards !== false) block.rewards = [];
      return block;
    },
    getBlockTime: (params) => BigInt(requireBlock(slotParam(params, 0, 'slot')).blockTime),
    getBlocks: (params) => {
      const start = slotParam(params, 0, 'start slot');
      const end =
        typeof params[1] === 'object' || params[1] === undefined
          ? ledger.currentSlot
          : slotParam(params, 1, 'end slot');
      if (end - start > MAX_BLOCKS_RANGE) {
        throw invalidParams(`Slot range too large; max ${MAX_BLOCKS_RANGE}`);
      }
      return blocksBetween(start, end, MAX_BLOCKS_RANGE);
    },
    getBlocksWithLimit: (params) => {
      const start = slotParam(params, 0, 'start slot');
      const limit = slotParam(params, 1, 'limit');
      if (limit > MAX_BLOCKS_RANGE) throw invalidParams(`Limit too large; max ${MAX_BLOCKS_RANGE}`);
      return blocksBetween(start, Number.MAX_SAFE_INTEGER, limit);
    },
  };
}
