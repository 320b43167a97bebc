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
