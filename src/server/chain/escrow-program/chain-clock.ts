import {
  type Address,
  fetchEncodedAccount,
  type GetAccountInfoApi,
  getI64Decoder,
  type Rpc,
} from '@solana/kit';

const CLOCK_SYSVAR = 'SysvarC1ock11111111111111111111111111111111' as Address;
/** Clock: slot u64, epoch_start_timestamp i64, epoch u64, leader_schedule_epoch u64, unix_timestamp i64. */
const UNIX_TIMESTAMP_OFFSET = 32;

/**
 * The chain's own time (unix seconds), the one the program compares deadlines with: a refund is
 * due by this clock, not by the machine's.
 */
export async function fetchChainTime(rpc: Rpc<GetAccountInfoApi>): Promise<bigint> {
  const clock = await fetchEncodedAccount(rpc, CLOCK_SYSVAR, { commitment: 'confirmed' });
  if (!clock.exists) throw new Error('The node does not serve the Clock sysvar');
  return getI64Decoder().decode(clock.data, UNIX_TIMESTAMP_OFFSET);
}

/**
 * "Now" for deciding whether a refund is due, seen from outside the chain: the later of the
 * chain's Clock and the machine's. An idle chain (a localnet no one sends to) serves a Clock
 * that stopped at its last slot, while the next transaction runs in a slot stamped with the
 * present; trusting the stale Clock alone would refuse a refund that is due. The program still
 * decides with the Clock of the slot the refund lands in.
 */
export function laterOfClocks(chainTime: bigint, wallClock: Date): bigint {
  const wall = BigInt(Math.floor(wallClock.getTime() / 1000));
  return chainTime > wall ? chainTime : wall;
}
