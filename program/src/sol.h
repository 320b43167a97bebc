/*
 * The little of the Solana C ABI the DarePool escrow uses: the loader's input (aligned
 * serialization, as the old Solana C SDK's sol_deserialize reads it) and the syscalls we call.
 * Ours, not the SDK's (no Solana toolchain is reachable here); see docs/program.md.
 */
#ifndef DAREPOOL_SOL_H
#define DAREPOOL_SOL_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

typedef struct { u8 x[32]; } SolPubkey;

/* The C ABI account view; sol_invoke_signed_c reads this exact layout and checks that its
 * pointers are the ones into the input region. */
typedef struct {
  SolPubkey *key;
  u64 *lamports;
  u64 data_len;
  u8 *data;
  SolPubkey *owner;
  u64 rent_epoch;
  bool is_signer;
  bool is_writable;
  bool executable;
} SolAccountInfo;

typedef struct {
  SolPubkey *pubkey;
  bool is_writable;
  bool is_signer;
} SolAccountMeta;

typedef struct {
  SolPubkey *program_id;
  SolAccountMeta *accounts;
  u64 account_len;
  u8 *data;
  u64 data_len;
} SolInstruction;

typedef struct {
  const u8 *addr;
  u64 len;
} SolSignerSeed;

typedef struct {
  const SolSignerSeed *addr;
  u64 len;
} SolSignerSeeds;

typedef struct {
  u64 slot;
  i64 epoch_start_timestamp;
  u64 epoch;
  u64 leader_schedule_epoch;
  i64 unix_timestamp;
} SolClock;

/* exemption_threshold is an f64 we read as bits: floats would pull in soft-float libcalls. */
typedef struct {
  u64 lamports_per_byte_year;
  u64 exemption_threshold_bits;
  u8 burn_percent;
} SolRent;

/* Syscalls: the linker turns each call into a dynamic R_BPF_64_32 relocation by name, and
 * refuses any name outside its list of syscalls the runtime registers. */
extern void sol_log_(const char *message, u64 len);
extern void sol_log_64_(u64 a, u64 b, u64 c, u64 d, u64 e);
extern u64 sol_invoke_signed_c(const SolInstruction *instruction, const SolAccountInfo *account_infos,
                               int account_infos_len, const SolSignerSeeds *signers_seeds,
                               int signers_seeds_len);
extern u64 sol_create_program_address(const SolSignerSeed *seeds, int seeds_len, const SolPubkey *program_id,
                                      SolPubkey *address);
extern u64 sol_try_find_program_address(const SolSignerSeed *seeds, int seeds_len,
                                        const SolPubkey *program_id, SolPubkey *address, u8 *bump);
typedef struct {
  const u8 *addr;
  u64 len;
} SolBytes;

extern u64 sol_sha256(const SolBytes *bytes, int bytes_len, u8 *result);
extern u64 sol_get_clock_sysvar(SolClock *clock);
extern u64 sol_get_rent_sysvar(SolRent *rent);
extern void sol_memcpy_(void *dst, const void *src, u64 n);
extern void sol_memset_(void *dst, int c, u64 n);
extern int sol_memcmp_(const void *a, const void *b, u64 n, int *result);

/* The loader's serialization: how far the realloc space reaches beyond an account's data. */
#define MAX_PERMITTED_DATA_INCREASE 10240
#define NON_DUP_MARKER 0xFF

typedef struct {
  SolAccountInfo *ka;
  u64 ka_num;
  const u8 *data;
  u64 data_len;
  const SolPubkey *program_id;
} SolParameters;

/* Reads the input into `params`, at most `ka_max` accounts (more is an error: false). A
 * duplicate account gets a copy of its first view, so both names edit the same lamports. */
static bool sol_deserialize(const u8 *input, SolParameters *params, u64 ka_max) {
  if (input == NULL) return false;
  params->ka_num = *(const u64 *)input;
  input += sizeof(u64);
  if (params->ka_num > ka_max) return false;
  for (u64 i = 0; i < params->ka_num; i++) {
    u8 dup_info = input[0];
    input += sizeof(u8);
    if (dup_info == NON_DUP_MARKER) {
      SolAccountInfo *ka = &params->ka[i];
      ka->is_signer = *(const u8 *)input != 0;
      input += sizeof(u8);
      ka->is_writable = *(const u8 *)input != 0;
      input += sizeof(u8);
      ka->executable = *(const u8 *)input != 0;
      input += sizeof(u8);
      input += 4; /* padding */
      ka->key = (SolPubkey *)input;
      input += sizeof(SolPubkey);
      ka->owner = (SolPubkey *)input;
      input += sizeof(SolPubkey);
      ka->lamports = (u64 *)input;
      input += sizeof(u64);
      ka->data_len = *(const u64 *)input;
      input += sizeof(u64);
      ka->data = (u8 *)input;
      input += ka->data_len;
      input += MAX_PERMITTED_DATA_INCREASE;
      input = (const u8 *)(((u64)input + 8 - 1) & ~(8 - 1));
      ka->rent_epoch = *(const u64 *)input;
      input += sizeof(u64);
    } else {
      if (dup_info >= i) return false;
      params->ka[i] = params->ka[dup_info];
      input += 7; /* padding */
    }
  }
  params->data_len = *(const u64 *)input;
  input += sizeof(u64);
  params->data = input;
  input += params->data_len;
  params->program_id = (const SolPubkey *)input;
  return true;
}

#endif
