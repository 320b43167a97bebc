/*
 * DarePool escrow, version 2: per-dare vaults owned by this program, whose payouts need the
 * judges' own signatures and a public window the guardian can veto in, so that no key the server
 * holds can move a pool anywhere but back to its payers. Version 1 (darepool_escrow.c) stays
 * deployed, unchanged, for the vaults it made. Accounts, instructions, errors and guarantees are
 * documented in docs/program.md; keep the two in step.
 *
 * Built with clang-16 -target bpf -mcpu=v2 and linked by program/linker (no Solana toolchain).
 * Rules this file keeps because of that: no writable globals, no struct copies or floats (they
 * become memcpy / soft-float calls the loader cannot resolve), small stack frames.
 */
#include "sol.h"

/* ---- Errors: returned as Custom(n); the TypeScript client maps them to messages. 1-30 mean what
 * they mean in version 1 (19 now names the canceller; 21 is no longer returned); new ones follow. */
#define E_UNKNOWN_INSTRUCTION 1
#define E_INVALID_DATA_LENGTH 2
#define E_WRONG_ACCOUNT_COUNT 3
#define E_MISSING_SIGNATURE 4
#define E_NOT_WRITABLE 5
#define E_NOT_SYSTEM_PROGRAM 6
#define E_INVALID_VAULT 7
#define E_INVALID_RECEIPT 8
#define E_INVALID_ENTRY 9
#define E_WRONG_ADDRESS 10
#define E_ALREADY_EXISTS 11
#define E_DEADLINE_IN_PAST 12
#define E_INVALID_REFUND_AFTER 13
#define E_INVALID_KIND 14
#define E_AMOUNT_TOO_SMALL 15
#define E_OVERFLOW 16
#define E_VAULT_NOT_OPEN 17
#define E_DEADLINE_PASSED 18
#define E_NOT_CANCELLER 19
#define E_REFUND_NOT_DUE 20
#define E_WRONG_PAYER 22
#define E_WRONG_RENT_PAYER 23
#define E_NOT_SETTLED 24
#define E_STILL_OPEN 25
#define E_DUPLICATE_ACCOUNT 26
#define E_INSUFFICIENT_VAULT_BALANCE 27
#define E_UNSUPPORTED_RENT 28
#define E_SYSCALL_FAILED 29
#define E_NOT_AN_ENTRANT 30
#define E_INVALID_JUDGES 31
#define E_INVALID_PAYOUT_WINDOW 32
#define E_DEADLINE_TOO_FAR 33
#define E_NOT_A_JUDGE 34
#define E_NOT_ENOUGH_JUDGES 35
#define E_WRONG_WINNER_COUNT 36
#define E_PROPOSAL_PENDING 37
#define E_PROPOSAL_TOO_LATE 38
#define E_NO_PROPOSAL 39
#define E_WINDOW_NOT_PASSED 40
#define E_WINDOW_PASSED 41
#define E_NOT_GUARDIAN 42
#define E_WRONG_WINNER 43
#define E_UNPAYABLE_WINNER 44

/* ---- Accounts ---- */
#define TYPE_VAULT 1
#define TYPE_RECEIPT 2
#define TYPE_ENTRY 3

#define KIND_COMMUNITY 0
#define KIND_MAJOR 1

#define STATUS_OPEN 0
#define STATUS_SETTLED 1
#define STATUS_REFUNDING 2
/* Winners named, waiting for the window: nothing may come in or go out but veto or execute. */
#define STATUS_PROPOSED 3

/* 0.01 SOL: the app's minimum stake and pool contribution. */
#define MIN_DEPOSIT 10000000ULL

#define MAX_JUDGES 5
#define MIN_PAYOUT_WINDOW 3600LL          /* 1 hour */
#define MAX_PAYOUT_WINDOW (7LL * 86400)   /* 7 days */
#define MAX_DEADLINE_AHEAD (400LL * 86400)
#define MAX_REFUND_DELAY (60LL * 86400)   /* refund_after at most this long after the deadline */

typedef struct {
  u8 account_type;
  u8 bump;
  u8 kind;
  u8 status;
  u32 receipt_count; /* receipts not yet closed */
  SolPubkey dare_id;
  SolPubkey canceller; /* may only cancel (DarePool: the server's moderator key) */
  SolPubkey rent_payer;
  i64 deadline;
  i64 refund_after;
  u64 total; /* sum of the amounts of the receipts not yet refunded */
  u64 rent;  /* lamports the rent payer put in for this account */
  u32 entry_count; /* entries not yet closed */
  u8 judge_count;
  u8 threshold;
  u8 winner_count; /* 0 unless a proposal stands or was executed */
  u8 reserved;
  i64 payout_window; /* seconds between a proposal and its execution */
  i64 executes_at;   /* the standing (or executed) proposal's end of window; 0 when none */
  SolPubkey guardian;
  SolPubkey judges[MAX_JUDGES]; /* the first judge_count are used, the rest zero */
  SolPubkey winners[2];         /* first and second share; the same wallet may be both */
  u32 veto_count;
  u32 reserved2;
} Vault;

typedef struct {
  u8 account_type;
  u8 bump;
  u8 reserved[6];
  SolPubkey vault;
  SolPubkey payer;
  SolPubkey rent_payer;
  u64 amount;
  u64 rent;
} Receipt;

typedef struct {
  u8 account_type;
  u8 bump;
  u8 reserved[6];
  SolPubkey vault;
  SolPubkey entrant;
  SolPubkey rent_payer;
  u64 rent;
  u8 proof_hash[32]; /* chosen by the entrant: the fingerprint of the proof being judged */
} Entry;

_Static_assert(sizeof(Vault) == 424, "vault layout is documented in docs/program.md");
_Static_assert(sizeof(Receipt) == 120, "receipt layout is documented in docs/program.md");
_Static_assert(sizeof(Entry) == 144, "entry layout is documented in docs/program.md");

/* The most any instruction takes: propose of a major dare with five judges. */
#define MAX_ACCOUNTS 10

/* The program heap (32 KiB the runtime maps for every invocation): the account views live there,
 * since ten of them would overflow the 512-byte stack frame clang allows for BPF. */
#define HEAP_START 0x300000000ULL

/* ---- Small helpers (no libc here) ---- */

static u64 rd64(const u8 *p) {
  u64 v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static void wr32(u8 *p, u32 v) {
  for (int i = 0; i < 4; i++) p[i] = (u8)(v >> (8 * i));
}

static void wr64(u8 *p, u64 v) {
  for (int i = 0; i < 8; i++) p[i] = (u8)(v >> (8 * i));
}

/* Both keys 8-byte aligned: every key in the input and in our account data is. */
static bool key_eq(const SolPubkey *a, const SolPubkey *b) {
  const u64 *x = (const u64 *)a;
  const u64 *y = (const u64 *)b;
  return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}

static void key_copy(SolPubkey *dst, const SolPubkey *src) {
  u64 *d = (u64 *)dst;
  const u64 *s = (const u64 *)src;
  d[0] = s[0];
  d[1] = s[1];
  d[2] = s[2];
  d[3] = s[3];
}

static bool key_is_zero(const SolPubkey *a) {
  const u64 *x = (const u64 *)a;
  return (x[0] | x[1] | x[2] | x[3]) == 0;
}

static i64 now(void) {
  SolClock clock;
  clock.unix_timestamp = 0;
  if (sol_get_clock_sysvar(&clock) != 0) return -1;
  return clock.unix_timestamp;
}

/* The data length lives just before the data in the input: writing it is how a program
 * resizes (here: empties) an account it owns. */
static u64 *data_len_field(SolAccountInfo *a) { return (u64 *)(a->data - 8); }

static bool owned_by(const SolAccountInfo *a, const SolPubkey *program_id) {
  return key_eq(a->owner, program_id);
}

/* Rent-exempt minimum for `len` bytes, computed exactly with integers from the Rent sysvar
 * (its threshold is an f64: decoded by hand, refused unless exactly representable). */
static u64 rent_exempt_minimum(u64 len, u64 *out) {
  SolRent rent;
  if (sol_get_rent_sysvar(&rent) != 0) return E_SYSCALL_FAILED;
  u64 bits = rent.exemption_threshold_bits;
  /* Bounds instead of an overflow check: LLVM turns the latter into a 128-bit libcall. */
  if (rent.lamports_per_byte_year >> 32 || len >> 16) return E_UNSUPPORTED_RENT;
  u64 base = (128 + len) * rent.lamports_per_byte_year;
  if (bits == 0) {
    *out = 0;
    return 0;
  }
  if (bits >> 63) return E_UNSUPPORTED_RENT;
  i64 exponent = (i64)((bits >> 52) & 0x7ff);
  if (exponent == 0 || exponent == 0x7ff) return E_UNSUPPORTED_RENT;
  u64 mantissa = (bits & 0xfffffffffffffULL) | (1ULL << 52);
  exponent -= 1075; /* value = mantissa * 2^exponent */
  while ((mantissa & 1) == 0) {
    mantissa >>= 1;
    exponent++;
  }
  if (mantissa > 0xffffffffULL || (base >> 32) != 0) return E_UNSUPPORTED_RENT;
  u64 value = base * mantissa;
  if (exponent >= 0) {
    if (exponent > 20 || (value >> (63 - exponent)) != 0) return E_UNSUPPORTED_RENT;
    value <<= exponent;
  } else {
    value = exponent < -63 ? 0 : value >> (-exponent);
  }
  *out = value;
  return 0;
}

/* ---- System program CPIs ---- */

/* One System program instruction: `from` (optional) pays, `to` is the account acted on; with
 * `signer`, `to` signs as our PDA. (A struct: BPF calls take at most five arguments.) */
typedef struct {
  SolAccountInfo *from;
  SolAccountInfo *to;
  const SolSignerSeeds *signer;
  u64 data_len;
  u8 data[56];
} SystemCall;

static __attribute__((noinline)) u64 system_invoke(SystemCall *call) {
  SolPubkey system_id;
  u64 *z = (u64 *)&system_id;
  z[0] = z[1] = z[2] = z[3] = 0;
  SolAccountMeta metas[2];
  SolAccountInfo infos[2];
  u64 n = 0;
  /* A CPI reads the length from our account view: refresh it from the input, which an earlier
   * CPI (Allocate, CreateAccount) may have changed, or the runtime sees a resize we did not make. */
  if (call->from != NULL) {
    call->from->data_len = *data_len_field(call->from);
    metas[n].pubkey = call->from->key;
    metas[n].is_writable = true;
    metas[n].is_signer = true;
    infos[n] = *call->from;
    n++;
  }
  call->to->data_len = *data_len_field(call->to);
  metas[n].pubkey = call->to->key;
  metas[n].is_writable = true;
  metas[n].is_signer = call->signer != NULL;
  infos[n] = *call->to;
  n++;
  SolInstruction ix;
  ix.program_id = &system_id;
  ix.accounts = metas;
  ix.account_len = n;
  ix.data = call->data;
  ix.data_len = call->data_len;
  u64 result = sol_invoke_signed_c(&ix, infos, (int)n, call->signer, call->signer == NULL ? 0 : 1);
  if (call->from != NULL) call->from->data_len = *data_len_field(call->from);
  call->to->data_len = *data_len_field(call->to);
  return result;
}

static u64 system_transfer(SolAccountInfo *from, SolAccountInfo *to, u64 lamports) {
  SystemCall call;
  call.from = from;
  call.to = to;
  call.signer = NULL;
  call.data_len = 12;
  wr32(call.data, 2);
  wr64(call.data + 4, lamports);
  return system_invoke(&call);
}

/* Creates `target` (a PDA of ours, proven by `signer`) with `space` bytes and its rent-exempt
 * minimum (written to `rent`) paid by `payer`. An address that already holds lamports (sent
 * before it existed) cannot take CreateAccount, so it gets transfer + allocate + assign; what it
 * held stays in it as surplus. */
typedef struct {
  SolAccountInfo *payer;
  SolAccountInfo *target;
  const SolPubkey *program_id;
  const SolSignerSeeds *signer;
  u64 space;
  u64 rent;
} Creation;

static __attribute__((noinline)) u64 create_pda(Creation *c) {
  u64 err;
  if ((err = rent_exempt_minimum(c->space, &c->rent)) != 0) return err;
  SystemCall call;
  if (*c->target->lamports == 0) {
    call.from = c->payer;
    call.to = c->target;
    call.signer = c->signer;
    call.data_len = 52;
    wr32(call.data, 0);
    wr64(call.data + 4, c->rent);
    wr64(call.data + 12, c->space);
    for (int i = 0; i < 32; i++) call.data[20 + i] = c->program_id->x[i];
    return system_invoke(&call);
  }
  if (c->rent > 0 && (err = system_transfer(c->payer, c->target, c->rent)) != 0) return err;
  call.from = NULL;
  call.to = c->target;
  call.signer = c->signer;
  call.data_len = 12;
  wr32(call.data, 8);
  wr64(call.data + 4, c->space);
  if ((err = system_invoke(&call)) != 0) return err;
  call.data_len = 36;
  wr32(call.data, 1);
  for (int i = 0; i < 32; i++) call.data[4 + i] = c->program_id->x[i];
  return system_invoke(&call);
}

/* An account we may create: not ours yet and empty (lamports alone are allowed). */
static u64 check_creatable(const SolAccountInfo *a) {
  SolPubkey zero;
  u64 *z = (u64 *)&zero;
  z[0] = z[1] = z[2] = z[3] = 0;
  if (!a->is_writable) return E_NOT_WRITABLE;
  if (!key_eq(a->owner, &zero) || a->data_len != 0) return E_ALREADY_EXISTS;
  return 0;
}

static u64 check_system_program(const SolAccountInfo *a) {
  return key_is_zero(a->key) ? 0 : E_NOT_SYSTEM_PROGRAM;
}

/* Moves every lamport of `account` (ours) to `to` and leaves it empty and owned by the System
 * program, so nothing of it survives the transaction: re-funding it cannot revive its state. */
static void close_account(SolAccountInfo *account, SolAccountInfo *to) {
  *to->lamports += *account->lamports;
  *account->lamports = 0;
  sol_memset_(account->data, 0, account->data_len);
  *data_len_field(account) = 0;
  account->data_len = 0;
  u64 *owner = (u64 *)account->owner;
  owner[0] = owner[1] = owner[2] = owner[3] = 0;
}

/* ---- Typed views, checked: owner is this program, size and type tag match. Only this program
 * creates such accounts, and only at the addresses their seeds give, so no re-derivation. */

static Vault *load_vault(SolAccountInfo *a, const SolPubkey *program_id) {
  if (!owned_by(a, program_id) || a->data_len != sizeof(Vault)) return NULL;
  Vault *v = (Vault *)a->data;
  return v->account_type == TYPE_VAULT ? v : NULL;
}

static Receipt *load_receipt(SolAccountInfo *a, const SolAccountInfo *vault, const SolPubkey *program_id) {
  if (!owned_by(a, program_id) || a->data_len != sizeof(Receipt)) return NULL;
  Receipt *r = (Receipt *)a->data;
  if (r->account_type != TYPE_RECEIPT || !key_eq(&r->vault, vault->key)) return NULL;
  return r;
}

static Entry *load_entry(SolAccountInfo *a, const SolAccountInfo *vault, const SolPubkey *program_id) {
  if (!owned_by(a, program_id) || a->data_len != sizeof(Entry)) return NULL;
  Entry *e = (Entry *)a->data;
  if (e->account_type != TYPE_ENTRY || !key_eq(&e->vault, vault->key)) return NULL;
  return e;
}

/* The address `seeds` (bump included) give: sha256(seeds || program id || "ProgramDerivedAddress"),
 * which costs a few hundred CU where sol_create_program_address costs 1500. That hash alone does not
 * prove the address is off the curve; the runtime proves it when we sign for the account with the
 * same seeds in the CPI that creates it, so a bad bump still fails, only less legibly. */
static const char PDA_MARKER[] = "ProgramDerivedAddress";

static u64 check_pda(const SolAccountInfo *a, const SolSignerSeed *seeds, int n, const SolPubkey *program_id) {
  SolBytes parts[6];
  for (int i = 0; i < n; i++) {
    parts[i].addr = seeds[i].addr;
    parts[i].len = seeds[i].len;
  }
  parts[n].addr = program_id->x;
  parts[n].len = 32;
  parts[n + 1].addr = (const u8 *)PDA_MARKER;
  parts[n + 1].len = sizeof(PDA_MARKER) - 1;
  SolPubkey expected;
  if (sol_sha256(parts, n + 2, expected.x) != 0) return E_SYSCALL_FAILED;
  return key_eq(&expected, a->key) ? 0 : E_WRONG_ADDRESS;
}

/* A vault with no receipt and no entry left has nothing more to answer for: it closes, its
 * whole balance (rent reserve and any later stray lamports) going to its rent payer. */
static void close_vault_if_done(SolAccountInfo *vault_account, Vault *vault, SolAccountInfo *vault_rent_payer) {
  if ((vault->status == STATUS_SETTLED || vault->status == STATUS_REFUNDING) && vault->receipt_count == 0 &&
      vault->entry_count == 0)
    close_account(vault_account, vault_rent_payer);
}

static const char SEED_VAULT[] = "vault";
static const char SEED_RECEIPT[] = "receipt";
static const char SEED_ENTRY[] = "entry";

/* Creates the receipt of ka[0] (the payer) for ka[2] (the vault) at ka[3], rent from ka[1]:
 * create_vault and deposit share that account order. Seeds ["receipt", vault, payer, bump]. */
static __attribute__((noinline)) u64 create_receipt(SolParameters *p, u8 bump) {
  SolAccountInfo *payer = &p->ka[0], *rent_payer = &p->ka[1], *vault_account = &p->ka[2],
                 *receipt_account = &p->ka[3];
  u64 err;
  if ((err = check_creatable(receipt_account)) != 0) return err;
  if (!rent_payer->is_signer) return E_MISSING_SIGNATURE;
  if (!rent_payer->is_writable) return E_NOT_WRITABLE;
  SolSignerSeed seeds[4];
  seeds[0].addr = (const u8 *)SEED_RECEIPT;
  seeds[0].len = sizeof(SEED_RECEIPT) - 1;
  seeds[1].addr = vault_account->key->x;
  seeds[1].len = 32;
  seeds[2].addr = payer->key->x;
  seeds[2].len = 32;
  seeds[3].addr = &bump;
  seeds[3].len = 1;
  if ((err = check_pda(receipt_account, seeds, 4, p->program_id)) != 0) return err;
  SolSignerSeeds signer;
  signer.addr = seeds;
  signer.len = 4;
  Creation c;
  c.payer = rent_payer;
  c.target = receipt_account;
  c.program_id = p->program_id;
  c.signer = &signer;
  c.space = sizeof(Receipt);
  if ((err = create_pda(&c)) != 0) return err;
  Receipt *r = (Receipt *)receipt_account->data;
  r->account_type = TYPE_RECEIPT;
  r->bump = bump;
  key_copy(&r->vault, vault_account->key);
  key_copy(&r->payer, payer->key);
  key_copy(&r->rent_payer, rent_payer->key);
  r->amount = 0;
  r->rent = c.rent;
  return 0;
}

/* Adds `amount` from `payer` to the vault and to the payer's receipt (its transfer is a CPI, so
 * only a signing payer's lamports can move). */
static u64 add_deposit(SolAccountInfo *payer, SolAccountInfo *vault_account, Vault *vault, Receipt *receipt,
                       u64 amount) {
  if (amount < MIN_DEPOSIT) return E_AMOUNT_TOO_SMALL;
  u64 new_amount = receipt->amount + amount;
  u64 new_total = vault->total + amount;
  if (new_amount < amount || new_total < amount) return E_OVERFLOW;
  u64 err;
  if ((err = system_transfer(payer, vault_account, amount)) != 0) return err;
  receipt->amount = new_amount;
  vault->total = new_total;
  return 0;
}

/* ---- Instructions ---- */

/* 0 create_vault: [creator (s,w), rent_payer (s,w), vault (w), receipt (w), system program]
 * data: dare_id[32] canceller[32] guardian[32] deadline i64 refund_after i64 payout_window i64
 *       amount u64 kind u8 threshold u8 judge_count u8 vault_bump u8 receipt_bump u8
 *       judges[judge_count][32] */
#define CREATE_VAULT_FIXED (1 + 32 * 3 + 8 * 4 + 5)

/* The terms a vault keeps for its whole life, checked against their bounds. */
static __attribute__((noinline)) u64 check_terms(const u8 *d, i64 now_s) {
  i64 deadline = (i64)rd64(d + 96);
  i64 refund_after = (i64)rd64(d + 104);
  i64 window = (i64)rd64(d + 112);
  u8 kind = d[128], threshold = d[129], judge_count = d[130];
  if (kind != KIND_COMMUNITY && kind != KIND_MAJOR) return E_INVALID_KIND;
  if (judge_count < 1 || judge_count > MAX_JUDGES || threshold < 1 || threshold > judge_count)
    return E_INVALID_JUDGES;
  if (window < MIN_PAYOUT_WINDOW || window > MAX_PAYOUT_WINDOW) return E_INVALID_PAYOUT_WINDOW;
  if (now_s < 0) return E_SYSCALL_FAILED;
  if (deadline <= now_s) return E_DEADLINE_IN_PAST;
  if (deadline - now_s > MAX_DEADLINE_AHEAD) return E_DEADLINE_TOO_FAR;
  /* deadline - now_s is bounded above, so deadline + MAX_REFUND_DELAY cannot overflow. */
  if (refund_after < deadline || refund_after > deadline + MAX_REFUND_DELAY) return E_INVALID_REFUND_AFTER;
  if (rd64(d + 120) < MIN_DEPOSIT) return E_AMOUNT_TOO_SMALL;
  return 0;
}

static __attribute__((noinline)) u64 create_vault(SolParameters *p) {
  if (p->data_len < CREATE_VAULT_FIXED) return E_INVALID_DATA_LENGTH;
  const u8 *d = p->data + 1;
  u8 judge_count = d[130];
  if (judge_count >= 1 && judge_count <= MAX_JUDGES && p->data_len != CREATE_VAULT_FIXED + 32ULL * judge_count)
    return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 5) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *creator = &p->ka[0], *rent_payer = &p->ka[1], *vault_account = &p->ka[2],
                 *receipt_account = &p->ka[3];
  u64 err;
  if ((err = check_system_program(&p->ka[4])) != 0) return err;
  if (!creator->is_signer || !rent_payer->is_signer) return E_MISSING_SIGNATURE;
  if (!creator->is_writable || !rent_payer->is_writable) return E_NOT_WRITABLE;
  if ((err = check_creatable(vault_account)) != 0) return err;
  if ((err = check_terms(d, now())) != 0) return err;
  u8 vault_bump = d[131];
  u8 receipt_bump = d[132];

  SolSignerSeed seeds[3];
  seeds[0].addr = (const u8 *)SEED_VAULT;
  seeds[0].len = sizeof(SEED_VAULT) - 1;
  seeds[1].addr = d;
  seeds[1].len = 32;
  seeds[2].addr = &vault_bump;
  seeds[2].len = 1;
  if ((err = check_pda(vault_account, seeds, 3, p->program_id)) != 0) return err;
  SolSignerSeeds signer;
  signer.addr = seeds;
  signer.len = 3;
  Creation c;
  c.payer = rent_payer;
  c.target = vault_account;
  c.program_id = p->program_id;
  c.signer = &signer;
  c.space = sizeof(Vault);
  if ((err = create_pda(&c)) != 0) return err;

  /* A fresh account is all zeros: only the non-zero fields are written. */
  Vault *v = (Vault *)vault_account->data;
  sol_memcpy_(v->judges, d + 133, 32ULL * judge_count);
  for (int i = 1; i < judge_count; i++)
    for (int j = 0; j < i; j++)
      if (key_eq(&v->judges[i], &v->judges[j])) return E_INVALID_JUDGES;
  v->account_type = TYPE_VAULT;
  v->bump = vault_bump;
  v->kind = d[128];
  v->status = STATUS_OPEN;
  sol_memcpy_(&v->dare_id, d, 32);
  sol_memcpy_(&v->canceller, d + 32, 32);
  sol_memcpy_(&v->guardian, d + 64, 32);
  key_copy(&v->rent_payer, rent_payer->key);
  v->deadline = (i64)rd64(d + 96);
  v->refund_after = (i64)rd64(d + 104);
  v->payout_window = (i64)rd64(d + 112);
  v->threshold = d[129];
  v->judge_count = judge_count;
  v->rent = c.rent;
  v->receipt_count = 1;

  if ((err = create_receipt(p, receipt_bump)) != 0) return err;
  return add_deposit(creator, vault_account, v, (Receipt *)receipt_account->data, rd64(d + 120));
}

/* Deposits and entries come in only while the vault is open, with no proposal, before the deadline. */
static u64 check_accepting(const Vault *v) {
  if (v->status == STATUS_PROPOSED) return E_PROPOSAL_PENDING;
  if (v->status != STATUS_OPEN) return E_VAULT_NOT_OPEN;
  i64 t = now();
  if (t < 0) return E_SYSCALL_FAILED;
  if (t >= v->deadline) return E_DEADLINE_PASSED;
  return 0;
}

/* 1 deposit: [payer (s,w), rent_payer (w; s when the receipt is new), vault (w), receipt (w),
 * system program]; data: amount u64, receipt_bump u8 */
static __attribute__((noinline)) u64 deposit(SolParameters *p) {
  if (p->data_len != 1 + 8 + 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 5) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *payer = &p->ka[0], *vault_account = &p->ka[2], *receipt_account = &p->ka[3];
  u64 err;
  if ((err = check_system_program(&p->ka[4])) != 0) return err;
  if (!payer->is_signer) return E_MISSING_SIGNATURE;
  if (!payer->is_writable || !vault_account->is_writable || !receipt_account->is_writable) return E_NOT_WRITABLE;
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  if ((err = check_accepting(v)) != 0) return err;
  u64 amount = rd64(p->data + 1);
  if (amount < MIN_DEPOSIT) return E_AMOUNT_TOO_SMALL;
  Receipt *r;
  if (owned_by(receipt_account, p->program_id)) {
    r = load_receipt(receipt_account, vault_account, p->program_id);
    if (r == NULL) return E_INVALID_RECEIPT;
    if (!key_eq(&r->payer, payer->key)) return E_WRONG_PAYER;
  } else {
    if (v->receipt_count == 0xffffffffU) return E_OVERFLOW;
    if ((err = create_receipt(p, p->data[9])) != 0) return err;
    r = (Receipt *)receipt_account->data;
    v->receipt_count++;
  }
  return add_deposit(payer, vault_account, v, r, amount);
}

/* 2 enter: [entrant (s), rent_payer (s,w), vault (w), entry (w), system program];
 * data: entry_bump u8, proof_hash[32]. DarePool's entrant is its own rent payer. */
static __attribute__((noinline)) u64 enter(SolParameters *p) {
  if (p->data_len != 2 + 32) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 5) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *entrant = &p->ka[0], *rent_payer = &p->ka[1], *vault_account = &p->ka[2],
                 *entry_account = &p->ka[3];
  u64 err;
  if ((err = check_system_program(&p->ka[4])) != 0) return err;
  if (!entrant->is_signer || !rent_payer->is_signer) return E_MISSING_SIGNATURE;
  if (!rent_payer->is_writable || !vault_account->is_writable) return E_NOT_WRITABLE;
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  if ((err = check_accepting(v)) != 0) return err;
  if (v->entry_count == 0xffffffffU) return E_OVERFLOW;
  if ((err = check_creatable(entry_account)) != 0) return err;
  u8 bump = p->data[1];
  SolSignerSeed seeds[4];
  seeds[0].addr = (const u8 *)SEED_ENTRY;
  seeds[0].len = sizeof(SEED_ENTRY) - 1;
  seeds[1].addr = vault_account->key->x;
  seeds[1].len = 32;
  seeds[2].addr = entrant->key->x;
  seeds[2].len = 32;
  seeds[3].addr = &bump;
  seeds[3].len = 1;
  if ((err = check_pda(entry_account, seeds, 4, p->program_id)) != 0) return err;
  SolSignerSeeds signer;
  signer.addr = seeds;
  signer.len = 4;
  Creation c;
  c.payer = rent_payer;
  c.target = entry_account;
  c.program_id = p->program_id;
  c.signer = &signer;
  c.space = sizeof(Entry);
  if ((err = create_pda(&c)) != 0) return err;
  Entry *e = (Entry *)entry_account->data;
  e->account_type = TYPE_ENTRY;
  e->bump = bump;
  key_copy(&e->vault, vault_account->key);
  key_copy(&e->entrant, entrant->key);
  key_copy(&e->rent_payer, rent_payer->key);
  e->rent = c.rent;
  sol_memcpy_(e->proof_hash, p->data + 2, 32);
  v->entry_count++;
  return 0;
}

/* A winner named by a proposal: the wallet that signed this vault's entry, able to receive. */
static u64 check_proposed_winner(SolAccountInfo *winner, SolAccountInfo *entry_account, SolAccountInfo *vault_account,
                                 const SolPubkey *program_id) {
  if (key_eq(winner->key, vault_account->key)) return E_DUPLICATE_ACCOUNT;
  Entry *e = load_entry(entry_account, vault_account, program_id);
  if (e == NULL) return E_INVALID_ENTRY;
  if (!key_eq(&e->entrant, winner->key)) return E_NOT_AN_ENTRANT;
  /* Some runtimes refuse to credit an executable account: such a winner could never be paid. */
  if (winner->executable) return E_UNPAYABLE_WINNER;
  return 0;
}

/* Distinct judges of `v` among `accounts`, each of which must be a signing judge. */
static u64 count_judges(const Vault *v, SolAccountInfo *accounts, u64 n, u64 *count) {
  u32 seen = 0;
  for (u64 i = 0; i < n; i++) {
    if (!accounts[i].is_signer) return E_MISSING_SIGNATURE;
    u64 j = 0;
    while (j < v->judge_count && !key_eq(accounts[i].key, &v->judges[j])) j++;
    if (j == v->judge_count) return E_NOT_A_JUDGE;
    seen |= 1U << j; /* a judge listed twice counts once */
  }
  u64 c = 0;
  for (; seen != 0; seen >>= 1) c += seen & 1;
  *count = c;
  return 0;
}

/* 8 propose: [vault (w), winner, winner's entry, (major: second winner, its entry), judge (s) x 1..5]
 * data: winner_count u8. At least `threshold` distinct judges sign; the vault is open and the
 * window ends by refund_after. Winners are paid by execute once the window has passed. */
static __attribute__((noinline)) u64 propose(SolParameters *p) {
  if (p->data_len != 2) return E_INVALID_DATA_LENGTH;
  if (p->ka_num < 1) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *vault_account = &p->ka[0];
  if (!vault_account->is_writable) return E_NOT_WRITABLE;
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  u64 winners = p->data[1];
  if (winners != (v->kind == KIND_MAJOR ? 2U : 1U)) return E_WRONG_WINNER_COUNT;
  u64 first_judge = 1 + 2 * winners;
  if (p->ka_num < first_judge + 1 || p->ka_num > first_judge + MAX_JUDGES) return E_WRONG_ACCOUNT_COUNT;
  u64 err, judges;
  if ((err = count_judges(v, &p->ka[first_judge], p->ka_num - first_judge, &judges)) != 0) return err;
  if (judges < v->threshold) return E_NOT_ENOUGH_JUDGES;
  for (u64 w = 0; w < winners; w++)
    if ((err = check_proposed_winner(&p->ka[1 + 2 * w], &p->ka[2 + 2 * w], vault_account, p->program_id)) != 0)
      return err;
  if (v->status == STATUS_PROPOSED) return E_PROPOSAL_PENDING;
  if (v->status != STATUS_OPEN) return E_VAULT_NOT_OPEN;
  i64 t = now();
  if (t < 0) return E_SYSCALL_FAILED;
  if (t + v->payout_window > v->refund_after) return E_PROPOSAL_TOO_LATE;
  for (u64 w = 0; w < winners; w++) key_copy(&v->winners[w], p->ka[1 + 2 * w].key);
  v->winner_count = (u8)winners;
  v->executes_at = t + v->payout_window;
  v->status = STATUS_PROPOSED;
  return 0;
}

/* 9 veto: [guardian (s), vault (w)]: during the window, the proposal is cleared and the vault is
 * open again under its old rules. */
static __attribute__((noinline)) u64 veto(SolParameters *p) {
  if (p->data_len != 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 2) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *guardian = &p->ka[0], *vault_account = &p->ka[1];
  if (!vault_account->is_writable) return E_NOT_WRITABLE;
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  if (!key_eq(guardian->key, &v->guardian)) return E_NOT_GUARDIAN;
  if (!guardian->is_signer) return E_MISSING_SIGNATURE;
  if (v->status != STATUS_PROPOSED) return E_NO_PROPOSAL;
  i64 t = now();
  if (t < 0) return E_SYSCALL_FAILED;
  if (t >= v->executes_at) return E_WINDOW_PASSED;
  u64 *w = (u64 *)v->winners;
  for (int i = 0; i < 8; i++) w[i] = 0;
  v->winner_count = 0;
  v->executes_at = 0;
  v->veto_count++;
  v->status = STATUS_OPEN;
  return 0;
}

/* 10 execute: [vault (w), winner (w), (major: second winner (w))]. Anyone, once the window has
 * passed. Pays everything above the vault's rent reserve: 100%, or 70/30 with the odd lamport to
 * the first share. Receipts and entries are closed next, each in its own transaction. */
static __attribute__((noinline)) u64 execute(SolParameters *p) {
  if (p->data_len != 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num < 1) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *vault_account = &p->ka[0];
  if (!vault_account->is_writable) return E_NOT_WRITABLE;
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  if (v->status == STATUS_OPEN) return E_NO_PROPOSAL;
  if (v->status != STATUS_PROPOSED) return E_VAULT_NOT_OPEN;
  if (p->ka_num != 1ULL + v->winner_count) return E_WRONG_ACCOUNT_COUNT;
  for (u64 w = 0; w < v->winner_count; w++) {
    SolAccountInfo *winner = &p->ka[1 + w];
    if (!winner->is_writable) return E_NOT_WRITABLE;
    if (!key_eq(winner->key, &v->winners[w])) return E_WRONG_WINNER;
  }
  i64 t = now();
  if (t < 0) return E_SYSCALL_FAILED;
  if (t < v->executes_at) return E_WINDOW_NOT_PASSED;
  if (*vault_account->lamports < v->rent) return E_INSUFFICIENT_VAULT_BALANCE;
  u64 pot = *vault_account->lamports - v->rent;
  u64 second = v->kind == KIND_MAJOR ? (pot / 100) * 30 + ((pot % 100) * 30) / 100 : 0;
  u64 first = pot - second;
  *vault_account->lamports -= pot;
  *p->ka[1].lamports += first;
  if (v->kind == KIND_MAJOR) *p->ka[2].lamports += second;
  v->status = STATUS_SETTLED;
  return 0;
}

/* 4 cancel: [canceller (s), vault (w)]: an open vault with no proposal switches to refunding. */
static __attribute__((noinline)) u64 cancel(SolParameters *p) {
  if (p->data_len != 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 2) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *canceller = &p->ka[0], *vault_account = &p->ka[1];
  if (!vault_account->is_writable) return E_NOT_WRITABLE;
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  if (!key_eq(canceller->key, &v->canceller)) return E_NOT_CANCELLER;
  if (!canceller->is_signer) return E_MISSING_SIGNATURE;
  if (v->status == STATUS_PROPOSED) return E_PROPOSAL_PENDING;
  if (v->status != STATUS_OPEN) return E_VAULT_NOT_OPEN;
  v->status = STATUS_REFUNDING;
  return 0;
}

/* Shared by refund / close_receipt / close_entry: [vault (w), record (w), ...] checks. */
static u64 check_rent_payers(SolAccountInfo *vault_account, Vault *v, SolAccountInfo *vault_rent_payer,
                             const SolPubkey *record_rent_payer, SolAccountInfo *record_rent_payer_account) {
  /* The record itself is ka[1] in every caller. */
  if (!vault_account->is_writable || !vault_account[1].is_writable || !vault_rent_payer->is_writable ||
      !record_rent_payer_account->is_writable)
    return E_NOT_WRITABLE;
  if (!key_eq(record_rent_payer_account->key, record_rent_payer)) return E_WRONG_RENT_PAYER;
  if (!key_eq(vault_rent_payer->key, &v->rent_payer)) return E_WRONG_RENT_PAYER;
  return 0;
}

/* 5 refund: [vault (w), receipt (w), payer (w), receipt rent payer (w), vault rent payer (w)].
 * No signer: anyone may crank a refund that is due. Never while a proposal stands. */
static __attribute__((noinline)) u64 refund(SolParameters *p) {
  if (p->data_len != 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 5) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *vault_account = &p->ka[0], *receipt_account = &p->ka[1], *payer = &p->ka[2],
                 *receipt_rent_payer = &p->ka[3], *vault_rent_payer = &p->ka[4];
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  Receipt *r = load_receipt(receipt_account, vault_account, p->program_id);
  if (r == NULL) return E_INVALID_RECEIPT;
  if (!payer->is_writable) return E_NOT_WRITABLE;
  if (!key_eq(payer->key, &r->payer)) return E_WRONG_PAYER;
  u64 err;
  if ((err = check_rent_payers(vault_account, v, vault_rent_payer, &r->rent_payer, receipt_rent_payer)) != 0)
    return err;
  if (v->status == STATUS_SETTLED) return E_VAULT_NOT_OPEN;
  if (v->status == STATUS_PROPOSED) return E_PROPOSAL_PENDING;
  if (v->status == STATUS_OPEN) {
    i64 t = now();
    if (t < 0) return E_SYSCALL_FAILED;
    if (t < v->refund_after) return E_REFUND_NOT_DUE;
    v->status = STATUS_REFUNDING;
  }
  u64 amount = r->amount;
  if (v->total < amount || *vault_account->lamports < v->rent + v->total) return E_INSUFFICIENT_VAULT_BALANCE;
  v->total -= amount;
  v->receipt_count--;
  /* The last refund also carries whatever else the vault holds above its rent (stray lamports). */
  if (v->receipt_count == 0) amount = *vault_account->lamports - v->rent;
  *vault_account->lamports -= amount;
  *payer->lamports += amount;
  close_account(receipt_account, receipt_rent_payer);
  close_vault_if_done(vault_account, v, vault_rent_payer);
  return 0;
}

/* 6 close_entry: [vault (w), entry (w), entry rent payer (w), vault rent payer (w)], once the
 * vault is settled or refunding. */
static __attribute__((noinline)) u64 close_entry(SolParameters *p) {
  if (p->data_len != 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 4) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *vault_account = &p->ka[0], *entry_account = &p->ka[1];
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  Entry *e = load_entry(entry_account, vault_account, p->program_id);
  if (e == NULL) return E_INVALID_ENTRY;
  u64 err;
  if ((err = check_rent_payers(vault_account, v, &p->ka[3], &e->rent_payer, &p->ka[2])) != 0)
    return err;
  if (v->status != STATUS_SETTLED && v->status != STATUS_REFUNDING) return E_STILL_OPEN;
  v->entry_count--;
  close_account(entry_account, &p->ka[2]);
  close_vault_if_done(vault_account, v, &p->ka[3]);
  return 0;
}

/* 7 close_receipt: [vault (w), receipt (w), receipt rent payer (w), vault rent payer (w)], once
 * the vault is settled (a refunding vault's receipts close through refund). */
static __attribute__((noinline)) u64 close_receipt(SolParameters *p) {
  if (p->data_len != 1) return E_INVALID_DATA_LENGTH;
  if (p->ka_num != 4) return E_WRONG_ACCOUNT_COUNT;
  SolAccountInfo *vault_account = &p->ka[0], *receipt_account = &p->ka[1];
  Vault *v = load_vault(vault_account, p->program_id);
  if (v == NULL) return E_INVALID_VAULT;
  Receipt *r = load_receipt(receipt_account, vault_account, p->program_id);
  if (r == NULL) return E_INVALID_RECEIPT;
  u64 err;
  if ((err = check_rent_payers(vault_account, v, &p->ka[3], &r->rent_payer, &p->ka[2])) != 0)
    return err;
  if (v->status != STATUS_SETTLED) return E_NOT_SETTLED;
  v->total -= r->amount;
  v->receipt_count--;
  close_account(receipt_account, &p->ka[2]);
  close_vault_if_done(vault_account, v, &p->ka[3]);
  return 0;
}

u64 entrypoint(const u8 *input) {
  SolParameters params;
  params.ka = (SolAccountInfo *)HEAP_START;
  u64 result;
  /* Every failure logs its code (version 1 left two of them silent). */
  if (!sol_deserialize(input, &params, MAX_ACCOUNTS)) result = E_WRONG_ACCOUNT_COUNT;
  else if (params.data_len == 0) result = E_INVALID_DATA_LENGTH;
  else switch (params.data[0]) {
  case 0: result = create_vault(&params); break;
  case 1: result = deposit(&params); break;
  case 2: result = enter(&params); break;
  /* 3 was version 1's settle: a payout by one key is what version 2 exists to remove. */
  case 4: result = cancel(&params); break;
  case 5: result = refund(&params); break;
  case 6: result = close_entry(&params); break;
  case 7: result = close_receipt(&params); break;
  case 8: result = propose(&params); break;
  case 9: result = veto(&params); break;
  case 10: result = execute(&params); break;
  default: result = E_UNKNOWN_INSTRUCTION;
  }
  if (result != 0) sol_log_64_(0xda7e, result, 0, 0, 0);
  return result;
}
