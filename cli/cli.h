/* Private to the gpuplan CLI: the command table and shared helpers.  Commands
 * parse options, call only public gp_* functions, then format. */
#ifndef GP_CLI_H
#define GP_CLI_H

#include <stdio.h>

#include <jansson.h>

#include "gpuplan.h"

#define GP_CLI_MAX_OPTS 160 /* long options a command's table may hold */

typedef struct gp_cli {
    /* Overlay directories in load order (later ones win): the user's
     * default directory ${XDG_CONFIG_HOME:-~/.config}/gpuplan when it
     * exists, then $GPUPLAN_DB entries, then --db options. */
    const char *db_dirs[16];
    size_t n_db;
    /* Where gpuplan writes (calib import): the first --db, else the first
     * $GPUPLAN_DB entry, else the default directory ("" when none can be
     * named: no HOME). write_dir_is_default is 1 in the last case. */
    char write_dir[1024];
    int write_dir_is_default;
    int json;                /* --json                                     */
    int csv;                 /* --csv                                      */
    gp_db *db;               /* loaded on first gp_cli_db()                */
    const char *cmd;         /* command name, for messages                 */
    char model_file_id[80];  /* id of a --model FILE.json entry            */
    /* gp_cli_getopt: the value each long option (by its index in the
     * command's table) was last given, to refuse a second, other value. */
    const char *opt_value[GP_CLI_MAX_OPTS];
    unsigned char opt_seen[GP_CLI_MAX_OPTS];
    /* gp_cli_notes_defer: the notes and warnings kept for the end (a JSON
     * array of {"level", "message"}; NULL: each is printed when made).
     * Freed by gp_cli_main. */
    json_t *notes;
    size_t notes_printed; /* how many of them gp_cli_notes_flush printed */
} gp_cli;

typedef struct gp_cli_command {
    const char *name;
    const char *summary;  /* one line for `gpuplan --help`                  */
    int (*run)(gp_cli *cli, int argc, char **argv); /* returns exit status  */
    int csv;              /* 1: prints rows, so --csv applies; 0: refused   */
} gp_cli_command;

/* Exit statuses. */
enum { GP_EXIT_OK = 0, GP_EXIT_FAIL = 1, GP_EXIT_USAGE = 2 };

/* The database, with overlays; on error prints it and returns NULL (the
 * caller returns GP_EXIT_USAGE). */
const gp_db *gp_cli_db(gp_cli *cli);

/* Print "gpuplan CMD: <file:line:col: msg>" to stderr; returns 2. */
int gp_cli_fail(const gp_cli *cli, const gp_err *e);

/* Print a usage error with the --help hint to stderr; returns 2. */
int gp_cli_usage(const gp_cli *cli, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* --attention's argument (train, decode): "flash" sets *unfused 0,
 * "unfused" 1; else prints the usage error and returns 2 (0 on success). */
int gp_cli_attention(const gp_cli *cli, const char *arg, int *unfused);
/* Parse an option's argument as a quantity; on error prints it (naming the
 * option and quoting the value) and returns 2, else 0. */
int gp_cli_qty(const gp_cli *cli, const char *opt, const char *arg, gp_qty kind,
               double *out);
/* An efficiency option's fraction in [lo, 1] (decode --prefill-eff, train
 * --attention-eff): outside it the usage error names the option, the range
 * and the value, and 2 is returned (0 on success). */
int gp_cli_fraction(const gp_cli *cli, const char *opt, const char *arg, double lo, double *out);
/* A message size (allreduce --bytes, scale --grad-bytes): a size, and a
 * whole number of bytes ('1.5B' is 1.5 bytes, not 1.5 billion: refused). */
int gp_cli_msg_bytes(const gp_cli *cli, const char *opt, const char *arg, double *out);
/* Same for a rate standing in for a link's or the host's (bytes/s): also
 * refused outside the database's range for link rates, [GP_LINK_RATE_MIN,
 * GP_RATE_MAX] = [1 kB/s, 1 PB/s] (below it times overflow to inf). */
int gp_cli_rate(const gp_cli *cli, const char *opt, const char *arg, double *out);
/* Same for a positive integer >= min. */
int gp_cli_int(const gp_cli *cli, const char *opt, const char *arg, long min,
               long *out);

/* Look up --scale-out ID into *out: 0, or a message and GP_EXIT_USAGE.  An
 * unknown name with no near miss lists the scale-out links only. */
int gp_cli_scale_out(const gp_cli *cli, const gp_db *db, const char *id, const gp_link **out);
/* A --params count below GP_TRAIN_PARAMS_MIN (1e5) is a forgotten suffix
 * ("7" for 7B), as train refuses it: says so and returns 1 (decode, scale;
 * train's library check words it the same). */
int gp_cli_params_floor(const gp_cli *cli, double n);

/* getopt_long wrapper state reset for a subcommand (optind = 1 etc.). */
void gp_cli_getopt_reset(void);

/* getopt_long over a command's table that refuses an option given twice
 * with different values ("--gpu h100 --gpu a100": which one was meant?):
 * says so (exit-2 message) and returns GP_CLI_OPT_REPEAT; the same value
 * twice, or a flag twice, passes.  Short options are tracked through the
 * long option that has the same val.  A long option named by a prefix of
 * its name ('--micro-batch' for '--micro-batches') is refused the same way:
 * commands share option names that mean different things. */
#define GP_CLI_OPT_REPEAT 0x10000
struct option; /* <getopt.h> */
int gp_cli_getopt(gp_cli *cli, int argc, char **argv, const char *optstring,
                  const struct option *opts);

/* The whole program (cli/main.c): main calls it; the test runner under
 * make valgrind and the fuzz harness call it in-process.  Returns the exit
 * status; output goes to stdout and stderr. */
int gp_cli_main(int argc, char **argv);

/* Significant digits of every number in --json and --csv output: 15, so
 * a whole number up to 1e15 (a parameter or byte count) prints exactly and
 * a figure typed with at most 15 digits (0.92, 3.35e12) reads back as
 * typed, without the binary noise 17 digits would show (0.92000000000000004). */
#define GP_CLI_NUM_DIGITS 15
#define GP_CLI__STR(x) #x
#define GP_CLI__XSTR(x) GP_CLI__STR(x)
/* The printf conversion for such a number: "%.15g". */
#define GP_CLI_G "%." GP_CLI__XSTR(GP_CLI_NUM_DIGITS) "g"

/* JSON helpers: a number, or null when not finite (NaN/Inf never reach the
 * output).  gp_cli_emit takes ownership of obj, prints it to stdout with a
 * newline (numbers to GP_CLI_NUM_DIGITS), and returns 0 (1 when it cannot
 * be encoded). */
json_t *gp_cli_jnum(double v);
/* A count held in a double (GPUs, batch, tokens, layers): a JSON integer
 * when it is whole (up to 2^53), else as gp_cli_jnum. */
json_t *gp_cli_jcount(double v);
/* The CSV counterpart: GP_CLI_G of v into buf, or an empty field when v is
 * not finite (where JSON has null and the table "n/a"); returns buf. */
const char *gp_cli_csvnum(double v, char *buf, size_t n);
/* A CSV field: S in double quotes, quotes doubled. */
void gp_cli_csv_str(const char *s);
/* 1: gp_cli_emit prints its object as CSV, one header record (nested keys
 * joined by '.'; a list, and an empty object, one field holding its JSON
 * text) and one value record: --csv on a command without rows.
 * gp_cli_main sets it on every call. */
void gp_cli_set_flat_csv(int on);
int gp_cli_emit(json_t *obj);
/* The ledger as {"compute_s","memory_s","movement_s","total_s","binding",
 * "margin","rule"}. */
json_t *gp_cli_jledger(const gp_ledger *l);

/* Notes and warnings about the plan a command makes (an option clamped or
 * ignored, a figure used in place of another).  gp_cli_note prints
 * "gpuplan CMD: LEVEL: MESSAGE" ("note", "warning") on stderr at once --
 * unless the command called gp_cli_notes_defer: then it keeps them, in
 * order, and gp_cli_notes_flush prints those not printed yet.  A command
 * defers its notes, validates everything it can refuse, then flushes: a
 * refused command prints no warnings about a plan it will not make
 * (allreduce, scale).  gp_cli_jwarnings: the kept messages as a JSON array
 * of strings, its `warnings` (an empty array when none, or none kept).
 * Every gp_cli_note_* helper below goes through gp_cli_note.  A note that
 * cannot be kept (out of memory) is printed at once. */
void gp_cli_note(const gp_cli *cli, const char *level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void gp_cli_notes_defer(gp_cli *cli);
void gp_cli_notes_flush(gp_cli *cli);
json_t *gp_cli_jwarnings(const gp_cli *cli);

/* "gpuplan CMD: note: --host-bw ignored: ..." on stderr when a host staging
 * bandwidth was given (host_bw > 0) for a link with peer-to-peer, where
 * nothing is staged through host memory (allreduce, scale). */
void gp_cli_note_host_bw(const gp_cli *cli, const gp_link *up, double host_bw);

/* "gpuplan CMD: note: A, B and C ignored: WHY" on stderr for the non-NULL
 * NAMES (nothing when all are NULL). */
void gp_cli_note_ignored(const gp_cli *cli, const char *const *names, size_t n,
                         const char *why);

/* "gpuplan CMD: note: --nics-per-node K is more than the node's G GPUs:
 * priced as G" on stderr when K > G: comm.h lets each GPU's inter-node
 * traffic leave through one NIC (allreduce, scale, train). */
void gp_cli_note_nics(const gp_cli *cli, long nics, long per_node);
/* A scale-out link (a NIC) named as the link inside a node (up_opt:
 * "--link", "--scale-up") with per_node > 1 GPUs on it, or a scale-up link
 * named as --scale-out between nodes (multi_node), is priced as asked and
 * said on stderr: either a flat ring of single-GPU nodes or a mix-up of the
 * two options.  node_opts: the options that make nodes ("--nodes M"). */
void gp_cli_note_link_scopes(const gp_cli *cli, const char *up_opt, const gp_link *up,
                             double per_node, const gp_link *out, int multi_node,
                             const char *node_opts);

/* GPU g is one per machine and shares the CPU's memory (gp_gpu_unified):
 * refuses (returns 2) "LEAD<id> is one GPU per machine, ...; WHAT needs 'OPT'
 * for the network between them", the run over several machines that has
 * no named link.  decode, train, scale, allreduce. */
/* 1 when several of GPU g need a network link named: it is one per machine
 * (gp_gpu_unified), unless the run is machines of one GPU (PER_NODE 1)
 * joined by a named scale-out link (SCALE_OUT 1). */
int gp_cli_unified_needs_link(const gp_gpu *g, int scale_out, double per_node);
int gp_cli_refuse_unified(const gp_cli *cli, const char *lead, const gp_gpu *g,
                          const char *what, const char *opt);

/* The link a node of NODE GPUs g talks over when no --link names one: its
 * scale-up link, else its host link; NULL when it names neither.  A
 * scale-up link that is neither a switch nor a full mesh and joins fewer
 * GPUs than NODE (a bridge joins a pair) gives way to the GPU's wide_link
 * (RTX 3090: pcie4-x16-host, GeForce having no PCIe P2P), else its host
 * link, said in NOTE (else NOTE is ""), whose remedy names LINK_OPT ('--link',
 * train's '--scale-up') and splits the GPUS into nodes of the link's size:
 * '--gpus-per-node G' when PER_NODE (decode, scale, train), else
 * '--nodes M' (allreduce). */
const char *gp_cli_gpu_link(const gp_db *db, const gp_gpu *g, double node, double gpus,
                            int per_node, const char *link_opt, char *note, size_t n);

/* --link-bw RATE and --link-latency T (allreduce, scale, decode, train).  With a
 * named link (--link ID) they replace its expected (achievable) bandwidth
 * per direction, at most its datasheet figure, and its alpha; without one
 * they are a link of the user's own, "custom": peer-to-peer, a full switch
 * (each GPU its whole RATE), RATE the datasheet and the expected figure
 * alike, alpha T (0 when not given).  docs/models/collectives.md. */
typedef struct gp_cli_link_opt {
    double bw;       /* bytes/s per direction; 0: not given            */
    double lat;      /* seconds; < 0: not given                         */
    gp_link own;     /* the link priced when either is given            */
    char name[96];
} gp_cli_link_opt;
void gp_cli_link_opt_init(gp_cli_link_opt *o);
/* Parse --link-bw (LAT 0) or --link-latency (LAT 1); 2 on a bad value. */
int gp_cli_link_opt_parse(const gp_cli *cli, gp_cli_link_opt *o, int lat, const char *arg);
/* 1 when --link-bw was given (a link of the user's own without --link). */
int gp_cli_link_opt_given(const gp_cli_link_opt *o);
/* The link to price: NAMED (from --link; NULL when none) as is when neither
 * option was given, else o->own built as above.  Returns 0, or 2 with the
 * message (--link-latency alone without --link; --link-bw above NAMED's
 * datasheet). */
int gp_cli_link_opt_apply(const gp_cli *cli, gp_cli_link_opt *o, const gp_link *named,
                          const gp_link **out);

/* The name tables, JSON and CSV give a collective's algorithm: "none" when
 * nothing runs (NONE: one GPU, 0 bytes), "direct" for AllToAll,
 * "nvls-tree" for NVLS over NODES > 1, else gp_coll_algo_name(a). */
const char *gp_cli_algo_label(gp_coll_op op, gp_coll_algo a, long nodes, int none);

/* Notes on stderr for figures of a named link that the run does not use:
 * --link-bw where NVLS is priced (NVLS), both under --ceiling (CEILING). */
void gp_cli_link_opt_notes(const gp_cli *cli, const gp_cli_link_opt *o, const gp_link *up,
                           int nvls, int ceiling);

/* Decimals for gp_format_qty on a 1000-step ladder (FLOP/s, bytes/s, bytes)
 * so that v shows at least SIG significant digits: 1978.9e12 FLOP/s with
 * SIG 4 gives 2 ("1.98 PFLOP/s", not "2.0"), 989.4e12 gives 1. */
int gp_cli_sig_digits(double v, int sig);
/* gp_format_qty of v with gp_cli_sig_digits(v, sig) decimals into buf. */
const char *gp_cli_fmt_sig(double v, gp_qty kind, int sig, char *buf, size_t n);

/* Numbers in table output (docs/units.md, "Formatting"): scientific
 * notation drops the exponent's '+' and its leading zeros, "3.15e23",
 * "2.5e-5", as gp_format_qty writes it; never C's "3.15e+23".
 * gp_cli_exp_fix: rewrites every C exponent in s ("1.57e+04", "2.5e-05",
 * a digit or '.' before the 'e') into that form, in place; returns s.
 * gp_cli_row and gp_cli_print_ledger pass what they print through it, so
 * a "%g" in a row's value or note cannot print "e+NN".
 * gp_cli_g: "%.*g" of v, SIG significant digits with trailing zeros dropped,
 * in that form: an echoed input or a ratio ("1.5e12 params", "8.22x").
 * gp_cli_num: v to SIG significant digits, trailing zeros kept ("9.700e4",
 * "214.0", "1234"), scientific from 10^SIG up and below 1e-4 (as %g): a
 * computed figure, so that figures of one kind side by side show the same
 * precision (GPU-days next to GPU-hours).  Both write "n/a" for NaN and
 * infinities and return buf. */
char *gp_cli_exp_fix(char *s);
const char *gp_cli_g(double v, int sig, char *buf, size_t n);
const char *gp_cli_num(double v, int sig, char *buf, size_t n);
/* Money (docs/units.md, "Money"): "USD " and the amount, below USD 100 in
 * cents with at least 2 significant digits ("USD 8.00", "USD 17.01",
 * "USD 0.87", "USD 0.051"), whole dollars below a million ("USD 345081"),
 * then 4 significant digits on the count ladder ("USD 19.41 M",
 * "USD 114.5 T", "USD 1.145e15"); "n/a" when not finite.  Returns buf. */
const char *gp_cli_usd(double v, char *buf, size_t n);

/* A memory size for --json (what a GPU holds: weights, states, activations,
 * the reserve, totals, usable memory): a whole number of bytes, rounded up
 * (a partial byte occupies a byte); the models keep the unrounded figure.
 * Bytes moved (a step's traffic, bytes read per token) are averages and go
 * through gp_cli_jnum.  docs/units.md, "Numbers in --json and --csv". */
json_t *gp_cli_jbytes(double v);

/* A required option that was not given, through gp_cli_usage (exit 2):
 * "option 'OPT' is required", with ALTS, the options that would do instead,
 * in parentheses after it ("option '--step-compute-s' (or
 * '--tokens-per-gpu') is required") and WHEN after it ("... is required
 * with '--step-time'"); either may be NULL.  Every command words it so. */
int gp_cli_required(const gp_cli *cli, const char *opt, const char *alts, const char *when);

/* Table output: "  label ........ value  note" aligned; note may be NULL. */
void gp_cli_row(const char *label, const char *value, const char *note);
/* A quantity row: formats v as kind with `digits` decimals. */
void gp_cli_qrow(const char *label, double v, gp_qty kind, int digits,
                 const char *note);
/* Print a ledger block (each account's time, the binding one and by how much). */
void gp_cli_print_ledger(const char *title, const gp_ledger *l);

/* A measured run held against the ledgers (gp_ledger_diagnose): JSON
 * {"measured_s","ceiling_s","expected_s","of_ceiling","of_expected","gap_s",
 * "utilisation":{compute,memory,movement},"busiest","saturated","verdict",
 * "advice"}, and the table block titled `what` ("measured 25 tok/s per
 * stream").  The advice names what to look at next (docs/models/ledger.md);
 * `idle` (may be NULL) is the command's own advice when no roof is near
 * saturation. */
json_t *gp_cli_jdiag(const gp_diagnosis *d, const char *idle);
void gp_cli_print_diagnosis(const char *what, const gp_diagnosis *d, const char *idle);
/* The same with a verdict of the command's own (`verdict`, `advice`) in
 * place of the ledgers': allreduce's "other_algorithm", a measurement past
 * the ceiling of the algorithm priced but within another's that NCCL runs
 * there (docs/models/collectives.md).  The table's ceiling row then calls
 * the ceiling "a bound of what is priced", not one no run can beat. */
json_t *gp_cli_jdiag_as(const gp_diagnosis *d, const char *verdict, const char *advice);
void gp_cli_print_diagnosis_as(const char *what, const gp_diagnosis *d, const char *verdict,
                               const char *advice);

/* Files in the user's database directory (calib import, hw import-model).
 * gp_cli_mkdir_p: create path and its parents (0755); GP_EIO naming the
 * part that failed, or the path when it is not a directory.
 * gp_cli_slurp: the whole file into a malloc'd NUL-terminated *out (caller
 * frees); *out NULL and GP_OK when the file does not exist; any other
 * failure (cannot open, read error, out of memory) is an error, never
 * "absent".
 * gp_cli_write_atomic: text to dir/name through a temporary file in dir,
 * fsync and rename (never a half-written file); GP_EIO on failure, the
 * temporary file removed.
 * gp_cli_user_db_dir: where gpuplan writes (cli->write_dir: the first --db,
 * else the first $GPUPLAN_DB entry, else ${XDG_CONFIG_HOME:-~/.config}/gpuplan)
 * into out; *is_default 1 in the last case; GP_EIO when none can be named. */
int gp_cli_mkdir_p(const char *path, gp_err *e);
int gp_cli_slurp(const char *path, char **out, gp_err *e);
int gp_cli_write_atomic(const char *dir, const char *name, const char *text, gp_err *e);
int gp_cli_user_db_dir(const gp_cli *cli, char *out, size_t n, int *is_default, gp_err *e);

/* Hugging Face config.json files (cli/hfconfig.c; docs/hwdb.md "Importing
 * a Hugging Face config.json").
 * gp_cli_is_model_file: 1 when a --model argument names a config file (it
 * ends in ".json" or names an existing regular file), not an id.
 * gp_cli_model_file: when *model_id is such a file, convert it, reopen
 * cli->db with the entry added after every overlay (gp_db_open_with_text)
 * and point *model_id at its id (cli->model_file_id; "<id>.json" when the
 * database already has the id); nothing is written.  Call it before the
 * command's first gp_cli_db.  Returns 0, or the exit status after printing
 * the error.
 * gp_cli_hw_import: `gpuplan hw import-model` (argv[0] is "import-model"). */
int gp_cli_is_model_file(const char *arg);
int gp_cli_model_file(gp_cli *cli, const char **model_id);
int gp_cli_hw_import(gp_cli *cli, int argc, char **argv);

#define GP_CLI_CMD(name) extern const gp_cli_command gp_cli_cmd_##name;
#include "cli_cmds.h"
#undef GP_CLI_CMD

#endif /* GP_CLI_H */
