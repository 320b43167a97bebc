export interface EpochScheduleValues {
  slotsPerEpoch: bigint;
  leaderScheduleSlotOffset: bigint;
  warmup: boolean;
  firstNormalEpoch: bigint;
  firstNormalSlot: bigint;
}

const MINIMUM_SLOTS_PER_EPOCH = 32n;

/** agave's EpochSchedule::get_epoch_and_slot_index, with warmup epochs of 32, 64, ... slots. */
export function epochOf(
  schedule: EpochScheduleValues,
  slot: bigint,
): { epoch: bigint; slotIndex: bigint; slotsInEpoch: bigint } {
  if (schedule.warmup && slot < schedule.firstNormalSlot) {
    // The epoch whose first slot is the largest power of two (minus 32) at or below slot.
    const position = slot + MINIMUM_SLOTS_PER_EPOCH + 1n;
    const epoch = BigInt((position - 1n).toString(2).length) - 6n;
    const slotsInEpoch = MINIMUM_SLOTS_PER_EPOCH << epoch;
    return { epoch, slotIndex: slot - (slotsInEpoch - MINIMUM_SLOTS_PER_EPOCH), slotsInEpoch };
  }
  const firstNormalSlot = schedule.warmup ? schedule.firstNormalSlot : 0n;
  const firstNormalEpoch = schedule.warmup ? schedule.firstNormalEpoch : 0n;
  const normalIndex = slot - firstNormalSlot;
  return {
    epoch: firstNormalEpoch + normalIndex / schedule.slotsPerEpoch,
    slotIndex: normalIndex % schedule.slotsPerEpoch,
    slotsInEpoch: schedule.slotsPerEpoch,
  };
}
