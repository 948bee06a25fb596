/* gpuplan hw: list and show the hardware database (GPUs, links, model shapes,
 * number formats), every figure with its source and the file it came from. */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static const char usage_text[] =
    "usage: gpuplan hw list [gpus|links|models|formats|engines] [--json|--csv]\n"
    "       gpuplan hw show [KIND:]ID [--json|--csv]\n"
    "       gpuplan [--db DIR] hw import-model FILE [--as ID] [--name NAME] [--force] [--json]\n"
    "\n"
    "List the database, or show one entry (a GPU, link, model or format, by id\n"
    "or alias, case-insensitive) with every figure, its source and its origin\n"
    "(file:line:col); KIND (gpu, link, model, format) picks the kind when an id\n"
    "exists in several.  Overlays (--db DIR, $GPUPLAN_DB) override and extend the\n"
    "built-in database; calibration overlays add measured figures.  'engines'\n"
    "lists the decode engine profiles (docs/models/inference.md section 4; they\n"
    "are part of the library, not the database): 'hw show engine:vllm'.\n"
    "'import-model' turns a Hugging Face config.json into models/ID.yaml in the\n"
    "first --db DIR (else $GPUPLAN_DB's first entry, else ~/.config/gpuplan);\n"
    "'gpuplan hw import-model --help' for its options.  decode, train and scale\n"
    "take '--model FILE.json' for one run without writing anything.\n"
    "\n"
    "options:\n"
    "  --json       one JSON object, SI values, unit-suffixed keys\n"
    "  --csv        list: comma-separated rows, SI values: a kind's own columns,\n"
    "               or without a kind one table, 'type' first, every kind's columns;\n"
    "               show: the JSON object as one header row and one value row\n"
    "  --help       this text\n";

/* ---- a figure row: label, JSON key, unit, where it lives in the struct ---- */

typedef struct frow {
    const char *label;
    const char *key;  /* JSON key (with unit suffix) */
    gp_qty q;
    int binary;       /* bytes: print GiB          */
    size_t off;       /* offset of the gp_fig      */
} frow;

#define GROW(l, k, q, b, m) {l, k, q, b, offsetof(gp_gpu, m)}
static const frow gpu_rows[] = {
    GROW("SMs (AMD: CUs; Apple: cores)", "sm_count", GP_Q_NUMBER, 0, sm_count),
    GROW("base clock", "clock_base_hz", GP_Q_FREQUENCY, 0, clock_base),
    GROW("boost clock", "clock_boost_hz", GP_Q_FREQUENCY, 0, clock_boost),
    GROW("2:4 sparsity factor", "sparsity", GP_Q_NUMBER, 0, sparsity),
    GROW("memory capacity", "mem_capacity_bytes", GP_Q_BYTES, 1, mem_capacity),
    GROW("memory usable", "mem_usable_bytes", GP_Q_BYTES, 1, mem_usable),
    GROW("memory bandwidth", "mem_bw_bytes_per_s", GP_Q_RATE, 0, mem_bw),
    GROW("L2 size", "l2_size_bytes", GP_Q_BYTES, 1, l2_size),
    GROW("L2 bandwidth", "l2_bw_bytes_per_s", GP_Q_RATE, 0, l2_bw),
    GROW("L1 latency", "lat_l1_s", GP_Q_DURATION, 0, lat_l1),
    GROW("L2 latency", "lat_l2_s", GP_Q_DURATION, 0, lat_l2),
    GROW("DRAM latency", "lat_dram_s", GP_Q_DURATION, 0, lat_dram),
    GROW("power (TDP)", "tdp_w", GP_Q_POWER, 0, tdp),
    GROW("price", "price_usd", GP_Q_NUMBER, 0, price),
    GROW("rent per GPU-hour", "rent_usd_per_hour", GP_Q_NUMBER, 0, rent),
    GROW("efficiency: memory", "eff_mem", GP_Q_FRACTION, 0, eff_mem),
    GROW("efficiency: compute", "eff_compute", GP_Q_FRACTION, 0, eff_compute),
    GROW("efficiency: compute (fp8)", "eff_compute_fp8", GP_Q_FRACTION, 0, eff_compute_fp8),
    GROW("efficiency: training MFU", "eff_mfu", GP_Q_FRACTION, 0, eff_mfu),
    GROW("efficiency: decode", "eff_decode", GP_Q_FRACTION, 0, eff_decode),
    GROW("decode overhead per layer", "decode_layer_overhead_s", GP_Q_DURATION, 0,
         decode_layer_overhead),
};

/* Measured figures beside the datasheet figure they measure (off_ds 0: none). */
typedef struct mrow {
    const char *label;
    const char *key;
    gp_qty q;
    size_t off, off_ds;
} mrow;
#define MROW(l, k, q, m, d) {l, k, q, offsetof(gp_gpu, m), d}
static const mrow gpu_meas[] = {
    MROW("memory bandwidth", "mem_bw_bytes_per_s", GP_Q_RATE, meas_mem_bw, offsetof(gp_gpu, mem_bw)),
    MROW("L2 bandwidth", "l2_bw_bytes_per_s", GP_Q_RATE, meas_l2_bw, offsetof(gp_gpu, l2_bw)),
    MROW("L1 latency", "lat_l1_s", GP_Q_DURATION, meas_lat_l1, offsetof(gp_gpu, lat_l1)),
    MROW("L2 latency", "lat_l2_s", GP_Q_DURATION, meas_lat_l2, offsetof(gp_gpu, lat_l2)),
    MROW("DRAM latency", "lat_dram_s", GP_Q_DURATION, meas_lat_dram, offsetof(gp_gpu, lat_dram)),
    MROW("host-to-device bandwidth", "h2d_bw_bytes_per_s", GP_Q_RATE, meas_h2d_bw, 0),
    MROW("device-to-host bandwidth", "d2h_bw_bytes_per_s", GP_Q_RATE, meas_d2h_bw, 0),
    MROW("host-to-device latency", "h2d_lat_s", GP_Q_DURATION, meas_h2d_lat, 0),
};

#define LROW(l, k, q, m) {l, k, q, 0, offsetof(gp_link, m)}
static const frow link_rows[] = {
    LROW("peak bandwidth per direction", "bw_bytes_per_s", GP_Q_RATE, bw),
    LROW("achievable per direction", "achievable_bytes_per_s", GP_Q_RATE, bw_achievable),
    LROW("NVLS AllReduce per direction", "nvls_bytes_per_s", GP_Q_RATE, bw_nvls),
    LROW("latency (alpha)", "latency_s", GP_Q_DURATION, latency),
    LROW("max GPUs joined", "max_gpus", GP_Q_NUMBER, max_gpus),
    LROW("scale-out NICs per GPU", "nics_per_gpu", GP_Q_NUMBER, nics_per_gpu),
    LROW("measured bandwidth", "meas_bw_bytes_per_s", GP_Q_RATE, meas_bw),
    LROW("measured latency", "meas_latency_s", GP_Q_DURATION, meas_latency),
};

#define MDROW(l, k, m) {l, k, GP_Q_NUMBER, 0, offsetof(gp_model, m)}
static const frow model_rows[] = {
    {"parameters", "params", GP_Q_COUNT, 0, offsetof(gp_model, params)},
    {"active parameters", "params_active", GP_Q_COUNT, 0, offsetof(gp_model, params_active)},
    MDROW("layers", "layers", layers),
    MDROW("hidden size", "hidden", hidden),
    MDROW("attention heads", "heads", heads),
    MDROW("KV heads", "kv_heads", kv_heads),
    MDROW("head dim", "head_dim", head_dim),
    MDROW("FFN hidden", "ffn_hidden", ffn_hidden),
    MDROW("vocabulary", "vocab", vocab),
    MDROW("context (tokens)", "context", context),
    MDROW("pre-training sequence", "train_seq", train_seq),
    MDROW("routed experts", "experts", experts),
    MDROW("active experts", "experts_active", experts_active),
    MDROW("shared experts", "shared_experts", shared_experts),
    MDROW("expert FFN hidden", "expert_ffn_hidden", expert_ffn_hidden),
    MDROW("leading dense layers", "dense_layers", dense_layers),
    MDROW("KV dim per layer", "kv_dim", kv_dim),
    MDROW("query/key head dim", "qk_head_dim", qk_head_dim),
    MDROW("sliding window (tokens)", "window", window),
    MDROW("windowed layers", "window_layers", window_layers),
    MDROW("linear-attention layers", "linear_layers", linear_layers),
    MDROW("recurrent state per layer", "linear_state", linear_state),
    {"linear mixer parameters", "linear_params", GP_Q_COUNT, 0, offsetof(gp_model, linear_params)},
    {"state bytes per layer", "linear_state_bytes", GP_Q_BYTES, 0,
     offsetof(gp_model, linear_state_bytes)},
    MDROW("FFN layers", "ffn_layers", ffn_layers),
};

static const frow format_rows[] = {
    {"effective bits per element", "bits", GP_Q_NUMBER, 0, offsetof(gp_format, bits)},
    {"elements per scale group", "group", GP_Q_NUMBER, 0, offsetof(gp_format, group)},
    {"dequant work vs Q4_0", "dequant_scale", GP_Q_NUMBER, 0, offsetof(gp_format, dequant_scale)},
};

static const gp_fig *fig_at(const void *entry, size_t off)
{
    return (const gp_fig *)(const void *)((const char *)entry + off);
}

/* ---- footnotes: each distinct citation gets a number -------------------- */

typedef struct notes {
    const char *cite[128];
    int n;
} notes;

static int note_id(notes *ns, const char *cite)
{
    int i;
    if (cite == NULL)
        return 0;
    for (i = 0; i < ns->n; i++)
        if (ns->cite[i] == cite || strcmp(ns->cite[i], cite) == 0)
            return i + 1;
    if (ns->n == (int)(sizeof ns->cite / sizeof ns->cite[0]))
        return 0;
    ns->cite[ns->n++] = cite;
    return ns->n;
}

static void print_notes(const notes *ns)
{
    int i;
    if (ns->n == 0)
        return;
    printf("sources:\n");
    for (i = 0; i < ns->n; i++)
        printf("  [%d] %s\n", i + 1, ns->cite[i]);
}

/* "700.00 W" -> "700 W", "3.50 TB/s" -> "3.5 TB/s". */
static void trim_zeros(char *buf)
{
    char *sp = strchr(buf, ' '), *dot = strchr(buf, '.'), *z;
    if (sp == NULL || dot == NULL || dot > sp)
        return;
    for (z = sp; z > dot + 1 && z[-1] == '0'; z--)
        ;
    if (z == dot + 1)
        z = dot;
    memmove(z, sp, strlen(sp) + 1);
}

static char *fmt_val(double v, gp_qty q, int binary, char *buf, size_t n)
{
    if (q == GP_Q_NUMBER) {
        if (v == (double)(long long)v && v < 1e15)
            snprintf(buf, n, "%lld", (long long)v);
        else
            snprintf(buf, n, "%.4g", v);
        return buf;
    }
    gp_format_qty(v, q, q == GP_Q_FRACTION ? 0 : 2, binary, buf, n);
    trim_zeros(buf);
    return buf;
}

static void fig_row(notes *ns, const char *label, const gp_fig *f, gp_qty q, int binary)
{
    char val[64], note[512];
    if (f->v <= 0.0)
        return;
    fmt_val(f->v, q, binary, val, sizeof val);
    snprintf(note, sizeof note, "[%d] %s", note_id(ns, f->src), f->origin ? f->origin : "");
    gp_cli_row(label, val, note);
}

static void str_row(const char *label, const char *s)
{
    if (s != NULL)
        gp_cli_row(label, s, NULL);
}

static void aliases_row(const char *const *a, size_t n)
{
    char buf[512];
    size_t i, off = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (i = 0; i < n && off < sizeof buf; i++)
        off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s", i ? ", " : "", a[i]);
    gp_cli_row("aliases", buf, NULL);
}

/* ---- JSON helpers --------------------------------------------------------- */

static json_t *jaliases(const char *const *a, size_t n)
{
    json_t *arr = json_array();
    size_t i;
    for (i = 0; i < n; i++)
        json_array_append_new(arr, json_string(a[i]));
    return arr;
}

static void jstr(json_t *o, const char *key, const char *s)
{
    if (s != NULL)
        json_object_set_new(o, key, json_string(s));
}

/* Figure into o[key] and its citation/origin into sources/origins.  A
 * count or plain number (kind GP_Q_COUNT, GP_Q_NUMBER) that is whole is a
 * JSON integer ("layers": 32, as decode and train print it, not 32.0). */
static void jfig(json_t *o, json_t *src, json_t *org, const char *key, const gp_fig *f,
                 gp_qty kind)
{
    if (f->v <= 0.0)
        return;
    json_object_set_new(o, key, kind == GP_Q_COUNT || kind == GP_Q_NUMBER ? gp_cli_jcount(f->v)
                                                                          : gp_cli_jnum(f->v));
    if (f->src != NULL)
        json_object_set_new(src, key, json_string(f->src));
    if (f->origin != NULL)
        json_object_set_new(org, key, json_string(f->origin));
}

/* ---- GPUs ----------------------------------------------------------------- */

static void gpu_table(const gp_gpu *g)
{
    notes ns;
    size_t i;
    int p, any_meas = 0;
    char buf[256], src[64], c1[48], c2[48], c3[48], c4[48];

    memset(&ns, 0, sizeof ns);
    printf("%s: %s (gpu)\n", g->id, g->name ? g->name : "");
    aliases_row(g->aliases, g->n_aliases);
    str_row("vendor", g->vendor);
    str_row("architecture", g->architecture);
    str_row("compute capability", g->compute_capability);
    str_row("form factor", g->form_factor);
    str_row("memory type", g->memory_type);
    if (gp_gpu_unified(g))
        str_row("unified memory", "yes: one GPU a machine, host data is device memory");
    for (i = 0; i < sizeof gpu_rows / sizeof gpu_rows[0]; i++) {
        const frow *r = &gpu_rows[i];
        if (r->q == GP_Q_NUMBER && (strcmp(r->key, "price_usd") == 0 ||
                                    strcmp(r->key, "rent_usd_per_hour") == 0)) {
            const gp_fig *f = fig_at(g, r->off);
            char note[512];
            if (f->v <= 0.0)
                continue;
            gp_cli_usd(f->v, buf, sizeof buf); /* the one money rule */
            snprintf(note, sizeof note, "[%d] %s", note_id(&ns, f->src), f->origin);
            gp_cli_row(r->label, buf, note);
            continue;
        }
        fig_row(&ns, r->label, fig_at(g, r->off), r->q, r->binary);
    }
    str_row("host link", g->host_link);
    str_row("scale-up link", g->scale_up_link ? g->scale_up_link : "none (PCIe only)");
    if (g->wide_link != NULL)
        str_row("wide link", g->wide_link);

    printf("dense peak TFLOP/s (TOP/s for int); tensor = fp32 accumulate; [n] = source:\n");
    printf("  %-9s %-13s %-13s %-15s %-11s %s\n", "precision", "cuda cores", "tensor cores",
           "tensor fp16acc", "2:4 sparse", "origin");
    for (p = 0; p < GP_PREC__COUNT; p++) {
        const gp_fig *cu = &g->peak[p][GP_PIPE_CUDA], *te = &g->peak[p][GP_PIPE_TENSOR],
                     *fa = &g->peak_fp16acc[p];
        double sp = p == GP_FP64 ? 0.0
                                 : gp_gpu_peak(g, (gp_precision)p, GP_PIPE_TENSOR, GP_ACC_FP32, 1);
        const gp_fig *first = te->v > 0 ? te : cu->v > 0 ? cu : fa;
        if (cu->v <= 0 && te->v <= 0 && fa->v <= 0)
            continue;
        snprintf(c1, sizeof c1, "-");
        snprintf(c2, sizeof c2, "-");
        snprintf(c3, sizeof c3, "-");
        snprintf(c4, sizeof c4, "-");
        if (cu->v > 0)
            snprintf(c1, sizeof c1, "%.1f [%d]", cu->v / 1e12, note_id(&ns, cu->src));
        if (te->v > 0)
            snprintf(c2, sizeof c2, "%.1f [%d]", te->v / 1e12, note_id(&ns, te->src));
        if (fa->v > 0)
            snprintf(c3, sizeof c3, "%.1f [%d]", fa->v / 1e12, note_id(&ns, fa->src));
        if (sp > 0)
            snprintf(c4, sizeof c4, "%.1f", sp / 1e12);
        printf("  %-9s %-13s %-13s %-15s %-11s %s\n", gp_precision_name((gp_precision)p), c1, c2,
               c3, c4, first->origin ? first->origin : "");
    }

    /* Expected (achievable) figures the models use. */
    printf("expected (achievable) figures used by the models:\n");
    gp_cli_qrow("memory bandwidth", gp_gpu_expected_mem_bw(g), GP_Q_RATE, 2,
                gp_gpu_mem_bw_capped(g) ? "datasheet: measured above it, capped"
                : g->meas_mem_bw.v > 0  ? "measured"
                                        : "datasheet x efficiency.memory");
    for (p = 0; p < GP_PREC__COUNT; p++) {
        gp_pipeline pipe = gp_gpu_default_pipeline(g, (gp_precision)p);
        double x = gp_gpu_expected_peak(g, (gp_precision)p, pipe, GP_ACC_FP32, 0);
        if (x <= 0)
            continue;
        snprintf(buf, sizeof buf, "%s %s dense", gp_precision_name((gp_precision)p),
                 gp_pipeline_name(pipe));
        snprintf(src, sizeof src, "datasheet x %s",
                 gp_gpu_compute_eff_field(g, (gp_precision)p, pipe));
        gp_cli_qrow(buf, x, GP_Q_FLOPS, gp_cli_sig_digits(x, 4),
                    gp_gpu_peak_capped(g, (gp_precision)p, pipe)
                        ? "datasheet: measured above it (boost clock), capped"
                    : g->meas_peak[p][pipe].v > 0 ? "measured"
                                                  : src);
    }

    for (i = 0; i < sizeof gpu_meas / sizeof gpu_meas[0]; i++)
        if (fig_at(g, gpu_meas[i].off)->v > 0)
            any_meas = 1;
    for (p = 0; p < GP_PREC__COUNT; p++)
        if (g->meas_peak[p][0].v > 0 || g->meas_peak[p][1].v > 0)
            any_meas = 1;
    if (any_meas) {
        printf("measured vs datasheet (calibration: %s):\n",
               g->calibration ? g->calibration : "overlay");
        for (i = 0; i < sizeof gpu_meas / sizeof gpu_meas[0]; i++) {
            const mrow *r = &gpu_meas[i];
            const gp_fig *m = fig_at(g, r->off);
            char note[512];
            if (m->v <= 0)
                continue;
            gp_format_qty(m->v, r->q, 2, 0, c1, sizeof c1);
            if (r->off_ds && fig_at(g, r->off_ds)->v > 0) {
                double ds = fig_at(g, r->off_ds)->v;
                snprintf(note, sizeof note, "datasheet %s (%.0f%%) [%d] %s",
                         gp_format_qty(ds, r->q, 2, 0, c2, sizeof c2), 100.0 * m->v / ds,
                         note_id(&ns, m->src), m->origin);
            } else {
                snprintf(note, sizeof note, "[%d] %s", note_id(&ns, m->src), m->origin);
            }
            gp_cli_row(r->label, c1, note);
        }
        for (p = 0; p < GP_PREC__COUNT; p++) {
            int pi;
            for (pi = 0; pi < GP_PIPE__COUNT; pi++) {
                const gp_fig *m = &g->meas_peak[p][pi];
                char note[512], label[64];
                double ds = g->peak[p][pi].v;
                if (m->v <= 0)
                    continue;
                snprintf(label, sizeof label, "%s %s GEMM", gp_precision_name((gp_precision)p),
                         gp_pipeline_name((gp_pipeline)pi));
                gp_cli_fmt_sig(m->v, GP_Q_FLOPS, 4, c1, sizeof c1);
                if (ds > 0)
                    snprintf(note, sizeof note, "datasheet %s (%.0f%%) [%d] %s",
                             gp_cli_fmt_sig(ds, GP_Q_FLOPS, 4, c2, sizeof c2),
                             100.0 * m->v / ds, note_id(&ns, m->src), m->origin);
                else
                    snprintf(note, sizeof note, "[%d] %s", note_id(&ns, m->src), m->origin);
                gp_cli_row(label, c1, note);
            }
        }
    }
    print_notes(&ns);
}

static json_t *gpu_json(const gp_gpu *g, int full)
{
    json_t *o = json_object(), *src = json_object(), *org = json_object();
    json_t *peak = json_object(), *sparse = json_object(), *fp16acc = json_object();
    json_t *exp = json_object();
    size_t i;
    int p;
    char key[96];

    jstr(o, "id", g->id);
    jstr(o, "type", "gpu");
    jstr(o, "name", g->name);
    json_object_set_new(o, "aliases", jaliases(g->aliases, g->n_aliases));
    jstr(o, "vendor", g->vendor);
    jstr(o, "architecture", g->architecture);
    jstr(o, "compute_capability", g->compute_capability);
    jstr(o, "form_factor", g->form_factor);
    jstr(o, "memory_type", g->memory_type);
    json_object_set_new(o, "unified_memory", json_boolean(gp_gpu_unified(g)));
    for (i = 0; i < sizeof gpu_rows / sizeof gpu_rows[0]; i++)
        jfig(o, src, org, gpu_rows[i].key, fig_at(g, gpu_rows[i].off), gpu_rows[i].q);
    for (p = 0; p < GP_PREC__COUNT; p++) {
        const char *pn = gp_precision_name((gp_precision)p);
        json_t *pp = json_object(), *ee = json_object();
        int pi;
        for (pi = 0; pi < GP_PIPE__COUNT; pi++) {
            const gp_fig *f = &g->peak[p][pi];
            const char *pipe = gp_pipeline_name((gp_pipeline)pi);
            if (f->v <= 0)
                continue;
            json_object_set_new(pp, pipe, gp_cli_jnum(f->v));
            json_object_set_new(ee, pipe, gp_cli_jnum(gp_gpu_expected_peak(
                                              g, (gp_precision)p, (gp_pipeline)pi, GP_ACC_FP32, 0)));
            snprintf(key, sizeof key, "peak_flop_per_s.%s.%s", pn, pipe);
            if (f->src)
                json_object_set_new(src, key, json_string(f->src));
            if (f->origin)
                json_object_set_new(org, key, json_string(f->origin));
        }
        if (g->peak_fp16acc[p].v > 0) {
            const gp_fig *f = &g->peak_fp16acc[p];
            json_object_set_new(fp16acc, pn, gp_cli_jnum(f->v));
            snprintf(key, sizeof key, "peak_fp16acc_flop_per_s.%s", pn);
            if (f->src)
                json_object_set_new(src, key, json_string(f->src));
            if (f->origin)
                json_object_set_new(org, key, json_string(f->origin));
        }
        if (json_object_size(pp) > 0) {
            json_object_set_new(peak, pn, pp);
            json_object_set_new(exp, pn, ee);
        } else {
            json_decref(pp);
            json_decref(ee);
        }
        if (p != GP_FP64 && gp_gpu_peak(g, (gp_precision)p, GP_PIPE_TENSOR, GP_ACC_FP32, 1) > 0) {
            json_t *sp = json_object();
            json_object_set_new(sp, "tensor", gp_cli_jnum(gp_gpu_peak(
                                                  g, (gp_precision)p, GP_PIPE_TENSOR, GP_ACC_FP32, 1)));
            json_object_set_new(sparse, pn, sp);
        }
    }
    json_object_set_new(o, "peak_flop_per_s", peak);
    json_object_set_new(o, "peak_fp16acc_flop_per_s", fp16acc);
    json_object_set_new(o, "sparse_peak_flop_per_s", sparse);
    jstr(o, "host_link", g->host_link);
    if (g->scale_up_link != NULL)
        jstr(o, "scale_up_link", g->scale_up_link);
    else
        json_object_set_new(o, "scale_up_link", json_null());
    if (g->wide_link != NULL)
        jstr(o, "wide_link", g->wide_link);
    else
        json_object_set_new(o, "wide_link", json_null());
    if (!full) {
        json_decref(exp);
        json_decref(src);
        json_decref(org);
        return o;
    }
    json_object_set_new(o, "expected_mem_bw_bytes_per_s",
                        gp_cli_jnum(gp_gpu_expected_mem_bw(g)));
    json_object_set_new(o, "expected_peak_flop_per_s", exp);
    if (g->calibration != NULL) {
        json_t *m = json_object(), *mp = json_object();
        jstr(m, "calibration", g->calibration);
        for (i = 0; i < sizeof gpu_meas / sizeof gpu_meas[0]; i++) {
            const gp_fig *f = fig_at(g, gpu_meas[i].off);
            if (f->v <= 0)
                continue;
            json_object_set_new(m, gpu_meas[i].key, gp_cli_jnum(f->v));
            snprintf(key, sizeof key, "measured.%s", gpu_meas[i].key);
            json_object_set_new(src, key, json_string(f->src));
            json_object_set_new(org, key, json_string(f->origin));
        }
        for (p = 0; p < GP_PREC__COUNT; p++) {
            json_t *pp = json_object();
            int pi;
            for (pi = 0; pi < GP_PIPE__COUNT; pi++) {
                const gp_fig *f = &g->meas_peak[p][pi];
                if (f->v <= 0)
                    continue;
                json_object_set_new(pp, gp_pipeline_name((gp_pipeline)pi), gp_cli_jnum(f->v));
                snprintf(key, sizeof key, "measured.peak_flop_per_s.%s.%s",
                         gp_precision_name((gp_precision)p), gp_pipeline_name((gp_pipeline)pi));
                json_object_set_new(src, key, json_string(f->src));
                json_object_set_new(org, key, json_string(f->origin));
            }
            if (json_object_size(pp) > 0)
                json_object_set_new(mp, gp_precision_name((gp_precision)p), pp);
            else
                json_decref(pp);
        }
        json_object_set_new(m, "peak_flop_per_s", mp);
        json_object_set_new(o, "measured", m);
    }
    json_object_set_new(o, "sources", src);
    json_object_set_new(o, "origins", org);
    return o;
}

/* ---- links, models, formats ------------------------------------------------- */

static void rows_table(const void *entry, const frow *rows, size_t n, notes *ns)
{
    size_t i;
    for (i = 0; i < n; i++)
        fig_row(ns, rows[i].label, fig_at(entry, rows[i].off), rows[i].q, rows[i].binary);
}

static void rows_json(json_t *o, json_t *src, json_t *org, const void *entry, const frow *rows,
                      size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        jfig(o, src, org, rows[i].key, fig_at(entry, rows[i].off), rows[i].q);
}

static const char *scope_name(gp_link_scope s)
{
    return s == GP_SCOPE_SCALE_OUT ? "scale-out" : "scale-up";
}

static void link_table(const gp_link *l)
{
    notes ns;
    memset(&ns, 0, sizeof ns);
    printf("%s: %s (link)\n", l->id, l->name ? l->name : "");
    aliases_row(l->aliases, l->n_aliases);
    gp_cli_row("kind", gp_link_kind_name(l->kind), NULL);
    gp_cli_row("scope", scope_name(l->scope), NULL);
    gp_cli_row("peer-to-peer", l->p2p ? "yes" : "no (staged through host memory)", NULL);
    gp_cli_row("switched", l->switched ? "yes (full-bandwidth switch)" : "no", NULL);
    rows_table(l, link_rows, sizeof link_rows / sizeof link_rows[0], &ns);
    if (l->calibration != NULL)
        gp_cli_row("calibration", l->calibration, NULL);
    printf("expected figures used by the models:\n");
    gp_cli_qrow("bandwidth per direction", gp_link_expected_bw(l), GP_Q_RATE, 2,
                l->meas_bw.v > 0 ? "measured" : l->bw_achievable.v > 0 ? "achievable" : "peak");
    gp_cli_qrow("latency", gp_link_expected_latency(l), GP_Q_DURATION, 2,
                /* The database's latency is a typical measurement, not a
                 * datasheet figure (collectives.md, Conventions). */
                l->meas_latency.v > 0 ? "measured" : "database (latency above)");
    print_notes(&ns);
}

static json_t *link_json(const gp_link *l, int full)
{
    json_t *o = json_object(), *src = json_object(), *org = json_object();
    jstr(o, "id", l->id);
    jstr(o, "type", "link");
    jstr(o, "name", l->name);
    json_object_set_new(o, "aliases", jaliases(l->aliases, l->n_aliases));
    jstr(o, "kind", gp_link_kind_name(l->kind));
    jstr(o, "scope", scope_name(l->scope));
    json_object_set_new(o, "p2p", json_boolean(l->p2p));
    json_object_set_new(o, "switched", json_boolean(l->switched));
    rows_json(o, src, org, l, link_rows, sizeof link_rows / sizeof link_rows[0]);
    if (!full) {
        json_decref(src);
        json_decref(org);
        return o;
    }
    json_object_set_new(o, "expected_bw_bytes_per_s", gp_cli_jnum(gp_link_expected_bw(l)));
    json_object_set_new(o, "expected_latency_s", gp_cli_jnum(gp_link_expected_latency(l)));
    jstr(o, "calibration", l->calibration);
    json_object_set_new(o, "sources", src);
    json_object_set_new(o, "origins", org);
    return o;
}

static void model_table(const gp_model *m)
{
    notes ns;
    char buf[64];
    memset(&ns, 0, sizeof ns);
    printf("%s: %s (model)\n", m->id, m->name ? m->name : "");
    aliases_row(m->aliases, m->n_aliases);
    str_row("family", m->family);
    str_row("attention", m->attention);
    gp_cli_row("tied embeddings", m->tied_embeddings ? "yes" : "no", NULL);
    if (m->attention_gate)
        gp_cli_row("attention output gate", "yes", "q projection h x 2 q (train, training.md 1.2)");
    rows_table(m, model_rows, sizeof model_rows / sizeof model_rows[0], &ns);
    snprintf(buf, sizeof buf, "%.0f", gp_model_kv_elems_per_layer(m));
    gp_cli_row("KV elements per token-layer", buf, "derived: kv_dim, else 2 x kv_heads x head_dim");
    print_notes(&ns);
}

static json_t *model_json(const gp_model *m, int full)
{
    json_t *o = json_object(), *src = json_object(), *org = json_object();
    jstr(o, "id", m->id);
    jstr(o, "type", "model");
    jstr(o, "name", m->name);
    json_object_set_new(o, "aliases", jaliases(m->aliases, m->n_aliases));
    jstr(o, "family", m->family);
    jstr(o, "attention", m->attention);
    json_object_set_new(o, "tied_embeddings", json_boolean(m->tied_embeddings));
    json_object_set_new(o, "attention_gate", json_boolean(m->attention_gate));
    rows_json(o, src, org, m, model_rows, sizeof model_rows / sizeof model_rows[0]);
    if (!full) {
        json_decref(src);
        json_decref(org);
        return o;
    }
    json_object_set_new(o, "kv_elems_per_layer", gp_cli_jcount(gp_model_kv_elems_per_layer(m)));
    json_object_set_new(o, "sources", src);
    json_object_set_new(o, "origins", org);
    return o;
}

static const char *fmt_kind_name(gp_format_kind k)
{
    return k == GP_FMT_FLOAT ? "float" : k == GP_FMT_INT ? "int" : "quant";
}

static void format_table(const gp_format *f)
{
    notes ns;
    char buf[64];
    memset(&ns, 0, sizeof ns);
    printf("%s: %s (format)\n", f->id, f->name ? f->name : "");
    aliases_row(f->aliases, f->n_aliases);
    gp_cli_row("kind", fmt_kind_name(f->kind), NULL);
    gp_cli_row("computes in", gp_precision_name(f->compute), NULL);
    if ((unsigned)f->mma < GP_PREC__COUNT)
        gp_cli_row("tensor-core path", gp_precision_name(f->mma),
                   "matrix-matrix kernels may also run here: the ceiling's rate (inference.md 5)");
    rows_table(f, format_rows, sizeof format_rows / sizeof format_rows[0], &ns);
    snprintf(buf, sizeof buf, "%.4g", f->bits.v / 8.0);
    gp_cli_row("bytes per element", buf, "derived: bits / 8");
    if (f->engine != NULL)
        gp_cli_row("decode engine", f->engine, "the engine whose kernels the format implies");
    if (f->output != NULL)
        gp_cli_row("output matrix format", f->output->id,
                   f->dense != NULL ? "lm_head in files of this type"
                                    : "lm_head in files of this type (input embedding in the "
                                      "body's)");
    if (f->dense != NULL)
        gp_cli_row("dense tensors format", f->dense->id,
                   "attention, router, dense and shared FFNs, input embedding: all but the "
                   "routed experts");
    print_notes(&ns);
}

static json_t *format_json(const gp_format *f, int full)
{
    json_t *o = json_object(), *src = json_object(), *org = json_object();
    jstr(o, "id", f->id);
    jstr(o, "type", "format");
    jstr(o, "name", f->name);
    json_object_set_new(o, "aliases", jaliases(f->aliases, f->n_aliases));
    jstr(o, "kind", fmt_kind_name(f->kind));
    jstr(o, "compute", gp_precision_name(f->compute));
    if ((unsigned)f->mma < GP_PREC__COUNT)
        jstr(o, "mma", gp_precision_name(f->mma));
    if (f->engine != NULL)
        jstr(o, "engine", f->engine);
    if (f->output != NULL)
        jstr(o, "output", f->output->id);
    if (f->dense != NULL)
        jstr(o, "dense", f->dense->id);
    rows_json(o, src, org, f, format_rows, sizeof format_rows / sizeof format_rows[0]);
    json_object_set_new(o, "bytes_per_element", gp_cli_jnum(f->bits.v / 8.0));
    if (!full) {
        json_decref(src);
        json_decref(org);
        return o;
    }
    json_object_set_new(o, "sources", src);
    json_object_set_new(o, "origins", org);
    return o;
}

/* ---- list ------------------------------------------------------------------------- */

static void entry_names(const gp_db *db, int kind, size_t i, const char **id, const char **name)
{
    switch (kind) {
    case GP_KIND_GPU:
        *id = gp_db_gpu_at(db, i)->id;
        *name = gp_db_gpu_at(db, i)->name;
        break;
    case GP_KIND_LINK:
        *id = gp_db_link_at(db, i)->id;
        *name = gp_db_link_at(db, i)->name;
        break;
    case GP_KIND_MODEL:
        *id = gp_db_model_at(db, i)->id;
        *name = gp_db_model_at(db, i)->name;
        break;
    default:
        *id = gp_db_format_at(db, i)->id;
        *name = gp_db_format_at(db, i)->name;
        break;
    }
    if (*name == NULL)
        *name = "";
}

/* A name for the tables' 48-column cell: a longer one keeps 45 bytes and
 * ends in "..." (cut where a UTF-8 character starts), so a cut shows. */
static const char *cell48(const char *s, char *buf, size_t n)
{
    size_t k = 45;
    if (s == NULL || strlen(s) <= 48 || n < 49)
        return s != NULL ? s : "";
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
        k--;
    snprintf(buf, n, "%.*s...", (int)k, s);
    return buf;
}

static void list_table(const gp_db *db, int kind)
{
    size_t i, n = gp_db_count(db, (gp_kind)kind);
    int wi = 2, wn = 4;
    char a[64], b[64], c[64], nb[64];
    for (i = 0; i < n; i++) {
        const char *id, *name;
        entry_names(db, kind, i, &id, &name);
        if ((int)strlen(id) > wi)
            wi = (int)strlen(id);
        if ((int)strlen(name) > wn)
            wn = (int)strlen(name);
    }
    if (wn > 48)
        wn = 48;
    if (kind == GP_KIND_GPU) {
        printf("GPUs (%zu), dense peaks:\n  %-*s  %-*s  %-14s %-10s %s\n", n, wi, "id", wn, "name",
               "bf16", "memory", "bandwidth");
        for (i = 0; i < n; i++) {
            const gp_gpu *g = gp_db_gpu_at(db, i);
            double pk = gp_gpu_peak(g, GP_BF16, gp_gpu_default_pipeline(g, GP_BF16),
                                    GP_ACC_FP32, 0);
            printf("  %-*s  %-*s  %-14s %-10s %s\n", wi, g->id, wn, cell48(g->name, nb, sizeof nb),
                   pk > 0 ? gp_cli_fmt_sig(pk, GP_Q_FLOPS, 4, a, sizeof a)
                          : "-",
                   gp_format_qty(g->mem_capacity.v, GP_Q_BYTES, 0, 1, b, sizeof b),
                   gp_format_qty(g->mem_bw.v, GP_Q_RATE, 2, 0, c, sizeof c));
        }
    } else if (kind == GP_KIND_LINK) {
        printf("links (%zu), bandwidth per direction:\n  %-*s  %-*s  %-15s %-12s %-12s %s\n", n,
               wi, "id", wn, "name", "kind", "peak", "achievable", "latency");
        for (i = 0; i < n; i++) {
            const gp_link *l = gp_db_link_at(db, i);
            printf("  %-*s  %-*s  %-15s %-12s %-12s %s\n", wi, l->id, wn,
                   cell48(l->name, nb, sizeof nb), gp_link_kind_name(l->kind),
                   gp_format_qty(l->bw.v, GP_Q_RATE, 2, 0, a, sizeof a),
                   gp_format_qty(l->bw_achievable.v, GP_Q_RATE, 2, 0, b, sizeof b),
                   gp_format_qty(l->latency.v, GP_Q_DURATION, 2, 0, c, sizeof c));
        }
    } else if (kind == GP_KIND_MODEL) {
        printf("models (%zu):\n  %-*s  %-*s  %-10s %-10s %-7s %-7s %s\n", n, wi, "id", wn, "name",
               "params", "active", "layers", "hidden", "context");
        for (i = 0; i < n; i++) {
            const gp_model *m = gp_db_model_at(db, i);
            snprintf(a, sizeof a, "%.2fB", m->params.v / 1e9);
            snprintf(b, sizeof b, "%.2fB", m->params_active.v / 1e9);
            printf("  %-*s  %-*s  %-10s %-10s %-7.0f %-7.0f %.0f\n", wi, m->id, wn,
                   cell48(m->name, nb, sizeof nb), a,
                   b, m->layers.v, m->hidden.v, m->context.v);
        }
    } else {
        printf("formats (%zu):\n  %-*s  %-*s  %-6s %-6s %s\n", n, wi, "id", wn, "name", "kind",
               "bits", "computes in");
        for (i = 0; i < n; i++) {
            const gp_format *f = gp_db_format_at(db, i);
            printf("  %-*s  %-*s  %-6s %-6.4g %s\n", wi, f->id, wn, cell48(f->name, nb, sizeof nb),
                   fmt_kind_name(f->kind), f->bits.v, gp_precision_name(f->compute));
        }
    }
}


/* --csv columns per kind (SI values) after id and name.  One kind: its
 * columns.  Every kind (`hw list` alone): one table, `type` first and the
 * columns of all four kinds, a row leaving the other kinds' cells empty,
 * so the output stays one CSV table. */
static const char *const csv_cols[GP_KIND__COUNT] = {
    "bf16_flop_per_s,mem_capacity_bytes,mem_bw_bytes_per_s,tdp_w",
    "link_kind,bw_bytes_per_s,achievable_bytes_per_s,latency_s",
    "params,params_active,layers,hidden,context",
    "format_kind,bits,compute"};
static const int csv_ncols[GP_KIND__COUNT] = {4, 4, 5, 3};

static void csv_empty(int n)
{
    for (; n > 0; n--)
        putchar(',');
}

static void list_csv(const gp_db *db, int kind, int all)
{
    size_t i, n = gp_db_count(db, (gp_kind)kind);
    int before = 0, after = 0, k;
    for (k = 0; all && k < GP_KIND__COUNT; k++)
        *(k < kind ? &before : &after) += k == kind ? 0 : csv_ncols[k];
    if (!all) {
        /* One kind: its own header ("kind", not "link_kind"). */
        const char *cols = csv_cols[kind];
        const char *us = strchr(cols, '_');
        printf("id,name,%s\n", kind == GP_KIND_LINK || kind == GP_KIND_FORMAT ? us + 1 : cols);
    } else if (kind == 0) {
        printf("type,id,name");
        for (k = 0; k < GP_KIND__COUNT; k++)
            printf(",%s", csv_cols[k]);
        printf("\n");
    }
    for (i = 0; i < n; i++) {
        const char *id, *name;
        if (kind == GP_KIND_GPU) {
            id = gp_db_gpu_at(db, i)->id;
            name = gp_db_gpu_at(db, i)->name;
        } else if (kind == GP_KIND_LINK) {
            id = gp_db_link_at(db, i)->id;
            name = gp_db_link_at(db, i)->name;
        } else if (kind == GP_KIND_MODEL) {
            id = gp_db_model_at(db, i)->id;
            name = gp_db_model_at(db, i)->name;
        } else {
            id = gp_db_format_at(db, i)->id;
            name = gp_db_format_at(db, i)->name;
        }
        if (all)
            printf("%s,", gp_kind_name((gp_kind)kind));
        printf("%s,", id);
        gp_cli_csv_str(name);
        csv_empty(before);
        if (kind == GP_KIND_GPU) {
            const gp_gpu *g = gp_db_gpu_at(db, i);
            double bf16 =
                gp_gpu_peak(g, GP_BF16, gp_gpu_default_pipeline(g, GP_BF16), GP_ACC_FP32, 0);
            char num[32] = "";
            /* No bf16 rate (V100, T4): an empty field, as the table's '-'. */
            if (bf16 > 0.0)
                gp_cli_csvnum(bf16, num, sizeof num);
            printf(",%s," GP_CLI_G "," GP_CLI_G "," GP_CLI_G, num, g->mem_capacity.v,
                   g->mem_bw.v, g->tdp.v);
        } else if (kind == GP_KIND_LINK) {
            const gp_link *l = gp_db_link_at(db, i);
            printf(",%s," GP_CLI_G "," GP_CLI_G "," GP_CLI_G, gp_link_kind_name(l->kind),
                   l->bw.v, l->bw_achievable.v, l->latency.v);
        } else if (kind == GP_KIND_MODEL) {
            const gp_model *m = gp_db_model_at(db, i);
            printf("," GP_CLI_G "," GP_CLI_G ",%.0f,%.0f,%.0f", m->params.v,
                   m->params_active.v, m->layers.v, m->hidden.v, m->context.v);
        } else {
            const gp_format *f = gp_db_format_at(db, i);
            printf(",%s," GP_CLI_G ",%s", fmt_kind_name(f->kind), f->bits.v,
                   gp_precision_name(f->compute));
        }
        csv_empty(after);
        printf("\n");
    }
}

static json_t *entry_json(const gp_db *db, int kind, size_t i, int full)
{
    switch (kind) {
    case GP_KIND_GPU:
        return gpu_json(gp_db_gpu_at(db, i), full);
    case GP_KIND_LINK:
        return link_json(gp_db_link_at(db, i), full);
    case GP_KIND_MODEL:
        return model_json(gp_db_model_at(db, i), full);
    default:
        return format_json(gp_db_format_at(db, i), full);
    }
}

/* ---- decode engine profiles (infer.h; not database entries) ------------- */

static json_t *engine_json(const gp_engine *en)
{
    json_t *o = json_object();
    jstr(o, "id", en->id);
    jstr(o, "type", "engine");
    jstr(o, "name", en->name);
    json_object_set_new(o, "eff_float", gp_cli_jnum(en->eff_float));
    json_object_set_new(o, "eff_quant", gp_cli_jnum(en->eff_quant));
    /* Weights narrower than 8 bits: the engine's own figure, else eff_quant. */
    json_object_set_new(o, "eff_quant_4bit",
                        gp_cli_jnum(en->eff_quant4 > 0.0 ? en->eff_quant4 : en->eff_quant));
    json_object_set_new(o, "layer_overhead_s", gp_cli_jnum(en->layer_overhead));
    json_object_set_new(o, "moe_layer_overhead_s", gp_cli_jnum(en->moe_layer_overhead));
    json_object_set_new(o, "dequant_flop_per_weight", gp_cli_jnum(en->dequant_flop));
    jstr(o, "split", en->split_layers ? "layer" : "tensor");
    json_object_set_new(o, "sm_stream_bytes_per_s", gp_cli_jnum(en->sm_bw));
    json_object_set_new(o, "prefill_eff", gp_cli_jnum(gp_engine_prefill_eff(en, 0)));
    json_object_set_new(o, "prefill_eff_8bit", gp_cli_jnum(gp_engine_prefill_eff(en, 1)));
    json_object_set_new(o, "prefill_flop_per_clock_per_sm", gp_cli_jnum(en->prefill_sm_flop));
    json_object_set_new(o, "prefill_tensor_flop_per_clock_per_sm",
                        gp_cli_jnum(en->prefill_mx_flop));
    json_object_set_new(o, "prefill_tiled", json_boolean(en->prefill_tiled));
    json_object_set_new(o, "prefill_unfused", json_boolean(en->prefill_unfused));
    jstr(o, "source", en->src);
    return o;
}

static int engines_list(gp_cli *cli)
{
    size_t i, n = gp_engine_count();
    if (cli->json) {
        json_t *o = json_object(), *items = json_array();
        for (i = 0; i < n; i++)
            json_array_append_new(items, engine_json(gp_engine_at(i)));
        json_object_set_new(o, "items", items);
        return gp_cli_emit(o) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
    }
    if (cli->csv)
        printf("id,name,eff_float,eff_quant,layer_overhead_s,moe_layer_overhead_s,split,"
               "prefill_eff,prefill_eff_8bit,prefill_flop_per_clock_per_sm,prefill_tiled,"
               "prefill_unfused,eff_quant_4bit\n");
    else
        printf("decode engines (%zu), overheads at 2 GHz; prefill: fraction of the expected "
               "rate (16 / 8 bits),\n  a cap in FLOP per clock per SM (quantised weights; "
               "16-bit too on NVIDIA), T: tiled GEMMs (5.4), U: unfused attention (5.5):\n  %-20s %-9s %-9s %-9s %-9s %-18s "
               "%s\n",
               n, "id", "eff 16b", "eff quant", "/layer", "/MoE lay.", "prefill", "multi-GPU");
    for (i = 0; i < n; i++) {
        const gp_engine *en = gp_engine_at(i);
        if (cli->csv) {
            printf("%s,", en->id);
            gp_cli_csv_str(en->name);
            printf("," GP_CLI_G "," GP_CLI_G "," GP_CLI_G "," GP_CLI_G ",%s," GP_CLI_G
                   "," GP_CLI_G "," GP_CLI_G ",%s,%s," GP_CLI_G "\n",
                   en->eff_float, en->eff_quant, en->layer_overhead, en->moe_layer_overhead,
                   en->split_layers ? "layer" : "tensor",
                   gp_engine_prefill_eff(en, 0), gp_engine_prefill_eff(en, 1),
                   en->prefill_sm_flop, en->prefill_tiled ? "true" : "false",
                   en->prefill_unfused ? "true" : "false",
                   en->eff_quant4 > 0.0 ? en->eff_quant4 : en->eff_quant);
        } else {
            char o1[32], o2[32], pf[48];
            int n8 = snprintf(pf, sizeof pf, "%.3f", gp_engine_prefill_eff(en, 0));
            if (en->prefill_eff8 > 0.0 && n8 > 0)
                n8 += snprintf(pf + n8, sizeof pf - (size_t)n8, "/%.3f", en->prefill_eff8);
            if (en->prefill_sm_flop > 0.0 && n8 > 0)
                n8 += snprintf(pf + n8, sizeof pf - (size_t)n8, " <=%.0f", en->prefill_sm_flop);
            if (en->prefill_tiled && n8 > 0)
                n8 += snprintf(pf + n8, sizeof pf - (size_t)n8, " T");
            if (en->prefill_unfused && n8 > 0)
                snprintf(pf + n8, sizeof pf - (size_t)n8, " U");
            snprintf(o1, sizeof o1, "%.0f us", en->layer_overhead * 1e6);
            snprintf(o2, sizeof o2, "%.0f us", en->moe_layer_overhead * 1e6);
            printf("  %-20s %-9.2f %-9.2f %-9s %-9s %-18s %s\n", en->id, en->eff_float,
                   en->eff_quant, o1, o2, pf,
                   en->split_layers ? "layer split" : "tensor parallel");
        }
    }
    return GP_EXIT_OK;
}

static int engine_show(gp_cli *cli, const char *id)
{
    const gp_engine *en;
    gp_err e;
    char buf[64];
    gp_err_clear(&e);
    if (gp_engine_get(id, "hw show engine", &en, &e) != GP_OK)
        return gp_cli_fail(cli, &e);
    if (cli->json) {
        /* hw show's contract (DESIGN.md): `sources`, as for database entries. */
        json_t *o = engine_json(en), *src = json_object();
        json_object_set_new(src, "profile", en->src ? json_string(en->src) : json_null());
        json_object_set_new(o, "sources", src);
        return gp_cli_emit(o) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
    }
    printf("%s: %s (decode engine profile, lib/engines.c)\n", en->id, en->name);
    snprintf(buf, sizeof buf, "%.2f", en->eff_float);
    gp_cli_row("16-bit weights", buf, "fraction of the GPU's achievable bandwidth");
    snprintf(buf, sizeof buf, "%.2f", en->eff_quant);
    gp_cli_row("quantised weights", buf, "fraction of the GPU's achievable bandwidth");
    if (en->eff_quant4 > 0.0) {
        snprintf(buf, sizeof buf, "%.2f", en->eff_quant4);
        gp_cli_row("  under 8 bits", buf, "the same for 4-bit weight-only kernels");
    }
    snprintf(buf, sizeof buf, "%.0f us", en->layer_overhead * 1e6);
    gp_cli_row("per layer", buf, "fixed time per layer per step at 2 GHz, x 2 GHz / boost");
    snprintf(buf, sizeof buf, "%.0f us", en->moe_layer_overhead * 1e6);
    gp_cli_row("per MoE layer", buf, "more, per layer with routed experts, at 2 GHz");
    snprintf(buf, sizeof buf, "%.0f", en->dequant_flop);
    gp_cli_row("dequant FLOP/weight", buf,
               "quantised weights, at the fp32 rate (CUDA cores, AMD/Apple vector ALUs)");
    if (en->dequant_scale_mult > 0.0) {
        snprintf(buf, sizeof buf, "%.3g", en->dequant_scale_mult);
        gp_cli_row("  dearer formats", buf,
                   "x the format's dequant_scale where it is above 1 (these builds)");
    }
    snprintf(buf, sizeof buf, "%.3g", gp_engine_prefill_eff(en, 0));
    gp_cli_row("prefill", buf, "fraction of the expected matmul rate its prefill reaches");
    if (en->prefill_eff8 > 0.0) {
        snprintf(buf, sizeof buf, "%.3g", en->prefill_eff8);
        gp_cli_row("prefill, 8-bit", buf, "the same for fp8 / int8 matmuls");
    }
    if (en->prefill_sm_flop > 0.0) {
        snprintf(buf, sizeof buf, "%.0f", en->prefill_sm_flop);
        gp_cli_row("prefill cap", buf,
                   "FLOP per clock per SM its quantised-weight kernels reach (x SMs x boost)");
    }
    if (en->prefill_mx_flop > 0.0) {
        snprintf(buf, sizeof buf, "%.0f", en->prefill_mx_flop);
        gp_cli_row("prefill cap, tensor", buf,
                   "the same on a GPU whose matrix units its prefill reaches (Apple M5: Metal 4 "
                   "tensor kernels); replaces the cap above there");
    }
    if (en->prefill_tiled)
        gp_cli_row("prefill GEMMs", "tiled",
                   "library kernels: each layer GEMM on its roofline over whole waves of tiles "
                   "(inference.md 5.4)");
    if (en->prefill_unfused)
        gp_cli_row("prefill attention", "unfused",
                   "no fused attention in these builds: P x P scores through memory "
                   "(inference.md 5.5; --attention flash overrides)");
    gp_cli_row("multi-GPU default", en->split_layers ? "layer split" : "tensor parallel", NULL);
    if (en->sm_bw > 0) {
        snprintf(buf, sizeof buf, "%.1f GB/s", en->sm_bw / 1e9);
        gp_cli_row("per-SM stream limit", buf, "Little's law (inference.md 4.1)");
    }
    printf("source:\n  %s\n", en->src);
    return GP_EXIT_OK;
}

static int parse_kind(const char *s)
{
    static const char *const names[GP_KIND__COUNT][2] = {
        {"gpus", "gpu"}, {"links", "link"}, {"models", "model"}, {"formats", "format"}};
    int k;
    for (k = 0; k < GP_KIND__COUNT; k++)
        if (strcasecmp(s, names[k][0]) == 0 || strcasecmp(s, names[k][1]) == 0)
            return k;
    return -1;
}

static int hw_list(gp_cli *cli, int argc, char **argv)
{
    const gp_db *db;
    int k, only = -1;
    if (argc > 2)
        return gp_cli_usage(cli, "'hw list' takes at most one kind, got '%s'", argv[2]);
    if (argc == 2 && (strcasecmp(argv[1], "engines") == 0 || strcasecmp(argv[1], "engine") == 0))
        return engines_list(cli);
    if (argc == 2 && (only = parse_kind(argv[1])) < 0)
        return gp_cli_usage(cli, "unknown kind '%s' (known: gpus links models formats engines)",
                            argv[1]);
    if ((db = gp_cli_db(cli)) == NULL)
        return GP_EXIT_USAGE;
    if (cli->json) {
        json_t *o = json_object(), *items = json_array();
        for (k = 0; k < GP_KIND__COUNT; k++) {
            size_t i;
            if (only >= 0 && k != only)
                continue;
            for (i = 0; i < gp_db_count(db, (gp_kind)k); i++)
                json_array_append_new(items, entry_json(db, k, i, 0));
        }
        json_object_set_new(o, "items", items);
        return gp_cli_emit(o) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
    }
    for (k = 0; k < GP_KIND__COUNT; k++) {
        if (only >= 0 && k != only)
            continue;
        if (cli->csv) {
            list_csv(db, k, only < 0);
            continue;
        }
        if (only < 0 && k > 0)
            printf("\n");
        list_table(db, k);
    }
    return GP_EXIT_OK;
}

/* Print entry p of kind k (table or JSON). */
static int show_entry(gp_cli *cli, int k, const void *p)
{
    json_t *o = NULL;
    switch (k) {
    case GP_KIND_GPU:
        if (cli->json)
            o = gpu_json(p, 1);
        else
            gpu_table(p);
        break;
    case GP_KIND_LINK:
        if (cli->json)
            o = link_json(p, 1);
        else
            link_table(p);
        break;
    case GP_KIND_MODEL:
        if (cli->json)
            o = model_json(p, 1);
        else
            model_table(p);
        break;
    default:
        if (cli->json)
            o = format_json(p, 1);
        else
            format_table(p);
        break;
    }
    if (cli->json)
        return gp_cli_emit(o) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
    return GP_EXIT_OK;
}

static int hw_show(gp_cli *cli, int argc, char **argv)
{
    const gp_db *db;
    const char *id;
    const void *p;
    /* Room for every kind's ids[] below, its name and separators, so the
     * last kind's list is not cut mid-word. */
    char known[GP_KIND__COUNT * (256 + 16)];
    size_t off = 0;
    int k, only = -1;
    if (argc != 2)
        return gp_cli_usage(cli, argc < 2 ? "'hw show' needs an ID"
                                          : "'hw show' takes one ID, got extra '%s'",
                            argc < 2 ? "" : argv[2]);
    id = argv[1];
    {
        /* "link:nvlink4" restricts the search to one kind. */
        const char *colon = strchr(id, ':');
        if (colon != NULL && colon - id < 16) {
            char kbuf[16];
            memcpy(kbuf, id, (size_t)(colon - id));
            kbuf[colon - id] = '\0';
            if (strcasecmp(kbuf, "engine") == 0)
                return engine_show(cli, colon + 1);
            if ((only = parse_kind(kbuf)) < 0)
                return gp_cli_usage(cli,
                                    "unknown kind '%s' in '%s' (known: gpu link model format "
                                    "engine)",
                                    kbuf, id);
            id = colon + 1;
        }
    }
    if ((db = gp_cli_db(cli)) == NULL)
        return GP_EXIT_USAGE;
    /* The lookup --gpu, --link ... use (gp_db_get_*): id, alias or name
     * words.  A name two entries share ("could be 'h100-sxm' or 'h200'")
     * is that message, not "unknown"; with KIND: so is an unknown name (its
     * did-you-mean, or that kind's ids). */
    for (k = 0; k < GP_KIND__COUNT; k++) {
        const gp_gpu *g = NULL;
        const gp_link *l = NULL;
        const gp_model *m = NULL;
        const gp_format *f = NULL;
        gp_err e;
        int rc;
        if (only >= 0 && k != only)
            continue;
        gp_err_clear(&e);
        switch (k) {
        case GP_KIND_GPU: rc = gp_db_get_gpu(db, id, "show", &g, &e); p = g; break;
        case GP_KIND_LINK: rc = gp_db_get_link(db, id, "show", &l, &e); p = l; break;
        case GP_KIND_MODEL: rc = gp_db_get_model(db, id, "show", &m, &e); p = m; break;
        default: rc = gp_db_get_format(db, id, "show", &f, &e); p = f; break;
        }
        if (rc == GP_OK) {
            /* The same id in a later kind (an imported model named like a
             * GPU): say how to reach it. */
            int kk;
            for (kk = k + 1; only < 0 && kk < GP_KIND__COUNT; kk++) {
                const void *q = kk == GP_KIND_LINK    ? (const void *)gp_db_find_link(db, id)
                                : kk == GP_KIND_MODEL ? (const void *)gp_db_find_model(db, id)
                                                      : (const void *)gp_db_find_format(db, id);
                if (q != NULL && q != p)
                    fprintf(stderr, "gpuplan hw: note: '%s' names a %s too: 'gpuplan hw show "
                                    "%s:%s' shows it\n",
                            id, gp_kind_name((gp_kind)kk), gp_kind_name((gp_kind)kk), id);
            }
            return show_entry(cli, k, p);
        }
        /* GP_EINVAL: a name two entries share ("could be A or B"). */
        if (only >= 0 || e.code == GP_EINVAL)
            return gp_cli_fail(cli, &e);
    }
    /* Near names of each kind first (the database's did-you-mean). */
    known[0] = '\0';
    for (k = 0; k < GP_KIND__COUNT && off < sizeof known; k++) {
        char near[400];
        if (only >= 0 && (int)k != only)
            continue;
        if (gp_db_suggest(db, (gp_kind)k, id, near, sizeof near) == 0)
            continue;
        off += (size_t)snprintf(known + off, sizeof known - off, "%s%s %s", off ? "; " : "",
                                gp_kind_name((gp_kind)k), near);
    }
    if (off > 0 && off < sizeof known) {
        fprintf(stderr, "gpuplan hw: unknown id '%s'; did you mean %s? ('gpuplan hw list' lists "
                        "them all)\n", id, known);
        return GP_EXIT_USAGE;
    }
    /* Each kind's ids, whole, with "... and N more" where cut. */
    known[0] = '\0';
    off = 0;
    for (k = 0; k < GP_KIND__COUNT && off < sizeof known; k++) {
        char ids[256];
        gp_db_known(db, (gp_kind)k, ids, sizeof ids);
        off += (size_t)snprintf(known + off, sizeof known - off, "%s%s: %s", k ? "; " : "",
                                gp_kind_name((gp_kind)k), ids[0] ? ids : "none");
    }
    fprintf(stderr, "gpuplan hw: unknown id '%s' (known %s)\n", id, known);
    return GP_EXIT_USAGE;
}

static int run_hw(gp_cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            return GP_EXIT_OK;
        }
        return gp_cli_usage(cli, "unknown option '%s'", argv[optind - 1]);
    }
    /* --csv prints rows: 'hw list' has them; one entry is its JSON as one
     * CSV row (gp_cli_set_flat_csv); an import has none. */
    if (cli->csv && optind < argc && strcmp(argv[optind], "import-model") == 0)
        return gp_cli_usage(cli, "'--csv': 'hw %s' prints no rows ('hw list' does); use --json",
                            argv[optind]);
    if (cli->csv && optind < argc && strcmp(argv[optind], "show") == 0) {
        cli->json = 1;
        gp_cli_set_flat_csv(1);
    }
    /* import-model has options of its own. */
    if (optind < argc && strcmp(argv[optind], "import-model") == 0)
        return gp_cli_hw_import(cli, argc - optind, argv + optind);
    /* Options after the subcommand ("hw show x --help"). */
    for (c = optind; c < argc; c++) {
        if (strcmp(argv[c], "--help") == 0 || strcmp(argv[c], "-h") == 0) {
            fputs(usage_text, stdout);
            return GP_EXIT_OK;
        }
        if (argv[c][0] == '-' && argv[c][1] != '\0')
            return gp_cli_usage(cli, "unknown option '%s'", argv[c]);
    }
    if (optind >= argc)
        return gp_cli_usage(cli, "needs a subcommand: list, show or import-model");
    if (strcmp(argv[optind], "list") == 0)
        return hw_list(cli, argc - optind, argv + optind);
    if (strcmp(argv[optind], "show") == 0)
        return hw_show(cli, argc - optind, argv + optind);
    return gp_cli_usage(cli, "unknown subcommand '%s' (known: list show import-model)",
                        argv[optind]);
}

const gp_cli_command gp_cli_cmd_hw = {
    "hw", "list and show GPUs, links, models, formats and engines; import a model", run_hw, 1};
