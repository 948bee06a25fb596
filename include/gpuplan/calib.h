/* Calibration: read a gpuplan-probe measurement file, reduce its trials to
 * statistics, fit alpha-beta (Hockney) models to size sweeps, compare with
 * datasheet figures, and produce the `measured:` overlay text that the
 * database loader merges (docs/calibration.md, docs/hwdb.md).
 *
 * The library does no file writing: gp_calib_read_file reads, everything
 * else returns structs or malloc'd text; the CLI (`gpuplan calib`) writes. */
#ifndef GP_CALIB_H
#define GP_CALIB_H

#include <stddef.h>

#include "gpuplan/db.h"
#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The measurement-file format this library reads ("format:" key). */
#define GP_CALIB_FORMAT "gpuplan-calib/1"

/* Order statistics of n >= 1 samples.  median and p95 are linear
 * interpolations between order statistics (gsl_stats_quantile_from_sorted_data);
 * cv = sample standard deviation / mean (0 when n == 1). */
typedef struct gp_calib_stats {
    size_t n;
    double min, median, p95, max, mean, cv;
} gp_calib_stats;

/* Compute the statistics of x[0..n-1] (left unchanged).  `work` is caller
 * scratch of n doubles (no allocation).  Returns GP_OK, or GP_EINVAL when
 * n == 0, a pointer is NULL (x, work, out: the message names it) or a
 * sample is not finite; *out untouched on error. */
int gp_calib_stats_compute(const double *x, size_t n, double *work,
                           gp_calib_stats *out, gp_err *e);

typedef enum gp_calib_kind {
    GP_CALIB_GEMM,      /* work = FLOP per GEMM (2mnk), t = seconds per GEMM      */
    GP_CALIB_MEMORY,    /* work = DRAM bytes per pass (read + write)             */
    GP_CALIB_LATENCY,   /* work = working-set bytes, t = seconds per load        */
    GP_CALIB_TRANSFER,  /* work = bytes per copy, one direction                  */
    GP_CALIB_PEER,      /* work = bytes per copy (bidir: both directions summed) */
    GP_CALIB_ALLREDUCE, /* work = message bytes S per rank                       */
    GP_CALIB__COUNT
} gp_calib_kind;

/* One measured point: the statistics of its trials.  Rates are work / time
 * (best = from the fastest trial, median = from the median trial). */
typedef struct gp_calib_point {
    gp_calib_kind kind;
    /* Series the point belongs to: gemm "bf16-tensor-fp32acc"; memory "copy",
     * "read", "write", "triad", "memcpy-d2d", "l2-read"; transfer
     * "h2d-pinned", "d2h-pageable", ...; peer "uni", "bidir", "latency";
     * allreduce "allreduce"; latency "chase". */
    char series[40];
    char label[64];         /* shape name ("square-8192", "llm-qkv") or "" */
    gp_precision prec;      /* gemm */
    gp_pipeline pipe;       /* gemm */
    gp_accum acc;           /* gemm */
    long m, n, k;           /* gemm shape */
    int gpus;               /* allreduce ranks; peer: 2 */
    int verified;           /* the probe checked the result */
    double work;
    gp_calib_stats t;       /* seconds per op (latency: per load)              */
    gp_calib_stats cycles;  /* latency only: SM cycles per load               */
    double rate_best, rate_median; /* work / t.min, work / t.median; 0 for latency */
    unsigned line;          /* where the point starts in the file            */
} gp_calib_point;

typedef struct gp_calib_device {
    char name[128];         /* "NVIDIA H200"                                  */
    char cc[16];            /* "9.0"                                          */
    char pci_bus_id[32];
    char nvml_driver[32];   /* NVML driver version string, "" when unknown   */
    int index;
    int sm_count;
    int gpus;               /* GPUs visible to the probe                     */
    int driver_version;     /* cudaDriverGetVersion, e.g. 13000              */
    int runtime_version;    /* cudaRuntimeGetVersion                         */
    long cublaslt_version;
    double clock_sm_hz, clock_mem_hz;
    double memory_bytes, l2_bytes;
    int memory_bus_bits;
    int pcie_gen, pcie_width, pcie_max_gen, pcie_max_width; /* 0 = unknown   */
} gp_calib_device;

/* The kinds of file gpuplan reads (docs/calibration.md): its own probe's
 * YAML, the text output of nccl-tests / rccl-tests all_reduce_perf, and the
 * text output of BabelStream.  GP_CALIB_FMT_AUTO is only a request (detect
 * by content); a parsed file never has it. */
typedef enum gp_calib_format {
    GP_CALIB_FMT_AUTO,
    GP_CALIB_FMT_PROBE,       /* format: gpuplan-calib/1                     */
    GP_CALIB_FMT_NCCL_TESTS,  /* nccl-tests / rccl-tests all_reduce_perf     */
    GP_CALIB_FMT_BABELSTREAM, /* BabelStream (UoB-HPC) text output           */
    GP_CALIB_FMT_NVBANDWIDTH, /* NVIDIA nvbandwidth text output              */
    GP_CALIB_FMT__COUNT
} gp_calib_format;

#define GP_CALIB_MAX_WARN 8 /* warnings kept with a parsed file (more are counted) */

/* A parsed measurement file. */
typedef struct gp_calib {
    char path[256];         /* the name used in messages                     */
    char tool[64];          /* "gpuplan-probe 0.1.0", "rccl-tests develop:ae3e635" */
    char date[40];          /* ISO 8601, "2026-12-01T04:10:00Z"; "" when the
                               file records none (nccl-tests, BabelStream)   */
    char host[64];
    gp_calib_device dev;
    gp_calib_point *pts;    /* owned                                          */
    size_t n_pts;
    gp_calib_format format; /* what the file was read as                      */
    /* Where the collective ran: the probe is one process on one machine
     * (nodes 1); an nccl-tests log names a host per rank ('# Rank' lines):
     * nodes = distinct hosts, 0 when the log lists no (or not every) rank,
     * so a single node cannot be confirmed. */
    int nodes;
    int gpus_per_node;      /* ranks per host when equal on every host, else 0 */
    char host2[64];         /* a second host when nodes > 1 (for messages)   */
    char algo[32];          /* NCCL_ALGO as the log states it, "" when unstated */
    /* Parser warnings (rows dropped for #wrong, inferred rank counts, ...):
     * n_warn counts them all, the first GP_CALIB_MAX_WARN are kept. */
    char warn[GP_CALIB_MAX_WARN][200];
    size_t n_warn;
} gp_calib;

/* Parse measurement-file text; `name` is used in messages.  The file must
 * declare `format: gpuplan-calib/1` and end with `complete: true` (the
 * probe writes it last, so a truncated file is refused).  Unknown keys,
 * wrong types, non-positive or non-finite timings, empty trial lists are
 * errors naming name:line:col and the key.  On success *out is owned by the
 * caller (gp_calib_free); on failure it is NULL.  Returns GP_OK, GP_EPARSE
 * (not YAML, truncated), GP_ESCHEMA (wrong content) or GP_ENOMEM.  name may
 * be NULL ("<text>"); NULL text or out: GP_EINVAL.  The same holds for the
 * other readers below (nccl-tests, BabelStream, nvbandwidth, any). */
int gp_calib_read_text(const char *name, const char *text, size_t len,
                       gp_calib **out, gp_err *e);

/* Same for a file (at most 64 MiB); GP_EIO when it cannot be read.  NULL
 * path or out: GP_EINVAL (*out NULL when out is not). */
int gp_calib_read_file(const char *path, gp_calib **out, gp_err *e);

void gp_calib_free(gp_calib *c); /* NULL is a no-op */

/* Parse the text output of nccl-tests or rccl-tests `all_reduce_perf`
 * (docs/calibration.md, "Importing nccl-tests, rccl-tests and BabelStream
 * output").  Each size row becomes one GP_CALIB_ALLREDUCE point (series
 * "allreduce", gpus = ranks, work = size in bytes) with two trials: the
 * out-of-place and the in-place time (us -> s).  Rows whose #wrong is not 0
 * are dropped with a warning.  The collective is identified from the log
 * ('# Collective test starting: NAME' when present), from the redop/root
 * columns and from busbw/algbw, which is 2(n-1)/n only for AllReduce
 * (nccl-tests PERFORMANCE.md): anything else is refused (GP_EUNSUP).  The
 * log must end with nccl-tests' '# Avg bus bandwidth' footer (a truncated log
 * is GP_EPARSE at its last line); a row with the wrong number of columns, a
 * time that is not a positive number, or an algbw that disagrees with
 * size/time is GP_EPARSE at name:line:col.  Pure: no I/O; *out as for
 * gp_calib_read_text (date "" -- the log holds none). */
int gp_calib_read_nccl_tests(const char *name, const char *text, size_t len,
                             gp_calib **out, gp_err *e);

/* Parse BabelStream's text output (the `Function MBytes/sec Min (sec) Max
 * Average` table, `Array size: X MB`, `Using CUDA|HIP|... device NAME`).
 * Each function becomes a GP_CALIB_MEMORY point: Copy -> series "copy",
 * Mul "mul", Add "add", Triad "triad", Dot "dot", Nstream "nstream", with
 * work = the bytes BabelStream counts per pass (Copy, Mul, Dot 2 arrays; Add,
 * Triad 3; Nstream 4; MB = 1e6 bytes, MiB = 2^20 -- BabelStream src/main.cpp).
 * One table per device (one per MPI rank): each table is one trial, its time
 * the best pass = bytes / (MBytes/sec), checked against Min (sec).  Devices
 * must share one name.  'Validation failed' lines, triad-only or CSV output,
 * a cut table and unknown lines are refused with name:line.  Pure. */
int gp_calib_read_babelstream(const char *name, const char *text, size_t len,
                              gp_calib **out, gp_err *e);

/* Parse NVIDIA nvbandwidth's text output (docs/calibration.md,
 * "nvbandwidth"): the header ('nvbandwidth Version:', CUDA versions,
 * 'Device N: NAME (PCI)' lines -- v0.10 prints none, then dev.name is ""),
 * then per testcase 'Running KEY.', one or more matrices titled '... bandwidth
 * (GB/s)' (GB = 1e9 bytes) with 'N/A' cells, and 'SUM NAME VALUE', checked
 * against the matrix (2-decimal rounding).  Each bandwidth matrix becomes one
 * point whose trials are its cells (one per GPU or GPU pair), work a nominal
 * 1e9 bytes (the log does not state the buffer size) and each time 1 GB / the
 * cell's rate: host_to_device_memcpy_ce -> GP_CALIB_TRANSFER "h2d-pinned",
 * device_to_host_memcpy_ce -> "d2h-pinned", device_to_device_memcpy_read_ce
 * -> GP_CALIB_PEER "uni" (write_ce when there is no read test, else series
 * "d2d-write-ce"), device_local_copy -> GP_CALIB_MEMORY "memcpy-d2d" with work
 * 2e9 (each byte read and written: DRAM traffic is twice the copy rate);
 * every other bandwidth matrix series "nvbandwidth", labelled with its SUM
 * name (shown, not overlaid).  Latency (ns) matrices and waived testcases are
 * skipped with a warning.  Refused with name:line: a testcase without its
 * matrix or SUM (truncated, or the run failed), a row with the wrong number
 * of cells, a SUM that is not the matrix's sum, a testcase twice, GPUs of
 * different names, two versions, multinode output, any other line.  Pure. */
int gp_calib_read_nvbandwidth(const char *name, const char *text, size_t len,
                              gp_calib **out, gp_err *e);

/* The format of `text` by content: nccl-tests when a line is its column
 * header ('#  size  count  type ... busbw') or '# nThread' / '# Collective
 * test starting'; BabelStream when a line is 'BabelStream' or starts with
 * 'Function' and one names MBytes/sec; nvbandwidth when a line is
 * 'nvbandwidth Version: ...', a 'memcpy CE|SM ...' matrix title or 'SUM KEY
 * VALUE' of a memcpy testcase; else GP_CALIB_FMT_PROBE (so a broken
 * YAML file is reported by the YAML reader; so is a NULL text).  Never
 * GP_CALIB_FMT_AUTO. */
gp_calib_format gp_calib_detect(const char *text, size_t len);

/* Read `text` as `fmt` (GP_CALIB_FMT_AUTO: gp_calib_detect).  Returns what
 * the chosen reader returns. */
int gp_calib_read_any(const char *name, const char *text, size_t len, gp_calib_format fmt,
                      gp_calib **out, gp_err *e);

/* gp_calib_read_any on a file (regular files of at most 64 MiB, as
 * gp_calib_read_file; NULL path or out: GP_EINVAL). */
int gp_calib_read_file_any(const char *path, gp_calib_format fmt, gp_calib **out,
                           gp_err *e);

/* "auto", "probe", "nccl-tests", "babelstream", "nvbandwidth"; parse accepts those names
 * (and "rccl-tests" for nccl-tests); GP_EINVAL naming --format otherwise,
 * *out untouched.  NULL s or out: GP_EINVAL. */
const char *gp_calib_format_name(gp_calib_format f);
int gp_calib_format_parse(const char *s, gp_calib_format *out, gp_err *e);

/* Hockney model t(S) = alpha + c * S / beta.  c = 1 for a plain copy;
 * c = 2(n-1)/n for a ring AllReduce, so that beta is the bus bandwidth. */
typedef struct gp_calib_fit {
    size_t n;               /* points used                                    */
    double c;               /* the size multiplier                            */
    double alpha, alpha_se; /* seconds                                        */
    double beta, beta_se;   /* bytes/s                                        */
    double n_half, n_half_se; /* bytes: S at which the rate is beta/2 = alpha*beta/c */
    double max_rel_resid;   /* max |t_fit - t| / t over the points            */
} gp_calib_fit;

/* Weighted least squares of t_i = alpha + (c S_i) * (1/beta) with weights
 * 1/t_i^2 (minimises relative error so large sizes do not dominate),
 * closed form over centred weighted sums (docs/calibration.md); allocates
 * nothing.  Standard errors come from the covariance scaled
 * by the reduced chi-square (the scatter of the points, n - 2 dof);
 * beta_se = se(1/beta) * beta^2 and n_half_se by first-order propagation
 * with the alpha/(1/beta) covariance.  MODEL: Hockney 1994; weighting as in
 * docs/calibration.md.  Needs n >= 3 distinct sizes; GP_EINVAL for fewer,
 * bad values, or a fit whose alpha or beta is not positive (GP_ERANGE).
 * NULL size, t or out: GP_EINVAL. */
int gp_calib_fit_alpha_beta(const double *size, const double *t, size_t n,
                            double c, gp_calib_fit *out, gp_err *e);

/* Fit the points of one series (median time per size), sizes in
 * [min_bytes, max_bytes] (0 = no bound).  For GP_CALIB_ALLREDUCE c is
 * 2(n-1)/n from the points' rank count.  GP_ENOTFOUND when the series has
 * fewer than three sizes.  NULL c, series or out: GP_EINVAL. */
int gp_calib_fit_series(const gp_calib *c, gp_calib_kind kind, const char *series,
                        double min_bytes, double max_bytes, gp_calib_fit *out,
                        gp_err *e);

/* Lower edge of the bandwidth regime (docs/calibration.md): 64 MiB, where
 * NCCL and RCCL ring sweeps reach >= 85 % of their plateau on NVLink and
 * xGMI, and a copy of latency alpha <= 10 us on a link of <= 900 GB/s
 * (n1/2 = alpha beta <= 9 MB) reaches >= 88 % of beta.  A size sweep (host
 * or peer copies, AllReduce) yields a bandwidth only when some size reaches
 * it; below it the times are latency and the fitted beta an extrapolation.
 * GP_CALIB_AR_BW_MIN_BYTES is also the window the summary fits when the
 * AllReduce all-size fit does not hold. */
#define GP_CALIB_BW_MIN_BYTES (64.0 * 1048576.0)
#define GP_CALIB_AR_BW_MIN_BYTES GP_CALIB_BW_MIN_BYTES

/* The largest rate (work / time: bytes/s or FLOP/s) a point may have: every
 * reader refuses a trial time that gives more at the trial's own
 * name:line:col -- 1000 x the database's largest rate (GP_RATE_MAX, 1 PB/s);
 * a time of 1e-300 s would overflow the rate to inf. */
#define GP_CALIB_RATE_MAX 1e18

/* 1 when s is a date of the (proleptic Gregorian) calendar as ISO 8601
 * writes it: "YYYY-MM-DD", optionally followed by "THH:MM", ":SS", a
 * fraction ".s..." and a zone "Z" or "+HH:MM" / "-HH:MM" (hour < 24, minute
 * < 60, second <= 60) -- what `calib --date` and a measurement file's
 * `date:` accept.  0 otherwise, and for a NULL s. */
int gp_calib_date_ok(const char *s);

/* Figures distilled from a measurement file.  0 = not measured.  Rates
 * are medians over trials (the planning value); *_best the best trial. */
typedef struct gp_calib_summary {
    double mem_bw, mem_bw_best;   /* bytes/s: SM copy kernel, read + write counted */
    double mem_read_bw, mem_write_bw, mem_triad_bw, memcpy_d2d_bw;
    double l2_bw;                 /* bytes/s: read kernel on a working set < L2 */
    /* Best dense GEMM per precision and pipeline (fp32 accumulate for
     * fp16/bf16/fp8): max over shapes of the median-trial rate. */
    double gemm[GP_PREC__COUNT][GP_PIPE__COUNT];
    double gemm_best[GP_PREC__COUNT][GP_PIPE__COUNT]; /* max over trials and shapes */
    double gemm_fp16acc;          /* fp16 inputs, fp16 accumulate                */
    double lat_l1, lat_l2, lat_dram;          /* seconds per dependent load      */
    double lat_l1_cyc, lat_l2_cyc, lat_dram_cyc;
    /* Host links, pinned memory: beta of the alpha-beta fit when it holds
     * (max residual <= 10 %), else the median rate at the largest size;
     * latency: alpha, else the median time of the smallest copy. */
    double h2d_bw, d2h_bw, h2d_lat, d2h_lat;
    double h2d_pageable_bw, d2h_pageable_bw;
    gp_calib_fit h2d_fit, d2h_fit;            /* n == 0 when not fitted          */
    double peer_bw, peer_bidir_bw, peer_lat;  /* per direction; bidir = sum      */
    gp_calib_fit peer_fit;
    /* AllReduce: busbw = beta of the fit over every size when it holds
     * (max residual <= 10 %), else of the fit over the bandwidth regime
     * S >= 64 MiB (allreduce_fit_min_bytes) when that holds, else the best
     * size's median busbw.  Latency: alpha of the all-size fit when it
     * holds, else the median time of the smallest size.  No size of a sweep
     * >= GP_CALIB_BW_MIN_BYTES (a latency sweep): its bandwidths -- busbw,
     * h2d/d2h, peer -- are 0 (not measured); its latency is kept. */
    double allreduce_busbw;                   /* bytes/s per direction           */
    double allreduce_lat;
    int allreduce_gpus;
    int allreduce_nodes;                      /* gp_calib.nodes                  */
    gp_calib_fit allreduce_fit;               /* the fit used (n == 0: none)     */
    double allreduce_fit_min_bytes;           /* 0: all sizes; else its window   */
} gp_calib_summary;

/* Reduce a parsed file to its summary (pure; never fails on a parsed file).
 * A NULL c gives the all-zero summary (nothing measured); a NULL out is a
 * no-op. */
void gp_calib_summarize(const gp_calib *c, gp_calib_summary *out);

/* One efficiency row: measured / datasheet. */
typedef struct gp_calib_eff {
    char what[40];          /* "memory copy", "bf16 tensor GEMM", "h2d pinned" */
    double measured;        /* SI                                             */
    double datasheet;       /* SI, from the gp_gpu / gp_link figure           */
    double eff;             /* measured / datasheet                           */
    const char *src;        /* datasheet citation (owned by the database)     */
} gp_calib_eff;

/* Efficiencies of the summary against GPU g (and its host link and
 * scale-up link when non-NULL): memory copy vs memory.bandwidth, each
 * measured GEMM vs gp_gpu_peak(dense, fp32 acc) (and fp16 acc), L2 read vs
 * cache.l2_bandwidth, h2d/d2h vs host link bandwidth, peer vs the scale-up
 * link (or the host link when the GPU has none).  Writes at most cap rows
 * to out and returns the number of rows available (out NULL: none written,
 * as with cap 0).  0 for a NULL s or g. */
size_t gp_calib_efficiencies(const gp_calib_summary *s, const gp_gpu *g,
                             const gp_link *host, const gp_link *peer,
                             gp_calib_eff *out, size_t cap);

/* The database GPU the probe's device name denotes: an exact (case-
 * insensitive) match of a name, id or alias; else the entry whose id or an
 * alias, split into words, appears in the device name's words ("NVIDIA H100
 * 80GB HBM3" -> alias "h100"), the most specific (most words) winning.
 * GP_ENOTFOUND when none matches, GP_EINVAL when two match equally (the
 * message lists them and suggests --as ID).  On failure *out is NULL.  NULL
 * db, device_name or out: GP_EINVAL. */
int gp_calib_match_gpu(const gp_db *db, const char *device_name,
                       const gp_gpu **out, gp_err *e);

/* Overlay YAML for GPU `gpu_id` (a `measured:` block per docs/hwdb.md),
 * citing `label` (e.g. the measurement file's name) in `source`.  *text is
 * malloc'd (caller frees).  Deterministic: the same input gives the same
 * bytes (the date comes from the file).  GP_EINVAL when the summary holds
 * nothing the schema can carry.  On failure *text is NULL.  label may be
 * NULL (the file's name, c->path); NULL c, s, gpu_id or text: GP_EINVAL.
 * gp_calib_overlay_link treats its arguments alike. */
int gp_calib_overlay_gpu(const gp_calib *c, const gp_calib_summary *s,
                         const char *gpu_id, const char *label, char **text,
                         gp_err *e);

/* Overlay YAML for link `link_id` from the peer measurements (bandwidth per
 * direction and latency), the AllReduce busbw taking precedence.
 * GP_ENOTFOUND when the file holds no peer data.  GP_EUNSUP when the busbw
 * is not the link's ring figure: an nccl-tests sweep over more than one node
 * (or whose log does not show it ran on one), or one that names an
 * NCCL_ALGO other than Ring (NVLS, Tree, CollNet measure another algorithm). */
int gp_calib_overlay_link(const gp_calib *c, const gp_calib_summary *s,
                          const char *link_id, const char *label, char **text,
                          gp_err *e);

const char *gp_calib_kind_name(gp_calib_kind k);

#ifdef __cplusplus
}
#endif
#endif /* GP_CALIB_H */
