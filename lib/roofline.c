/* Roofline model and the named-kernel table.  MODEL: docs/models/roofline.md
 * (Williams, Waterman & Patterson 2009).  Pure functions; no I/O. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/roofline.h"

/* ---- names ---------------------------------------------------------------- */

static const char *const level_names[GP_ROOF__COUNT] = {"l2", "device", "host-link",
                                                        "peer-link"};

const char *gp_roof_level_name(gp_roof_level r)
{
    return (unsigned)r < GP_ROOF__COUNT ? level_names[r] : "unknown";
}

int gp_roof_level_parse(const char *s, gp_roof_level *out, gp_err *e)
{
    static const struct {
        const char *name;
        gp_roof_level level;
    } names[] = {
        {"l2", GP_ROOF_L2},          {"device", GP_ROOF_DEVICE}, {"hbm", GP_ROOF_DEVICE},
        {"dram", GP_ROOF_DEVICE},    {"memory", GP_ROOF_DEVICE}, {"host", GP_ROOF_HOST},
        {"host-link", GP_ROOF_HOST}, {"peer", GP_ROOF_PEER},     {"peer-link", GP_ROOF_PEER},
    };
    size_t i;
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_roof_level_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_roof_level_parse: NULL out");
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcasecmp(s, names[i].name) == 0) {
            *out = names[i].level;
            return GP_OK;
        }
    }
    return GP_RAISE_AT(e, GP_EINVAL, "data", 0, 0,
                       "unknown data location '%s' (known: device l2 host peer)", s);
}

void gp_roofline_params_init(gp_roofline_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->precision = GP_FP32;
    p->pipeline = GP_PIPE__COUNT;
    p->accum = GP_ACC_FP32;
    p->sparse = 0;
    p->data = GP_ROOF_DEVICE;
    p->host_link = NULL;
    p->peer_link = NULL;
}

double gp_roofline_elem_bytes(gp_precision p)
{
    static const double bytes[GP_PREC__COUNT] = {8, 4, 4, 2, 2, 1, 1, 0.5, 0.5};
    return (unsigned)p < GP_PREC__COUNT ? bytes[p] : 0.0;
}

double gp_roofline_ridge(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                         gp_accum acc, int sparse)
{
    double peak;
    if (g == NULL || !(g->mem_bw.v > 0.0))
        return 0.0;
    peak = gp_gpu_peak(g, p, pipe, acc, sparse);
    return peak > 0.0 ? peak / g->mem_bw.v : 0.0;
}

/* ---- evaluation ------------------------------------------------------------- */

static int positive(double v)
{
    return isfinite(v) && v > 0.0;
}

/* Fill one roof from a ceiling and an expected bandwidth. */
static void set_roof(gp_roof *r, double bw, double bw_exp, const char *src,
                     const char *src_exp)
{
    r->known = bw > 0.0 || bw_exp > 0.0;
    /* A measured figure without a datasheet one: the measurement is the best
     * ceiling we have (a run cannot beat the hardware). */
    r->bw = bw > 0.0 ? bw : bw_exp;
    r->bw_expected = bw_exp > 0.0 ? bw_exp : r->bw;
    r->src = bw > 0.0 ? src : src_exp;
    r->src_expected = src_exp;
}

static const char *first_src(const char *a, const char *b)
{
    return a != NULL ? a : b;
}

/* share: the part of the link's per-GPU figure the path uses (one peer of a
 * point-to-point mesh is one of its direct links: gp_link_mesh_share). */
static void set_link_roof(gp_roof *r, const gp_link *l, double share)
{
    if (l == NULL)
        return;
    set_roof(r, l->bw.v * share, gp_link_expected_bw(l) * share, l->bw.src,
             l->meas_bw.v > 0.0       ? first_src(l->calibration, l->meas_bw.src)
             : l->bw_achievable.v > 0 ? l->bw_achievable.src
                                      : l->bw.src);
}

int gp_roofline_eval(const gp_gpu *g, const gp_roofline_params *p, double flop,
                     double bytes, gp_roofline *out, gp_err *e)
{
    gp_roofline *r;
    gp_pipeline pipe;
    int i, on[GP_ROOF__COUNT] = {0, 0, 0, 0};
    double l2_exp;

    if (g == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_roofline_eval: NULL g");
    if (p == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_roofline_eval: NULL p");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_roofline_eval: NULL out");
    if (!positive(flop))
        return GP_RAISE_AT(e, GP_ERANGE, "flop", 0, 0,
                           "FLOP count must be a finite number > 0, got %g", flop);
    if (!positive(bytes))
        return GP_RAISE_AT(e, GP_ERANGE, "bytes", 0, 0,
                           "byte count must be a finite number > 0, got %g", bytes);
    if (!isfinite(flop / bytes))
        return GP_RAISE_AT(e, GP_ERANGE, "bytes", 0, 0,
                           "intensity %g FLOP / %g bytes overflows a double", flop, bytes);
    if ((unsigned)p->precision >= GP_PREC__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "precision", 0, 0, "precision %d out of range",
                           (int)p->precision);
    if ((unsigned)p->pipeline > GP_PIPE__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "pipeline", 0, 0, "pipeline %d out of range",
                           (int)p->pipeline);
    if (p->accum != GP_ACC_FP32 && p->accum != GP_ACC_FP16)
        return GP_RAISE_AT(e, GP_EINVAL, "accumulate", 0, 0,
                           "accumulate mode %d out of range", (int)p->accum);
    if ((unsigned)p->data >= GP_ROOF__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "data", 0, 0, "data location %d out of range",
                           (int)p->data);

    pipe = p->pipeline == GP_PIPE__COUNT ? gp_gpu_default_pipeline(g, p->precision)
                                         : p->pipeline;
    /* fp16 accumulate is a Tensor Core MMA mode of fp16 and fp8 inputs only
     * (bf16, tf32 accumulate in fp32, int8 in int32); anything else would
     * be priced at the fp32-accumulate rate under an "fp16 accumulate"
     * label. */
    if (p->accum == GP_ACC_FP16 &&
        (pipe != GP_PIPE_TENSOR || (p->precision != GP_FP16 && p->precision != GP_FP8)))
        return GP_RAISE_AT(e, GP_EINVAL, "accumulate", 0, 0,
                           "fp16 accumulate applies to fp16 and fp8 on tensor cores, not %s "
                           "on %s cores",
                           gp_precision_name(p->precision), gp_pipeline_name(pipe));
    r = out;
    memset(r, 0, sizeof *r);
    r->flop = flop;
    r->bytes = bytes;
    r->intensity = flop / bytes;
    r->precision = p->precision;
    r->pipeline = pipe;
    r->accum = p->accum;
    r->sparse = p->sparse != 0;

    /* Compute roof. */
    r->peak = gp_gpu_peak(g, p->precision, pipe, p->accum, 0);
    if (r->peak <= 0.0) {
        const char *id = g->id != NULL ? g->id : "?";
        if (gp_gpu_peak(g, p->precision, pipe == GP_PIPE_CUDA ? GP_PIPE_TENSOR : GP_PIPE_CUDA,
                        p->accum, 0) > 0.0)
            return GP_RAISE_AT(e, GP_EUNSUP, "precision", 0, 0,
                               "GPU '%s' has no %s rate on %s cores (it has one on %s cores; "
                               "see --pipeline)",
                               id, gp_precision_name(p->precision),
                               gp_pipeline_name(pipe),
                               gp_pipeline_name(pipe == GP_PIPE_CUDA ? GP_PIPE_TENSOR
                                                                     : GP_PIPE_CUDA));
        return GP_RAISE_AT(e, GP_EUNSUP, "precision", 0, 0,
                           "GPU '%s' does not support precision %s (no datasheet rate)", id,
                           gp_precision_name(p->precision));
    }
    if (r->sparse)
        r->peak = gp_gpu_peak(g, p->precision, pipe, p->accum, 1);
    if (r->peak <= 0.0)
        return GP_RAISE_AT(e, GP_EUNSUP, "sparse", 0, 0,
                           "GPU '%s' has no 2:4 sparse rate for %s on %s cores",
                           g->id != NULL ? g->id : "?", gp_precision_name(p->precision),
                           gp_pipeline_name(pipe));
    r->peak_expected = gp_gpu_expected_peak(g, p->precision, pipe, p->accum, r->sparse);
    if (!(r->peak_expected > 0.0))
        r->peak_expected = r->peak;
    if (pipe == GP_PIPE_TENSOR && p->accum == GP_ACC_FP16 &&
        g->peak_fp16acc[p->precision].v > 0.0)
        r->peak_src = g->peak_fp16acc[p->precision].src;
    else
        r->peak_src = g->peak[p->precision][pipe].src;
    r->peak_expected_src = gp_gpu_expected_peak_src(g, p->precision, pipe);
    if (r->peak_expected_src == NULL)
        r->peak_expected_src = r->peak_src;

    /* Bandwidth roofs. */
    /* Vendors publish no L2 bandwidth: the database's figure is itself a
     * microbenchmark result, so no efficiency is applied on top of it. */
    /* Nor is it a bound a measurement cannot pass: a calibration above it
     * raises the L2 ceiling to what the GPU did. */
    l2_exp = g->meas_l2_bw.v > 0.0 ? g->meas_l2_bw.v : g->l2_bw.v;
    set_roof(&r->roofs[GP_ROOF_L2], fmax(g->l2_bw.v, g->meas_l2_bw.v), l2_exp,
             g->meas_l2_bw.v > g->l2_bw.v ? first_src(g->calibration, g->meas_l2_bw.src)
                                          : g->l2_bw.src,
             g->meas_l2_bw.v > 0.0 ? first_src(g->calibration, g->meas_l2_bw.src)
                                   : g->l2_bw.src);
    set_roof(&r->roofs[GP_ROOF_DEVICE], g->mem_bw.v, gp_gpu_expected_mem_bw(g), g->mem_bw.src,
             gp_gpu_mem_bw_capped(g) ? GP_MEM_BW_CAPPED_SRC
             : g->meas_mem_bw.v > 0.0 ? first_src(g->calibration, g->meas_mem_bw.src)
             : g->eff_mem.v > 0.0     ? g->eff_mem.src
                                      : g->mem_bw.src);
    set_link_roof(&r->roofs[GP_ROOF_HOST], p->host_link, 1.0);
    /* Data in host memory arrives at the GPU's calibrated host-to-device
     * rate (calib import: measured.h2d_bandwidth) over its own host link --
     * no faster than the link's datasheet rate, its ceiling. */
    if (g->meas_h2d_bw.v > 0.0 && p->host_link != NULL && p->host_link->id != NULL &&
        g->host_link != NULL && strcasecmp(g->host_link, p->host_link->id) == 0) {
        r->roofs[GP_ROOF_HOST].bw_expected = fmin(g->meas_h2d_bw.v, r->roofs[GP_ROOF_HOST].bw);
        r->roofs[GP_ROOF_HOST].src_expected =
            g->meas_h2d_bw.v > r->roofs[GP_ROOF_HOST].bw
                ? "the link's datasheet rate: the calibration measured above it, and no "
                  "expected figure passes its ceiling"
                : first_src(g->calibration, g->meas_h2d_bw.src);
    }
    set_link_roof(&r->roofs[GP_ROOF_PEER], p->peer_link, gp_link_mesh_share(p->peer_link, 2.0));

    /* Which levels the bytes cross. */
    on[GP_ROOF_L2] = 1;
    on[GP_ROOF_DEVICE] = p->data != GP_ROOF_L2;
    on[GP_ROOF_HOST] = p->data == GP_ROOF_HOST;
    on[GP_ROOF_PEER] = p->data == GP_ROOF_PEER;
    if (!r->roofs[p->data].known) {
        if (p->data == GP_ROOF_HOST || p->data == GP_ROOF_PEER)
            return GP_RAISE_AT(e, GP_EINVAL, "data", 0, 0,
                               "data in %s memory needs the %s link's bandwidth "
                               "(GPU '%s': %s)",
                               p->data == GP_ROOF_HOST ? "host" : "peer GPU",
                               p->data == GP_ROOF_HOST ? "host" : "peer",
                               g->id != NULL ? g->id : "?",
                               (p->data == GP_ROOF_HOST ? p->host_link : p->peer_link) == NULL
                                   ? "no link given"
                                   : "the link has no bandwidth");
        return GP_RAISE_AT(e, GP_EUNSUP, "data", 0, 0,
                           "GPU '%s' has no %s bandwidth in the database",
                           g->id != NULL ? g->id : "?",
                           p->data == GP_ROOF_L2 ? "L2 cache" : "device memory");
    }

    r->binding_roof = p->data;
    r->binding_roof_expected = p->data;
    for (i = 0; i < GP_ROOF__COUNT; i++) {
        gp_roof *f = &r->roofs[i];
        f->on_path = on[i] && f->known;
        if (f->known) {
            f->ridge = r->peak / f->bw;
        }
        if (!f->on_path)
            continue;
        f->time = bytes / f->bw;
        f->time_expected = bytes / f->bw_expected;
        if (f->bw < r->roofs[r->binding_roof].bw)
            r->binding_roof = (gp_roof_level)i;
        if (f->bw_expected < r->roofs[r->binding_roof_expected].bw_expected)
            r->binding_roof_expected = (gp_roof_level)i;
    }
    r->bw = r->roofs[r->binding_roof].bw;
    r->bw_expected = r->roofs[r->binding_roof_expected].bw_expected;

    /* MODEL: Williams et al. 2009 eq. 1: attainable = min(peak, I x bw). */
    r->critical = r->peak / r->bw;
    r->critical_expected = r->peak_expected / r->bw_expected;
    r->compute_bound = r->intensity >= r->critical;
    r->compute_bound_expected = r->intensity >= r->critical_expected;
    r->attainable = fmin(r->peak, r->intensity * r->bw);
    r->attainable_expected = fmin(r->peak_expected, r->intensity * r->bw_expected);
    r->below_ridge = r->critical / r->intensity;

    /* Ledger: compute | on-chip and device memory | links. */
    r->ledger.t[GP_ACCT_COMPUTE] = flop / r->peak;
    r->ledger.t[GP_ACCT_MEMORY] = fmax(r->roofs[GP_ROOF_L2].time, r->roofs[GP_ROOF_DEVICE].time);
    r->ledger.t[GP_ACCT_MOVEMENT] = fmax(r->roofs[GP_ROOF_HOST].time, r->roofs[GP_ROOF_PEER].time);
    r->ledger_expected.t[GP_ACCT_COMPUTE] = flop / r->peak_expected;
    r->ledger_expected.t[GP_ACCT_MEMORY] =
        fmax(r->roofs[GP_ROOF_L2].time_expected, r->roofs[GP_ROOF_DEVICE].time_expected);
    r->ledger_expected.t[GP_ACCT_MOVEMENT] =
        fmax(r->roofs[GP_ROOF_HOST].time_expected, r->roofs[GP_ROOF_PEER].time_expected);
    gp_ledger_close(&r->ledger, GP_OVERLAP_MAX);
    gp_ledger_close(&r->ledger_expected, GP_OVERLAP_MAX);
    r->time = r->ledger.total;
    r->time_expected = r->ledger_expected.total;

    return GP_OK;
}

/* ---- named kernels -------------------------------------------------------------
 * Counts: docs/models/roofline.md §4.  e = bytes per element; FMA = 2 FLOP. */

/* z = x + y: 1 FLOP, read 2, write 1 per element. */
static int k_vector_add(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    o->flop = s->n;
    o->bytes = 3.0 * s->n * s->elem_bytes;
    return GP_OK;
}

/* y = a*x + y: 2 FLOP (mul + add), read x and y, write y. */
static int k_axpy(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    o->flop = 2.0 * s->n;
    o->bytes = 3.0 * s->n * s->elem_bytes;
    return GP_OK;
}

/* C[MxN] = A[MxK] B[KxN] (+ beta C).  Ideal: each matrix crosses memory once.
 * Square T x T output tiles: A is read once per tile column (ceil(N/T)
 * times), B once per tile row (ceil(M/T) times). */
static int k_gemm(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    double m = s->m, n = s->n, k = s->k, e = s->elem_bytes;
    double c = s->beta ? 2.0 * m * n : m * n;
    o->flop = 2.0 * m * n * k + (s->beta ? 2.0 * m * n : 0.0);
    o->bytes_ideal = (m * k + k * n + c) * e;
    if (s->tile > 0.0)
        o->bytes = (m * k * ceil(n / s->tile) + k * n * ceil(m / s->tile) + c) * e;
    else
        o->bytes = o->bytes_ideal;
    return GP_OK;
}

/* y[M] = A[MxN] x[N]: the matrix is read once; x and y are noise.  Given in
 * GEMM notation (M x N x K with M = 1 or N = 1), it is that GEMM. */
static int k_gemv(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    double m = s->m, n = s->n;
    if (s->k > 0.0)
        return k_gemm(s, o);
    o->flop = 2.0 * m * n;
    o->bytes = (m * n + n + m) * s->elem_bytes;
    return GP_OK;
}

/* M rows of N: mean (1), variance (3: sub, square, add), normalise (2: sub,
 * mul by 1/sigma), affine (2: mul gamma, add beta) = 8 FLOP per element;
 * read x, write y, read gamma and beta once. */
static int k_layernorm(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    double m = s->m > 0.0 ? s->m : 1.0, n = s->n;
    o->flop = 8.0 * m * n;
    o->bytes = (2.0 * m * n + 2.0 * n) * s->elem_bytes;
    return GP_OK;
}

/* M rows of N: max (1), subtract and exp (2, exp counted as 1), sum (1),
 * divide (1) = 5 FLOP per element; read x, write y. */
static int k_softmax(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    double m = s->m > 0.0 ? s->m : 1.0, n = s->n;
    o->flop = 5.0 * m * n;
    o->bytes = 2.0 * m * n * s->elem_bytes;
    return GP_OK;
}

/* Attention forward, non-causal, per (batch x head) slice with sequence S = n
 * and head dimension D = k; m slices (default 1).  FLOP: Q K^T (2 S^2 D),
 * softmax (5 S^2), P V (2 S^2 D).  Bytes of Q, K, V read and O written:
 * 4 S D.  Naive (three kernels): the S x S scores are written by the first
 * GEMM, read and written by the softmax, read by the second GEMM: 4 S^2. */
static double attn_flop(const gp_kernel_shape *s)
{
    double bh = s->m > 0.0 ? s->m : 1.0, S = s->n, D = s->k;
    return bh * (4.0 * S * S * D + 5.0 * S * S);
}

static double attn_naive_bytes(const gp_kernel_shape *s)
{
    double bh = s->m > 0.0 ? s->m : 1.0, S = s->n, D = s->k;
    return bh * (4.0 * S * D + 4.0 * S * S) * s->elem_bytes;
}

static int k_attention(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    o->flop = attn_flop(s);
    o->bytes = attn_naive_bytes(s);
    return GP_OK;
}

/* Fused (FlashAttention): the scores stay on chip.  Ideal: Q, K, V read once
 * and O written once (4 S D).  With query tiles of T rows, K and V are read
 * once per tile: 2 S D + 2 S D ceil(S/T) (Dao et al. 2022, Theorem 2). */
static int k_flash_attention(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    double bh = s->m > 0.0 ? s->m : 1.0, S = s->n, D = s->k, e = s->elem_bytes;
    o->flop = attn_flop(s);
    o->bytes_ideal = bh * 4.0 * S * D * e;
    o->bytes = s->tile > 0.0 ? bh * (2.0 * S * D + 2.0 * S * D * ceil(S / s->tile)) * e
                             : o->bytes_ideal;
    o->bytes_unfused = attn_naive_bytes(s);
    return GP_OK;
}

/* A chain of K binary elementwise kernels over n elements, each combining the
 * previous result with one new input (y_i = y_{i-1} op x_i).  Unfused, each
 * kernel reads 2 and writes 1: 3 K n.  Fused, the intermediates stay in
 * registers: read K + 1 inputs, write 1 output: (K + 2) n.  FLOP: K n. */
static int k_fused(const gp_kernel_shape *s, gp_kernel_counts *o)
{
    double kk = s->chain > 0.0 ? s->chain : 1.0;
    o->flop = kk * s->n;
    o->bytes = (kk + 2.0) * s->n * s->elem_bytes;
    o->bytes_unfused = 3.0 * kk * s->n * s->elem_bytes;
    return GP_OK;
}

static const gp_kernel_desc kernels[] = {
    {"vector-add", "add vadd", "z = x + y over n elements", "n", "n", "N", "3*N*e",
     k_vector_add, GP_PIPE_CUDA, 0},
    {"axpy", "saxpy daxpy", "y = a*x + y over n elements", "n", "n", "2*N", "3*N*e", k_axpy, GP_PIPE_CUDA, 0},
    {"gemm", "matmul", "C[MxN] = A[MxK] B[KxN] (--tile T: T x T output tiles; --beta: read C)",
     "m n k", "m n k", "2*M*N*K (--beta: + 2*M*N)",
     "(M*K + K*N + M*N)*e; --tile T: (M*K*ceil(N/T) + K*N*ceil(M/T) + M*N)*e; --beta: + M*N*e",
     k_gemm, GP_PIPE_TENSOR, GP_KOPT_TILE | GP_KOPT_BETA},
    {"gemv", "matvec", "y[M] = A[MxN] x[N] (or GEMM sizes --m 1 --n N --k K)", "m n k", "m n",
     "2*M*N (with --k: 2*M*N*K, as gemm)", "(M*N + N + M)*e (with --k: as gemm)", k_gemv,
     GP_PIPE_CUDA, 0},
    {"layernorm", "layer-norm", "--m rows (default 1) of --n elements", "m n", "n", "8*M*N",
     "(2*M*N + 2*N)*e", k_layernorm, GP_PIPE_CUDA, 0},
    {"softmax", "", "--m rows (default 1) of --n elements", "m n", "n", "5*M*N", "2*M*N*e",
     k_softmax, GP_PIPE_CUDA, 0},
    {"attention", "attention-naive", "unfused attention: --n seq S, --k head dim D, --m batch*heads",
     "m n k", "n k", "M*(4*S*S*D + 5*S*S)", "M*(4*S*D + 4*S*S)*e", k_attention, GP_PIPE_TENSOR, 0},
    {"flash-attention", "attention-flash attention-fused flash fused-attention flashattention",
     "fused attention, scores stay on chip (--tile T: query tile rows)", "m n k", "n k",
     "M*(4*S*S*D + 5*S*S)", "M*4*S*D*e; --tile T: M*(2*S*D + 2*S*D*ceil(S/T))*e",
     k_flash_attention, GP_PIPE_TENSOR, GP_KOPT_TILE},
    {"fused", "chain", "chain of --chain K elementwise adds over --n elements, fused", "n", "n",
     "K*N", "(K + 2)*N*e (unfused 3*K*N*e)", k_fused, GP_PIPE_CUDA, GP_KOPT_CHAIN},
};

#define N_KERNELS (sizeof kernels / sizeof kernels[0])

size_t gp_kernel_count(void)
{
    return N_KERNELS;
}

const gp_kernel_desc *gp_kernel_at(size_t i)
{
    return i < N_KERNELS ? &kernels[i] : NULL;
}

/* Compare n characters case-insensitively, '_' matching '-'. */
static int name_eq(const char *a, const char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
        if (x == '_')
            x = '-';
        if (y == '_')
            y = '-';
        if (x != y || x == '\0')
            return 0;
    }
    return 1;
}

/* Does the space-separated list contain `name` (as name_eq)? */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;
    while (*p != '\0') {
        size_t len = strcspn(p, " ");
        if (len == n && name_eq(p, name, n))
            return 1;
        p += len;
        while (*p == ' ')
            p++;
    }
    return 0;
}

const gp_kernel_desc *gp_kernel_find(const char *name)
{
    size_t i;
    if (name == NULL || name[0] == '\0')
        return NULL;
    for (i = 0; i < N_KERNELS; i++)
        if (in_list(kernels[i].name, name) || in_list(kernels[i].aliases, name))
            return &kernels[i];
    return NULL;
}

int gp_kernel_get(const char *name, const gp_kernel_desc **out, gp_err *e)
{
    const gp_kernel_desc *k;
    if (out != NULL)
        *out = NULL;
    if (name == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_kernel_get: NULL name");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_kernel_get: NULL out");
    if ((k = gp_kernel_find(name)) == NULL)
        return GP_RAISE_AT(e, GP_ENOTFOUND, "kernel", 0, 0,
                           "unknown kernel '%s' (known: vector-add axpy gemm gemv layernorm "
                           "softmax attention flash-attention fused)",
                           name);
    *out = k;
    return GP_OK;
}

static int check_size(const gp_kernel_desc *k, const char *field, double v, gp_err *e)
{
    int used = strchr(k->sizes, field[0]) != NULL;
    int req = strchr(k->required, field[0]) != NULL;
    if (v == 0.0) {
        if (req)
            return GP_RAISE_AT(e, GP_EINVAL, field, 0, 0, "kernel '%s' needs --%s (sizes: %s)",
                               k->name, field, k->required);
        return GP_OK;
    }
    if (!used)
        return GP_RAISE_AT(e, GP_EINVAL, field, 0, 0,
                           "kernel '%s' takes no --%s (sizes: %s)", k->name, field, k->sizes);
    if (!positive(v) || v > 1e15)
        return GP_RAISE_AT(e, GP_ERANGE, field, 0, 0,
                           "size %s must be a finite number in (0, 1e15], got %g", field, v);
    /* Element counts: a fraction is a typo, not a shape. */
    if (floor(v) != v)
        return GP_RAISE_AT(e, GP_EINVAL, field, 0, 0,
                           "size %s must be a whole number of elements, got %g", field, v);
    return GP_OK;
}

int gp_kernel_eval(const gp_kernel_desc *k, const gp_kernel_shape *s,
                   gp_kernel_counts *out, gp_err *e)
{
    gp_kernel_counts c;
    int rc;
    if (k == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_kernel_eval: NULL k");
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_kernel_eval: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_kernel_eval: NULL out");
    if ((rc = check_size(k, "m", s->m, e)) != GP_OK ||
        (rc = check_size(k, "n", s->n, e)) != GP_OK ||
        (rc = check_size(k, "k", s->k, e)) != GP_OK)
        return rc;
    if (!positive(s->elem_bytes) || s->elem_bytes > 64.0)
        return GP_RAISE_AT(e, GP_ERANGE, "elem_bytes", 0, 0,
                           "bytes per element must lie in (0, 64], got %g", s->elem_bytes);
    if (s->tile != 0.0 && !(k->options & GP_KOPT_TILE))
        return GP_RAISE_AT(e, GP_EINVAL, "tile", 0, 0,
                           "kernel '%s' takes no tile size (gemm and flash-attention do)",
                           k->name);
    if (s->tile != 0.0 && (!positive(s->tile) || s->tile > 1e15))
        return GP_RAISE_AT(e, GP_ERANGE, "tile", 0, 0, "tile must be > 0, got %g", s->tile);
    if (s->tile != 0.0 && floor(s->tile) != s->tile)
        return GP_RAISE_AT(e, GP_EINVAL, "tile", 0, 0,
                           "tile must be a whole number of elements, got %g", s->tile);
    if (s->chain != 0.0 && !(k->options & GP_KOPT_CHAIN))
        return GP_RAISE_AT(e, GP_EINVAL, "chain", 0, 0,
                           "kernel '%s' takes no chain length (fused does)", k->name);
    if (s->chain != 0.0 && (!positive(s->chain) || s->chain < 1.0 || s->chain > 1e6))
        return GP_RAISE_AT(e, GP_ERANGE, "chain", 0, 0,
                           "chain length must lie in [1, 1e6], got %g", s->chain);
    if (s->chain != 0.0 && floor(s->chain) != s->chain)
        return GP_RAISE_AT(e, GP_EINVAL, "chain", 0, 0,
                           "chain length must be a whole number of kernels, got %g", s->chain);
    if (s->beta && !(k->options & GP_KOPT_BETA))
        return GP_RAISE_AT(e, GP_EINVAL, "beta", 0, 0,
                           "kernel '%s' has no C to accumulate (gemm does)", k->name);
    if (k->count == k_gemv && s->k > 0.0 && s->m != 1.0 && s->n != 1.0)
        return GP_RAISE_AT(e, GP_EINVAL, "k", 0, 0,
                           "gemv in GEMM sizes (--m M --n N --k K) needs M = 1 or N = 1, got "
                           "%g x %g x %g (that is a gemm)",
                           s->m, s->n, s->k);
    memset(&c, 0, sizeof c);
    rc = k->count(s, &c);
    if (rc != GP_OK)
        return rc;
    if (c.bytes_ideal <= 0.0)
        c.bytes_ideal = c.bytes;
    if (c.bytes_unfused <= 0.0)
        c.bytes_unfused = c.bytes;
    if (!positive(c.flop) || !positive(c.bytes))
        return GP_RAISE_AT(e, GP_ERANGE, "n", 0, 0,
                           "kernel '%s': sizes overflow the FLOP or byte count", k->name);
    *out = c;
    return GP_OK;
}

void gp_kernel_shape_init(gp_kernel_shape *s)
{
    if (s == NULL)
        return;
    memset(s, 0, sizeof *s);
    s->elem_bytes = 4.0;
}
