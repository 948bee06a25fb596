/* The hardware database loader: built-in YAML, overlay directories, schema
 * validation, merging with provenance, and lookups.  Schema: docs/hwdb.md.
 *
 * Each file is parsed into a generic node tree (db_yaml.c) and walked with a
 * table of field descriptors per kind (key path, type, unit kind, offset into
 * the struct, flags, range).  Everything the database owns lives in one
 * arena, freed by gp_db_free; each file's node tree lives in a scratch arena
 * freed as soon as the file is applied. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db_int.h"
#include "gpuplan/db.h"
#include "gpuplan/infer.h" /* engine ids a format may name */
#include "gpuplan/units.h"

/* ---- field descriptors -------------------------------------------------- */

typedef enum ftype {
    T_FIG,     /* gp_fig: value with units + source                  */
    T_STR,     /* const char *                                        */
    T_BOOL,    /* int 0/1                                             */
    T_ENUM,    /* int-sized enum, names in `names`                    */
    T_STRENUM, /* const char *, one of `names`                        */
    T_PREC,    /* gp_precision                                        */
    T_LINKREF, /* const char *, a link id (gpus) or format id (formats)
                  checked after loading                               */
    T_ENGINE   /* const char *, an engine id (lib/engines.c)          */
} ftype;

enum {
    F_REQ = 1u,    /* required                                        */
    F_INT = 2u,    /* whole number                                    */
    F_COMPUTE = 4u, /* one of the compute figures (at least one needed) */
    F_CC = 8u       /* a CUDA compute capability, MAJOR.MINOR           */
};

typedef struct fdesc {
    const char *path; /* dotted key path, "memory.bandwidth"         */
    ftype type;
    gp_qty qty;
    size_t off;
    unsigned flags;
    double lo, hi;    /* inclusive range for figures (and lo > 0)   */
    const char *const *names; /* T_ENUM / T_STRENUM                 */
    int nnames;
} fdesc;

#define FIG(p, q, st, m, fl, l, h) {p, T_FIG, q, offsetof(st, m), fl, l, h, NULL, 0}
#define STR(p, st, m, fl) {p, T_STR, GP_Q_NUMBER, offsetof(st, m), fl, 0, 0, NULL, 0}
#define BOOL(p, st, m) {p, T_BOOL, GP_Q_NUMBER, offsetof(st, m), 0, 0, 0, NULL, 0}
#define ENUM(p, st, m, fl, nm)                                                  \
    {p, T_ENUM, GP_Q_NUMBER, offsetof(st, m), fl, 0, 0, nm, (int)(sizeof nm / sizeof nm[0])}
#define SENUM(p, st, m, fl, nm)                                                 \
    {p, T_STRENUM, GP_Q_NUMBER, offsetof(st, m), fl, 0, 0, nm, (int)(sizeof nm / sizeof nm[0])}

/* Plausibility caps (SI). */
#define MAX_FLOPS 1e18   /* FLOP/s: 1 EFLOP/s per GPU            */
#define MAX_RATE GP_RATE_MAX /* bytes/s: 1 PB/s                 */
#define MAX_BYTES 1e15   /* bytes: 1 PB                          */
#define MAX_LAT 1.0      /* seconds                              */
#define MAX_CLOCK 1e10   /* Hz                                   */
#define MIN_FLOPS 1e9    /* FLOP/s: no GPU pipeline runs slower  */
#define MIN_EFF 0.01     /* efficiencies: 1 % of a peak          */

#define PEAK3(ps, P)                                                            \
    FIG("compute." ps ".cuda", GP_Q_FLOPS, gp_gpu, peak[P][GP_PIPE_CUDA], F_COMPUTE, MIN_FLOPS, MAX_FLOPS), \
    FIG("compute." ps ".tensor", GP_Q_FLOPS, gp_gpu, peak[P][GP_PIPE_TENSOR], F_COMPUTE, MIN_FLOPS, MAX_FLOPS), \
    FIG("compute." ps ".tensor_fp16acc", GP_Q_FLOPS, gp_gpu, peak_fp16acc[P], 0, MIN_FLOPS, MAX_FLOPS), \
    FIG("measured.compute." ps ".cuda", GP_Q_FLOPS, gp_gpu, meas_peak[P][GP_PIPE_CUDA], 0, MIN_FLOPS, MAX_FLOPS), \
    FIG("measured.compute." ps ".tensor", GP_Q_FLOPS, gp_gpu, meas_peak[P][GP_PIPE_TENSOR], 0, MIN_FLOPS, MAX_FLOPS)

static const fdesc gpu_fields[] = {
    STR("vendor", gp_gpu, vendor, F_REQ),
    STR("architecture", gp_gpu, architecture, F_REQ),
    STR("compute_capability", gp_gpu, compute_capability, F_CC),
    STR("form_factor", gp_gpu, form_factor, 0),
    STR("memory_type", gp_gpu, memory_type, 0),
    BOOL("unified_memory", gp_gpu, unified_memory),
    FIG("sm_count", GP_Q_COUNT, gp_gpu, sm_count, F_REQ | F_INT, 1, 1e5),
    FIG("clock_base", GP_Q_FREQUENCY, gp_gpu, clock_base, 0, 1e6, MAX_CLOCK),
    FIG("clock_boost", GP_Q_FREQUENCY, gp_gpu, clock_boost, 0, 1e6, MAX_CLOCK),
    PEAK3("fp64", GP_FP64), PEAK3("fp32", GP_FP32), PEAK3("tf32", GP_TF32),
    PEAK3("fp16", GP_FP16), PEAK3("bf16", GP_BF16), PEAK3("fp8", GP_FP8),
    PEAK3("int8", GP_INT8), PEAK3("int4", GP_INT4), PEAK3("fp4", GP_FP4),
    FIG("sparsity", GP_Q_NUMBER, gp_gpu, sparsity, 0, 1, 16),
    FIG("memory.capacity", GP_Q_BYTES, gp_gpu, mem_capacity, F_REQ, 1e6, MAX_BYTES),
    FIG("memory.usable", GP_Q_BYTES, gp_gpu, mem_usable, 0, 1e6, MAX_BYTES),
    FIG("memory.bandwidth", GP_Q_RATE, gp_gpu, mem_bw, F_REQ, 1e6, MAX_RATE),
    STR("memory.type", gp_gpu, memory_type, 0),
    FIG("cache.l2_size", GP_Q_BYTES, gp_gpu, l2_size, 0, 1, 1e11),
    FIG("cache.l2_bandwidth", GP_Q_RATE, gp_gpu, l2_bw, 0, 1e6, MAX_RATE),
    FIG("latency.l1", GP_Q_DURATION, gp_gpu, lat_l1, 0, 0, MAX_LAT),
    FIG("latency.l2", GP_Q_DURATION, gp_gpu, lat_l2, 0, 0, MAX_LAT),
    FIG("latency.dram", GP_Q_DURATION, gp_gpu, lat_dram, 0, 0, MAX_LAT),
    {"host_link", T_LINKREF, GP_Q_NUMBER, offsetof(gp_gpu, host_link), F_REQ, 0, 0, NULL, 0},
    {"scale_up_link", T_LINKREF, GP_Q_NUMBER, offsetof(gp_gpu, scale_up_link), 0, 0, 0, NULL, 0},
    {"wide_link", T_LINKREF, GP_Q_NUMBER, offsetof(gp_gpu, wide_link), 0, 0, 0, NULL, 0},
    FIG("power", GP_Q_POWER, gp_gpu, tdp, F_REQ, 1, 1e5),
    FIG("price", GP_Q_NUMBER, gp_gpu, price, 0, 0, 1e8),
    FIG("rent", GP_Q_NUMBER, gp_gpu, rent, 0, 0, 1e4),
    FIG("efficiency.memory", GP_Q_FRACTION, gp_gpu, eff_mem, F_REQ, MIN_EFF, 1),
    FIG("efficiency.compute", GP_Q_FRACTION, gp_gpu, eff_compute, F_REQ, MIN_EFF, 1),
    FIG("efficiency.compute_fp8", GP_Q_FRACTION, gp_gpu, eff_compute_fp8, 0, MIN_EFF, 1),
    FIG("efficiency.mfu", GP_Q_FRACTION, gp_gpu, eff_mfu, 0, MIN_EFF, 1),
    FIG("efficiency.decode", GP_Q_FRACTION, gp_gpu, eff_decode, 0, MIN_EFF, 1),
    FIG("efficiency.decode_layer_overhead", GP_Q_DURATION, gp_gpu, decode_layer_overhead, 0, 0,
        MAX_LAT),
    FIG("measured.memory_bandwidth", GP_Q_RATE, gp_gpu, meas_mem_bw, 0, 1e6, MAX_RATE),
    FIG("measured.l2_bandwidth", GP_Q_RATE, gp_gpu, meas_l2_bw, 0, 1e6, MAX_RATE),
    FIG("measured.latency.l1", GP_Q_DURATION, gp_gpu, meas_lat_l1, 0, 0, MAX_LAT),
    FIG("measured.latency.l2", GP_Q_DURATION, gp_gpu, meas_lat_l2, 0, 0, MAX_LAT),
    FIG("measured.latency.dram", GP_Q_DURATION, gp_gpu, meas_lat_dram, 0, 0, MAX_LAT),
    FIG("measured.h2d_bandwidth", GP_Q_RATE, gp_gpu, meas_h2d_bw, 0, GP_LINK_RATE_MIN, MAX_RATE),
    FIG("measured.d2h_bandwidth", GP_Q_RATE, gp_gpu, meas_d2h_bw, 0, GP_LINK_RATE_MIN, MAX_RATE),
    FIG("measured.h2d_latency", GP_Q_DURATION, gp_gpu, meas_h2d_lat, 0, 0, MAX_LAT),
};

static const char *const link_kinds[] = {"pcie", "nvlink", "nvlink-bridge", "infiniband",
                                         "roce", "ethernet", "infinity-fabric", "other"};
static const char *const link_scopes[] = {"scale-up", "scale-out"};

static const fdesc link_fields[] = {
    ENUM("kind", gp_link, kind, F_REQ, link_kinds),
    ENUM("scope", gp_link, scope, F_REQ, link_scopes),
    FIG("bandwidth", GP_Q_RATE, gp_link, bw, F_REQ, GP_LINK_RATE_MIN, MAX_RATE),
    FIG("achievable", GP_Q_RATE, gp_link, bw_achievable, F_REQ, GP_LINK_RATE_MIN, MAX_RATE),
    FIG("nvls", GP_Q_RATE, gp_link, bw_nvls, 0, GP_LINK_RATE_MIN, MAX_RATE),
    FIG("latency", GP_Q_DURATION, gp_link, latency, F_REQ, 0, MAX_LAT),
    FIG("max_gpus", GP_Q_COUNT, gp_link, max_gpus, F_INT, 1, 1e7),
    BOOL("p2p", gp_link, p2p),
    BOOL("switched", gp_link, switched),
    FIG("nics_per_gpu", GP_Q_NUMBER, gp_link, nics_per_gpu, 0, 0.01, 64),
    FIG("measured.bandwidth", GP_Q_RATE, gp_link, meas_bw, 0, GP_LINK_RATE_MIN, MAX_RATE),
    FIG("measured.latency", GP_Q_DURATION, gp_link, meas_latency, 0, 0, MAX_LAT),
};

static const char *const attentions[] = {"mha", "gqa", "mla", "mqa"};
static const char *const expert_ffn_kinds[] = {"gated", "plain"};

#define DIM(p, m, fl) FIG(p, GP_Q_COUNT, gp_model, m, (fl) | F_INT, 1, GP_MODEL_DIM_MAX)
static const fdesc model_fields[] = {
    STR("family", gp_model, family, 0),
    SENUM("attention", gp_model, attention, 0, attentions),
    FIG("params", GP_Q_COUNT, gp_model, params, F_REQ, GP_MODEL_PARAMS_MIN, GP_MODEL_PARAMS_MAX),
    FIG("params_active", GP_Q_COUNT, gp_model, params_active, 0, GP_MODEL_PARAMS_MIN,
        GP_MODEL_PARAMS_MAX),
    DIM("layers", layers, F_REQ),
    DIM("hidden", hidden, F_REQ),
    DIM("heads", heads, F_REQ),
    DIM("kv_heads", kv_heads, 0),
    DIM("head_dim", head_dim, 0),
    DIM("ffn_hidden", ffn_hidden, F_REQ),
    DIM("vocab", vocab, F_REQ),
    DIM("context", context, F_REQ),
    DIM("train_seq", train_seq, 0),
    BOOL("tied_embeddings", gp_model, tied_embeddings),
    BOOL("attention_gate", gp_model, attention_gate),
    DIM("moe.experts", experts, 0),
    DIM("moe.active", experts_active, 0),
    DIM("moe.shared", shared_experts, 0),
    DIM("moe.expert_ffn_hidden", expert_ffn_hidden, 0),
    DIM("moe.dense_layers", dense_layers, 0),
    SENUM("moe.expert_ffn_kind", gp_model, expert_ffn_kind, 0, expert_ffn_kinds),
    DIM("kv_dim", kv_dim, 0),
    DIM("qk_head_dim", qk_head_dim, 0),
    DIM("window.tokens", window, 0),
    DIM("window.layers", window_layers, 0),
    DIM("linear.layers", linear_layers, 0),
    DIM("linear.state", linear_state, 0),
    FIG("linear.params", GP_Q_COUNT, gp_model, linear_params, F_INT, 1, GP_MODEL_PARAMS_MAX),
    DIM("ffn_layers", ffn_layers, 0),
    FIG("linear.state_bytes", GP_Q_BYTES, gp_model, linear_state_bytes, F_INT, 1, 8e9),
};

static const char *const fmt_kinds[] = {"float", "int", "quant"};

static const fdesc format_fields[] = {
    ENUM("kind", gp_format, kind, F_REQ, fmt_kinds),
    FIG("bits", GP_Q_NUMBER, gp_format, bits, F_REQ, 1, 64),
    {"compute", T_PREC, GP_Q_NUMBER, offsetof(gp_format, compute), F_REQ, 0, 0, NULL, 0},
    {"mma", T_PREC, GP_Q_NUMBER, offsetof(gp_format, mma), 0, 0, 0, NULL, 0},
    FIG("group", GP_Q_COUNT, gp_format, group, F_INT, 1, 1e9),
    FIG("dequant_scale", GP_Q_NUMBER, gp_format, dequant_scale, 0, 0.1, 64),
    {"engine", T_ENGINE, GP_Q_NUMBER, offsetof(gp_format, engine), 0, 0, 0, NULL, 0},
    {"output", T_LINKREF, GP_Q_NUMBER, offsetof(gp_format, output_id), 0, 0, 0, NULL, 0},
    {"dense", T_LINKREF, GP_Q_NUMBER, offsetof(gp_format, dense_id), 0, 0, 0, NULL, 0},
};

_Static_assert(sizeof(gp_link_kind) == sizeof(int) && sizeof(gp_link_scope) == sizeof(int) &&
                   sizeof(gp_format_kind) == sizeof(int) && sizeof(gp_precision) == sizeof(int),
               "T_ENUM fields are stored as int");

typedef struct kinfo {
    const char *dir;   /* "gpus" */
    const char *noun;  /* "gpu" */
    size_t size;       /* sizeof entry struct */
    const fdesc *fields;
    size_t nfields;
} kinfo;

static const kinfo kinds[GP_KIND__COUNT] = {
    {"gpus", "gpu", sizeof(gp_gpu), gpu_fields, sizeof gpu_fields / sizeof gpu_fields[0]},
    {"links", "link", sizeof(gp_link), link_fields, sizeof link_fields / sizeof link_fields[0]},
    {"models", "model", sizeof(gp_model), model_fields,
     sizeof model_fields / sizeof model_fields[0]},
    {"formats", "format", sizeof(gp_format), format_fields,
     sizeof format_fields / sizeof format_fields[0]},
};

/* Every entry struct starts with id, name, aliases, n_aliases. */
typedef struct ehead {
    const char *id;
    const char *name;
    const char *const *aliases;
    size_t n_aliases;
} ehead;

/* ---- the database ------------------------------------------------------------ */

typedef struct emeta {
    const char *file;   /* where the entry was first defined */
    unsigned line, col;
    int layer;
    unsigned char *seen;     /* per descriptor of the kind: 0 never given, else 1 +
                                the layer that gave it last (0 built-in, 1.. overlays) */
    const char *ref_file[3]; /* host_link, scale_up_link, wide_link positions
                                (gpus); output, dense (formats) */
    unsigned ref_line[3], ref_col[3];
    const char *pfile;       /* the overlay file that last patched the entry */
    unsigned pline, pcol;
} emeta;

typedef struct ktab {
    char *items;
    emeta *meta;
    size_t n, cap;
} ktab;

typedef struct srcent {
    const char *key, *cite;
} srcent;

struct gp_db {
    gp__arena a;
    ktab t[GP_KIND__COUNT];
    srcent *src;     /* global sources (sources.yaml of every layer); later win */
    size_t nsrc, capsrc;
    size_t *srchash;  /* open addressing over src[], 0 = empty, else index + 1 */
    size_t nhash;     /* power of two, >= 2 * nsrc */
    gp__arena tmp;    /* scratch for one file's node tree, reset per file */
    const fdesc **sorted[GP_KIND__COUNT]; /* descriptors sorted by path */
};

/* Loading state for one file. */
typedef struct lctx {
    gp_db *db;
    gp__arena *tmp;
    const char *file;   /* name used in messages and origins (db arena) */
    size_t flen;
    int layer;
    gp_err *e;
    gp_kind kind;
    const char *eid;    /* id of the entry being read */
    const srcent *lsrc; /* entry-local sources */
    size_t nlsrc;
    char *entry;        /* entry being filled */
    size_t ei;          /* its index */
} lctx;

static ehead *head_at(const gp_db *db, gp_kind k, size_t i)
{
    return (ehead *)(void *)(db->t[k].items + i * kinds[k].size);
}

static int nomem(gp_err *e)
{
    return GP_RAISE(e, GP_ENOMEM, "out of memory loading the database");
}

static int cmp_fdesc(const void *a, const void *b)
{
    const fdesc *x = *(const fdesc *const *)a, *y = *(const fdesc *const *)b;
    return strcmp(x->path, y->path);
}

/* First descriptor whose path is >= key (lower bound) in kind k. */
static size_t lower_bound(const gp_db *db, gp_kind k, const char *key)
{
    size_t lo = 0, hi = kinds[k].nfields;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(db->sorted[k][mid]->path, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- messages ------------------------------------------------------------------- */

static int fail_at(lctx *c, gp_status code, const gp__ynode *n, const char *field,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int fail_at(lctx *c, gp_status code, const gp__ynode *n, const char *field,
                   const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->eid != NULL)
        return GP_RAISE_AT(c->e, code, c->file, n ? n->line : 0, n ? n->col : 0,
                           "%s '%s', field '%s': %s", kinds[c->kind].noun, c->eid, field, msg);
    return GP_RAISE_AT(c->e, code, c->file, n ? n->line : 0, n ? n->col : 0, "field '%s': %s",
                       field, msg);
}

static const char *ytype_name(const gp__ynode *n)
{
    return n->type == GP_Y_MAP ? "a mapping" : n->type == GP_Y_SEQ ? "a list" : "a scalar";
}

/* ---- sources ---------------------------------------------------------------------- */

static size_t str_hash(const char *s)
{
    size_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Rebuild the hash of global sources (after a sources.yaml); later keys win. */
static int rehash_sources(gp_db *db, gp_err *e)
{
    size_t n = 16, i;
    while (n < 2 * db->nsrc)
        n *= 2;
    free(db->srchash);
    db->srchash = calloc(n, sizeof *db->srchash);
    db->nhash = 0;
    if (db->srchash == NULL)
        return nomem(e);
    db->nhash = n;
    for (i = 0; i < db->nsrc; i++) {
        size_t h = str_hash(db->src[i].key) & (n - 1);
        while (db->srchash[h] != 0 && strcmp(db->src[db->srchash[h] - 1].key, db->src[i].key) != 0)
            h = (h + 1) & (n - 1);
        db->srchash[h] = i + 1;
    }
    return GP_OK;
}

static const char *find_source(const lctx *c, const char *key)
{
    size_t i;
    const gp_db *db = c->db;
    for (i = c->nlsrc; i-- > 0;)
        if (strcmp(c->lsrc[i].key, key) == 0)
            return c->lsrc[i].cite;
    if (db->nhash > 0) {
        size_t h = str_hash(key) & (db->nhash - 1);
        while (db->srchash[h] != 0) {
            if (strcmp(db->src[db->srchash[h] - 1].key, key) == 0)
                return db->src[db->srchash[h] - 1].cite;
            h = (h + 1) & (db->nhash - 1);
        }
    }
    return NULL;
}

/* A citation: a string, or a mapping {title, url, edition, section, note,
 * evidence, status, date}. */
static int parse_citation(lctx *c, const gp__ynode *v, const char *field, const char **out)
{
    static const char *const known[] = {"title", "url", "edition", "section", "date",
                                        "note", "evidence", "status", "accessed"};
    const char *title = NULL, *url = NULL, *edition = NULL, *section = NULL;
    const gp__ynode *k;
    if (v->type == GP_Y_SCALAR) {
        if (v->len == 0 || gp__yaml_is_null(v))
            return fail_at(c, GP_ESCHEMA, v, field, "citation is empty");
        *out = gp__arena_strndup(&c->db->a, v->s, v->len);
        return *out ? GP_OK : nomem(c->e);
    }
    if (v->type != GP_Y_MAP)
        return fail_at(c, GP_ESCHEMA, v, field, "a citation must be a string or a mapping "
                                                "with 'title' and 'url', not %s",
                       ytype_name(v));
    for (k = v->first; k != NULL; k = k->next->next) {
        const gp__ynode *val = k->next;
        size_t i;
        for (i = 0; i < sizeof known / sizeof known[0]; i++)
            if (strcmp(k->s, known[i]) == 0)
                break;
        if (i == sizeof known / sizeof known[0])
            return fail_at(c, GP_ESCHEMA, k, field,
                           "unknown key '%s' in a citation (known: title url edition "
                           "section date note evidence status accessed)",
                           k->s);
        if (val->type != GP_Y_SCALAR)
            return fail_at(c, GP_ESCHEMA, val, field, "'%s' must be a string, not %s", k->s,
                           ytype_name(val));
        if (i == 0)
            title = val->s;
        else if (i == 1)
            url = val->s;
        else if (i == 2)
            edition = val->s;
        else if (i == 3)
            section = val->s;
    }
    if (title == NULL || title[0] == '\0')
        return fail_at(c, GP_ESCHEMA, v, field, "a citation mapping needs a 'title'");
    *out = gp__arena_printf(&c->db->a, "%s%s%s%s%s%s%s", title, edition ? ", " : "",
                            edition ? edition : "", section ? ", " : "", section ? section : "",
                            url && url[0] ? ", " : "", url && url[0] ? url : "");
    return *out ? GP_OK : nomem(c->e);
}

/* Resolve a `src` node (a key, or a list of keys) to a citation. */
static int resolve_src(lctx *c, const gp__ynode *v, const char *field, const char **out)
{
    const gp__ynode *k;
    const char *cites[16];
    size_t n = 0, i, total = 0;
    char *buf, *p;
    if (v->type == GP_Y_SCALAR) {
        if (v->len == 0 || gp__yaml_is_null(v))
            return fail_at(c, GP_ESCHEMA, v, field, "'src' is empty");
        *out = find_source(c, v->s);
        if (*out == NULL)
            return fail_at(c, GP_ESCHEMA, v, field,
                           "unknown source '%s' (not in the entry's sources: nor in any "
                           "sources.yaml)",
                           v->s);
        return GP_OK;
    }
    if (v->type != GP_Y_SEQ || v->n == 0)
        return fail_at(c, GP_ESCHEMA, v, field,
                       "'src' must be a source key or a non-empty list of keys, not %s",
                       ytype_name(v));
    for (k = v->first; k != NULL; k = k->next) {
        if (k->type != GP_Y_SCALAR)
            return fail_at(c, GP_ESCHEMA, k, field, "'src' list items must be source keys");
        if (n == sizeof cites / sizeof cites[0])
            return fail_at(c, GP_ESCHEMA, k, field, "more than 16 sources");
        cites[n] = find_source(c, k->s);
        if (cites[n] == NULL)
            return fail_at(c, GP_ESCHEMA, k, field,
                           "unknown source '%s' (not in the entry's sources: nor in any "
                           "sources.yaml)",
                           k->s);
        total += strlen(cites[n]) + 2;
        n++;
    }
    buf = gp__arena_alloc(&c->db->a, total + 1);
    if (buf == NULL)
        return nomem(c->e);
    for (p = buf, i = 0; i < n; i++) {
        size_t l = strlen(cites[i]);
        if (i > 0) {
            memcpy(p, "; ", 2);
            p += 2;
        }
        memcpy(p, cites[i], l);
        p += l;
    }
    *p = '\0';
    *out = buf;
    return GP_OK;
}

/* ---- scalar parsers ----------------------------------------------------------------- */

static int want_scalar(lctx *c, const gp__ynode *v, const char *field, const char *what)
{
    if (v->type != GP_Y_SCALAR)
        return fail_at(c, GP_ESCHEMA, v, field, "expected %s, got %s", what, ytype_name(v));
    if (gp__yaml_is_null(v))
        return fail_at(c, GP_ESCHEMA, v, field, "has no value (expected %s)", what);
    return GP_OK;
}

/* Numbers for USD fields may be written "$1599", "1599 USD", "2.5 USD/h". */
static const char *strip_usd(const char *s, char *buf, size_t n)
{
    size_t l;
    const char *sfx[] = {" USD/h", "USD/h", " USD", "USD", "/h"};
    size_t i;
    if (s[0] == '$')
        s++;
    snprintf(buf, n, "%s", s);
    l = strlen(buf);
    for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        size_t k = strlen(sfx[i]);
        if (l > k && strcmp(buf + l - k, sfx[i]) == 0) {
            buf[l - k] = '\0';
            break;
        }
    }
    return buf;
}

static int parse_value(lctx *c, const fdesc *d, const gp__ynode *v, double *out)
{
    gp_err sub;
    char buf[128];
    const char *s = v->s;
    double x = 0.0;
    int rc;
    if ((rc = want_scalar(c, v, d->path, "a number with units")) != GP_OK)
        return rc;
    if (strcmp(d->path, "price") == 0 || strcmp(d->path, "rent") == 0)
        s = strip_usd(s, buf, sizeof buf);
    gp_err_clear(&sub);
    if (gp_parse_qty(s, d->qty, d->path, &x, &sub) != GP_OK)
        return fail_at(c, GP_ESCHEMA, v, d->path, "%s", sub.msg);
    if (!isfinite(x))
        return fail_at(c, GP_ESCHEMA, v, d->path, "'%s' is not a finite number", v->s);
    if (!(x > 0.0))
        return fail_at(c, GP_ESCHEMA, v, d->path, "'%s' must be positive", v->s);
    if (x < d->lo)
        return fail_at(c, GP_ESCHEMA, v, d->path, "'%s' is implausibly small (%g < %g)", v->s,
                       x, d->lo);
    if (x > d->hi)
        return fail_at(c, GP_ESCHEMA, v, d->path, "'%s' is implausibly large (%g > %g)", v->s,
                       x, d->hi);
    if ((d->flags & F_INT) && x != floor(x))
        return fail_at(c, GP_ESCHEMA, v, d->path, "'%s' must be a whole number", v->s);
    *out = x;
    return GP_OK;
}

static char *put_uint(char *p, unsigned v)
{
    char tmp[12];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v > 0);
    while (n > 0)
        *p++ = tmp[--n];
    return p;
}

/* "file:line:col" in the database arena (no printf: ~1000 per load). */
static const char *make_origin(lctx *c, unsigned line, unsigned col)
{
    char *o = gp__arena_alloc(&c->db->a, c->flen + 24), *p;
    if (o == NULL)
        return NULL;
    memcpy(o, c->file, c->flen);
    p = o + c->flen;
    *p++ = ':';
    p = put_uint(p, line);
    *p++ = ':';
    p = put_uint(p, col);
    *p = '\0';
    return o;
}

/* A figure: a bare scalar (source = `dsrc`) or {value, src, note}. */
static int parse_fig(lctx *c, const fdesc *d, const gp__ynode *key, const gp__ynode *v,
                     const char *dsrc, gp_fig *out)
{
    const gp__ynode *val = v, *srcn = NULL, *k;
    const char *cite = dsrc;
    double x = 0.0;
    int rc;
    if (v->type == GP_Y_MAP) {
        val = NULL;
        for (k = v->first; k != NULL; k = k->next->next) {
            if (strcmp(k->s, "value") == 0)
                val = k->next;
            else if (strcmp(k->s, "src") == 0)
                srcn = k->next;
            else if (strcmp(k->s, "note") != 0)
                return fail_at(c, GP_ESCHEMA, k, d->path,
                               "unknown key '%s' in a figure (known: value src note)", k->s);
        }
        if (val == NULL)
            return fail_at(c, GP_ESCHEMA, v, d->path, "figure has no 'value'");
        if (srcn != NULL && (rc = resolve_src(c, srcn, d->path, &cite)) != GP_OK)
            return rc;
    }
    if ((rc = parse_value(c, d, val, &x)) != GP_OK)
        return rc;
    if (cite == NULL)
        return fail_at(c, GP_ESCHEMA, val, d->path,
                       "figure has no source: write {value: %s, src: KEY} or give the entry a "
                       "default 'src'",
                       val->s);
    out->v = x;
    out->src = cite;
    out->origin = make_origin(c, key->line, key->col);
    return out->origin ? GP_OK : nomem(c->e);
}

static int parse_str(lctx *c, const fdesc *d, const gp__ynode *v, const char **out)
{
    int rc;
    if ((rc = want_scalar(c, v, d->path, "a string")) != GP_OK)
        return rc;
    if (v->len == 0)
        return fail_at(c, GP_ESCHEMA, v, d->path, "is an empty string");
    /* CUDA's MAJOR.MINOR: a major of 1 to 99 without a leading zero, one
     * minor digit ("8.6", "12.0"; not "9", "sm_90", "9,0" or "08.0"). */
    if ((d->flags & F_CC) &&
        !(v->len >= 3 && v->len <= 4 && v->s[0] >= '1' && v->s[0] <= '9' &&
          (v->len == 3 || (v->s[1] >= '0' && v->s[1] <= '9')) && v->s[v->len - 2] == '.' &&
          v->s[v->len - 1] >= '0' && v->s[v->len - 1] <= '9'))
        return fail_at(c, GP_ESCHEMA, v, d->path,
                       "'%s' is not a compute capability MAJOR.MINOR (8.6, 9.0, 12.0)", v->s);
    *out = gp__arena_strndup(&c->db->a, v->s, v->len);
    return *out ? GP_OK : nomem(c->e);
}

static int parse_bool(lctx *c, const fdesc *d, const gp__ynode *v, int *out)
{
    int rc;
    if ((rc = want_scalar(c, v, d->path, "true or false")) != GP_OK)
        return rc;
    if (strcasecmp(v->s, "true") == 0 || strcasecmp(v->s, "yes") == 0)
        *out = 1;
    else if (strcasecmp(v->s, "false") == 0 || strcasecmp(v->s, "no") == 0)
        *out = 0;
    else
        return fail_at(c, GP_ESCHEMA, v, d->path, "'%s' is not true or false", v->s);
    return GP_OK;
}

static int parse_enum(lctx *c, const fdesc *d, const gp__ynode *v, int *idx)
{
    int i, rc;
    char known[200];
    size_t off = 0;
    if ((rc = want_scalar(c, v, d->path, "a name")) != GP_OK)
        return rc;
    for (i = 0; i < d->nnames; i++)
        if (strcasecmp(v->s, d->names[i]) == 0) {
            *idx = i;
            return GP_OK;
        }
    known[0] = '\0';
    for (i = 0; i < d->nnames && off < sizeof known; i++)
        off += (size_t)snprintf(known + off, sizeof known - off, "%s%s", i ? " " : "",
                                d->names[i]);
    return fail_at(c, GP_ESCHEMA, v, d->path, "unknown value '%s' (known: %s)", v->s, known);
}

/* Store one field of the entry being read. */
static int set_field(lctx *c, const fdesc *d, const gp__ynode *key, const gp__ynode *v,
                     const char *dsrc)
{
    void *p = c->entry + d->off;
    int rc, i;
    c->db->t[c->kind].meta[c->ei].seen[d - kinds[c->kind].fields] =
        (unsigned char)(c->layer < 254 ? c->layer + 1 : 255);
    switch (d->type) {
    case T_FIG:
        return parse_fig(c, d, key, v, dsrc, (gp_fig *)p);
    case T_STR:
        return parse_str(c, d, v, (const char **)p);
    case T_LINKREF:
        if ((rc = parse_str(c, d, v, (const char **)p)) != GP_OK)
            return rc;
        if (c->kind == GP_KIND_GPU || c->kind == GP_KIND_FORMAT) {
            emeta *m = &c->db->t[c->kind].meta[c->ei];
            /* [1]: a GPU's scale_up_link, a format's dense format;
             * [2]: a GPU's wide_link */
            int w = strcmp(d->path, "wide_link") == 0
                        ? 2
                        : strcmp(d->path, "scale_up_link") == 0 || strcmp(d->path, "dense") == 0;
            m->ref_file[w] = c->file;
            m->ref_line[w] = v->line;
            m->ref_col[w] = v->col;
        }
        return GP_OK;
    case T_BOOL:
        return parse_bool(c, d, v, (int *)p);
    case T_ENGINE: {
        const gp_engine *eng;
        if ((rc = want_scalar(c, v, d->path, "an engine id")) != GP_OK)
            return rc;
        if ((eng = gp_engine_find(v->s)) == NULL)
            return fail_at(c, GP_ESCHEMA, v, d->path,
                           "unknown engine '%s' (the decode profiles: gpuplan decode --help)",
                           v->s);
        *(const char **)p = eng->id;
        return GP_OK;
    }
    case T_ENUM:
        /* Every T_ENUM field is an int-sized enum (checked below). */
        if ((rc = parse_enum(c, d, v, &i)) != GP_OK)
            return rc;
        memcpy(p, &i, sizeof i);
        return GP_OK;
    case T_STRENUM:
        if ((rc = parse_enum(c, d, v, &i)) != GP_OK)
            return rc;
        *(const char **)p = d->names[i];
        return GP_OK;
    case T_PREC: {
        gp_precision pr;
        gp_err sub;
        if ((rc = want_scalar(c, v, d->path, "a precision")) != GP_OK)
            return rc;
        gp_err_clear(&sub);
        if (gp_precision_parse(v->s, &pr, &sub) != GP_OK)
            return fail_at(c, GP_ESCHEMA, v, d->path, "%s", sub.msg);
        /* fp64 would read as "none" to a format built with memset (db.h). */
        if (d->off == offsetof(gp_format, mma) && pr == GP_FP64)
            return fail_at(c, GP_ESCHEMA, v, d->path,
                           "fp64 is not a tensor-core path for weights (leave mma out)");
        *(gp_precision *)p = pr;
        return GP_OK;
    }
    }
    return GP_OK;
}

/* Walk mapping `m` whose keys live under `prefix` ("" or "memory."). */
static int walk(lctx *c, const gp__ynode *m, const char *prefix, const char *dsrc, int top)
{
    const gp__ynode *k;
    char path[160];
    int rc;
    size_t plen = strlen(prefix);

    /* A group's own `src` is the default for its bare figures. */
    if (!top) {
        for (k = m->first; k != NULL; k = k->next->next)
            if (strcmp(k->s, "src") == 0) {
                snprintf(path, sizeof path, "%ssrc", prefix);
                if ((rc = resolve_src(c, k->next, path, &dsrc)) != GP_OK)
                    return rc;
            }
    }
    for (k = m->first; k != NULL; k = k->next->next) {
        const gp__ynode *v = k->next;
        size_t lb, klen = k->len;
        const fdesc *d;
        if (top && (strcmp(k->s, "id") == 0 || strcmp(k->s, "name") == 0 ||
                    strcmp(k->s, "aliases") == 0 || strcmp(k->s, "src") == 0 ||
                    strcmp(k->s, "sources") == 0 || strcmp(k->s, "note") == 0))
            continue;
        if (!top && (strcmp(k->s, "src") == 0 || strcmp(k->s, "note") == 0))
            continue;
        if (strcmp(prefix, "measured.") == 0 &&
            (strcmp(k->s, "source") == 0 || strcmp(k->s, "date") == 0))
            continue;
        if (plen + klen + 2 > sizeof path)
            return fail_at(c, GP_ESCHEMA, k, k->s, "unknown key (too long)");
        memcpy(path, prefix, plen);
        memcpy(path + plen, k->s, klen + 1);
        lb = lower_bound(c->db, c->kind, path);
        d = lb < kinds[c->kind].nfields ? c->db->sorted[c->kind][lb] : NULL;
        if (d != NULL && strcmp(d->path, path) == 0) {
            if ((rc = set_field(c, d, k, v, dsrc)) != GP_OK)
                return rc;
            continue;
        }
        /* A group: some descriptor path starts with "path." */
        path[plen + klen] = '.';
        path[plen + klen + 1] = '\0';
        lb = lower_bound(c->db, c->kind, path);
        d = lb < kinds[c->kind].nfields ? c->db->sorted[c->kind][lb] : NULL;
        if (d != NULL && strncmp(d->path, path, plen + klen + 1) == 0) {
            if (v->type != GP_Y_MAP) {
                path[plen + klen] = '\0';
                return fail_at(c, GP_ESCHEMA, v, path, "expected a mapping, got %s",
                               ytype_name(v));
            }
            if (top && strcmp(path, "measured.") == 0) {
                /* Calibration block: `source` is every figure's citation. */
                const gp__ynode *q, *srcn = NULL, *daten = NULL;
                const char *cal;
                for (q = v->first; q != NULL; q = q->next->next) {
                    if (strcmp(q->s, "source") == 0)
                        srcn = q->next;
                    else if (strcmp(q->s, "date") == 0)
                        daten = q->next;
                    else if (strcmp(q->s, "src") == 0)
                        return fail_at(c, GP_ESCHEMA, q, "measured.src",
                                       "a measured: block cites its 'source', not 'src'");
                }
                if (srcn == NULL)
                    return fail_at(c, GP_ESCHEMA, v, "measured.source",
                                   "a measured: block needs a 'source'");
                if ((rc = want_scalar(c, srcn, "measured.source", "a string")) != GP_OK)
                    return rc;
                if (daten != NULL &&
                    (rc = want_scalar(c, daten, "measured.date", "a date")) != GP_OK)
                    return rc;
                cal = daten ? gp__arena_printf(&c->db->a, "%s, %s", srcn->s, daten->s)
                            : gp__arena_strdup(&c->db->a, srcn->s);
                if (cal == NULL)
                    return nomem(c->e);
                if (c->kind == GP_KIND_GPU)
                    ((gp_gpu *)(void *)c->entry)->calibration = cal;
                else
                    ((gp_link *)(void *)c->entry)->calibration = cal;
                if ((rc = walk(c, v, path, cal, 0)) != GP_OK)
                    return rc;
                continue;
            }
            if ((rc = walk(c, v, path, dsrc, 0)) != GP_OK)
                return rc;
            continue;
        }
        path[plen + klen] = '\0';
        return fail_at(c, GP_ESCHEMA, k, path, "unknown key '%s' in a %s entry", path,
                       kinds[c->kind].noun);
    }
    return GP_OK;
}

/* ---- entries ---------------------------------------------------------------------------- */

static const gp__ynode *map_get(const gp__ynode *m, const char *key)
{
    const gp__ynode *k;
    for (k = m->first; k != NULL; k = k->next->next)
        if (strcmp(k->s, key) == 0)
            return k->next;
    return NULL;
}

static const gp__ynode *map_key(const gp__ynode *m, const char *key)
{
    const gp__ynode *k;
    for (k = m->first; k != NULL; k = k->next->next)
        if (strcmp(k->s, key) == 0)
            return k;
    return NULL;
}

/* Index of the entry whose id or alias is `name` (case-insensitive), or -1. */
/* Case-insensitive equality; the first letters compared inline, so the
 * loader's id and alias checks (a scan of every entry per entry: about
 * 170,000 comparisons for the built-in database) rarely call strcasecmp. */
static int same_name(const char *a, int first, const char *b)
{
    return tolower((unsigned char)a[0]) == first && strcasecmp(a, b) == 0;
}

static long find_entry(const gp_db *db, gp_kind kind, const char *name)
{
    size_t i, j;
    int first;
    if (name == NULL)
        return -1;
    first = tolower((unsigned char)name[0]);
    for (i = 0; i < db->t[kind].n; i++) {
        const ehead *h = head_at(db, kind, i);
        if (same_name(h->id, first, name))
            return (long)i;
        for (j = 0; j < h->n_aliases; j++)
            if (same_name(h->aliases[j], first, name))
                return (long)i;
    }
    return -1;
}

static int valid_id(const char *s)
{
    const char *p;
    if (*s == '\0' || strlen(s) > 64)
        return 0;
    for (p = s; *p; p++)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '.' ||
              *p == '_' || *p == '-'))
            return 0;
    return 1;
}

static int valid_alias(const char *s)
{
    const char *p;
    if (*s == '\0' || strlen(s) > 64)
        return 0;
    for (p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-+", *p) != NULL))
            return 0;
    return 1;
}

static int grow(gp_db *db, gp_kind k, gp_err *e)
{
    ktab *t = &db->t[k];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char *items = realloc(t->items, cap * kinds[k].size);
        emeta *meta;
        if (items == NULL)
            return nomem(e);
        t->items = items;
        meta = realloc(t->meta, cap * sizeof *meta);
        if (meta == NULL)
            return nomem(e);
        t->meta = meta;
        t->cap = cap;
    }
    return GP_OK;
}

/* Entry-local `sources:` map. */
static int entry_sources(lctx *c, const gp__ynode *v)
{
    const gp__ynode *k;
    srcent *s;
    size_t i = 0;
    int rc;
    if (v->type != GP_Y_MAP)
        return fail_at(c, GP_ESCHEMA, v, "sources", "expected a mapping of key -> citation, got %s",
                       ytype_name(v));
    s = gp__arena_alloc(c->tmp, (v->n ? v->n : 1) * sizeof *s);
    if (s == NULL)
        return nomem(c->e);
    for (k = v->first; k != NULL; k = k->next->next, i++) {
        s[i].key = k->s;
        if ((rc = parse_citation(c, k->next, "sources", &s[i].cite)) != GP_OK)
            return rc;
    }
    c->lsrc = s;
    c->nlsrc = i;
    return GP_OK;
}

static int entry_aliases(lctx *c, const gp__ynode *v, int merging)
{
    ehead *h = (ehead *)(void *)c->entry;
    const gp__ynode *a;
    const char **arr;
    size_t n = 0, j, i;
    int rc;
    if (v->type != GP_Y_SEQ)
        return fail_at(c, GP_ESCHEMA, v, "aliases", "expected a list of names, got %s",
                       ytype_name(v));
    arr = gp__arena_alloc(&c->db->a, (h->n_aliases + v->n + 1) * sizeof *arr);
    if (arr == NULL)
        return nomem(c->e);
    if (merging)
        for (; n < h->n_aliases; n++)
            arr[n] = h->aliases[n];
    for (a = v->first; a != NULL; a = a->next) {
        long other;
        if ((rc = want_scalar(c, a, "aliases", "a name")) != GP_OK)
            return rc;
        if (!valid_alias(a->s))
            return fail_at(c, GP_ESCHEMA, a, "aliases",
                           "alias '%s' must be 1-64 characters of letters, digits and ._-+",
                           a->s);
        other = find_entry(c->db, c->kind, a->s);
        if (other >= 0 && (size_t)other != c->ei)
            return fail_at(c, GP_EDUP, a, "aliases",
                           "alias '%s' collides with %s '%s' (its id or an alias)", a->s,
                           kinds[c->kind].noun, head_at(c->db, c->kind, (size_t)other)->id);
        for (j = 0, i = 0; j < n; j++)
            if (strcasecmp(arr[j], a->s) == 0)
                i = 1;
        if (i || strcasecmp(a->s, h->id) == 0)
            continue; /* repeated: harmless */
        arr[n] = gp__arena_strndup(&c->db->a, a->s, a->len);
        if (arr[n] == NULL)
            return nomem(c->e);
        n++;
    }
    h->aliases = (const char *const *)arr;
    h->n_aliases = n;
    return GP_OK;
}

static void set_defaults(gp_kind kind, char *entry)
{
    if (kind == GP_KIND_LINK)
        ((gp_link *)(void *)entry)->p2p = 1;
    if (kind == GP_KIND_FORMAT)
        ((gp_format *)(void *)entry)->mma = GP_PREC__COUNT; /* none */
}

static int apply_entry(lctx *c, const gp__ynode *m)
{
    const gp__ynode *idn, *v;
    const char *dsrc = NULL;
    long ix;
    int rc, merging;
    gp_db *db = c->db;
    ehead *h;

    c->eid = NULL;
    c->lsrc = NULL;
    c->nlsrc = 0;
    if (m->type != GP_Y_MAP)
        return fail_at(c, GP_ESCHEMA, m, "id", "an entry must be a mapping with an 'id', got %s",
                       ytype_name(m));
    idn = map_get(m, "id");
    if (idn == NULL)
        return fail_at(c, GP_ESCHEMA, m, "id", "entry has no 'id'");
    if ((rc = want_scalar(c, idn, "id", "an id")) != GP_OK)
        return rc;
    ix = find_entry(db, c->kind, idn->s);
    merging = ix >= 0;
    /* The same id twice in the built-in database, or twice in one overlay
     * file, is a duplicate; an overlay file may patch an entry that another
     * file of the same overlay directory defined (a calibration file beside
     * a new GPU). */
    if (merging && db->t[c->kind].meta[ix].layer == c->layer &&
        (c->layer == 0 || db->t[c->kind].meta[ix].file == c->file)) {
        const emeta *om = &db->t[c->kind].meta[ix];
        return fail_at(c, GP_EDUP, idn, "id", "duplicate %s id '%s' (already defined as '%s' at %s:%u:%u)",
                       kinds[c->kind].noun, idn->s, head_at(db, c->kind, (size_t)ix)->id,
                       om->file, om->line, om->col);
    }
    if (!merging && !valid_id(idn->s))
        return fail_at(c, GP_ESCHEMA, idn, "id",
                       "id '%s' must be 1-64 characters of [a-z0-9._-]", idn->s);
    if (!merging) {
        emeta *em;
        if ((rc = grow(db, c->kind, c->e)) != GP_OK)
            return rc;
        ix = (long)db->t[c->kind].n++;
        c->entry = db->t[c->kind].items + (size_t)ix * kinds[c->kind].size;
        memset(c->entry, 0, kinds[c->kind].size);
        set_defaults(c->kind, c->entry);
        em = &db->t[c->kind].meta[ix];
        memset(em, 0, sizeof *em);
        em->file = c->file;
        em->line = m->line;
        em->col = m->col;
        em->layer = c->layer;
        em->seen = gp__arena_alloc(&db->a, kinds[c->kind].nfields);
        if (em->seen == NULL)
            return nomem(c->e);
        h = (ehead *)(void *)c->entry;
        h->id = gp__arena_strndup(&db->a, idn->s, idn->len);
        if (h->id == NULL)
            return nomem(c->e);
    } else {
        emeta *em = &db->t[c->kind].meta[ix];
        c->entry = db->t[c->kind].items + (size_t)ix * kinds[c->kind].size;
        h = (ehead *)(void *)c->entry;
        /* Patched twice in one file (by its id, or an alias and the id): a
         * slip, as a new id twice is, not a silent later-wins. */
        if (em->pfile != NULL && em->pfile == c->file)
            return fail_at(c, GP_EDUP, idn, "id",
                           "%s '%s' is patched twice in this file (first at %s:%u:%u)",
                           kinds[c->kind].noun, h->id, em->pfile, em->pline, em->pcol);
        em->pfile = c->file;
        em->pline = m->line;
        em->pcol = m->col;
    }
    c->ei = (size_t)ix;
    c->eid = h->id;

    if ((v = map_get(m, "sources")) != NULL && (rc = entry_sources(c, v)) != GP_OK)
        return rc;
    if ((v = map_get(m, "src")) != NULL && (rc = resolve_src(c, v, "src", &dsrc)) != GP_OK)
        return rc;
    if ((v = map_get(m, "name")) != NULL) {
        if ((rc = want_scalar(c, v, "name", "a string")) != GP_OK)
            return rc;
        if (v->len == 0)
            return fail_at(c, GP_ESCHEMA, v, "name", "is an empty string");
        h->name = gp__arena_strndup(&db->a, v->s, v->len);
        if (h->name == NULL)
            return nomem(c->e);
    } else if (!merging) {
        return fail_at(c, GP_ESCHEMA, map_key(m, "id"), "name", "required field 'name' is missing");
    }
    if ((v = map_get(m, "note")) != NULL && (rc = want_scalar(c, v, "note", "a string")) != GP_OK)
        return rc;
    if ((v = map_get(m, "aliases")) != NULL && (rc = entry_aliases(c, v, merging)) != GP_OK)
        return rc;
    return walk(c, m, "", dsrc, 1);
}

/* ---- files ---------------------------------------------------------------------------------- */

static int apply_sources_file(lctx *c, const gp__ynode *root)
{
    const gp__ynode *k;
    gp_db *db = c->db;
    int rc;
    c->eid = NULL;
    c->lsrc = NULL;
    c->nlsrc = 0;
    if (root->type != GP_Y_MAP)
        return fail_at(c, GP_ESCHEMA, root, "sources",
                       "sources.yaml must be a mapping of key -> citation, got %s",
                       ytype_name(root));
    for (k = root->first; k != NULL; k = k->next->next) {
        if (db->nsrc == db->capsrc) {
            size_t cap = db->capsrc ? db->capsrc * 2 : 64;
            srcent *s = realloc(db->src, cap * sizeof *s);
            if (s == NULL)
                return nomem(c->e);
            db->src = s;
            db->capsrc = cap;
        }
        db->src[db->nsrc].key = gp__arena_strndup(&db->a, k->s, k->len);
        if (db->src[db->nsrc].key == NULL)
            return nomem(c->e);
        if ((rc = parse_citation(c, k->next, k->s, &db->src[db->nsrc].cite)) != GP_OK)
            return rc;
        db->nsrc++;
    }
    return rehash_sources(db, c->e);
}

/* Parse and apply one file: its text, or (`bf` non-NULL) the tree a shipped
 * file was parsed into at build time.  kind < 0: sources.yaml. */
static int apply_file(gp_db *db, int layer, int kind, const char *file, const char *text,
                      size_t len, const gp__builtin_file *bf, gp_err *e)
{
    gp__arena *tmp = &db->tmp;
    gp__ynode *root;
    lctx c;
    int rc;
    memset(&c, 0, sizeof c);
    gp__arena_reset(tmp);
    c.db = db;
    c.tmp = tmp;
    c.layer = layer;
    c.e = e;
    c.file = gp__arena_strdup(&db->a, file);
    if (c.file == NULL)
        return nomem(e);
    c.flen = strlen(c.file);
    if (bf != NULL)
        rc = gp__ytree_builtin(tmp, bf, &root, e);
    else
        rc = gp__yaml_parse(tmp, c.file, text, len, &root, e);
    if (rc == GP_OK) {
        if (kind < 0) {
            rc = apply_sources_file(&c, root);
        } else {
            c.kind = (gp_kind)kind;
            if (root->type == GP_Y_SEQ) {
                const gp__ynode *it;
                if (root->n == 0)
                    rc = GP_RAISE_AT(e, GP_EPARSE, c.file, root->line, root->col,
                                     "empty file: the list holds no entries");
                for (it = root->first; it != NULL && rc == GP_OK; it = it->next)
                    rc = apply_entry(&c, it);
            } else {
                rc = apply_entry(&c, root);
            }
        }
    }
    gp__arena_reset(tmp);
    return rc;
}

static int read_file(const char *path, char **out, size_t *len, gp_err *e)
{
    int fd;
    struct stat st;
    char *buf;
    size_t got = 0;
    *out = NULL;
    /* O_NONBLOCK: opening a FIFO (or a device) for reading must not wait
     * for a writer; fstat below refuses anything but a regular file. */
    fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot stat: %s", strerror(err));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "is a directory, expected a YAML file");
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "is not a regular file");
    }
    if ((unsigned long long)st.st_size > GP_YAML_MAX_FILE) {
        close(fd);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "file of %lld bytes is larger than %u bytes",
                           (long long)st.st_size, (unsigned)GP_YAML_MAX_FILE);
    }
    buf = malloc((size_t)st.st_size + 1);
    if (buf == NULL) {
        close(fd);
        return nomem(e);
    }
    while (got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int err = errno;
            free(buf);
            close(fd);
            return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot read: %s", strerror(err));
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    buf[got] = '\0';
    *out = buf;
    *len = got;
    return GP_OK;
}

static int apply_path(gp_db *db, int layer, int kind, const char *path, gp_err *e)
{
    char *text;
    size_t len = 0;
    int rc = read_file(path, &text, &len, e);
    if (rc != GP_OK)
        return rc;
    rc = apply_file(db, layer, kind, path, text, len, NULL, e);
    free(text);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_yaml_name(const char *n)
{
    size_t l = strlen(n);
    if (n[0] == '.')
        return 0;
    return (l > 5 && strcmp(n + l - 5, ".yaml") == 0) || (l > 4 && strcmp(n + l - 4, ".yml") == 0);
}

static int load_kind_dir(gp_db *db, int layer, gp_kind kind, const char *dir, gp_err *e)
{
    DIR *d;
    struct dirent *de;
    char **names = NULL, path[4096];
    size_t n = 0, cap = 0, i;
    int rc = GP_OK;
    d = opendir(dir);
    if (d == NULL)
        return GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "cannot open directory: %s", strerror(errno));
    while ((de = readdir(d)) != NULL) {
        if (!is_yaml_name(de->d_name))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 32;
            char **nn = realloc(names, nc * sizeof *nn);
            if (nn == NULL) {
                rc = nomem(e);
                break;
            }
            names = nn;
            cap = nc;
        }
        names[n] = strdup(de->d_name);
        if (names[n] == NULL) {
            rc = nomem(e);
            break;
        }
        n++;
    }
    closedir(d);
    if (rc == GP_OK && n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (i = 0; i < n && rc == GP_OK; i++) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= sizeof path)
            rc = GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "path of '%s' is too long", names[i]);
        else
            rc = apply_path(db, layer, (int)kind, path, e);
    }
    for (i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* An overlay with none of the kind folders loads nothing, which is right for
 * an empty one (a fresh config directory, or one that keeps measurement files)
 * and a mistake for a kind folder itself: `--db hwdb/gpus` for `--db hwdb`.
 * Refuse that one, when it holds YAML files, rather than plan without it. */
static int kind_folder_given(const char *dir, gp_err *e)
{
    size_t l = strlen(dir), n;
    const char *b;
    DIR *d;
    struct dirent *de;
    int k, yaml = 0;
    while (l > 1 && dir[l - 1] == '/')
        l--;
    for (b = dir + l; b > dir && b[-1] != '/'; b--)
        ;
    n = (size_t)(dir + l - b); /* the last path component is b[0, n) */
    for (k = 0; k < GP_KIND__COUNT; k++)
        if (strlen(kinds[k].dir) == n && strncmp(b, kinds[k].dir, n) == 0)
            break;
    if (k == GP_KIND__COUNT || (d = opendir(dir)) == NULL)
        return GP_OK;
    while (!yaml && (de = readdir(d)) != NULL)
        yaml = is_yaml_name(de->d_name);
    closedir(d);
    if (!yaml)
        return GP_OK;
    return GP_RAISE_AT(e, GP_ESCHEMA, dir, 0, 0,
                       "overlay is itself a %s/ folder, so none of its files would load: "
                       "--db takes the folder that holds gpus/, links/, models/ and formats/",
                       kinds[k].dir);
}

/* A folder of the overlay named like a kind folder but not one ("gpu/",
 * "Models/" for gpus/, models/) is never read: refuse it when it holds
 * YAML files rather than plan silently without them. */
static int misnamed_kind_folder(const char *dir, gp_err *e)
{
    DIR *d = opendir(dir), *sub;
    struct dirent *de;
    char path[4096];
    int rc = GP_OK;
    if (d == NULL)
        return GP_OK;
    while (rc == GP_OK && (de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        int k, near = -1, yaml = 0;
        struct dirent *se;
        for (k = 0; k < GP_KIND__COUNT && near < 0; k++) {
            size_t l = strlen(kinds[k].dir);
            if (strcmp(de->d_name, kinds[k].dir) == 0)
                break; /* the folder itself */
            if ((n == l && strcasecmp(de->d_name, kinds[k].dir) == 0) ||
                (n == l - 1 && strncasecmp(de->d_name, kinds[k].dir, n) == 0))
                near = k;
        }
        if (near < 0 || (size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >=
                            sizeof path || (sub = opendir(path)) == NULL)
            continue;
        while (!yaml && (se = readdir(sub)) != NULL)
            yaml = is_yaml_name(se->d_name);
        closedir(sub);
        {
            /* On a case-insensitive file system "GPUS" is gpus/ and loads. */
            struct stat a, b;
            char want[4096];
            if (yaml && stat(path, &a) == 0 &&
                (size_t)snprintf(want, sizeof want, "%s/%s", dir, kinds[near].dir) <
                    sizeof want &&
                stat(want, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
                yaml = 0;
        }
        if (yaml)
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                             "overlay folder '%s/' is not one gpuplan reads, so none of its "
                             "files would load: name it %s/",
                             de->d_name, kinds[near].dir);
    }
    closedir(d);
    return rc;
}

static int load_dir(gp_db *db, int layer, const char *dir, gp_err *e)
{
    struct stat st;
    char path[4096], trimmed[2048];
    int k, rc, found = 0;
    size_t n;
    if (dir == NULL || dir[0] == '\0')
        return GP_RAISE(e, GP_EIO, "overlay directory name is empty");
    /* "DIR/" (a shell's completion) names its files "DIR/gpus/x.yaml", not
     * "DIR//gpus/x.yaml", in messages and origins; "/" stays. */
    n = strlen(dir);
    if (n > 1 && dir[n - 1] == '/' && n < sizeof trimmed) {
        while (n > 1 && dir[n - 1] == '/')
            n--;
        memcpy(trimmed, dir, n);
        trimmed[n] = '\0';
        dir = trimmed;
    }
    if (stat(dir, &st) != 0)
        return GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "cannot open overlay directory: %s",
                           strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return GP_RAISE_AT(e, GP_EIO, dir, 0, 0, "overlay '%s' is not a directory", dir);
    if ((rc = misnamed_kind_folder(dir, e)) != GP_OK)
        return rc;
    snprintf(path, sizeof path, "%s/sources.yaml", dir);
    if (stat(path, &st) == 0 && (rc = apply_path(db, layer, -1, path, e)) != GP_OK)
        return rc;
    for (k = 0; k < GP_KIND__COUNT; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, kinds[k].dir);
        if (stat(path, &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode))
            return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "expected a directory of %s YAML files",
                               kinds[k].noun);
        if ((rc = load_kind_dir(db, layer, (gp_kind)k, path, e)) != GP_OK)
            return rc;
        found++;
    }
    return found > 0 ? GP_OK : kind_folder_given(dir, e);
}

static int kind_of_path(const char *rel)
{
    int k;
    for (k = 0; k < GP_KIND__COUNT; k++) {
        size_t l = strlen(kinds[k].dir);
        if (strncmp(rel, kinds[k].dir, l) == 0 && rel[l] == '/')
            return k;
    }
    return -2;
}

static int load_builtin(gp_db *db, gp_err *e)
{
    size_t i;
    int rc, pass;
    char name[512];
    /* sources.yaml first, then the entries. */
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < gp__builtin_nfiles; i++) {
            const gp__builtin_file *f = &gp__builtin_files[i];
            int kind = strcmp(f->path, "sources.yaml") == 0 ? -1 : kind_of_path(f->path);
            if ((pass == 0) != (kind == -1))
                continue;
            snprintf(name, sizeof name, "builtin:%s", f->path);
            if (kind == -2)
                return GP_RAISE_AT(e, GP_ESCHEMA, name, 0, 0,
                                   "file is not under gpus/ links/ models/ formats/");
            if ((rc = apply_file(db, 0, kind, name, NULL, 0, f, e)) != GP_OK)
                return rc;
        }
    }
    return GP_OK;
}

/* ---- validation after every layer is loaded ------------------------------------------------- */

static int fig_present(const char *entry, const fdesc *d)
{
    switch (d->type) {
    case T_FIG:
        return ((const gp_fig *)(const void *)(entry + d->off))->v > 0.0;
    case T_STR:
    case T_LINKREF:
    case T_STRENUM:
    case T_ENGINE:
        return *(const char *const *)(const void *)(entry + d->off) != NULL;
    default:
        return 1; /* enums: checked through the presence map below */
    }
}

/* Entry i's field refused at the entry's file:line:col -- where it is
 * defined, or with `patched` the overlay that last patched it. */
static int vfail(const gp_db *db, gp_kind k, size_t i, gp_status code, const char *field,
                 int patched, gp_err *e, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 8, 0)))
#endif
    ;

static int vfail(const gp_db *db, gp_kind k, size_t i, gp_status code, const char *field,
                 int patched, gp_err *e, const char *fmt, va_list ap)
{
    const emeta *m = &db->t[k].meta[i];
    int p = patched && m->pfile != NULL;
    char msg[300];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return GP_RAISE_AT(e, code, p ? m->pfile : m->file, p ? m->pline : m->line,
                       p ? m->pcol : m->col, "%s '%s', field '%s': %s", kinds[k].noun,
                       head_at(db, k, i)->id, field, msg);
}

static int entry_fail(const gp_db *db, gp_kind k, size_t i, gp_status code, const char *field,
                      gp_err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static int entry_fail(const gp_db *db, gp_kind k, size_t i, gp_status code, const char *field,
                      gp_err *e, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = vfail(db, k, i, code, field, 0, e, fmt, ap);
    va_end(ap);
    return rc;
}

/* As entry_fail, for a field without an origin of its own (strings, flags):
 * named at the overlay that last patched entry i, else where it is
 * defined. */
static int patch_fail(const gp_db *db, gp_kind k, size_t i, const char *field, gp_err *e,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static int patch_fail(const gp_db *db, gp_kind k, size_t i, const char *field, gp_err *e,
                      const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = vfail(db, k, i, GP_ESCHEMA, field, 1, e, fmt, ap);
    va_end(ap);
    return rc;
}

/* The layer (+ 1) that last gave field `path` of entry i; 0 when none did. */
static unsigned seen_layer(const gp_db *db, gp_kind k, size_t i, const char *path)
{
    size_t lb = lower_bound(db, k, path);
    const fdesc *d;
    if (lb >= kinds[k].nfields || strcmp((d = db->sorted[k][lb])->path, path) != 0)
        return 0;
    return db->t[k].meta[i].seen[d - kinds[k].fields];
}

/* Two figures of entry i that contradict each other (achievable above the
 * peak ...): named at the file:line:col of the one the later layer gave --
 * an overlay that set either side is where the user looks -- with where the
 * other came from; `a` on a tie. */
static int conflict_fail(const gp_db *db, gp_kind k, size_t i, const char *pa, const gp_fig *a,
                         const char *pb, const gp_fig *b, gp_err *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;

static int conflict_fail(const gp_db *db, gp_kind k, size_t i, const char *pa, const gp_fig *a,
                         const char *pb, const gp_fig *b, gp_err *e, const char *fmt, ...)
{
    int swap = seen_layer(db, k, i, pb) > seen_layer(db, k, i, pa);
    const char *field = swap ? pb : pa, *other = swap ? pa : pb;
    const gp_fig *f = swap ? b : a, *o = swap ? a : b;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return GP_RAISE_AT(e, GP_ESCHEMA, f->origin ? f->origin : field, 0, 0,
                       "%s '%s', field '%s': %s; '%s' is from %s", kinds[k].noun,
                       head_at(db, k, i)->id, field, msg, other,
                       o->origin ? o->origin : "its default");
}

/* Figure f (at path) of model md given (> 0) without `other`: refused at
 * f's own file:line:col with `why`. */
static int needs_fig(const gp_model *md, const gp_fig *f, const char *path, const gp_fig *other,
                     const char *why, gp_err *e)
{
    if (f->v > 0.0 && !(other->v > 0.0))
        return GP_RAISE_AT(e, GP_ESCHEMA, f->origin ? f->origin : path, 0, 0,
                           "model '%s', field '%s': %s", md->id, path, why);
    return GP_OK;
}

/* A GPU's measured figures against its datasheet: at most GP_MEAS_BOOST_MAX
 * above it (a boost clock past the rated one, a memory overclock; the
 * expected figure is then capped at the datasheet's) -- beyond, a sparse or
 * another GPU's figure, or a working set inside the caches; and at least
 * GP_MEAS_FLOOR_MIN of it.  Named at the later layer's figure. */
static int measured_fail(const gp_db *db, size_t i, const gp_gpu *g, gp_err *e)
{
    int p, q;
    if (gp_meas_above_boost(g->meas_mem_bw.v, g->mem_bw.v))
        return conflict_fail(db, GP_KIND_GPU, i, "measured.memory_bandwidth", &g->meas_mem_bw,
                             "memory.bandwidth", &g->mem_bw, e,
                             "measured %g B/s is %.0f %% above the datasheet %g, more than a "
                             "memory overclock gives (%.0f %%): a working set inside the "
                             "caches, or another GPU's figure?",
                             g->meas_mem_bw.v, 100.0 * (g->meas_mem_bw.v / g->mem_bw.v - 1.0),
                             g->mem_bw.v, 100.0 * (GP_MEAS_BOOST_MAX - 1.0));
    /* ... and at least GP_MEAS_FLOOR_MIN of it: nothing working runs 100 x
     * under its datasheet. */
    if (gp_meas_below_floor(g->meas_mem_bw.v, g->mem_bw.v))
        return conflict_fail(db, GP_KIND_GPU, i, "measured.memory_bandwidth", &g->meas_mem_bw,
                             "memory.bandwidth", &g->mem_bw, e,
                             "measured %g B/s is %.2g %% of the datasheet %g, below %g %%: no "
                             "working memory runs 100 times under its datasheet (a unit slip, "
                             "another device's figure?)",
                             g->meas_mem_bw.v, 100.0 * g->meas_mem_bw.v / g->mem_bw.v,
                             g->mem_bw.v, 100.0 * GP_MEAS_FLOOR_MIN);
    for (p = 0; p < GP_PREC__COUNT; p++)
        for (q = 0; q < GP_PIPE__COUNT; q++) {
            const gp_fig *m = &g->meas_peak[p][q], *d = &g->peak[p][q];
            char pm[80], pd[64];
            int low = gp_meas_below_floor(m->v, d->v);
            if (!low && !gp_meas_above_boost(m->v, d->v))
                continue;
            snprintf(pd, sizeof pd, "compute.%s.%s", gp_precision_name((gp_precision)p),
                     q == GP_PIPE_TENSOR ? "tensor" : "cuda");
            snprintf(pm, sizeof pm, "measured.%s", pd);
            if (low)
                return conflict_fail(db, GP_KIND_GPU, i, pm, m, pd, d, e,
                                     "measured %g FLOP/s is %.2g %% of the datasheet peak %g, "
                                     "below %g %%: no working GEMM runs 100 times under its "
                                     "datasheet (a unit slip, another precision's figure?)",
                                     m->v, 100.0 * m->v / d->v, d->v, 100.0 * GP_MEAS_FLOOR_MIN);
            return conflict_fail(db, GP_KIND_GPU, i, pm, m, pd, d, e,
                                 "measured %g FLOP/s is %.0f %% above the datasheet peak %g, "
                                 "more than a boost clock gives (%.0f %%): a sparse or "
                                 "fp16-accumulate figure, or another precision's?",
                                 m->v, 100.0 * (m->v / d->v - 1.0), d->v,
                                 100.0 * (GP_MEAS_BOOST_MAX - 1.0));
        }
    return GP_OK;
}

static int validate(gp_db *db, gp_err *e)
{
    int k;
    size_t i, f;
    for (k = 0; k < GP_KIND__COUNT; k++) {
        for (i = 0; i < db->t[k].n; i++) {
            char *entry = db->t[k].items + i * kinds[k].size;
            int any_compute = 0;
            for (f = 0; f < kinds[k].nfields; f++) {
                const fdesc *d = &kinds[k].fields[f];
                if ((d->flags & F_COMPUTE) && fig_present(entry, d))
                    any_compute = 1;
                if ((d->flags & F_REQ) && !db->t[k].meta[i].seen[f])
                    return entry_fail(db, (gp_kind)k, i, GP_ESCHEMA, d->path, e,
                                      "required field '%s' is missing", d->path);
            }
            if (k == GP_KIND_GPU) {
                gp_gpu *g = (gp_gpu *)(void *)entry;
                const emeta *m = &db->t[k].meta[i];
                int w;
                if (!any_compute)
                    return entry_fail(db, GP_KIND_GPU, i, GP_ESCHEMA, "compute", e,
                                      "needs at least one compute.<precision>.<pipeline> "
                                      "figure");
                if (g->compute_capability == NULL && strcasecmp(g->vendor, "NVIDIA") == 0)
                    return entry_fail(db, GP_KIND_GPU, i, GP_ESCHEMA, "compute_capability", e,
                                      "required for NVIDIA GPUs");
                for (w = 0; w < 3; w++) {
                    const char **refp = w == 0   ? &g->host_link
                                        : w == 1 ? &g->scale_up_link
                                                 : &g->wide_link;
                    const char *ref = *refp;
                    long li;
                    if (ref == NULL)
                        continue;
                    li = find_entry(db, GP_KIND_LINK, ref);
                    if (li < 0)
                        return GP_RAISE_AT(e, GP_ESCHEMA, m->ref_file[w], m->ref_line[w],
                                           m->ref_col[w],
                                           "gpu '%s', field '%s': unknown link '%s' (not in "
                                           "links/)",
                                           g->id,
                                           w == 0   ? "host_link"
                                           : w == 1 ? "scale_up_link"
                                                    : "wide_link",
                                           ref);
                    /* Canonicalise an alias to the id. */
                    *refp = head_at(db, GP_KIND_LINK, (size_t)li)->id;
                }
                /* wide_link is read only where the scale-up link gives way:
                 * a node of more GPUs than its max_gpus (an NVLink bridge's
                 * pair; gp_cli_gpu_link).  A switch or a mesh joins its whole
                 * domain and never gives way, so a wide_link there would be
                 * silently ignored. */
                if (g->wide_link != NULL) {
                    const gp_link *su =
                        g->scale_up_link != NULL
                            ? (const gp_link *)(const void *)head_at(
                                  db, GP_KIND_LINK,
                                  (size_t)find_entry(db, GP_KIND_LINK, g->scale_up_link))
                            : NULL;
                    if (!gp_link_gives_way(su))
                        return GP_RAISE_AT(e, GP_ESCHEMA, m->ref_file[2], m->ref_line[2],
                                           m->ref_col[2],
                                           "gpu '%s', field 'wide_link': read only beyond a "
                                           "scale_up_link that joins at most max_gpus GPUs "
                                           "(an NVLink bridge's pair); %s%s%s",
                                           g->id,
                                           su == NULL ? "the GPU has no scale_up_link"
                                                      : "its scale_up_link '",
                                           su == NULL ? "" : su->id,
                                           su == NULL ? ""
                                                      : "' never gives way (no max_gpus, or "
                                                        "a switch or mesh joining its whole "
                                                        "domain)");
                }
                if ((w = measured_fail(db, i, g, e)) != GP_OK)
                    return w;
                if (g->mem_usable.v > 1.1 * g->mem_capacity.v)
                    return conflict_fail(db, GP_KIND_GPU, i, "memory.usable", &g->mem_usable,
                                         "memory.capacity", &g->mem_capacity, e,
                                         "usable memory exceeds the capacity (%g > %g)",
                                         g->mem_usable.v, g->mem_capacity.v);
            } else if (k == GP_KIND_LINK) {
                gp_link *l = (gp_link *)(void *)entry;
                if (l->bw_achievable.v > l->bw.v * 1.0001)
                    return conflict_fail(db, GP_KIND_LINK, i, "achievable", &l->bw_achievable,
                                         "bandwidth", &l->bw, e,
                                         "achievable bandwidth exceeds the peak (%g > %g)",
                                         l->bw_achievable.v, l->bw.v);
                /* A measured link figure is a ring's busbw or a copy's rate: neither
                 * beats the wire, and the expected figure must not beat the ceiling
                 * (an NVLS sweep's busbw does: it is no ring figure). */
                if (l->meas_bw.v > l->bw.v * 1.0001)
                    return conflict_fail(db, GP_KIND_LINK, i, "measured.bandwidth", &l->meas_bw,
                                         "bandwidth", &l->bw, e,
                                         "measured bandwidth exceeds the peak (%g > %g), which "
                                         "no ring or copy on the link can (an AllReduce busbw "
                                         "above it is in-switch reduction, NVLS): re-import a "
                                         "sweep run with NCCL_ALGO=Ring",
                                         l->meas_bw.v, l->bw.v);
                if (gp_meas_below_floor(l->meas_bw.v, l->bw.v))
                    return conflict_fail(db, GP_KIND_LINK, i, "measured.bandwidth", &l->meas_bw,
                                         "bandwidth", &l->bw, e,
                                         "measured %g B/s is %.2g %% of the peak %g, below "
                                         "%g %%: no working link runs 100 times under its "
                                         "datasheet (a latency-bound size, a unit slip?)",
                                         l->meas_bw.v, 100.0 * l->meas_bw.v / l->bw.v, l->bw.v,
                                         100.0 * GP_MEAS_FLOOR_MIN);
                /* NVLS: each GPU moves S(1+1/n) each way through its own port, so
                 * the effective rate cannot beat the datasheet rate; and only an
                 * NVSwitch fabric reduces in the switch.  Named at the figure's
                 * own file:line:col (an overlay may have set either side). */
                if (l->bw_nvls.v > 0.0) {
                    const char *at = l->bw_nvls.origin ? l->bw_nvls.origin : "nvls";
                    if (l->kind != GP_LINK_NVLINK || !l->switched)
                        return GP_RAISE_AT(e, GP_ESCHEMA, at, 0, 0,
                                           "link '%s', field 'nvls': in-network reduction "
                                           "(NVLS) needs a switched NVLink (kind: nvlink, "
                                           "switched: true), got kind %s%s",
                                           l->id, gp_link_kind_name(l->kind),
                                           l->switched ? "" : ", not switched");
                    if (l->bw_nvls.v > l->bw.v * 1.0001)
                        return conflict_fail(db, GP_KIND_LINK, i, "nvls", &l->bw_nvls,
                                             "bandwidth", &l->bw, e,
                                             "the NVLS per-direction rate exceeds the link's "
                                             "bandwidth (%g > %g); give the rate per "
                                             "direction, not busbw",
                                             l->bw_nvls.v, l->bw.v);
                }
            } else if (k == GP_KIND_MODEL) {
                gp_model *md = (gp_model *)(void *)entry;
                double emb;
                int rc;
                if (md->params_active.v <= 0.0)
                    md->params_active = md->params;
                if (md->params_active.v > md->params.v * 1.0001)
                    return conflict_fail(db, GP_KIND_MODEL, i, "params_active",
                                         &md->params_active, "params", &md->params, e,
                                         "active parameters exceed the total");
                if (md->kv_heads.v > md->heads.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "kv_heads", &md->kv_heads,
                                         "heads", &md->heads, e,
                                         "more KV heads than attention heads");
                /* Each KV head serves a whole group of query heads
                 * (transformers' repeat_kv; decode's --kv-heads and train
                 * refuse it too).  The merged heads: an overlay may have
                 * patched either side. */
                if (md->kv_heads.v > 0.0 && fmod(md->heads.v, md->kv_heads.v) != 0.0)
                    return conflict_fail(db, GP_KIND_MODEL, i, "kv_heads", &md->kv_heads,
                                         "heads", &md->heads, e,
                                         "%.0f KV heads do not divide the %.0f attention heads "
                                         "(each KV head serves a whole group of them)",
                                         md->kv_heads.v, md->heads.v);
                /* params holds the embedding matrices (vocab x hidden, one
                 * tied, two untied); a count at or below them left the layers
                 * nothing and decode priced the lm_head at 0 B. */
                emb = gp_model_embed_params(md);
                if (emb > 0.0 && emb >= md->params.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "params", &md->params, "vocab",
                                         &md->vocab, e,
                                         "%.4g parameters are no more than the embedding "
                                         "matrices alone (vocab %.0f x hidden %.0f x %d = %.4g)",
                                         md->params.v, md->vocab.v, md->hidden.v,
                                         md->tied_embeddings ? 1 : 2, emb);
                if (md->experts_active.v > md->experts.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "moe.active", &md->experts_active,
                                         "moe.experts", &md->experts, e,
                                         "more active experts than experts");
                /* The experts' kind on a model without experts would do
                 * nothing (a dense FFN's kind follows from params). */
                if (md->expert_ffn_kind != NULL && !(md->experts.v > 0.0))
                    return patch_fail(db, GP_KIND_MODEL, i, "moe.expert_ffn_kind", e,
                                      "'%s' given without moe.experts (a dense model's FFN kind "
                                      "follows from its params: leave it out)",
                                      md->expert_ffn_kind);
                if (md->attention_gate && md->attention != NULL &&
                    strcasecmp(md->attention, "mla") == 0)
                    return patch_fail(db, GP_KIND_MODEL, i, "attention_gate", e,
                                      "latent attention (MLA) has no q projection of the heads' "
                                      "width to gate: leave it out");
                if (md->ffn_layers.v > md->layers.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "ffn_layers", &md->ffn_layers,
                                         "layers", &md->layers, e,
                                         "%.0f FFN layers for %.0f layers (at most as many)",
                                         md->ffn_layers.v, md->layers.v);
                if (md->ffn_layers.v > 0.0 && md->experts.v > 0.0)
                    return conflict_fail(db, GP_KIND_MODEL, i, "ffn_layers", &md->ffn_layers,
                                         "moe.experts", &md->experts, e,
                                         "FFN layers are given for dense models only (a MoE "
                                         "model's dense layers are moe.dense_layers)");
                if (md->train_seq.v > md->context.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "train_seq", &md->train_seq,
                                         "context", &md->context, e,
                                         "pre-training sequence longer than the context");
                /* Named at the figure's own file:line:col (an overlay may
                 * have set it over a shipped entry). */
                if (md->window_layers.v > 0.0 &&
                    (!(md->window.v > 0.0) || md->window_layers.v > md->layers.v))
                    return GP_RAISE_AT(e, GP_ESCHEMA,
                                       md->window_layers.origin ? md->window_layers.origin
                                                                : "window.layers",
                                       0, 0,
                                       "model '%s', field 'window.layers': %s", md->id,
                                       md->window.v > 0.0
                                           ? "more windowed layers than layers"
                                           : "windowed layers given without window.tokens");
                if (md->window.v >= md->context.v && md->window.v > 0.0)
                    return GP_RAISE_AT(e, GP_ESCHEMA,
                                       md->window.origin ? md->window.origin : "window.tokens",
                                       0, 0,
                                       "model '%s', field 'window.tokens': a window of the "
                                       "whole context is no window (leave it out)",
                                       md->id);
                /* Linear-attention layers: a count and a state, together;
                 * at least one layer left to attend, and any window on
                 * the attending ones (inference.md §1.2). */
                if ((rc = needs_fig(md, &md->linear_layers, "linear.layers", &md->linear_state,
                                   "linear-attention layers given without linear.state (their "
                                   "recurrent-state elements per sequence per layer)",
                                   e)) != GP_OK ||
                    (rc = needs_fig(md, &md->linear_state, "linear.state", &md->linear_layers,
                                   "a recurrent state given without linear.layers (how many "
                                   "layers hold it)",
                                   e)) != GP_OK ||
                    (rc = needs_fig(md, &md->linear_params, "linear.params", &md->linear_layers,
                                   "a mixer's parameters given without linear.layers (how many "
                                   "layers hold it)",
                                   e)) != GP_OK ||
                    (rc = needs_fig(md, &md->linear_state_bytes, "linear.state_bytes",
                                   &md->linear_state,
                                   "state bytes given without linear.state (the elements they "
                                   "hold)",
                                   e)) != GP_OK)
                    return rc;
                /* A later layer that gave another state without its bytes:
                 * the bytes described the old one (priced at 16 bits). */
                if (md->linear_state_bytes.v > 0.0 &&
                    seen_layer(db, GP_KIND_MODEL, i, "linear.state") >
                        seen_layer(db, GP_KIND_MODEL, i, "linear.state_bytes"))
                    md->linear_state_bytes.v = 0.0;
                /* 1 to 8 bytes per state element (fp8 .. fp64). */
                if (md->linear_state_bytes.v > 0.0 &&
                    (md->linear_state_bytes.v < md->linear_state.v ||
                     md->linear_state_bytes.v > 8.0 * md->linear_state.v))
                    return conflict_fail(db, GP_KIND_MODEL, i, "linear.state_bytes",
                                         &md->linear_state_bytes, "linear.state",
                                         &md->linear_state, e,
                                         "%.0f bytes for %.0f state elements: outside 1 to 8 "
                                         "bytes an element",
                                         md->linear_state_bytes.v, md->linear_state.v);
                if (md->linear_params.v * md->linear_layers.v > md->params.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "linear.params",
                                         &md->linear_params, "params", &md->params, e,
                                         "%.0f linear-attention layers of %.0f parameters each "
                                         "hold more than the model's %.0f",
                                         md->linear_layers.v, md->linear_params.v,
                                         md->params.v);
                if (md->linear_layers.v > 0.0 && md->linear_layers.v >= md->layers.v)
                    return conflict_fail(db, GP_KIND_MODEL, i, "linear.layers",
                                         &md->linear_layers, "layers", &md->layers, e,
                                         "%.0f linear-attention layers leave none of the %.0f "
                                         "layers attending (at most %.0f)",
                                         md->linear_layers.v, md->layers.v, md->layers.v - 1.0);
                if (md->linear_layers.v > 0.0 && md->window.v > 0.0) {
                    double att = md->layers.v - md->linear_layers.v;
                    if (md->window_layers.v > att)
                        return conflict_fail(db, GP_KIND_MODEL, i, "window.layers",
                                             &md->window_layers, "linear.layers",
                                             &md->linear_layers, e,
                                             "%.0f windowed layers exceed the %.0f attending "
                                             "ones (layers - linear.layers)",
                                             md->window_layers.v, att);
                    if (!(md->window_layers.v > 0.0))
                        return conflict_fail(db, GP_KIND_MODEL, i, "window.tokens", &md->window,
                                             "linear.layers", &md->linear_layers, e,
                                             "a window on every layer, but %.0f of the %.0f are "
                                             "linear attention: give window.layers (at most "
                                             "%.0f)",
                                             md->linear_layers.v, md->layers.v, att);
                }
            } else if (k == GP_KIND_FORMAT) {
                gp_format *fm = (gp_format *)(void *)entry;
                const emeta *m = &db->t[k].meta[i];
                const char **ids[2];
                const gp_format **refs[2];
                static const char *const names[2] = {"output", "dense"};
                int w;
                ids[0] = &fm->output_id;
                ids[1] = &fm->dense_id;
                refs[0] = &fm->output;
                refs[1] = &fm->dense;
                for (w = 0; w < 2; w++) {
                    long fi;
                    *refs[w] = NULL;
                    if (*ids[w] == NULL)
                        continue;
                    fi = find_entry(db, GP_KIND_FORMAT, *ids[w]);
                    if (fi < 0)
                        return GP_RAISE_AT(e, GP_ESCHEMA, m->ref_file[w], m->ref_line[w],
                                           m->ref_col[w],
                                           "format '%s', field '%s': unknown format '%s' "
                                           "(not in formats/)",
                                           fm->id, names[w], *ids[w]);
                    *refs[w] = (const gp_format *)(const void *)head_at(db, GP_KIND_FORMAT,
                                                                        (size_t)fi);
                    *ids[w] = (*refs[w])->id;
                }
            }
        }
    }
    return GP_OK;
}

/* ---- public API ----------------------------------------------------------------------------- */

static gp_db *db_new(gp_err *e)
{
    gp_db *db = calloc(1, sizeof *db);
    int k;
    if (db == NULL) {
        nomem(e);
        return NULL;
    }
    gp__arena_init(&db->a);
    gp__arena_init(&db->tmp);
    for (k = 0; k < GP_KIND__COUNT; k++) {
        size_t f;
        db->sorted[k] = gp__arena_alloc(&db->a, kinds[k].nfields * sizeof *db->sorted[k]);
        if (db->sorted[k] == NULL) {
            gp_db_free(db);
            nomem(e);
            return NULL;
        }
        for (f = 0; f < kinds[k].nfields; f++)
            db->sorted[k][f] = &kinds[k].fields[f];
        qsort(db->sorted[k], kinds[k].nfields, sizeof *db->sorted[k], cmp_fdesc);
    }
    return db;
}

void gp_db_free(gp_db *db)
{
    int k;
    if (db == NULL)
        return;
    for (k = 0; k < GP_KIND__COUNT; k++) {
        free(db->t[k].items);
        free(db->t[k].meta);
    }
    free(db->src);
    free(db->srchash);
    gp__arena_free(&db->tmp);
    gp__arena_free(&db->a);
    free(db);
}

/* The built-in database (unless no_builtin), the overlay directories in
 * order, then -- when text != NULL -- one more file of `kind` from memory;
 * validated; all or nothing. */
static int open_layers(gp_db **out, int no_builtin, const char *const *overlay_dirs,
                       size_t n_overlays, int kind, const char *name, const char *text,
                       size_t len, gp_err *e)
{
    gp_db *db;
    size_t i;
    int rc = GP_OK;
    *out = NULL;
    if ((db = db_new(e)) == NULL)
        return GP_ENOMEM;
    if (!no_builtin)
        rc = load_builtin(db, e);
    for (i = 0; i < n_overlays && rc == GP_OK; i++)
        rc = load_dir(db, (int)i + 1, overlay_dirs[i], e);
    if (rc == GP_OK && text != NULL)
        rc = apply_file(db, (int)n_overlays + 1, kind, name ? name : "<text>", text, len, NULL, e);
    if (rc == GP_OK)
        rc = validate(db, e);
    if (rc != GP_OK) {
        gp_db_free(db);
        return rc;
    }
    *out = db;
    return GP_OK;
}

/* The pointer arguments of the gp_db_open family, checked at the entry
 * point `fn`: out (cleared when given) and the overlay list, whose entries
 * must be non-NULL too. */
static int check_open_args(const char *fn, gp_db **out, const char *const *overlay_dirs,
                           size_t n_overlays, gp_err *e)
{
    size_t i;
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL out", fn);
    *out = NULL;
    if (n_overlays > 0 && overlay_dirs == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL overlay_dirs with n_overlays %zu", fn,
                        n_overlays);
    for (i = 0; i < n_overlays; i++)
        if (overlay_dirs[i] == NULL)
            return GP_RAISE(e, GP_EINVAL, "%s: NULL overlay_dirs[%zu]", fn, i);
    return GP_OK;
}

int gp_db_open(gp_db **out, int no_builtin, const char *const *overlay_dirs,
               size_t n_overlays, gp_err *e)
{
    int rc = check_open_args("gp_db_open", out, overlay_dirs, n_overlays, e);
    if (rc != GP_OK)
        return rc;
    return open_layers(out, no_builtin, overlay_dirs, n_overlays, 0, NULL, NULL, 0, e);
}

int gp_db_open_with_text(gp_db **out, int no_builtin, const char *const *overlay_dirs,
                         size_t n_overlays, gp_kind kind, const char *name,
                         const char *text, size_t len, gp_err *e)
{
    int rc = check_open_args("gp_db_open_with_text", out, overlay_dirs, n_overlays, e);
    if (rc != GP_OK)
        return rc;
    if ((unsigned)kind >= GP_KIND__COUNT)
        return GP_RAISE(e, GP_EINVAL, "unknown database kind %d", (int)kind);
    if (text == NULL && len > 0)
        return GP_RAISE(e, GP_EINVAL, "gp_db_open_with_text: NULL text with len %zu", len);
    return open_layers(out, no_builtin, overlay_dirs, n_overlays, (int)kind, name,
                       text ? text : "", len, e);
}

int gp_db_open_text(gp_db **out, int no_builtin, gp_kind kind, const char *name,
                    const char *text, size_t len, gp_err *e)
{
    gp_db *db;
    int rc = check_open_args("gp_db_open_text", out, NULL, 0, e);
    if (rc != GP_OK)
        return rc;
    if ((unsigned)kind >= GP_KIND__COUNT)
        return GP_RAISE(e, GP_EINVAL, "unknown database kind %d", (int)kind);
    if (text == NULL && len > 0)
        return GP_RAISE(e, GP_EINVAL, "gp_db_open_text: NULL text with len %zu", len);
    if ((db = db_new(e)) == NULL)
        return GP_ENOMEM;
    if (!no_builtin)
        rc = load_builtin(db, e);
    if (rc == GP_OK)
        rc = apply_file(db, 1, (int)kind, name ? name : "<text>", text ? text : "", len, NULL,
                        e);
    if (rc == GP_OK)
        rc = validate(db, e);
    if (rc != GP_OK) {
        gp_db_free(db);
        return rc;
    }
    *out = db;
    return GP_OK;
}

size_t gp_db_count(const gp_db *db, gp_kind kind)
{
    if (db == NULL || (unsigned)kind >= GP_KIND__COUNT)
        return 0;
    return db->t[kind].n;
}

static const void *entry_at(const gp_db *db, gp_kind k, size_t i)
{
    if (db == NULL || i >= db->t[k].n)
        return NULL;
    return db->t[k].items + i * kinds[k].size;
}

const gp_gpu *gp_db_gpu_at(const gp_db *db, size_t i)
{
    return entry_at(db, GP_KIND_GPU, i);
}
const gp_link *gp_db_link_at(const gp_db *db, size_t i)
{
    return entry_at(db, GP_KIND_LINK, i);
}
const gp_model *gp_db_model_at(const gp_db *db, size_t i)
{
    return entry_at(db, GP_KIND_MODEL, i);
}
const gp_format *gp_db_format_at(const gp_db *db, size_t i)
{
    return entry_at(db, GP_KIND_FORMAT, i);
}

size_t gp__name_words(const char *s, char w[][GP__WORD_MAX], size_t cap)
{
    /* Vendor and brand words device names carry ("Intel(R) Arc(TM) A770
     * Graphics", "AMD Radeon 8060S Graphics") that ids do not, and the
     * fine-tune words of model names (-Instruct, -chat, gemma's -it): a
     * fine-tune has its base model's shape. */
    static const char *const noise[] = {"nvidia",     "geforce", "tesla", "amd",  "instinct",
                                        "generation", "meta",    "hf",    "r",    "tm",
                                        "graphics",   "apple",   "gpu",   "gpus", "instruct",
                                        "chat",       "it"};
    const char *slash = strrchr(s, '/'), *b = s, *e = s + strlen(s);
    size_t n = 0, len = 0, k;
    char cur[GP__WORD_MAX];
    /* An "org/" prefix is a Hugging Face id's, which has no spaces; in a
     * name with spaces a slash is a unit's ("400 Gb/s").  Spaces around the
     * name do not count ("Qwen/Qwen2.5-7B-Instruct (bf16)" without its
     * remark ends in one). */
    while (isspace((unsigned char)*b))
        b++;
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    if (slash != NULL && memchr(b, ' ', (size_t)(e - b)) == NULL)
        s = slash + 1;
    for (;; s++) {
        int ch = (unsigned char)*s;
        if (ch != '\0' && isalnum(ch)) {
            if (len + 1 < sizeof cur)
                cur[len++] = (char)tolower(ch);
            continue;
        }
        if (len > 0) {
            cur[len] = '\0';
            for (k = 0; k < sizeof noise / sizeof noise[0]; k++)
                if (strcmp(cur, noise[k]) == 0)
                    break;
            if (k == sizeof noise / sizeof noise[0]) {
                if (n < cap)
                    memcpy(w[n], cur, len + 1);
                n++;
            }
            len = 0;
        }
        if (ch == '\0')
            break;
    }
    return n;
}

/* Occurrences of word w among a's n words. */
static size_t word_count(char a[][GP__WORD_MAX], size_t n, const char *w)
{
    size_t i, k = 0;
    for (i = 0; i < n; i++)
        k += strcmp(a[i], w) == 0;
    return k;
}

/* 1 when q's words and cand's words are the same, each as often: "Llama 3
 * 70B" is not "llama-3.3-70b", whose version gives two words "3". */
static int same_words(char q[][GP__WORD_MAX], size_t nq, const char *cand)
{
    char c[16][GP__WORD_MAX];
    size_t nc, i;
    if (cand == NULL)
        return 0;
    nc = gp__name_words(cand, c, 16);
    if (nc > 16 || nc != nq || nq == 0)
        return 0;
    for (i = 0; i < nq; i++)
        if (word_count(q, nq, q[i]) != word_count(c, nc, q[i]))
            return 0;
    return 1;
}

/* `name` without its parenthesised remarks ("A100-SXM4-80GB (330 W power
 * limit)") into buf: 1 when something was cut and a name is left; 0 for
 * none, unbalanced brackets, or a name that does not fit. */
static int drop_remarks(const char *name, char *buf, size_t cap)
{
    size_t n = 0;
    int depth = 0, cut = 0;
    for (; *name != '\0'; name++) {
        if (*name == '(') {
            depth++;
            cut = 1;
        } else if (*name == ')') {
            if (--depth < 0)
                return 0;
        } else if (depth == 0) {
            if (n + 1 >= cap)
                return 0;
            buf[n++] = *name;
        }
    }
    buf[n] = '\0';
    return cut && depth == 0 && gp__name_words(buf, NULL, 0) > 0;
}

/* Exact id or alias (case-insensitive) first; else the one entry whose id,
 * an alias or its name (with or without its remarks in parentheses) has the
 * same words as `name` (gp__name_words:
 * "RTX 4090", "NVIDIA H100 SXM5 80GB", "meta-llama/Llama-2-7b-hf").  Two
 * entries with those words: none (never a guess). */
static const void *find_words(const gp_db *db, gp_kind k, const char *name, const ehead **twin)
{
    char q[16][GP__WORD_MAX];
    size_t nq, i, j;
    const ehead *hit = NULL;
    long ix;
    int pass;
    *twin = NULL;
    if (db == NULL || name == NULL)
        return NULL;
    ix = find_entry(db, k, name);
    if (ix >= 0)
        return entry_at(db, k, (size_t)ix);
    nq = gp__name_words(name, q, 16);
    /* Pass 0: ids, aliases, names; pass 1 (nothing found): names without
     * their remarks, which may be all that tells siblings apart ("Apple M2
     * Ultra (60-core GPU)"), so only when nothing else matched. */
    for (pass = 0; pass < 2 && hit == NULL; pass++) {
        for (i = 0; nq > 0 && nq <= 16 && i < db->t[k].n; i++) {
            const ehead *h = head_at(db, k, i);
            char bare[256];
            int m = pass == 0 ? same_words(q, nq, h->id) || same_words(q, nq, h->name)
                              : h->name != NULL && drop_remarks(h->name, bare, sizeof bare) &&
                                    same_words(q, nq, bare);
            for (j = 0; pass == 0 && !m && j < h->n_aliases; j++)
                m = same_words(q, nq, h->aliases[j]);
            if (!m)
                continue;
            if (hit != NULL) {
                *twin = h;
                return hit;
            }
            hit = h;
        }
    }
    return hit;
}

/* A memory-size word, "24gb": 1 with its number in *gb. */
static int size_word(const char *w, unsigned long *gb)
{
    char *end;
    if (!isdigit((unsigned char)w[0]))
        return 0;
    *gb = strtoul(w, &end, 10);
    return strcmp(end, "gb") == 0;
}

/* Whether gb (GB or GiB, rounded) is GPU g's capacity. */
static int capacity_is(const gp_gpu *g, unsigned long gb)
{
    double cap = g->mem_capacity.v;
    return gb > 0 &&
           (fabs(cap / 1e9 - (double)gb) < 0.5 || fabs(cap / 1073741824.0 - (double)gb) < 0.5);
}

/* A GPU name with a memory-size word ("RTX 4090 24GB"): the entry the other
 * words name, when that size (GB or GiB, rounded) is the entry's own; when
 * it is not, NULL with *near (if given) set to that entry. */
static const void *find_gpu_sized(const gp_db *db, const char *name, const ehead **twin,
                                  const gp_gpu **near)
{
    char w[16][GP__WORD_MAX], rest[16 * (GP__WORD_MAX + 1)];
    size_t nw = gp__name_words(name, w, 16), i, j, off;
    *twin = NULL;
    for (i = 0; nw <= 16 && i < nw; i++) {
        unsigned long gb;
        const gp_gpu *g;
        if (!size_word(w[i], &gb))
            continue;
        for (j = 0, off = 0, rest[0] = '\0'; j < nw; j++)
            if (j != i)
                off += (size_t)snprintf(rest + off, sizeof rest - off, "%s ", w[j]);
        g = find_words(db, GP_KIND_GPU, rest, twin);
        if (g == NULL || *twin != NULL)
            return NULL;
        if (capacity_is(g, gb))
            return g;
        if (near != NULL)
            *near = g;
        return NULL;
    }
    return NULL;
}

/* 1 when one of h's names (id, name, an alias) has each of w's n words. */
static int names_have(const ehead *h, char w[][GP__WORD_MAX], size_t n)
{
    char c[16][GP__WORD_MAX];
    size_t j, i, nc;
    for (j = 0; j < 2 + h->n_aliases; j++) {
        const char *s = j == 0 ? h->id : j == 1 ? h->name : h->aliases[j - 2];
        if (s == NULL)
            continue;
        if ((nc = gp__name_words(s, c, 16)) > 16)
            nc = 16;
        for (i = 0; i < n && word_count(c, nc, w[i]) > 0; i++)
            ;
        if (i == n)
            return 1;
    }
    return 0;
}

/* The words of `name`'s parenthesised remarks into w (at most 16), a
 * number and a following "gb" joined ("12 GB" is the word "12gb"). */
static size_t remark_words(const char *name, char w[][GP__WORD_MAX])
{
    char buf[256];
    size_t n = 0, i, m;
    int depth = 0;
    for (; *name != '\0' && n + 1 < sizeof buf; name++) {
        depth += *name == '(' ? 1 : *name == ')' ? -1 : 0;
        buf[n++] = depth > 0 && *name != '(' ? *name : ' ';
    }
    buf[n] = '\0';
    if ((n = gp__name_words(buf, w, 16)) > 16)
        n = 16;
    for (i = 0, m = 0; i < n; i++, m++) {
        if (i + 1 < n && strspn(w[i], "0123456789") == strlen(w[i]) &&
            strcmp(w[i + 1], "gb") == 0 && strlen(w[i]) + 3 <= GP__WORD_MAX) {
            strcat(w[i], "gb");
            memmove(w[m], w[i], GP__WORD_MAX);
            i++;
        } else if (m != i) {
            memmove(w[m], w[i], GP__WORD_MAX);
        }
    }
    return m;
}

/* A figure's kind: word i of w (n words) with each run of digits as one
 * '#', and the word after it ("64-core" is "# core", "128K" "#k", "v0.2"
 * "v# #" and "# "); 0 when word i has no digit. */
static int figure_kind(char w[][GP__WORD_MAX], size_t n, size_t i, char *out)
{
    const char *s = w[i];
    int any = 0, prev = 0, pass;
    for (pass = 0; pass < 2; pass++) {
        for (prev = 0; *s != '\0'; s++) {
            int d = isdigit((unsigned char)*s) != 0;
            if (!d)
                *out++ = *s;
            else if (!prev)
                *out++ = '#';
            prev = d;
            any |= d && pass == 0;
        }
        *out++ = ' ';
        s = i + 1 < n ? w[i + 1] : "";
    }
    *out = '\0';
    return any;
}

/* `hit`, found by `name` without its remarks (`bare`), unless a remark word
 * that is not one of hit's names it says otherwise: a word of a sibling
 * (an entry with bare's words, its size words aside: "A100 (PCIe, 250 W)"
 * names a100-pcie-*, not the A100 alias's SXM card) makes the two a twin;
 * a memory size not the GPU's ("A16 (board, 64GB)"), or a figure of the
 * same kind as another in hit's own remark (figure_kind: "M2 Ultra (64-core
 * GPU)" against "(76-core GPU)", "Phi-3-mini (128K)" against "(4K)")
 * finds nothing. */
static const void *remarks_agree(const gp_db *db, gp_kind k, const char *name,
                                 const char *bare, const ehead *hit, const ehead **twin)
{
    char r[16][GP__WORD_MAX], f[16][GP__WORD_MAX], o[16][GP__WORD_MAX];
    char rs[2 * GP__WORD_MAX + 2], os[2 * GP__WORD_MAX + 2];
    size_t nr = remark_words(name, r), nf, no, i, j, m;
    unsigned long gb;
    if ((nf = gp__name_words(bare, f, 16)) > 16)
        nf = 16;
    for (i = 0, m = 0; i < nf; i++)
        if (!size_word(f[i], &gb))
            memmove(f[m++], f[i], GP__WORD_MAX);
    nf = m;
    no = hit->name != NULL ? remark_words(hit->name, o) : 0;
    for (i = 0; i < nr; i++) {
        if (names_have(hit, r + i, 1))
            continue;
        for (j = 0; nf > 0 && j < db->t[k].n; j++) {
            const ehead *h = head_at(db, k, j);
            if (h != hit && names_have(h, f, nf) && names_have(h, r + i, 1)) {
                *twin = h;
                return hit;
            }
        }
        if (k == GP_KIND_GPU && size_word(r[i], &gb) && !capacity_is((const gp_gpu *)hit, gb))
            return NULL;
        if (figure_kind(r, nr, i, rs))
            for (j = 0; j < no; j++)
                if (figure_kind(o, no, j, os) && strcmp(rs, os) == 0)
                    return NULL;
    }
    return hit;
}

/* find_words, then (GPUs) without a size word that is the card's own; then
 * both again with the name's remarks dropped, when the remarks agree with
 * what that finds (remarks_agree); *twin as find_words sets it, *near (if
 * given) as find_gpu_sized does: the GPU a wrong size word kept it from. */
static const void *find_named(const gp_db *db, gp_kind k, const char *name, const ehead **twin,
                              const gp_gpu **near)
{
    char bare[256];
    const void *hit = find_words(db, k, name, twin);
    if (hit == NULL && *twin == NULL && k == GP_KIND_GPU && name != NULL)
        hit = find_gpu_sized(db, name, twin, near);
    if (hit == NULL && *twin == NULL && name != NULL && drop_remarks(name, bare, sizeof bare)) {
        hit = find_words(db, k, bare, twin);
        if (hit == NULL && *twin == NULL && k == GP_KIND_GPU)
            hit = find_gpu_sized(db, bare, twin, near);
        if (hit != NULL && *twin == NULL)
            hit = remarks_agree(db, k, name, bare, hit, twin);
    }
    return hit;
}

static const void *find(const gp_db *db, gp_kind k, const char *name)
{
    const ehead *twin;
    const void *hit = find_named(db, k, name, &twin, NULL);
    return twin != NULL ? NULL : hit;
}

const gp_gpu *gp_db_find_gpu(const gp_db *db, const char *name)
{
    return find(db, GP_KIND_GPU, name);
}
const gp_link *gp_db_find_link(const gp_db *db, const char *name)
{
    return find(db, GP_KIND_LINK, name);
}
const gp_model *gp_db_find_model(const gp_db *db, const char *name)
{
    return find(db, GP_KIND_MODEL, name);
}
const gp_format *gp_db_find_format(const gp_db *db, const char *name)
{
    return find(db, GP_KIND_FORMAT, name);
}

/* Edit distance (insert, delete, substitute; ASCII case folded) between a
 * and b, giving up past `cap` (returns cap + 1): names are short ids. */
/* Letters match whatever their case, and the separators people type for
 * one another (' ', '-', '_') match each other. */
static int same_char(char a, char b)
{
    int sa = a == ' ' || a == '-' || a == '_', sb = b == ' ' || b == '-' || b == '_';
    return sa || sb ? sa && sb : tolower((unsigned char)a) == tolower((unsigned char)b);
}

size_t gp__edit_distance(const char *a, const char *b, size_t cap)
{
    size_t la = strlen(a), lb = strlen(b), i, j, row[65], prev, best;
    if (la > 64 || lb > 64)
        return cap + 1;
    for (j = 0; j <= lb; j++)
        row[j] = j;
    for (i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = i;
        best = row[0];
        for (j = 1; j <= lb; j++) {
            size_t cur = row[j];
            size_t sub = prev + !same_char(a[i - 1], b[j - 1]);
            size_t ins = row[j - 1] + 1, del = row[j] + 1;
            row[j] = sub < ins ? (sub < del ? sub : del) : (ins < del ? ins : del);
            prev = cur;
            if (row[j] < best)
                best = row[j];
        }
        if (best > cap)
            return cap + 1;
    }
    return row[lb];
}

size_t gp__suggest_limit(const char *name)
{
    size_t lim = strlen(name) / 3;
    return lim < 1 ? 1 : lim > 3 ? 3 : lim;
}

/* Distance of `name` to a known id or alias, in half edits: a whole-word
 * prefix of it ("rtx-2080" or "RTX 2080" of "rtx-2080-ti") is 1, nearer
 * than any single edit (2). */
static size_t name_distance(const char *name, const char *known, size_t lim)
{
    size_t i;
    for (i = 0; name[i] != '\0' && same_char(name[i], known[i]); i++)
        ;
    if (i > 0 && name[i] == '\0' && known[i] == '-')
        return 1;
    return 2 * gp__edit_distance(name, known, lim);
}

/* Up to three ids of kind k whose id or an alias lies within a small edit
 * distance of `name` (a third of its length, 1 to 3) or extends it by whole
 * words, nearest first, as "a, b, c" in out; 0 when none. */
static size_t suggest(const gp_db *db, gp_kind k, const char *name, char *out, size_t cap)
{
    size_t i, j, n = 0, lim = gp__suggest_limit(name), best_d[3];
    const char *best_id[3];
    out[0] = '\0';
    for (i = 0; db != NULL && i < db->t[k].n; i++) {
        const ehead *h = head_at(db, k, i);
        size_t d = name_distance(name, h->id, lim), m;
        for (j = 0; j < h->n_aliases; j++) {
            size_t da = name_distance(name, h->aliases[j], lim);
            if (da < d)
                d = da;
        }
        if (d > 2 * lim)
            continue;
        /* insert (d, id) into the three nearest, ties kept in table order */
        for (m = n; m > 0 && best_d[m - 1] > d; m--) /* n <= 3 */
            if (m < 3) {
                best_d[m] = best_d[m - 1];
                best_id[m] = best_id[m - 1];
            }
        if (m < 3) {
            best_d[m] = d;
            best_id[m] = h->id;
            if (n < 3)
                n++;
        }
    }
    /* Whole ids only: one that does not fit ends the list. */
    for (i = 0; i < n; i++) {
        size_t off = strlen(out);
        if (off + (i ? 2 : 0) + strlen(best_id[i]) >= cap)
            break;
        snprintf(out + off, cap - off, "%s%s", i ? ", " : "", best_id[i]);
    }
    return i;
}

size_t gp_db_suggest(const gp_db *db, gp_kind kind, const char *name, char *out, size_t cap)
{
    if (out == NULL || cap == 0)
        return 0;
    out[0] = '\0';
    if (db == NULL || name == NULL || (int)kind < 0 || kind >= GP_KIND__COUNT)
        return 0;
    return suggest(db, kind, name, out, cap);
}

size_t gp_db_known(const gp_db *db, gp_kind kind, char *out, size_t cap)
{
    char tail[96];
    size_t off = 0, i, n, reserve;
    if (out == NULL || cap == 0)
        return 0;
    out[0] = '\0';
    if (db == NULL || (int)kind < 0 || kind >= GP_KIND__COUNT)
        return 0;
    n = db->t[kind].n;
    /* The tail for the largest count is at least as long as any other's. */
    reserve = (size_t)snprintf(tail, sizeof tail, " ... and %zu more: gpuplan hw list %ss", n,
                               kinds[kind].noun);
    for (i = 0; i < n; i++) {
        const char *id = head_at(db, kind, i)->id;
        size_t need = (i ? 1 : 0) + strlen(id) + (i + 1 < n ? reserve : 0);
        if (off + need >= cap)
            break;
        off += (size_t)snprintf(out + off, cap - off, "%s%s", i ? " " : "", id);
    }
    if (i < n) {
        int w = snprintf(tail, sizeof tail, "%s... and %zu more: gpuplan hw list %ss",
                         off ? " " : "", n - i, kinds[kind].noun);
        if (w > 0 && off + (size_t)w < cap)
            memcpy(out + off, tail, (size_t)w + 1);
    }
    return i;
}

/* gp_db_get_* for kind k, entered as `fn`: the entry, or NULL in *out
 * and an error.  has_out: the caller's out-pointer is non-NULL (a NULL db,
 * name or out is GP_EINVAL naming fn). */
static int get(const gp_db *db, gp_kind k, const char *fn, const char *name, const char *what,
               int has_out, const void **out, gp_err *e)
{
    char known[400];
    const ehead *twin;
    const gp_gpu *near = NULL;
    *out = NULL;
    if (db == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL db", fn);
    if (name == NULL)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL name", fn);
    if (!has_out)
        return GP_RAISE(e, GP_EINVAL, "%s: NULL out", fn);
    *out = find_named(db, k, name, &twin, &near);
    if (*out != NULL && twin != NULL) {
        const ehead *h = *out;
        *out = NULL;
        return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0,
                           "%s '%s' could be '%s' or '%s': give the id", kinds[k].noun, name,
                           h->id, twin->id);
    }
    if (*out != NULL)
        return GP_OK;
    if (near != NULL && twin == NULL)
        return GP_RAISE_AT(e, GP_ENOTFOUND, what, 0, 0,
                           "unknown gpu '%s': %s has %.0f GB (%.0f GiB) of memory, not the "
                           "size the name gives",
                           name, near->id, near->mem_capacity.v / 1e9,
                           near->mem_capacity.v / 1073741824.0);
    if (suggest(db, k, name, known, sizeof known) > 0)
        return GP_RAISE_AT(e, GP_ENOTFOUND, what, 0, 0,
                           "unknown %s '%s'; did you mean %s? ('gpuplan hw list %ss' lists "
                           "all %zu)",
                           kinds[k].noun, name, known, kinds[k].noun, db->t[k].n);
    gp_db_known(db, k, known, sizeof known);
    return GP_RAISE_AT(e, GP_ENOTFOUND, what, 0, 0, "unknown %s '%s' (known: %s)",
                       kinds[k].noun, name, known[0] ? known : "none");
}

int gp_db_get_gpu(const gp_db *db, const char *name, const char *what, const gp_gpu **out,
                  gp_err *e)
{
    const void *p;
    int rc = get(db, GP_KIND_GPU, "gp_db_get_gpu", name, what, out != NULL, &p, e);
    if (out != NULL)
        *out = p;
    return rc;
}
int gp_db_get_link(const gp_db *db, const char *name, const char *what, const gp_link **out,
                   gp_err *e)
{
    const void *p;
    int rc = get(db, GP_KIND_LINK, "gp_db_get_link", name, what, out != NULL, &p, e);
    if (out != NULL)
        *out = p;
    return rc;
}
int gp_db_get_model(const gp_db *db, const char *name, const char *what, const gp_model **out,
                    gp_err *e)
{
    const void *p;
    int rc = get(db, GP_KIND_MODEL, "gp_db_get_model", name, what, out != NULL, &p, e);
    if (out != NULL)
        *out = p;
    return rc;
}
int gp_db_get_format(const gp_db *db, const char *name, const char *what,
                     const gp_format **out, gp_err *e)
{
    const void *p;
    int rc = get(db, GP_KIND_FORMAT, "gp_db_get_format", name, what, out != NULL, &p, e);
    if (out != NULL)
        *out = p;
    return rc;
}
