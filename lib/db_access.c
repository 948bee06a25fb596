/* Database accessors that need no loader: names of enums, peak and expected
 * figures, derived model shapes.  MODEL: docs/hwdb.md. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "gpuplan/db.h"
#include "db_int.h"

static const char *const prec_names[GP_PREC__COUNT] = {
    "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4", "fp4"};

const char *gp_precision_name(gp_precision p)
{
    return (unsigned)p < GP_PREC__COUNT ? prec_names[p] : "unknown";
}

int gp_precision_parse(const char *s, gp_precision *out, gp_err *e)
{
    int i;
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_precision_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_precision_parse: NULL out");
    for (i = 0; i < GP_PREC__COUNT; i++) {
        if (strcasecmp(s, prec_names[i]) == 0) {
            *out = (gp_precision)i;
            return GP_OK;
        }
    }
    /* Common spellings. */
    if (strcasecmp(s, "fp8-e4m3") == 0 || strcasecmp(s, "e4m3") == 0 ||
        strcasecmp(s, "fp8-e5m2") == 0 || strcasecmp(s, "e5m2") == 0) {
        *out = GP_FP8;
        return GP_OK;
    }
    if (strcasecmp(s, "half") == 0) {
        *out = GP_FP16;
        return GP_OK;
    }
    if (strcasecmp(s, "float") == 0 || strcasecmp(s, "single") == 0) {
        *out = GP_FP32;
        return GP_OK;
    }
    if (strcasecmp(s, "double") == 0) {
        *out = GP_FP64;
        return GP_OK;
    }
    return GP_RAISE(e, GP_EINVAL,
                    "unknown precision '%s' (known: fp64 fp32 tf32 fp16 bf16 fp8 int8 int4 fp4)",
                    s);
}

const char *gp_pipeline_name(gp_pipeline p)
{
    return p == GP_PIPE_TENSOR ? "tensor" : p == GP_PIPE_CUDA ? "cuda" : "unknown";
}

int gp_pipeline_parse(const char *s, gp_pipeline *out, gp_err *e)
{
    if (s == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_pipeline_parse: NULL s");
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_pipeline_parse: NULL out");
    if (strcasecmp(s, "cuda") == 0 || strcasecmp(s, "vector") == 0 || strcasecmp(s, "simt") == 0) {
        *out = GP_PIPE_CUDA;
        return GP_OK;
    }
    if (strcasecmp(s, "tensor") == 0 || strcasecmp(s, "matrix") == 0) {
        *out = GP_PIPE_TENSOR;
        return GP_OK;
    }
    return GP_RAISE(e, GP_EINVAL, "unknown pipeline '%s' (known: cuda tensor)", s);
}

const char *gp_link_kind_name(gp_link_kind k)
{
    static const char *const names[GP_LINK__COUNT] = {
        "pcie", "nvlink", "nvlink-bridge", "infiniband", "roce", "ethernet", "infinity-fabric",
        "other"};
    return (unsigned)k < GP_LINK__COUNT ? names[k] : "unknown";
}

const char *gp_kind_name(gp_kind k)
{
    static const char *const names[GP_KIND__COUNT] = {"gpu", "link", "model", "format"};
    return (unsigned)k < GP_KIND__COUNT ? names[k] : "unknown";
}

double gp_gpu_peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                   gp_accum acc, int sparse)
{
    double v;
    if (g == NULL || (unsigned)p >= GP_PREC__COUNT || (unsigned)pipe >= GP_PIPE__COUNT)
        return 0.0;
    v = g->peak[p][pipe].v;
    if (pipe == GP_PIPE_TENSOR && acc == GP_ACC_FP16 && g->peak_fp16acc[p].v > 0.0)
        v = g->peak_fp16acc[p].v;
    if (sparse) {
        /* 2:4 structured sparsity exists for tf32 and narrower tensor math
         * only (NVIDIA Ampere/Hopper whitepapers): no sparse fp64/fp32. */
        if (pipe != GP_PIPE_TENSOR || g->sparsity.v <= 0.0 || p == GP_FP64 || p == GP_FP32)
            return 0.0;
        v *= g->sparsity.v;
    }
    return v > 0.0 ? v : 0.0;
}

gp_pipeline gp_gpu_default_pipeline(const gp_gpu *g, gp_precision p)
{
    if (g != NULL && (unsigned)p < GP_PREC__COUNT && g->peak[p][GP_PIPE_TENSOR].v > 0.0)
        return GP_PIPE_TENSOR;
    return GP_PIPE_CUDA;
}

double gp_gpu_expected_peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                            gp_accum acc, int sparse)
{
    double peak = gp_gpu_peak(g, p, pipe, acc, sparse);
    double meas;
    if (peak <= 0.0)
        return 0.0;
    meas = g->meas_peak[p][pipe].v;
    /* A measurement is of the dense, default-accumulate GEMM; scale it by
     * the datasheet ratio for other accumulate modes and sparsity.  One
     * above the datasheet (a boost clock past the rated one, at most
     * GP_MEAS_BOOST_MAX) plans at the datasheet: the ceiling bounds it. */
    if (meas > 0.0)
        return fmin(meas * peak / gp_gpu_peak(g, p, pipe, GP_ACC_FP32, 0), peak);
    return peak * gp_gpu_compute_eff(g, p, pipe, NULL);
}

int gp_precision_is_narrow(gp_precision p, gp_pipeline pipe)
{
    return pipe == GP_PIPE_TENSOR && (p == GP_FP8 || p == GP_INT8 || p == GP_FP4 || p == GP_INT4);
}

/* The derived narrow-math ratio a GPU takes without efficiency.compute_fp8
 * (Blackwell's for "Blackwell", "Blackwell Ultra"; else Hopper's), the
 * field label that names it and the source that explains it. */
typedef struct narrow_ratio {
    double ratio;
    const char *field, *src;
} narrow_ratio;

#define HOPPER_FIELD "efficiency.compute x 0.883"
#define BLACKWELL_FIELD "efficiency.compute x 0.983"
static const narrow_ratio hopper = {GP_EFF_NARROW_RATIO, HOPPER_FIELD,
                                    HOPPER_FIELD " (GP_EFF_NARROW_RATIO: H100 MAMF FP8 0.709 / "
                                                 "BF16 0.803)"};
static const narrow_ratio blackwell = {GP_EFF_NARROW_RATIO_BLACKWELL, BLACKWELL_FIELD,
                                       BLACKWELL_FIELD " (GP_EFF_NARROW_RATIO_BLACKWELL: B200 "
                                                       "MAMF FP8 0.763 / BF16 0.776)"};

static const narrow_ratio *derived_narrow(const gp_gpu *g)
{
    return g != NULL && g->architecture != NULL && strncmp(g->architecture, "Blackwell", 9) == 0
               ? &blackwell
               : &hopper;
}

const char *gp_gpu_compute_eff_field(const gp_gpu *g, gp_precision p, gp_pipeline pipe)
{
    if (!gp_precision_is_narrow(p, pipe))
        return "efficiency.compute";
    if (g != NULL && g->eff_compute_fp8.v > 0.0)
        return "efficiency.compute_fp8";
    return derived_narrow(g)->field;
}

double gp_gpu_compute_eff(const gp_gpu *g, gp_precision p, gp_pipeline pipe, const char **src)
{
    int narrow = gp_precision_is_narrow(p, pipe);
    const narrow_ratio *d;
    if (src != NULL)
        *src = NULL;
    if (g == NULL)
        return 1.0;
    if (narrow && g->eff_compute_fp8.v > 0.0) {
        if (src != NULL)
            *src = g->eff_compute_fp8.src;
        return g->eff_compute_fp8.v;
    }
    if (g->eff_compute.v <= 0.0)
        return 1.0;
    if (!narrow) {
        if (src != NULL)
            *src = g->eff_compute.src;
        return g->eff_compute.v;
    }
    d = derived_narrow(g);
    if (src != NULL)
        *src = d->src;
    return g->eff_compute.v * d->ratio;
}

const char *gp_gpu_expected_peak_src(const gp_gpu *g, gp_precision p, gp_pipeline pipe)
{
    const char *src;
    if (g == NULL || (unsigned)p >= GP_PREC__COUNT || (unsigned)pipe >= GP_PIPE__COUNT)
        return NULL;
    if (gp_gpu_peak_capped(g, p, pipe))
        return "the datasheet peak: the calibration measured above it (a boost clock), and no "
               "expected figure passes its ceiling";
    if (g->meas_peak[p][pipe].v > 0.0)
        return g->calibration != NULL ? g->calibration : g->meas_peak[p][pipe].src;
    (void)gp_gpu_compute_eff(g, p, pipe, &src);
    return src;
}

int gp_gpu_peak_capped(const gp_gpu *g, gp_precision p, gp_pipeline pipe)
{
    if (g == NULL || (unsigned)p >= GP_PREC__COUNT || (unsigned)pipe >= GP_PIPE__COUNT)
        return 0;
    return g->meas_peak[p][pipe].v > g->peak[p][pipe].v;
}

int gp_meas_above_boost(double meas, double datasheet)
{
    return datasheet > 0.0 && meas > datasheet * GP_MEAS_BOOST_MAX * (1.0 + 1e-9);
}

int gp_meas_below_floor(double meas, double datasheet)
{
    return datasheet > 0.0 && meas > 0.0 && meas < datasheet * GP_MEAS_FLOOR_MIN * (1.0 - 1e-9);
}

int gp_gpu_mem_bw_capped(const gp_gpu *g)
{
    return g != NULL && g->meas_mem_bw.v > g->mem_bw.v;
}

double gp_gpu_expected_mem_bw(const gp_gpu *g)
{
    if (g == NULL)
        return 0.0;
    if (g->meas_mem_bw.v > 0.0) /* an overclock's figure: capped as above */
        return fmin(g->meas_mem_bw.v, g->mem_bw.v);
    return g->mem_bw.v * (g->eff_mem.v > 0.0 ? g->eff_mem.v : 1.0);
}

double gp_link_expected_bw(const gp_link *l)
{
    if (l == NULL)
        return 0.0;
    if (l->meas_bw.v > 0.0)
        return l->meas_bw.v;
    return l->bw_achievable.v > 0.0 ? l->bw_achievable.v : l->bw.v;
}

int gp__vendor_is(const gp_gpu *g, const char *name)
{
    const char *v;
    size_t k = strlen(name);
    if (g == NULL || g->vendor == NULL)
        return 0;
    v = strncasecmp(g->vendor, "Advanced Micro Devices", 22) == 0 ? "AMD" : g->vendor;
    return strncasecmp(v, name, k) == 0 && !isalnum((unsigned char)v[k]);
}

int gp_gpu_unified(const gp_gpu *g)
{
    return g != NULL && (g->unified_memory || gp__vendor_is(g, "Apple"));
}

double gp_link_mesh_share(const gp_link *l, double n)
{
    double peers;
    if (l == NULL || l->switched || l->kind != GP_LINK_INFINITY_FABRIC ||
        !(l->max_gpus.v > 2.0) || !(n >= 2.0))
        return 1.0;
    peers = l->max_gpus.v - 1.0;
    return n - 1.0 < peers ? (n - 1.0) / peers : 1.0;
}

int gp_link_gives_way(const gp_link *l)
{
    return l != NULL && !l->switched && !(gp_link_mesh_share(l, 2.0) < 1.0) &&
           l->max_gpus.v > 0.0;
}

double gp_link_expected_latency(const gp_link *l)
{
    if (l == NULL)
        return 0.0;
    return l->meas_latency.v > 0.0 ? l->meas_latency.v : l->latency.v;
}

double gp_gpu_usable_mem(const gp_gpu *g)
{
    if (g == NULL)
        return 0.0;
    return g->mem_usable.v > 0.0 ? g->mem_usable.v : g->mem_capacity.v;
}

double gp_model_kv_elems_per_layer(const gp_model *m)
{
    double kvh, hd;
    if (m == NULL)
        return 0.0;
    if (m->kv_dim.v > 0.0)
        return m->kv_dim.v;
    kvh = m->kv_heads.v > 0.0 ? m->kv_heads.v : m->heads.v;
    hd = m->head_dim.v > 0.0 ? m->head_dim.v
                             : (m->heads.v > 0.0 ? m->hidden.v / m->heads.v : 0.0);
    return 2.0 * kvh * hd;
}

double gp_model_attn_layers(const gp_model *m)
{
    double L;
    if (m == NULL || !(m->layers.v > 0.0))
        return 0.0;
    L = m->layers.v;
    if (m->linear_layers.v > 0.0 && m->linear_layers.v < L)
        return L - m->linear_layers.v;
    return L;
}

double gp_model_expert_matrices(const gp_model *m)
{
    return m != NULL && m->expert_ffn_kind != NULL && strcmp(m->expert_ffn_kind, "plain") == 0
               ? 2.0
               : 3.0;
}

double gp_model_embed_params(const gp_model *m)
{
    if (m == NULL || !(m->vocab.v > 0.0) || !(m->hidden.v > 0.0))
        return 0.0;
    return (m->tied_embeddings ? 1.0 : 2.0) * m->vocab.v * m->hidden.v;
}

double gp_model_state_elems(const gp_model *m)
{
    if (m == NULL || !(m->layers.v > 0.0) || !(m->linear_layers.v > 0.0) ||
        !(m->linear_layers.v < m->layers.v) || !(m->linear_state.v > 0.0))
        return 0.0;
    return m->linear_layers.v * m->linear_state.v;
}

/* Attending layers L (gp_model_attn_layers) and windowed layers L_w of a
 * model with a usable window; 0 when it has none. */
static double window_of(const gp_model *m, double *L, double *lw)
{
    double w = m != NULL ? m->window.v : 0.0;
    if (!(w > 0.0) || !(m->layers.v > 0.0))
        return 0.0;
    *L = gp_model_attn_layers(m);
    *lw = m->window_layers.v > 0.0 && m->window_layers.v < *L ? m->window_layers.v : *L;
    return w;
}

double gp_model_kv_positions(const gp_model *m, double ctx)
{
    double L = 0.0, lw = 0.0, w;
    if (!(ctx > 0.0))
        return 0.0;
    w = window_of(m, &L, &lw);
    if (!(w > 0.0) || ctx <= w)
        return ctx;
    return ((L - lw) * ctx + lw * w) / L;
}

double gp_model_kv_context(const gp_model *m, double pos)
{
    double L = 0.0, lw = 0.0, w;
    if (!(pos > 0.0))
        return 0.0;
    w = window_of(m, &L, &lw);
    if (!(w > 0.0) || pos < w)
        return pos;
    if (lw >= L)
        return INFINITY;
    return (L * pos - lw * w) / (L - lw);
}

double gp_model_attn_pairs(const gp_model *m, double prompt)
{
    double L = 0.0, lw = 0.0, w, full;
    if (!(prompt > 0.0))
        return 0.0;
    full = 0.5 * prompt * prompt;
    w = window_of(m, &L, &lw);
    if (!(w > 0.0) || prompt <= w)
        return full;
    return ((L - lw) * full + lw * (0.5 * w * w + (prompt - w) * w)) / L;
}

void gp_model_guess_shape(double params, double aspect, double *layers, double *hidden)
{
    double l, h;
    if (layers == NULL || hidden == NULL)
        return;
    l = *layers;
    h = *hidden;
    if (!(params > 0.0) || (l > 0.0 && h > 0.0))
        return;
    if (!(aspect > 0.0))
        aspect = GP_MODEL_ASPECT_RATIO;
    if (!(l > 0.0)) {
        double base = h > 0.0 ? params / (12.0 * h * h) : cbrt(aspect * params / 12.0) / aspect;
        l = floor(base + 0.5);
        if (l < 1.0)
            l = 1.0;
    }
    if (!(h > 0.0))
        h = sqrt(params / (12.0 * l));
    *layers = l;
    *hidden = h;
}
