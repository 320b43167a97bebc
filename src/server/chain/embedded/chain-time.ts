import { createHash, randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';

/** A validator's target slot time (agave DEFAULT_MS_PER_SLOT). */
export const SLOT_MS = 400;

/**
 * How slots follow the clock: `anchorSlot` was the slot at `anchorMs` (the app's clock), and the
 * chain's time runs `offsetMs` ahead of the app's (moved only by tests). Saved with the chain, so
 * slots keep counting from where they were across restarts, including the time it was stopped.
 */
export interface SlotClock {
  anchorSlot: number;
  anchorMs: number;
  offsetMs: number;
}

const base58 = getBase58Decoder();

/**
 * A chain's own blockhash for a slot: a hash of its seed and the slot. Being a function of the slot,
 * every blockhash handed out is known again after a restart without logging each one.
 */
export function blockhashOfSlot(seed: Uint8Array, slot: number): string {
  const slotBytes = Buffer.alloc(8);
  slotBytes.writeBigUInt64LE(BigInt(slot));
  return base58.decode(createHash('sha256').update(seed).update(slotBytes).digest());
}

/** A new chain's blockhash seed; for a chain saved before it had one, derived from what it saved. */
export function newBlockhashSeed(from?: string): Uint8Array {
  return new Uint8Array(
    from === undefined ? randomBytes(32) : createHash('sha256').update(`blockhash seed ${from}`).digest(),
  );
}
