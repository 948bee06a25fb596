/* Roofline: arithmetic intensity, the ridge, the binding roof of a memory
 * hierarchy (L2, device memory, host link, peer link), the attainable rate and
 * the time floor of one kernel on one GPU, plus a table of named kernels with
 * their FLOP and byte counts.  MODEL: docs/models/roofline.md (Williams,
 * Waterman & Patterson, "Roofline", CACM 52(4), 2009).
 *
 * Everything here is pure: const inputs, a caller-owned result, a status
 * code.  No I/O, no allocation, no globals; strings in results point into the
 * gp_gpu / gp_link they came from or to static storage. */
#ifndef GP_ROOFLINE_H
#define GP_ROOFLINE_H

#include "gpuplan/db.h"
#include "gpuplan/ledger.h"
#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the kernel's operands live, i.e. the outermost level its bytes cross.
 * Every level from there inwards is on the path and is a roof:
 *   GP_ROOF_L2     working set resident in L2: {L2}
 *   GP_ROOF_DEVICE device memory (HBM/GDDR):   {L2, device}
 *   GP_ROOF_HOST   host memory over the GPU's host link (PCIe): {L2, device, host link}
 *   GP_ROOF_PEER   a peer GPU's memory over the peer link:       {L2, device, peer link}
 * The roof with the least bandwidth binds. */
typedef enum gp_roof_level {
    GP_ROOF_L2,
    GP_ROOF_DEVICE,
    GP_ROOF_HOST,
    GP_ROOF_PEER,
    GP_ROOF__COUNT
} gp_roof_level;

/* "l2", "device", "host-link", "peer-link"; "unknown" out of range. */
const char *gp_roof_level_name(gp_roof_level r);

/* Parse "l2", "device" (also "hbm", "dram", "memory"), "host", "peer"
 * (also the names above).  GP_EINVAL with e naming "data" otherwise, *out
 * untouched.  NULL s or out: GP_EINVAL. */
int gp_roof_level_parse(const char *s, gp_roof_level *out, gp_err *e);

/* Inputs besides the GPU.  Initialise with gp_roofline_params_init. */
typedef struct gp_roofline_params {
    gp_precision precision;  /* default GP_FP32                             */
    gp_pipeline pipeline;    /* GP_PIPE__COUNT (default) = the pipeline a
                                framework uses: gp_gpu_default_pipeline    */
    gp_accum accum;          /* default GP_ACC_FP32 (cuBLAS/PyTorch)        */
    int sparse;              /* 1: 2:4 structured sparsity (tensor only)    */
    gp_roof_level data;      /* default GP_ROOF_DEVICE                      */
    const gp_link *host_link; /* needed when data == GP_ROOF_HOST; when it is
                               * the GPU's own host_link, the GPU's measured
                               * h2d bandwidth is its expected figure        */
    const gp_link *peer_link; /* needed when data == GP_ROOF_PEER            */
} gp_roofline_params;

/* Defaults as documented on each field.  NULL is a no-op. */
void gp_roofline_params_init(gp_roofline_params *p);

/* One bandwidth roof of the hierarchy. */
typedef struct gp_roof {
    int known;          /* a bandwidth exists for this level              */
    int on_path;        /* the kernel's bytes cross it (see gp_roof_level) */
    double bw;          /* ceiling bytes/s (datasheet; per direction)     */
    double bw_expected; /* achievable bytes/s (calibrated, else efficiency) */
    double time;        /* bytes / bw, s (0 when not on the path)         */
    double time_expected; /* bytes / bw_expected, s                       */
    double ridge;       /* peak / bw, FLOP/byte                           */
    const char *src;    /* source of bw (owned by the database); may be NULL */
    const char *src_expected; /* source of the expected figure; may be NULL */
} gp_roof;

/* The answer.  "Plain" fields are ceilings (datasheet peaks); *_expected
 * fields use achievable figures. */
typedef struct gp_roofline {
    double flop;            /* FLOP                                        */
    double bytes;           /* bytes crossing each level on the path       */
    double intensity;       /* flop / bytes, FLOP/byte                     */
    gp_precision precision;
    gp_pipeline pipeline;   /* resolved (never GP_PIPE__COUNT)             */
    gp_accum accum;
    int sparse;
    double peak;            /* FLOP/s, gp_gpu_peak                         */
    double peak_expected;   /* FLOP/s, gp_gpu_expected_peak                */
    const char *peak_src;   /* source of peak; may be NULL                 */
    const char *peak_expected_src; /* calibration or efficiency source     */
    gp_roof roofs[GP_ROOF__COUNT];
    gp_roof_level binding_roof;          /* least bandwidth on the path    */
    gp_roof_level binding_roof_expected; /* same, with achievable figures  */
    double bw;              /* binding roof's bytes/s                      */
    double bw_expected;
    double critical;        /* ridge: peak / bw, FLOP/byte                 */
    double critical_expected;
    int compute_bound;      /* intensity >= critical (ceiling figures)     */
    int compute_bound_expected;
    double attainable;      /* min(peak, intensity * bw), FLOP/s           */
    double attainable_expected;
    double time;            /* max(flop / peak, bytes / bw), s             */
    double time_expected;
    double below_ridge;     /* critical / intensity: > 1 means that many
                               times below the ridge (memory-bound)        */
    /* compute = flop/peak; memory = the slowest on-chip/device roof (L2 or
     * device memory); movement = host- or peer-link time.  GP_OVERLAP_MAX,
     * so total == time. */
    gp_ledger ledger;
    gp_ledger ledger_expected;
} gp_roofline;

/* Evaluate the roofline of a kernel doing `flop` FLOPs and moving `bytes`
 * bytes (each crossing every level on its path once) on GPU g.
 *   intensity  I = flop / bytes
 *   ridge      I* = peak / bw_binding
 *   attainable = min(peak, I * bw_binding);  time = max(flop/peak, bytes/bw_binding)
 * MODEL: Williams et al. 2009 eq. 1; docs/models/roofline.md §1-3.
 * Returns GP_OK; GP_ERANGE when flop or bytes is not finite and > 0 (where
 * "flop"/"bytes"); GP_EUNSUP when the GPU has no rate for the precision on
 * the pipeline ("precision"), sparsity is asked where there is none
 * ("sparse"), or the level's bandwidth is unknown ("data"); GP_EINVAL for a
 * missing link ("data"), an enum out of range ("precision", "pipeline",
 * "accumulate", "data") or fp16 accumulate for anything but fp16/fp8 on
 * tensor cores ("accumulate"), and for a NULL g, p or out.  e (may be NULL)
 * names the field in `where`.
 * out is fully written on success; on failure its contents are unspecified. */
int gp_roofline_eval(const gp_gpu *g, const gp_roofline_params *p, double flop,
                     double bytes, gp_roofline *out, gp_err *e);

/* Device-memory ridge (critical intensity, FLOP/byte) of precision p on
 * pipeline pipe with accumulate acc and sparsity: gp_gpu_peak / mem_bw.
 * 0 when the GPU lacks the rate or has no bandwidth, or g is NULL. */
double gp_roofline_ridge(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                         gp_accum acc, int sparse);

/* Bytes per element stored in precision p (tf32 is stored as fp32: 4;
 * int4/fp4: 0.5).  0 out of range. */
double gp_roofline_elem_bytes(gp_precision p);

/* ---- named kernels ------------------------------------------------------ */

/* Sizes of a named kernel; which fields a kernel reads is in its descriptor
 * (`sizes`).  Zero means "not given"; a required size left at zero is an
 * error.  Initialise with gp_kernel_shape_init. */
typedef struct gp_kernel_shape {
    double m, n, k;     /* element counts; meaning per kernel              */
    double elem_bytes;  /* bytes per element (gp_roofline_elem_bytes)      */
    double tile;        /* gemm / flash-attention: tile edge (0 = ideal reuse) */
    double chain;       /* fused: elementwise kernels in the chain (>= 1)  */
    int beta;           /* gemm: 1 when C is read and accumulated (beta != 0) */
} gp_kernel_shape;

/* m = n = k = tile = chain = 0, elem_bytes = 4 (fp32), beta = 0.  NULL is
 * a no-op. */
void gp_kernel_shape_init(gp_kernel_shape *s);

/* What a named kernel costs. */
typedef struct gp_kernel_counts {
    double flop;           /* FLOP                                         */
    double bytes;          /* bytes moved through device memory            */
    double bytes_unfused;  /* the unfused / naive form's bytes (== bytes for
                              kernels without one): what fusion saves      */
    double bytes_ideal;    /* bytes with ideal reuse (== bytes unless tiled) */
} gp_kernel_counts;

typedef int (*gp_kernel_count_fn)(const gp_kernel_shape *s, gp_kernel_counts *out);

/* Optional inputs a kernel takes (gp_kernel_desc.options). */
enum {
    GP_KOPT_TILE = 1,  /* gp_kernel_shape.tile  */
    GP_KOPT_CHAIN = 2, /* gp_kernel_shape.chain */
    GP_KOPT_BETA = 4   /* gp_kernel_shape.beta  */
};

/* A named kernel: a pure function from sizes to counts, and the text the
 * CLI and docs show.  Static storage. */
typedef struct gp_kernel_desc {
    const char *name;       /* "gemm"                                      */
    const char *aliases;    /* space-separated, "" when none               */
    const char *summary;    /* one line                                    */
    const char *sizes;      /* sizes used, e.g. "m n k" (letters in m,n,k) */
    const char *required;   /* sizes that must be given, e.g. "n"          */
    const char *flop_formula;  /* "2*M*N*K"                                */
    const char *bytes_formula; /* "(M*K + K*N + M*N)*e"                    */
    gp_kernel_count_fn count;  /* fills counts; sizes already validated    */
    gp_pipeline pipeline;   /* where its arithmetic runs: GP_PIPE_TENSOR for
                               matrix products, GP_PIPE_CUDA for elementwise
                               and reductions (a default for callers)      */
    unsigned options;       /* GP_KOPT_* it accepts                        */
} gp_kernel_desc;

size_t gp_kernel_count(void);
const gp_kernel_desc *gp_kernel_at(size_t i); /* NULL out of range */
/* By name or alias, case-insensitively; NULL when unknown (or NULL). */
const gp_kernel_desc *gp_kernel_find(const char *name);
/* As gp_kernel_find, but GP_ENOTFOUND with a message listing the kernels;
 * *out NULL on failure.  NULL name or out: GP_EINVAL. */
int gp_kernel_get(const char *name, const gp_kernel_desc **out, gp_err *e);

/* Validate s against k (required sizes > 0; every given size finite, > 0
 * and whole, as are tile and chain; sizes the kernel does not use must be
 * 0; elem_bytes > 0; chain >= 1 when used) and fill out.  Errors:
 * GP_ERANGE / GP_EINVAL with e's `where` naming the field ("m", "n", "k",
 * "tile", "chain", "elem_bytes").  NULL k, s or out: GP_EINVAL.
 * MODEL: docs/models/roofline.md §4 (one subsection per kernel). */
int gp_kernel_eval(const gp_kernel_desc *k, const gp_kernel_shape *s,
                   gp_kernel_counts *out, gp_err *e);

#ifdef __cplusplus
}
#endif
#endif /* GP_ROOFLINE_H */
