/**
 * Syscall names the Solana runtime registers for SBPFv0 programs (agave `create_program_runtime_environment_v1`).
 * A call to any other undefined symbol is refused at link time: the upgradeable loader would refuse
 * it at deploy ("Unresolved symbol"), while LiteSVM's addProgram would let it through to fail later.
 */
export const KNOWN_SYSCALLS: ReadonlySet<string> = new Set([
  'abort',
  'sol_panic_',
  'sol_log_',
  'sol_log_64_',
  'sol_log_compute_units_',
  'sol_log_pubkey',
  'sol_log_data',
  'sol_create_program_address',
  'sol_try_find_program_address',
  'sol_sha256',
  'sol_keccak256',
  'sol_blake3',
  'sol_secp256k1_recover',
  'sol_get_clock_sysvar',
  'sol_get_epoch_schedule_sysvar',
  'sol_get_rent_sysvar',
  'sol_get_epoch_rewards_sysvar',
  'sol_get_last_restart_slot',
  'sol_get_sysvar',
  'sol_memcpy_',
  'sol_memmove_',
  'sol_memcmp_',
  'sol_memset_',
  'sol_invoke_signed_c',
  'sol_invoke_signed_rust',
  'sol_set_return_data',
  'sol_get_return_data',
  'sol_get_processed_sibling_instruction',
  'sol_get_stack_height',
  'sol_remaining_compute_units',
]);
