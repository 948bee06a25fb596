/* A Hugging Face config.json as a gpuplan model entry (docs/hwdb.md,
 * "Importing a Hugging Face config.json"):
 *
 *   gpuplan hw import-model FILE [--as ID] [--name NAME] [--force]
 *       writes models/ID.yaml into the user's database directory (the first
 *       --db, else the first $GPUPLAN_DB entry, else
 *       ${XDG_CONFIG_HOME:-~/.config}/gpuplan), atomically;
 *   --model FILE.json (decode, train, scale)
 *       converts in memory for the one run (gp_db_open_with_text).
 *
 * JSON is read here (jansson); the parameter count is the library's
 * (gp_model_count_params), so it is tested on its own. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* First line of every file import-model writes: a file without it is not
 * replaced without --force. */
#define HF_MARK "# gpuplan model entry imported by 'gpuplan hw import-model'"
#define HF_DATE_TAG "imported by gpuplan hw import-model on "
#define HF_MAX_WARN 12
#define HF_FILE_MAX (16L * 1024 * 1024)

typedef struct hfm {
    char id[72];
    char name[256];
    char model_type[64];
    int text_config;        /* the shape came from "text_config"           */
    gp_param_shape s;
    gp_param_count n;
    double ffn_hidden;      /* the entry's ffn_hidden                      */
    double context;
    double window, window_layers; /* window_layers 0: all layers           */
    int ssm_fp32;           /* mamba_ssm_cache_dtype float32: the temporal
                               state held in 32 bits (linear.state_bytes) */
    double blocks;          /* Nemotron-H: the config's blocks (mixer and FFN) */
    double kv_dim, qk_head_dim;
    const char *attention;
    char used[3072];        /* "hidden_size 4096, ..."                     */
    char warn[HF_MAX_WARN][320];
    size_t nwarn;
} hfm;

static void warnf(hfm *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void warnf(hfm *m, const char *fmt, ...)
{
    va_list ap;
    if (m->nwarn >= HF_MAX_WARN)
        return;
    va_start(ap, fmt);
    vsnprintf(m->warn[m->nwarn++], sizeof m->warn[0], fmt, ap);
    va_end(ap);
}

/* Keys the config lacked, collected in MISSING by count_or / bool_or /
 * jamba_period, and the transformers class whose defaults took their place. */
static void warn_defaults(hfm *m, const char *missing, const char *cls)
{
    if (missing[0] != '\0')
        warnf(m, "no %s: transformers' %s defaults taken", missing, cls);
}

static void used_add(hfm *m, const char *key, const char *val)
{
    size_t n = strlen(m->used);
    if (n < sizeof m->used)
        snprintf(m->used + n, sizeof m->used - n, "%s%s %s", n ? ", " : "", key, val);
}

static void used_num(hfm *m, const char *key, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%.0f", v);
    used_add(m, key, b);
}

/* ---- reading keys ---------------------------------------------------------------------- */

/* The first of names present and not null in c; NULL when none. */
static json_t *find_key(json_t *c, const char *const *names, const char **which)
{
    size_t i;
    for (i = 0; names[i] != NULL; i++) {
        json_t *v = json_object_get(c, names[i]);
        if (v != NULL && !json_is_null(v)) {
            *which = names[i];
            return v;
        }
    }
    *which = names[0];
    return NULL;
}

static void names_list(const char *const *names, char *buf, size_t n)
{
    size_t i, off = 0;
    buf[0] = '\0';
    for (i = 0; names[i] != NULL && off < n; i++)
        off += (size_t)snprintf(buf + off, n - off, "%s'%s'", i ? " or " : "", names[i]);
}

/* Keys Hunyuan's configs give one value a layer (a list of num_hidden_layers
 * items; HunYuanMoEV1Config: "int or List"): read as one count when every
 * item is the same. */
static const char *const PER_LAYER_KEYS[] = {"moe_topk", "num_shared_expert",
                                             "moe_intermediate_size", "num_experts", NULL};

static int in_list(const char *s, const char *const *list);
static const char *jtype(const json_t *v);

/* A per-layer list of key k (PER_LAYER_KEYS): *first its first item, which
 * every other item must equal (the entry has one value for all layers);
 * GP_ESCHEMA naming the key and the first item that differs, or an empty
 * list or an item that is not a number. */
static int uniform_list(const char *path, const char *k, json_t *v, json_t **first, gp_err *e)
{
    json_t *it;
    size_t j;
    if (json_array_size(v) == 0)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': an empty list (one value a layer expected)", k);
    *first = json_array_get(v, 0);
    json_array_foreach(v, j, it)
    {
        if (!json_is_number(it))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': item %zu: expected a whole number, got %s", k, j,
                               jtype(it));
        if (json_number_value(it) != json_number_value(*first))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': layer %zu has %.6g, layer 0 %.6g: per-layer values "
                               "that differ are not modelled (the entry has one for every layer)",
                               k, j, json_number_value(it), json_number_value(*first));
    }
    return GP_OK;
}

/* A whole-number key of c: *out 0 when absent (GP_OK).  Present, it must be a
 * JSON integer (or a real with no fraction) in [lo, 1e9] -- or, for a key of
 * PER_LAYER_KEYS, a list of one such value a layer, all equal -- else
 * GP_ESCHEMA naming the file and key.  Used keys go to m->used. */
static int get_count(hfm *m, const char *path, json_t *c, const char *const *names, double lo,
                     double *out, gp_err *e)
{
    const char *k;
    json_t *v = find_key(c, names, &k);
    double x;
    int rc;
    *out = 0.0;
    if (v == NULL)
        return GP_OK;
    if (json_is_array(v) && in_list(k, PER_LAYER_KEYS) &&
        (rc = uniform_list(path, k, v, &v, e)) != GP_OK)
        return rc;
    if (json_is_integer(v))
        x = (double)json_integer_value(v);
    else if (json_is_real(v))
        x = json_real_value(v);
    else
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': expected a whole number, got a JSON %s", k,
                           json_is_string(v) ? "string" : json_is_boolean(v) ? "boolean"
                                                : json_is_array(v)    ? "array"
                                                                      : "object");
    if (!isfinite(x) || floor(x) != x)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "key '%s': %.17g is not a whole number",
                           k, x);
    if (x < lo || x > GP_MODEL_DIM_MAX)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': %.6g is out of range (%.0f to 1e9, as the database's model "
                           "dimensions)",
                           k, x, lo);
    *out = x;
    used_num(m, k, x);
    return GP_OK;
}

static int need_count(hfm *m, const char *path, json_t *c, const char *const *names,
                      const char *what, double *out, gp_err *e)
{
    char list[160];
    int rc = get_count(m, path, c, names, 1, out, e);
    if (rc != GP_OK || *out > 0.0)
        return rc;
    names_list(names, list, sizeof list);
    return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "missing key %s (%s)%s", list, what,
                       m->text_config ? " in text_config" : "");
}

/* A boolean key: -1 absent (or null), else 0/1; a non-boolean is an error. */
static int get_bool(hfm *m, const char *path, json_t *c, const char *key, int *out, gp_err *e)
{
    json_t *v = json_object_get(c, key);
    *out = -1;
    if (v == NULL || json_is_null(v))
        return GP_OK;
    if (!json_is_boolean(v))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "key '%s': expected true or false", key);
    *out = json_is_true(v);
    used_add(m, key, *out ? "true" : "false");
    return GP_OK;
}

/* A JSON value's type, as a refusal names it ("got a number"). */
static const char *jtype(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "a list";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    default: return "null";
    }
}

/* A string key of c: *out NULL when absent (or null); present, it must be a
 * JSON string, else GP_ESCHEMA naming the file and key (a wrong type is
 * refused, not read as absent: transformers refuses it too). */
static int get_string(const char *path, json_t *c, const char *key, const char **out,
                      gp_err *e)
{
    json_t *v = json_object_get(c, key);
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return GP_OK;
    if (!json_is_string(v))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "key '%s': expected a string (got %s)",
                           key, jtype(v));
    *out = json_string_value(v);
    return GP_OK;
}

/* A list of strings (layer_types): *out NULL when absent (or null);
 * present, a list whose every item is a string, else GP_ESCHEMA naming the
 * file, key and item. */
static int get_str_list(const char *path, json_t *c, const char *key, json_t **out, gp_err *e)
{
    json_t *v = json_object_get(c, key), *it;
    size_t j;
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return GP_OK;
    if (!json_is_array(v))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': expected a list of strings (got %s)", key, jtype(v));
    json_array_foreach(v, j, it)
    {
        if (!json_is_string(it))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': item %zu: expected a string (got %s)", key, j,
                               jtype(it));
    }
    *out = v;
    return GP_OK;
}

static int in_list(const char *s, const char *const *list)
{
    size_t i;
    for (i = 0; s != NULL && list[i] != NULL; i++)
        if (strcmp(s, list[i]) == 0)
            return 1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Dense (non-MoE) layers of an L-layer MoE config and the length of the
 * leading dense run: layers below first_dense, with step s > 1 those where
 * (i + 1) % s != 0, and the members of `only` (mlp_only_layers; NULL or an
 * array of layer numbers).  O(|only| log |only|), whatever L. */
static int dense_layers_of(const json_t *only, double L, double first_dense, double step,
                           const char *path, double *dense, double *lead, gp_err *e)
{
    double fd = first_dense < L ? first_dense : L, *c = NULL, cand;
    size_t n = 0, j, k;
    json_t *it;
    int sparse = step > 1.0;
    if (json_is_array(only) && json_array_size(only) > 0) {
        c = malloc(json_array_size(only) * sizeof *c);
        if (c == NULL)
            return GP_RAISE(e, GP_ENOMEM, "out of memory reading mlp_only_layers");
        json_array_foreach(only, j, it)
        {
            double v;
            if (!json_is_integer(it)) {
                free(c);
                return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                                   "key 'mlp_only_layers': item %zu is not a layer number", j);
            }
            v = (double)json_integer_value(it);
            if (v >= 0.0 && v < L)
                c[n++] = v;
        }
        qsort(c, n, sizeof *c, cmp_double);
        for (j = k = 0; j < n; j++) /* distinct */
            if (k == 0 || c[j] != c[k - 1])
                c[k++] = c[j];
        n = k;
    }
    /* |A u B|: the first fd layers, and among the rest the ones that are not
     * multiples of s in 1-based numbering: (L - fd) - (floor(L/s) - floor(fd/s)). */
    *dense = fd + (sparse ? (L - fd) - (floor(L / step) - floor(fd / step)) : 0.0);
    for (j = 0; j < n; j++) /* C outside A u B */
        if (c[j] >= fd && (!sparse || fmod(c[j] + 1.0, step) == 0.0))
            *dense += 1.0;
    /* Leading run: the first MoE candidate outside A u B, moved on while C
     * holds it (each move consumes a member of C). */
    cand = fd;
    if (sparse)
        cand = ceil((fd + 1.0) / step) * step - 1.0; /* first i >= fd, (i+1) % s == 0 */
    for (j = 0; cand < L && j < n; j++) {
        if (c[j] < cand)
            continue;
        if (c[j] > cand)
            break;
        cand += sparse ? step : 1.0;
    }
    *lead = cand < L ? cand : L;
    free(c);
    return GP_OK;
}

/* A whole count (a parameter or layer count) as a JSON integer: exact to
 * the unit at any size, where a real prints GP_CLI_NUM_DIGITS digits. */
static json_t *jcount(double v)
{
    return json_integer((json_int_t)v);
}

/* Families whose decoder gpuplan knows (docs/hwdb.md, the table of
 * model_type rules). */
static const char *const GATED[] = {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe",
                                    "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3",
                                    "gemma3_text", "phi3", "deepseek_v2", "deepseek_v3",
                                    "deepseek_v32", "gpt_oss", "glm4_moe", "kimi_k2",
                                    "qwen3_next", "granitemoehybrid", "jamba", "minimax_m2",
                                    "llama4", "llama4_text", "ernie4_5", "ernie4_5_moe",
                                    "hunyuan", "hunyuan_v1_moe", "hunyuan_v1_dense",
                                    "seed_oss", "olmo2", "olmo3", "qwen3_5", "qwen3_5_text",
                                    "qwen3_5_moe", "qwen3_5_moe_text", NULL};
static const char *const UNGATED[] = {"gpt2", "gpt_neox", "opt", "falcon", "phi", "bloom",
                                      "mpt", NULL};
/* A plain FFN (Nemotron-H's relu2 up and down, Apertus's xIELU up and down)
 * with RMSNorms, no biases. */
static const char *const UNGATED_RMS[] = {"nemotron_h", "apertus", NULL};
/* Per-head q/k RMSNorms (2 d a layer; `use_qk_norm` overrides). */
static const char *const QK_NORM[] = {"qwen3", "qwen3_moe", "gemma3", "gemma3_text", "qwen3_next",
                                      "qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text",
                                      "hunyuan", "hunyuan_v1_moe", "hunyuan_v1_dense", "apertus",
                                      NULL};
/* Qwen3-Next's decoder: Gated DeltaNet on the linear layers, gated
 * attention (Qwen3NextAttention) on the others; Qwen3.5's Qwen3_5Attention
 * is Qwen3NextAttention, its Gated DeltaNet the same widths in four
 * projections (in_proj_qkv, _z, _b, _a) for Qwen3-Next's two. */
static const char *const QWEN3_NEXT[] = {"qwen3_next", "qwen3_5", "qwen3_5_text", "qwen3_5_moe",
                                         "qwen3_5_moe_text", NULL};
/* q/k RMSNorms over the whole projections (H d + K d a layer: OLMo 2's
 * q_norm and k_norm, MiniMax-M2's qk_norm_type per_layer). */
static const char *const QK_NORM_FULL[] = {"olmo2", "olmo3", "minimax_m2", NULL};
/* Llama 4's q/k norm (use_qk_norm) is an L2 norm without weights. */
static const char *const QK_NORM_WEIGHTLESS[] = {"llama4", "llama4_text", NULL};
static const char *const SANDWICH[] = {"gemma2", "gemma3", "gemma3_text", NULL};
static const char *const QKV_BIAS[] = {"qwen2", "qwen2_moe", NULL};
/* attention_bias puts biases on q, k and v only: GLM-4 / GLM-4.5's o_proj
 * has none, Seed-OSS's takes attention_out_bias. */
static const char *const QKV_ONLY_BIAS[] = {"glm4", "glm4_moe", "seed_oss", NULL};
/* e_score_correction_bias, one per routed expert (DeepSeek-V3's
 * auxiliary-loss-free balancing and the models built on it; ERNIE 4.5's
 * moe_statics; MiniMax-M2's use_routing_bias, true when absent). */
static const char *const ROUTER_BIAS[] = {"glm4_moe", "deepseek_v3", "deepseek_v32", "kimi_k2",
                                          "ernie4_5_moe", "minimax_m2", NULL};
/* LayerNorm with biases and biased linear layers throughout. */
static const char *const ALL_BIAS[] = {"gpt2", "gpt_neox", "opt", "phi", "bloom", NULL};
/* Hunyuan's config classes (HunYuanMoEV1Config, the remote "hunyuan"). */
static const char *const HUNYUAN[] = {"hunyuan", "hunyuan_v1_moe", "hunyuan_v1_dense", NULL};
static const char *const LLAMA4[] = {"llama4", "llama4_text", NULL};

static const char *const K_LAYERS[] = {"num_hidden_layers", "n_layer", "n_layers", NULL};
static const char *const K_HIDDEN[] = {"hidden_size", "n_embd", "n_embed", "d_model", NULL};
static const char *const K_HEADS[] = {"num_attention_heads", "n_head", "n_heads", NULL};
static const char *const K_VOCAB[] = {"vocab_size", NULL};
static const char *const K_KV[] = {"num_key_value_heads", "num_kv_heads", NULL};
static const char *const K_HEAD_DIM[] = {"head_dim", "attention_head_dim", NULL};
static const char *const K_FFN[] = {"intermediate_size", "n_inner", "ffn_dim", NULL};
static const char *const K_CTX[] = {"max_position_embeddings", "n_positions", "seq_length",
                                    "max_seq_len", "max_sequence_length", NULL};
static const char *const K_EXPERTS[] = {"num_local_experts", "num_experts", "n_routed_experts",
                                        "moe_num_experts", NULL};
static const char *const K_ACTIVE[] = {"num_experts_per_tok", "experts_per_token", "moe_k",
                                       "moe_topk", NULL};
static const char *const K_EFFN[] = {"moe_intermediate_size", NULL};
static const char *const K_SHARED[] = {"n_shared_experts", "moe_num_shared_experts", NULL};
static const char *const K_SHARED_FFN[] = {"shared_expert_intermediate_size", NULL};
static const char *const K_FIRST_DENSE[] = {"first_k_dense_replace", NULL};
static const char *const K_SPARSE_STEP[] = {"decoder_sparse_step", NULL};
static const char *const K_MOE_FREQ[] = {"moe_layer_freq", NULL};
static const char *const K_KV_LORA[] = {"kv_lora_rank", NULL};
static const char *const K_Q_LORA[] = {"q_lora_rank", NULL};
static const char *const K_NOPE[] = {"qk_nope_head_dim", NULL};
static const char *const K_ROPE[] = {"qk_rope_head_dim", NULL};
static const char *const K_VDIM[] = {"v_head_dim", NULL};
static const char *const K_WINDOW[] = {"sliding_window", NULL};
static const char *const K_WPATTERN[] = {"sliding_window_pattern", NULL};
static const char *const K_MAX_WINDOW[] = {"max_window_layers", NULL};
static const char *const K_FULL_INTERVAL[] = {"full_attention_interval", NULL};
static const char *const K_LIN_KH[] = {"linear_num_key_heads", NULL};
static const char *const K_LIN_VH[] = {"linear_num_value_heads", NULL};
static const char *const K_LIN_KD[] = {"linear_key_head_dim", NULL};
static const char *const K_LIN_VD[] = {"linear_value_head_dim", NULL};
static const char *const K_LIN_CONV[] = {"linear_conv_kernel_dim", NULL};
/* Keys of hybrid layouts gpuplan does not model for the model_type at hand
 * (nemotron_h, granitemoehybrid and jamba read theirs in hf_mamba; Zamba,
 * Bamba and others): warned, every layer priced as attention. */
static const char *const HYBRID_UNMODELLED[] = {"hybrid_override_pattern", "layers_block_type",
                                                "attn_layer_period", "attn_layer_indices",
                                                NULL};

/* Lower-case, anything outside [a-z0-9._-] becomes '-', at most 64. */
static void to_id(const char *s, size_t n, char *out, size_t cap)
{
    size_t i, k = 0;
    for (i = 0; i < n && s[i] != '\0' && k + 1 < cap && k < 64; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            c = '-';
        out[k++] = c;
    }
    out[k] = '\0';
}

static int valid_id(const char *s)
{
    size_t i, n = strlen(s);
    if (n == 0 || n > 64)
        return 0;
    /* A leading '.', '-' or '_' would make a dotfile the loader skips or a
     * YAML sequence marker; "null"-like words are not ids either. */
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')) ||
        strcmp(s, "null") == 0 || strcmp(s, "true") == 0 || strcmp(s, "false") == 0)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int gp_cli_is_model_file(const char *arg)
{
    struct stat st;
    size_t n;
    if (arg == NULL)
        return 0;
    n = strlen(arg);
    if (n >= 5 && strcmp(arg + n - 5, ".json") == 0)
        return 1;
    /* A bare word is a database id even when a file of that name sits in
     * the current directory; a path names a file. */
    return strchr(arg, '/') != NULL && stat(arg, &st) == 0 && S_ISREG(st.st_mode);
}

/* The default id: `_name_or_path`'s last part (NP, checked a string, or
 * NULL), else the directory's name for a file called config.json, else the
 * file's name without ".json". */
static void default_id(const char *path, const char *np, char *out, size_t cap, char *name,
                       size_t ncap)
{
    const char *b, *slash;
    char buf[PATH_MAX];
    size_t n;
    out[0] = '\0';
    if (np != NULL && np[0] != '\0') {
        n = strlen(np);
        while (n > 0 && np[n - 1] == '/')
            n--;
        for (b = np + n; b > np && b[-1] != '/'; b--)
            ;
        to_id(b, (size_t)(np + n - b), out, cap);
        if (out[0] != '\0') {
            snprintf(name, ncap, "%.*s", (int)(np + n - b), b);
            return;
        }
    }
    slash = strrchr(path, '/');
    b = slash ? slash + 1 : path;
    if (strcmp(b, "config.json") == 0) {
        /* The directory's last part; "./config.json" or "config.json": the
         * working directory's. */
        const char *d = path, *de = slash;
        if (slash != NULL) {
            while (de > path && de[-1] == '/')
                de--;
            for (d = de; d > path && d[-1] != '/'; d--)
                ;
        }
        if (slash == NULL || (de - d == 1 && d[0] == '.')) {
            if (getcwd(buf, sizeof buf) == NULL || (slash = strrchr(buf, '/')) == NULL)
                return;
            d = slash + 1;
            de = buf + strlen(buf);
        }
        if (de - d == 2 && d[0] == '.' && d[1] == '.')
            return;
        to_id(d, (size_t)(de - d), out, cap);
        snprintf(name, ncap, "%.*s", (int)(de - d), d);
        return;
    }
    n = strlen(b);
    if (n > 5 && strcmp(b + n - 5, ".json") == 0)
        n -= 5;
    to_id(b, n, out, cap);
    snprintf(name, ncap, "%.*s", (int)n, b);
}

/* ---- the conversion --------------------------------------------------------------------- */

static int is_mt(const char *mt, const char *name)
{
    return mt != NULL && strcmp(mt, name) == 0;
}

/* A whole-number key with a default: the key's value when present, else
 * dflt, whose name and value are appended to `missing` ("mamba_n_heads
 * 128, ...") for one warning. */
static int count_or(hfm *m, const char *path, json_t *c, const char *const *names, double lo,
                    double dflt, double *out, char *missing, size_t cap, gp_err *e)
{
    const char *k;
    if (find_key(c, names, &k) == NULL) {
        size_t n = strlen(missing);
        *out = dflt;
        if (n < cap)
            snprintf(missing + n, cap - n, "%s%s %.0f", n ? ", " : "", names[0], dflt);
        return GP_OK;
    }
    return get_count(m, path, c, names, lo, out, e);
}

/* A boolean key with a default, as count_or. */
static int bool_or(hfm *m, const char *path, json_t *c, const char *const *names, int dflt,
                   int *out, char *missing, size_t cap, gp_err *e)
{
    size_t i;
    for (i = 0; names[i] != NULL; i++) {
        json_t *v = json_object_get(c, names[i]);
        if (v != NULL && !json_is_null(v))
            return get_bool(m, path, c, names[i], out, e);
    }
    *out = dflt;
    i = strlen(missing);
    if (i < cap)
        snprintf(missing + i, cap - i, "%s%s %s", i ? ", " : "", names[0],
                 dflt ? "true" : "false");
    return GP_OK;
}

/* A Jamba period and offset (JambaConfig: the layers i with i % period ==
 * offset); *p and *o hold JambaConfig's defaults on entry, kept (and named
 * in `missing`) when the keys are absent.  An offset not below its period
 * is refused, as JambaConfig refuses it. */
static int jamba_period(hfm *m, const char *path, json_t *c, const char *kp, const char *ko,
                        double *p, double *o, char *missing, size_t cap, gp_err *e)
{
    const char *np[2], *no[2];
    int rc;
    np[0] = kp, np[1] = NULL, no[0] = ko, no[1] = NULL;
    if ((rc = count_or(m, path, c, np, 1, *p, p, missing, cap, e)) != GP_OK ||
        (rc = count_or(m, path, c, no, 0, *o, o, missing, cap, e)) != GP_OK)
        return rc;
    if (*o >= *p)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': %.0f is not below %s %.0f (JambaConfig refuses it)", ko, *o,
                           kp, *p);
    return GP_OK;
}

/* The layers i < L with i % p == o (o < p): floor((L - 1 - o) / p) + 1. */
static double every_pth(double L, double p, double o)
{
    return o < L ? floor((L - 1.0 - o) / p) + 1.0 : 0.0;
}

/* One kind of a layer-kind list: its name, another spelling (or NULL)
 * and the count its items add to. */
typedef struct {
    const char *name, *alias;
    double *n;
} layer_kind;

/* The items of the list `lt` (key `key`) counted by kind; an item that is
 * none of the nk kinds is refused, named as not `what`. */
static int count_kinds(const char *path, json_t *lt, const char *key, const layer_kind *k,
                       size_t nk, const char *what, gp_err *e)
{
    json_t *it;
    size_t j, i;
    json_array_foreach(lt, j, it)
    {
        const char *t;
        if (!json_is_string(it))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': item %zu: expected a string (got %s)", key, j,
                               jtype(it));
        t = json_string_value(it);
        for (i = 0; i < nk; i++)
            if (strcmp(t, k[i].name) == 0 || (k[i].alias != NULL && strcmp(t, k[i].alias) == 0))
                break;
        if (i == nk)
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "key '%s': item %zu ('%.40s') is not %s",
                               key, j, t, what);
        *k[i].n += 1.0;
    }
    return GP_OK;
}

/* Nemotron-H's blocks by kind: `hybrid_override_pattern`, one character a
 * block (M Mamba-2, * attention, - MLP, E MoE), else the list
 * `layers_block_type` (or `layer_types`, its attribute_map alias) of
 * "mamba" / "linear_attention", "attention" / "full_attention", "mlp",
 * "moe" (transformers' NemotronHConfig._pattern_to_list and
 * remap_legacy_layer_types).  *n: the blocks listed. */
static int nemotron_kinds(hfm *m, const char *path, json_t *c, double *nm, double *na,
                          double *nf, double *ne, double *n, const char **key, gp_err *e)
{
    json_t *pat = json_object_get(c, "hybrid_override_pattern"), *lt;
    char b[96];
    size_t j;
    *nm = *na = *nf = *ne = *n = 0.0;
    *key = "hybrid_override_pattern";
    if (pat != NULL && !json_is_null(pat)) {
        const char *p;
        if (!json_is_string(pat))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key 'hybrid_override_pattern': expected a string of block "
                               "kinds (M Mamba-2, * attention, - MLP, E MoE) (got %s)",
                               jtype(pat));
        p = json_string_value(pat);
        for (j = 0; p[j] != '\0'; j++) {
            switch (p[j]) {
            case 'M': *nm += 1.0; break;
            case '*': *na += 1.0; break;
            case '-': *nf += 1.0; break;
            case 'E': *ne += 1.0; break;
            default:
                return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                                   "key 'hybrid_override_pattern': '%c' (block %zu) is not a "
                                   "Nemotron-H block kind (M Mamba-2, * attention, - MLP, E MoE)",
                                   p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '?', j);
            }
        }
        *n = (double)j;
    } else {
        *key = "layers_block_type";
        lt = json_object_get(c, *key);
        if (lt == NULL || json_is_null(lt)) {
            *key = "layer_types";
            lt = json_object_get(c, *key);
        }
        if (lt == NULL || json_is_null(lt))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "model_type nemotron_h without 'hybrid_override_pattern' or "
                               "'layers_block_type': which blocks are Mamba-2, attention and MLP "
                               "is unknown");
        if (!json_is_array(lt))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': expected a list of block kinds (got %s)", *key,
                               jtype(lt));
        {
            const layer_kind k[] = {{"mamba", "linear_attention", nm},
                                    {"attention", "full_attention", na},
                                    {"mlp", NULL, nf},
                                    {"moe", NULL, ne}};
            int rc = count_kinds(path, lt, *key, k, sizeof k / sizeof k[0],
                                 "a Nemotron-H block kind (mamba, attention, mlp, moe)", e);
            if (rc != GP_OK)
                return rc;
        }
        *n = (double)json_array_size(lt);
    }
    snprintf(b, sizeof b, "%.0f M, %.0f *, %.0f -%s", *nm, *na, *nf, *ne > 0.0 ? ", E" : "");
    used_add(m, *key, b);
    return GP_OK;
}

/* A window on more layers than attend is counted on the attending ones
 * and said so (hf_linear, hf_mamba). */
static void window_on_attending(hfm *m, double L, double lin)
{
    if (m->window > 0.0 && m->window_layers > L - lin)
        warnf(m, "%.0f sliding-window layers but only %.0f of the %.0f layers attend (the "
                 "other %.0f are linear attention): the window is counted on those %.0f",
              m->window_layers, L - lin, L, lin, L - lin);
    if (m->window > 0.0 && (!(m->window_layers > 0.0) || m->window_layers > L - lin))
        m->window_layers = L - lin;
}

/* The Mamba mixer's inner width d_i = a x b (each key within the
 * database's range, their product perhaps not): GP_OK, or GP_ESCHEMA at
 * key `k` naming both keys and values when d_i is above 1e9. */
static int inner_width(const char *path, const char *k, const char *ka, double a,
                       const char *kb, double b, const char *kind, gp_err *e)
{
    if (a * b <= GP_MODEL_DIM_MAX)
        return GP_OK;
    return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                       "key '%s': %s %.0f x %s %.0f = %.6g, the %s inner width, is above the "
                       "database's 1e9",
                       k, ka, a, kb, b, a * b, kind);
}

/* Nemotron 3's MoE blocks ('E', "moe"; transformers' NemotronHMoE): a
 * sigmoid top-k router (h E weights and E e_score_correction_bias),
 * n_routed_experts experts of width moe_intermediate_size and one shared
 * expert of width moe_shared_expert_intermediate_size, each a NemotronHMLP
 * -- up_proj, relu2, down_proj: plain, 2 h f (moe.expert_ffn_kind plain).
 * The ne blocks are entered as the MoE FFN of ne of the nmix mixer layers
 * (the others moe.dense_layers), as the MLP blocks are counted apart;
 * n_group / topk_group only choose among the experts and hold no weights.
 * Absent widths take NemotronHConfig's defaults, warned.  Refused: more
 * MoE blocks than mixer blocks, a latent MoE (moe_latent_size), no
 * experts or more routed per token than there are. */
static int nemotron_moe(hfm *m, const char *path, json_t *c, const char *key, double nmix,
                        double ne, gp_err *e)
{
    static const char *const K_E[] = {"n_routed_experts", "num_local_experts", NULL};
    static const char *const K_K[] = {"num_experts_per_tok", NULL};
    static const char *const K_FE[] = {"moe_intermediate_size", NULL};
    static const char *const K_NS[] = {"n_shared_experts", NULL};
    static const char *const K_FS[] = {"moe_shared_expert_intermediate_size", NULL};
    double E, k, fe, ns, fs;
    char missing[256] = "";
    json_t *lat = json_object_get(c, "moe_latent_size");
    int rc;
    if (lat != NULL && !json_is_null(lat))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key 'moe_latent_size': latent MoE (experts in a narrower width, "
                           "fc1/fc2 latent projections) is not modelled; not imported");
    if ((rc = count_or(m, path, c, K_E, 1, 8, &E, missing, sizeof missing, e)) ||
        (rc = count_or(m, path, c, K_K, 1, 2, &k, missing, sizeof missing, e)) ||
        (rc = count_or(m, path, c, K_FE, 1, 7688, &fe, missing, sizeof missing, e)) ||
        (rc = count_or(m, path, c, K_NS, 0, 1, &ns, missing, sizeof missing, e)) ||
        (rc = count_or(m, path, c, K_FS, 1, 7688, &fs, missing, sizeof missing, e)))
        return rc;
    warn_defaults(m, missing, "NemotronHConfig");
    if (k > E)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key 'num_experts_per_tok': %.0f exceeds the %.0f experts "
                           "(n_routed_experts)",
                           k, E);
    if (ne > nmix)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': %.0f MoE blocks but %.0f mixer blocks (Mamba-2 or "
                           "attention): the entry gives at most one MoE FFN per layer, one "
                           "layer per mixer block",
                           key, ne, nmix);
    if (ns > 1.0)
        warnf(m, "n_shared_experts %.0f: NemotronHMoE builds one shared expert of width "
                 "moe_shared_expert_intermediate_size %.0f, counted once",
              ns, fs);
    m->s.experts = E;
    m->s.experts_active = k;
    m->s.expert_ffn = fe;
    m->s.expert_matrices = 2.0; /* NemotronHMLP: up_proj, down_proj */
    m->s.router_bias = 1;       /* e_score_correction_bias */
    m->s.shared_experts = ns > 0.0 ? 1.0 : 0.0;
    m->s.shared_ffn = ns > 0.0 ? fs : 0.0;
    m->s.dense_layers = nmix - ne;
    if (ns > 0.0 && fmod(fs, fe) != 0.0)
        warnf(m, "moe_shared_expert_intermediate_size %.0f is not a multiple of the expert "
                 "width %.0f: the entry's moe.shared is rounded",
              fs, fe);
    if (!(nmix - ne > 0.0))
        m->ffn_hidden = fe; /* no dense layer: ffn_hidden is the expert width */
    return GP_OK;
}

/* The experts hold up and down only (2 h f_e): expert_matrices 2, or
 * the dense FFN's kind when it is not given (moe.expert_ffn_kind plain). */
static int experts_plain(const gp_param_shape *s)
{
    return s->expert_matrices > 0.0 ? s->expert_matrices == 2.0 : !s->gated;
}

/* Mamba hybrids (docs/hwdb.md, "linear.layers"): nemotron_h (Mamba-2, its
 * blocks of one sublayer each), granitemoehybrid (Mamba-2 or attention,
 * then the FFN, in every layer) and jamba (Mamba-1 or attention, then a
 * dense or MoE FFN).  The Mamba layers become linear.layers, their mixer
 * counted by gp_model_count_params and their state (vLLM's
 * mamba2_state_shape / mamba1_state_shape) written after the count.
 * Widths absent from the config take the transformers config class's
 * defaults, warned.  Nemotron 3's MoE blocks: nemotron_moe.  Refused: no
 * attention layer, a layer kind the config class refuses. */
static int hf_mamba(hfm *m, const char *path, json_t *c, const char *mt, gp_err *e)
{
    static const char *const K_NH_H[] = {"mamba_num_heads", NULL};
    static const char *const K_NH_P[] = {"mamba_head_dim", NULL};
    static const char *const K_NH_G[] = {"n_groups", "mamba_n_groups", NULL};
    static const char *const K_NH_N[] = {"ssm_state_size", NULL};
    static const char *const K_NH_K[] = {"conv_kernel", "mamba_d_conv", NULL};
    static const char *const K_NH_CB[] = {"use_conv_bias", "mamba_conv_bias", NULL};
    static const char *const K_NH_X[] = {"expand", "mamba_expand", NULL};
    static const char *const K_M_H[] = {"mamba_n_heads", NULL};
    static const char *const K_M_G[] = {"mamba_n_groups", NULL};
    static const char *const K_M_N[] = {"mamba_d_state", NULL};
    static const char *const K_M_K[] = {"mamba_d_conv", NULL};
    static const char *const K_M_X[] = {"mamba_expand", NULL};
    static const char *const K_M_P[] = {"mamba_d_head", NULL};
    static const char *const K_M_R[] = {"mamba_dt_rank", NULL};
    static const char *const K_M_CB[] = {"mamba_conv_bias", NULL};
    static const char *const K_M_PB[] = {"mamba_proj_bias", NULL};
    double L = m->s.layers, h = m->s.hidden, nm = 0.0, na = 0.0, nf = 0.0, ne = 0.0, nb = L;
    double H = 0.0, P = 0.0, G = 0.0, N = 0.0, K = 0.0, x = 0.0, R = 0.0, di;
    char missing[512] = "";
    const char *cls, *key = "layer_types", *which;
    int rc, cb = 1, pb = 0;
    json_t *v;

    if (is_mt(mt, "nemotron_h")) {
        cls = "NemotronHConfig";
        if ((rc = nemotron_kinds(m, path, c, &nm, &na, &nf, &ne, &nb, &key, e)) != GP_OK)
            return rc;
        if (ne > 0.0 && (rc = nemotron_moe(m, path, c, key, nm + na, ne, e)) != GP_OK)
            return rc;
        if (nb != L)
            warnf(m, "%s lists %.0f blocks, num_hidden_layers %.0f: the list's count is used "
                     "(as transformers' NemotronHConfig does)",
                  key, nb, L);
        if ((rc = count_or(m, path, c, K_NH_H, 1, 128, &H, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_NH_P, 1, 64, &P, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_NH_G, 1, 8, &G, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_NH_N, 1, 128, &N, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_NH_K, 1, 4, &K, missing, sizeof missing, e)) ||
            (rc = bool_or(m, path, c, K_NH_CB, 1, &cb, missing, sizeof missing, e)) ||
            (rc = get_count(m, path, c, K_NH_X, 1, &x, e)))
            return rc;
        /* in_proj and out_proj take use_bias (NemotronHMamba2Mixer);
         * mamba_proj_bias is read by no layer. */
        if ((rc = get_bool(m, path, c, "use_bias", &pb, e)) != GP_OK)
            return rc;
        pb = pb == 1;
        if ((rc = inner_width(path, "mamba_head_dim", "mamba_num_heads", H, "mamba_head_dim", P,
                              "Mamba-2", e)))
            return rc;
        di = H * P;
        if (x > 0.0 && x * h != di)
            warnf(m, "expand %.0f x hidden_size %.0f = %.0f is not mamba_num_heads x "
                     "mamba_head_dim = %.0f: the Mamba-2 width is the latter (transformers' "
                     "NemotronHMamba2Mixer)",
                  x, h, x * h, di);
        m->s.split_blocks = 1;
        m->s.ffn_blocks = nf;
        m->s.moe_blocks = ne;
        m->blocks = nb;
        L = nm + na;
        m->s.layers = L;
        if (ne > 0.0)
            warnf(m, "Nemotron-H's %.0f blocks (%.0f Mamba-2, %.0f attention, %.0f MLP, %.0f MoE) "
                     "are entered as %.0f layers, one per mixer block, with the MLP and MoE "
                     "blocks' parameters in params; gpuplan's per-layer figures (activations, "
                     "per-layer overheads, train's shape) take %.0f layers as a mixer with the "
                     "MoE FFN and the other %.0f (moe.dense_layers) as a mixer with an FFN of "
                     "width %.0f",
                  nb, nm, na, nf, ne, L, ne, L - ne, m->s.ffn);
        else if (nf > 0.0 && nf < L)
            warnf(m, "Nemotron-H's %.0f blocks (%.0f Mamba-2, %.0f attention, %.0f MLP) are "
                     "entered as %.0f layers, one per mixer block, %.0f of them with an FFN of "
                     "width %.0f (ffn_layers: train's shape); decode's per-layer figures "
                     "(activations, per-layer overheads) take each layer as a mixer with an FFN",
                  nb, nm, na, nf, L, nf, m->s.ffn);
        else
            warnf(m, "Nemotron-H's %.0f blocks (%.0f Mamba-2, %.0f attention, %.0f MLP) are "
                     "entered as %.0f layers, one per mixer block, with the MLP blocks' "
                     "parameters in params; gpuplan's per-layer figures (activations, per-layer "
                     "overheads, train's shape) take each layer as a mixer with an FFN of width "
                     "%.0f",
                  nb, nm, na, nf, L, m->s.ffn);
        m->s.linear_kind = GP_MIXER_MAMBA2;
    } else if (is_mt(mt, "granitemoehybrid")) {
        json_t *lt;
        cls = "GraniteMoeHybridConfig";
        key = "layer_types";
        lt = json_object_get(c, key);
        if (lt == NULL || json_is_null(lt)) {
            key = "layers_block_type";
            lt = json_object_get(c, key);
        }
        if (lt == NULL || json_is_null(lt)) {
            nm = L; /* GraniteMoeHybridConfig.layers_block_type: all "mamba" */
            key = "layer_types";
        } else if (!json_is_array(lt)) {
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': expected a list of layer kinds (got %s)", key,
                               jtype(lt));
        } else {
            const layer_kind k[] = {{"mamba", NULL, &nm}, {"attention", NULL, &na}};
            if ((rc = count_kinds(path, lt, key, k, sizeof k / sizeof k[0],
                                  "a layer kind of granitemoehybrid (mamba, attention)", e)) !=
                GP_OK)
                return rc;
            if ((double)json_array_size(lt) != L)
                return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                                   "key '%s': %zu layer kind%s for num_hidden_layers %.0f",
                                   key, json_array_size(lt),
                                   json_array_size(lt) == 1 ? "" : "s", L);
            used_add(m, key, "[...]");
        }
        if ((rc = count_or(m, path, c, K_M_H, 1, 128, &H, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_M_G, 1, 1, &G, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_M_N, 1, 256, &N, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_M_K, 1, 4, &K, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_M_X, 1, 2, &x, missing, sizeof missing, e)) ||
            (rc = bool_or(m, path, c, K_M_CB, 1, &cb, missing, sizeof missing, e)) ||
            (rc = bool_or(m, path, c, K_M_PB, 0, &pb, missing, sizeof missing, e)))
            return rc;
        if ((rc = inner_width(path, "mamba_expand", "mamba_expand", x, "hidden_size", h,
                              "Mamba-2", e)))
            return rc;
        di = x * h;
        /* mamba_d_head "auto" (or absent): d_i / H, which must be whole. */
        v = find_key(c, K_M_P, &which);
        if (v != NULL && !(json_is_string(v) && strcmp(json_string_value(v), "auto") == 0)) {
            if ((rc = get_count(m, path, c, K_M_P, 1, &P, e)) != GP_OK)
                return rc;
            if (P * H != di)
                return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                                   "key 'mamba_d_head': %.0f x mamba_n_heads %.0f is not "
                                   "mamba_expand x hidden_size = %.0f (GraniteMoeHybridConfig "
                                   "refuses it)",
                                   P, H, di);
        } else if (fmod(di, H) != 0.0) {
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key 'mamba_n_heads': %.0f does not divide mamba_expand x "
                               "hidden_size = %.0f (GraniteMoeHybridConfig refuses it)",
                               H, di);
        }
        m->s.linear_kind = GP_MIXER_MAMBA2;
    } else {
        double p = 8.0, o = 4.0;
        cls = "JambaConfig";
        key = "attn_layer_period";
        if ((rc = jamba_period(m, path, c, "attn_layer_period", "attn_layer_offset", &p, &o,
                               missing, sizeof missing, e)) != GP_OK)
            return rc;
        na = every_pth(L, p, o);
        nm = L - na;
        if ((rc = count_or(m, path, c, K_M_N, 1, 16, &N, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_M_K, 1, 4, &K, missing, sizeof missing, e)) ||
            (rc = count_or(m, path, c, K_M_X, 1, 2, &x, missing, sizeof missing, e)) ||
            (rc = bool_or(m, path, c, K_M_CB, 1, &cb, missing, sizeof missing, e)) ||
            (rc = bool_or(m, path, c, K_M_PB, 0, &pb, missing, sizeof missing, e)))
            return rc;
        /* mamba_dt_rank "auto" (or absent): ceil(hidden / 16) (JambaConfig). */
        v = find_key(c, K_M_R, &which);
        if (v != NULL && !(json_is_string(v) && strcmp(json_string_value(v), "auto") == 0)) {
            if ((rc = get_count(m, path, c, K_M_R, 1, &R, e)) != GP_OK)
                return rc;
        } else {
            R = ceil(h / 16.0);
        }
        if ((rc = inner_width(path, "mamba_expand", "mamba_expand", x, "hidden_size", h,
                              "Mamba-1", e)))
            return rc;
        di = x * h;
        m->s.linear_kind = GP_MIXER_MAMBA1;
        m->s.ssm_dt_norms = 1;
    }
    warn_defaults(m, missing, cls);
    /* Each group's B and C serve heads / groups heads (repeat_interleave). */
    if (H > 0.0 && fmod(H, G) != 0.0)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': %.0f groups do not divide the %.0f Mamba-2 heads (%s)",
                           is_mt(mt, "nemotron_h") ? "n_groups" : "mamba_n_groups", G, H,
                           is_mt(mt, "nemotron_h") ? "mamba_num_heads" : "mamba_n_heads");
    {
        const char *dt;
        if ((rc = get_string(path, c, "mamba_ssm_cache_dtype", &dt, e)) != GP_OK)
            return rc;
        m->ssm_fp32 = dt != NULL && strcmp(dt, "float32") == 0;
    }
    if (!(nm + na > 0.0)) /* Nemotron-H: MLP blocks only, or none */
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': no mixer block (Mamba-2 or attention) among its %.0f "
                           "blocks: gpuplan prices models with at least one attention layer",
                           key, nb);
    if (!(na > 0.0))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': every one of the %.0f mixer layers is Mamba: gpuplan prices "
                           "models with at least one attention layer",
                           key, L);
    if (!(nm > 0.0))
        return GP_OK;
    m->s.linear_layers = nm;
    m->s.linear_conv = K;
    m->s.ssm_inner = di;
    m->s.ssm_heads = H;
    m->s.ssm_groups = G;
    m->s.ssm_state = N;
    m->s.ssm_dt_rank = R;
    m->s.ssm_conv_bias = cb;
    m->s.ssm_proj_bias = pb;
    window_on_attending(m, L, nm);
    return GP_OK;
}

/* Hybrid layers (docs/hwdb.md, "linear.layers"): Gated DeltaNet linear
 * attention on the layers `layer_types` calls "linear_attention", else, with
 * `full_attention_interval` k (qwen3_next and Qwen3.5: 4 when absent,
 * transformers' Qwen3NextConfig default), on every layer i with (i + 1) % k != 0: L -
 * floor(L / k) of them.  Their widths (linear_num_key_heads, ...) give the
 * mixer's parameters and the recurrent state per sequence,
 * n_v d_k d_v + (2 n_k d_k + n_v d_v)(K - 1) (vLLM's
 * gated_delta_net_state_shape).  Layer kinds and hybrid keys gpuplan does not
 * model are warned and priced as attention. */
static int hf_linear(hfm *m, const char *path, json_t *c, const char *mt, gp_err *e)
{
    json_t *lt, *it;
    double L = m->s.layers, lin = 0.0, other = 0.0, k = 0.0, nk, nv, dk, dv, conv;
    const char *first_other = NULL, *which;
    int qn = in_list(mt, QWEN3_NEXT), rc, b;
    size_t j;
    if (is_mt(mt, "falcon_h1"))
        warnf(m, "falcon_h1 runs attention and a Mamba-2 mixer side by side in every layer (a "
                 "parallel hybrid): not modelled; every layer is priced as attention alone, the "
                 "Mamba-2 parameters and state left out");
    for (j = 0; HYBRID_UNMODELLED[j] != NULL; j++) {
        json_t *v = json_object_get(c, HYBRID_UNMODELLED[j]);
        if (v != NULL && !json_is_null(v))
            warnf(m, "%s: a hybrid layout gpuplan does not model (Mamba or other non-attention "
                     "layers): every layer is priced as attention, its KV cache and attention "
                     "FLOPs overstated",
                  HYBRID_UNMODELLED[j]);
    }
    if ((rc = get_str_list(path, c, "layer_types", &lt, e)) != GP_OK)
        return rc;
    if (lt != NULL) {
        json_array_foreach(lt, j, it)
        {
            const char *t = json_string_value(it);
            if (strcmp(t, "linear_attention") == 0) {
                lin++;
            } else if (strcmp(t, "full_attention") != 0 && strcmp(t, "sliding_attention") != 0 &&
                       strcmp(t, "chunked_attention") != 0 && strcmp(t, "attention") != 0) {
                other++;
                if (first_other == NULL)
                    first_other = t;
            }
        }
        if (strstr(m->used, "layer_types") == NULL)
            used_add(m, "layer_types", "[...]");
        if ((double)json_array_size(lt) != L)
            warnf(m, "layer_types lists %zu layers, num_hidden_layers %.0f: the linear-attention "
                     "count is layer_types'",
                  json_array_size(lt), L);
        if (other > 0.0)
            warnf(m, "layer_types lists %.0f layer%s of a kind gpuplan does not model ('%s'): "
                     "priced as attention",
                  other, other == 1.0 ? "" : "s", first_other);
    } else {
        if ((rc = get_count(m, path, c, K_FULL_INTERVAL, 1, &k, e)) != GP_OK)
            return rc;
        if (!(k > 0.0) && qn) {
            k = 4.0;
            warnf(m, "no full_attention_interval: transformers' Qwen3NextConfig default 4 taken "
                     "(Qwen3.5's too: every fourth layer attends)");
        }
        if (k > 0.0)
            lin = L - floor(L / k);
    }
    if (qn) {
        m->s.attn_gate = 1; /* q_proj h x 2 H d: query and output gate */
    } else {
        if ((rc = get_bool(m, path, c, "attn_output_gate", &b, e)) != GP_OK)
            return rc;
        m->s.attn_gate = b == 1;
    }
    if (!(lin > 0.0))
        return GP_OK;
    if (!qn && find_key(c, K_LIN_VH, &which) == NULL && find_key(c, K_LIN_KH, &which) == NULL) {
        warnf(m, "%.0f linear_attention layers without the Gated DeltaNet keys "
                 "(linear_num_value_heads, ...): priced as attention",
              lin);
        return GP_OK;
    }
    if ((rc = need_count(m, path, c, K_LIN_KH, "the linear-attention key heads", &nk, e)) ||
        (rc = need_count(m, path, c, K_LIN_VH, "the linear-attention value heads", &nv, e)) ||
        (rc = need_count(m, path, c, K_LIN_KD, "the linear-attention key head width", &dk, e)) ||
        (rc = need_count(m, path, c, K_LIN_VD, "the linear-attention value head width", &dv,
                         e)) ||
        (rc = need_count(m, path, c, K_LIN_CONV, "the linear-attention convolution kernel",
                         &conv, e)))
        return rc;
    if (lin >= L)
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "every one of the %.0f layers is linear attention: gpuplan prices "
                           "models with at least one attention layer",
                           L);
    m->s.linear_layers = lin;
    m->s.linear_key_heads = nk;
    m->s.linear_value_heads = nv;
    m->s.linear_key_dim = dk;
    m->s.linear_value_dim = dv;
    m->s.linear_conv = conv;
    /* A window is on attending layers only: every one of them when the
     * config puts it on all layers, and said so when it names more local
     * layers than attend. */
    window_on_attending(m, L, lin);
    return GP_OK;
}

/* MiniMax's per-layer attention kinds (attn_type_list; MiniMax-Text-01's
 * decoder_attention_types): a list of 0 (lightning attention, a linear
 * attention) and 1 (softmax attention).  *key the key read (NULL: none),
 * *nz the layers marked 0.  Another item is refused. */
static int minimax_kinds(hfm *m, const char *path, json_t *c, const char **key, double *nz,
                         double *len, gp_err *e)
{
    static const char *const keys[] = {"attn_type_list", "decoder_attention_types", NULL};
    json_t *v = find_key(c, keys, key), *it;
    size_t j;
    char b[64];
    *nz = *len = 0.0;
    if (v == NULL) {
        *key = NULL;
        return GP_OK;
    }
    if (!json_is_array(v))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': expected a list of 0 (lightning attention) and 1 (softmax "
                           "attention), one a layer (got %s)",
                           *key, jtype(v));
    json_array_foreach(v, j, it)
    {
        if (!json_is_integer(it) || (json_integer_value(it) != 0 && json_integer_value(it) != 1))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': item %zu is not 0 (lightning attention) or 1 (softmax "
                               "attention)",
                               *key, j);
        if (json_integer_value(it) == 0)
            *nz += 1.0;
    }
    *len = (double)json_array_size(v);
    snprintf(b, sizeof b, "%.0f of 1, %.0f of 0", *len - *nz, *nz);
    used_add(m, *key, b);
    return GP_OK;
}

/* Family rules beyond the lists above (docs/hwdb.md, "Per model_type"):
 * MiniMax's layer kinds and MiniMax-M2's q/k norms and router bias,
 * ERNIE 4.5's use_bias, Hunyuan's cross-layer attention, DeepSeek-V3.2's
 * lightning indexer. */
static int hf_family(hfm *m, const char *path, json_t *c, const char *mt, gp_err *e)
{
    const char *key, *t;
    double nz, len, v;
    int rc, b;
    if ((rc = minimax_kinds(m, path, c, &key, &nz, &len, e)) != GP_OK)
        return rc;
    if (key != NULL && nz > 0.0 && is_mt(mt, "minimax_m2"))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': %.0f of its %.0f layers are lightning attention (0), which "
                           "MiniMax-M2 does not have (softmax attention in every layer; the "
                           "lightning hybrids are model_type minimax): not imported",
                           key, nz, len);
    if (key != NULL && nz > 0.0)
        warnf(m, "%s: %.0f of %.0f layers are MiniMax lightning attention, a linear attention "
                 "gpuplan does not model: every layer is priced as softmax attention, its KV "
                 "cache and attention FLOPs overstated",
              key, nz, len);
    if (is_mt(mt, "minimax_m2")) {
        /* MiniMaxM2Attention's q_norm and k_norm span the projections
         * (qk_norm_type per_layer, the only kind its code builds). */
        if ((rc = get_string(path, c, "qk_norm_type", &t, e)) != GP_OK)
            return rc;
        if (t != NULL && strcmp(t, "per_layer") != 0)
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key 'qk_norm_type': '%.40s' is not 'per_layer', the q/k norm "
                               "MiniMax-M2 builds (one RMSNorm over all heads of q, one over "
                               "k): not imported",
                               t);
        if (t != NULL)
            used_add(m, "qk_norm_type", t);
        if ((rc = get_bool(m, path, c, "use_routing_bias", &b, e)) != GP_OK)
            return rc;
        m->s.router_bias = b != 0; /* e_score_correction_bias; true when absent */
        {
            static const char *const K_SI[] = {"shared_intermediate_size", NULL};
            if ((rc = get_count(m, path, c, K_SI, 0, &v, e)) != GP_OK)
                return rc;
            if (v > 0.0)
                warnf(m, "shared_intermediate_size %.0f: MiniMax-M2 builds no shared expert "
                         "(MiniMaxM2SparseMoeBlock); not counted",
                      v);
        }
        {
            json_t *w = json_object_get(c, "attn_window_size");
            if (w != NULL && !json_is_null(w))
                warnf(m, "attn_window_size: a per-layer attention window is not read; every "
                         "layer's KV cache is counted over the whole context");
        }
    }
    if (is_mt(mt, "ernie4_5") || is_mt(mt, "ernie4_5_moe")) {
        /* use_bias: every projection, attention, FFN and lm_head. */
        if ((rc = get_bool(m, path, c, "use_bias", &b, e)) != GP_OK)
            return rc;
        if (b == 1) {
            m->s.qkv_bias = m->s.o_bias = m->s.mlp_bias = 1;
            warnf(m, "use_bias: the lm_head bias (vocab_size parameters) is not counted");
        }
    }
    if (in_list(mt, HUNYUAN)) {
        if ((rc = get_bool(m, path, c, "use_cla", &b, e)) != GP_OK)
            return rc;
        if (b == 1)
            warnf(m, "use_cla: cross-layer attention (layers sharing one K/V projection and "
                     "cache, cla_share_factor) is not modelled; every layer is counted with its "
                     "own k/v projections and KV cache, both overstated");
    }
    if (m->s.kv_lora_rank > 0.0) {
        /* DeepSeek Sparse Attention (DeepSeek-V3.2): a lightning indexer
         * beside the latent attention chooses index_topk positions. */
        static const char *const K_IH[] = {"index_n_heads", NULL};
        static const char *const K_ID[] = {"index_head_dim", NULL};
        static const char *const K_IT[] = {"index_topk", NULL};
        double topk;
        if ((rc = get_count(m, path, c, K_IH, 1, &m->s.index_heads, e)) != GP_OK)
            return rc;
        if (m->s.index_heads > 0.0) {
            if ((rc = need_count(m, path, c, K_ID, "the lightning indexer's head width",
                                 &m->s.index_head_dim, e)) != GP_OK ||
                (rc = get_count(m, path, c, K_IT, 1, &topk, e)) != GP_OK)
                return rc;
            {
                char n[48] = "a fixed number of";
                if (topk > 0.0)
                    snprintf(n, sizeof n, "index_topk %.0f", topk);
                warnf(m, "DeepSeek Sparse Attention: each query attends to %s positions its "
                         "lightning indexer picks; gpuplan prices attention over the whole "
                         "context (FLOPs overstated beyond them) and leaves out the indexer's key "
                         "cache (index_head_dim %.0f elements a position a layer); the indexer's "
                         "weights are counted",
                      n, m->s.index_head_dim);
            }
        } else {
            if ((rc = get_count(m, path, c, K_IT, 1, &topk, e)) != GP_OK)
                return rc;
            if (topk > 0.0)
                warnf(m, "index_topk %.0f without index_n_heads: a sparse-attention indexer whose "
                         "weights are not counted, its top-k attention priced over the whole "
                         "context",
                      topk);
        }
    }
    return GP_OK;
}

/* Hunyuan's shared MLP: with use_mixed_mlp_moe, one MLP of width
 * moe_intermediate_size x num_shared_expert beside the experts (vLLM's and
 * SGLang's HunYuanSparseMoeBlock), counted as num_shared_expert experts of
 * the routed width (the same parameters); num_shared_expert 1 when absent
 * (transformers' HunYuanMoE builds one).  Without use_mixed_mlp_moe, none. */
static int hunyuan_shared(hfm *m, const char *path, json_t *c, gp_err *e)
{
    static const char *const K_NS[] = {"num_shared_expert", NULL};
    static const char *const K_SKIP[] = {"moe_layer_num_skipped", NULL};
    const char *k;
    double ns, skip;
    int mixed, rc;
    m->s.shared_experts = 0.0;
    if ((rc = get_count(m, path, c, K_SKIP, 0, &skip, e)) != GP_OK)
        return rc;
    if (skip > 0.0)
        warnf(m, "moe_layer_num_skipped %.0f is not modelled: every layer is counted as MoE",
              skip);
    if ((rc = get_bool(m, path, c, "use_mixed_mlp_moe", &mixed, e)) != GP_OK)
        return rc;
    if (mixed != 1)
        return GP_OK;
    if (find_key(c, K_NS, &k) == NULL) {
        m->s.shared_experts = 1.0;
        warnf(m, "use_mixed_mlp_moe without num_shared_expert: one shared MLP taken");
        return GP_OK;
    }
    if ((rc = get_count(m, path, c, K_NS, 0, &ns, e)) != GP_OK)
        return rc;
    m->s.shared_experts = ns;
    return GP_OK;
}

/* The distinct items of `list` (key `key`, layer numbers) in [0, L): their
 * count *n and the smallest *first (L when none).  Not a list of whole
 * numbers: GP_ESCHEMA. */
static int layer_set(const char *path, const char *key, json_t *list, double L, double *n,
                     double *first, gp_err *e)
{
    double *v;
    size_t j, k = 0;
    json_t *it;
    *n = 0.0;
    *first = L;
    if (!json_is_array(list))
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                           "key '%s': expected a list of layer numbers (got %s)", key,
                           jtype(list));
    if (json_array_size(list) == 0)
        return GP_OK;
    if ((v = malloc(json_array_size(list) * sizeof *v)) == NULL)
        return GP_RAISE(e, GP_ENOMEM, "out of memory reading %s", key);
    json_array_foreach(list, j, it)
    {
        double x;
        if (!json_is_integer(it)) {
            free(v);
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key '%s': item %zu is not a layer number", key, j);
        }
        x = (double)json_integer_value(it);
        if (x >= 0.0 && x < L)
            v[k++] = x;
    }
    qsort(v, k, sizeof *v, cmp_double);
    for (j = 0; j < k; j++)
        if (j == 0 || v[j] != v[j - 1])
            *n += 1.0;
    if (k > 0)
        *first = v[0];
    free(v);
    return GP_OK;
}

/* Llama 4's MoE layers (Llama4TextConfig): the list moe_layers, else every
 * interleave_moe_layer_step-th layer k - 1, 2k - 1, ... (k 1 when absent:
 * all of them).  *dense: the other layers; *lead: the first MoE layer. */
static int llama4_moe_layers(hfm *m, const char *path, json_t *c, double L, double *dense,
                             double *lead, gp_err *e)
{
    static const char *const K_STEP[] = {"interleave_moe_layer_step", NULL};
    json_t *ml = json_object_get(c, "moe_layers");
    double k, n, first;
    char miss[64] = "";
    int rc;
    if (ml != NULL && !json_is_null(ml)) {
        if ((rc = layer_set(path, "moe_layers", ml, L, &n, &first, e)) != GP_OK)
            return rc;
        used_add(m, "moe_layers", "[...]");
    } else {
        if ((rc = count_or(m, path, c, K_STEP, 1, 1, &k, miss, sizeof miss, e)) != GP_OK)
            return rc;
        warn_defaults(m, miss, "Llama4TextConfig");
        n = floor(L / k); /* range(k - 1, L, k) */
        first = k - 1.0 < L ? k - 1.0 : L;
    }
    *dense = L - n;
    *lead = first;
    return GP_OK;
}

/* ERNIE 4.5's MoE layers (Ernie4_5_MoeDecoderLayer): the layers i in
 * [moe_layer_start_index, moe_layer_end_index] with (i + 1) %
 * moe_layer_interval == 0; Ernie4_5_MoeConfig's 1, -1 (the last layer) and 1
 * when absent.  *dense: the other layers; *lead: the first MoE layer. */
static int ernie_moe_layers(hfm *m, const char *path, json_t *c, double L, double *dense,
                            double *lead, gp_err *e)
{
    static const char *const K_START[] = {"moe_layer_start_index", NULL};
    static const char *const K_END[] = {"moe_layer_end_index", NULL};
    static const char *const K_INT[] = {"moe_layer_interval", NULL};
    json_t *ev = json_object_get(c, "moe_layer_end_index");
    double start, end, k, n;
    char miss[128] = "";
    int rc;
    if ((rc = count_or(m, path, c, K_START, 0, 1, &start, miss, sizeof miss, e)) != GP_OK ||
        (rc = count_or(m, path, c, K_INT, 1, 1, &k, miss, sizeof miss, e)) != GP_OK)
        return rc;
    warn_defaults(m, miss, "Ernie4_5_MoeConfig");
    if (ev == NULL || json_is_null(ev) ||
        (json_is_integer(ev) && json_integer_value(ev) == -1)) {
        end = L - 1.0; /* -1: the last layer */
        if (ev != NULL && !json_is_null(ev))
            used_add(m, "moe_layer_end_index", "-1");
    } else if ((rc = get_count(m, path, c, K_END, 0, &end, e)) != GP_OK) {
        return rc;
    }
    if (end > L - 1.0)
        end = L - 1.0;
    /* i + 1 in [start + 1, end + 1] and a multiple of k. */
    n = start > end ? 0.0 : floor((end + 1.0) / k) - floor(start / k);
    *dense = L - n;
    *lead = n > 0.0 ? ceil((start + 1.0) / k) * k - 1.0 : L;
    return GP_OK;
}

/* Llama 4's chunked attention: its RoPE layers attend within
 * attention_chunk_size-token chunks (8192 when absent, Llama4TextConfig;
 * null: none), its NoPE layers over everything.  The chunked layers:
 * layer_types' "chunked_attention", else no_rope_layers' 1s, else all but
 * every no_rope_layer_interval-th (4).  A chunk bounds the KV cache as a
 * window of its size does: written as window.tokens on those layers. */
static int llama4_chunks(hfm *m, const char *path, json_t *c, gp_err *e)
{
    static const char *const K_CHUNK[] = {"attention_chunk_size", NULL};
    static const char *const K_NOPE_INT[] = {"no_rope_layer_interval", NULL};
    json_t *cv = json_object_get(c, "attention_chunk_size"), *lt, *nr, *it;
    double L = m->s.layers, chunk, n = 0.0, k;
    char miss[96] = "";
    size_t j;
    int rc;
    if (cv != NULL && json_is_null(cv))
        return GP_OK; /* no chunking */
    if ((rc = count_or(m, path, c, K_CHUNK, 1, 8192, &chunk, miss, sizeof miss, e)) != GP_OK ||
        (rc = get_str_list(path, c, "layer_types", &lt, e)) != GP_OK)
        return rc;
    nr = json_object_get(c, "no_rope_layers");
    if (lt != NULL) {
        json_array_foreach(lt, j, it)
        {
            if (strcmp(json_string_value(it), "chunked_attention") == 0)
                n++;
        }
        used_add(m, "layer_types", "[...]");
    } else if (nr != NULL && !json_is_null(nr) &&
               !(json_is_array(nr) && json_array_size(nr) == 0)) {
        if (!json_is_array(nr))
            return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                               "key 'no_rope_layers': expected a list of 1 (RoPE) and 0 (NoPE), "
                               "one a layer (got %s)",
                               jtype(nr));
        json_array_foreach(nr, j, it)
        {
            if (!json_is_integer(it))
                return GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                                   "key 'no_rope_layers': item %zu is not 1 (RoPE) or 0 (NoPE)",
                                   j);
            if (json_integer_value(it) != 0 && (double)j < L)
                n++;
        }
        used_add(m, "no_rope_layers", "[...]");
    } else {
        if ((rc = count_or(m, path, c, K_NOPE_INT, 1, 4, &k, miss, sizeof miss, e)) != GP_OK)
            return rc;
        n = L - floor(L / k);
    }
    warn_defaults(m, miss, "Llama4TextConfig");
    if (!(n > 0.0))
        return GP_OK;
    if (chunk >= m->context) {
        warnf(m, "attention_chunk_size %.0f is not below the context %.0f: no chunking", chunk,
              m->context);
        return GP_OK;
    }
    m->window = chunk;
    m->window_layers = n < L ? n : 0.0;
    warnf(m, "Llama 4's chunked attention (%.0f-token chunks on %.0f of %.0f layers) is written "
             "as a sliding window of %.0f tokens: the same bound on the KV cache; a chunk's "
             "attention FLOPs are about half a window's",
          chunk, n < L ? n : L, L, chunk);
    return GP_OK;
}

/* Read FILE and fill *m (zeroed first).  Nothing is written.  Errors:
 * GP_EIO (cannot read), GP_EPARSE (malformed JSON, FILE:LINE:COL and
 * jansson's message), GP_ESCHEMA (a key missing, of the wrong type or out of
 * range), GP_EINVAL (the shape does not add up). */
static int hf_convert(const char *path, const char *as, const char *name, hfm *m, gp_err *e)
{
    json_error_t jerr;
    json_t *root, *c, *v;
    struct stat st;
    double step = 0.0, freq = 0.0, sw = 0.0, pattern = 0.0, maxwl = 0.0, shared_w = 0.0;
    double first_dense = 0.0, moe_layers, granite_shared = 0.0, llama4_expert = 0.0;
    int rc = GP_OK, b, use_sw = -1, tied, ffn_guessed = 0;
    const char *k, *mt, *act, *np;
    char defname[256] = "";

    memset(m, 0, sizeof *m);
    if (stat(path, &st) != 0)
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "not a regular file");
    if (st.st_size > HF_FILE_MAX)
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "file of %lld bytes is larger than %ld bytes",
                           (long long)st.st_size, HF_FILE_MAX);
    root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        if (jerr.line > 0)
            return GP_RAISE_AT(e, GP_EPARSE, path, (unsigned)jerr.line,
                               (unsigned)(jerr.column > 0 ? jerr.column : 0), "%s", jerr.text);
        return GP_RAISE_AT(e, GP_EIO, path, 0, 0, "%s", jerr.text);
    }
    if (!json_is_object(root)) {
        json_decref(root);
        return GP_RAISE_AT(e, GP_ESCHEMA, path, 1, 1,
                           "not a config.json: the top level must be a JSON object");
    }
    c = root;
    v = json_object_get(root, "text_config");
    if (find_key(root, K_HIDDEN, &k) == NULL && v != NULL && !json_is_null(v)) {
        if (!json_is_object(v)) {
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                             "key 'text_config': expected an object (got %s)", jtype(v));
            goto out;
        }
        c = v;
        m->text_config = 1;
        warnf(m, "the top level has no hidden_size: the shape is text_config's (the language model; "
                 "vision or audio towers are not counted)");
    }
    if ((rc = get_string(path, c, "model_type", &mt, e)) != GP_OK ||
        (mt == NULL && c != root && (rc = get_string(path, root, "model_type", &mt, e)) != GP_OK) ||
        (rc = get_string(path, root, "_name_or_path", &np, e)) != GP_OK)
        goto out;
    snprintf(m->model_type, sizeof m->model_type, "%s", mt ? mt : "");

    /* Required: layers, hidden, heads, vocab. */
    if ((rc = need_count(m, path, c, K_LAYERS, "the number of layers", &m->s.layers, e)) ||
        (rc = need_count(m, path, c, K_HIDDEN, "the hidden size", &m->s.hidden, e)) ||
        (rc = need_count(m, path, c, K_HEADS, "the number of attention heads", &m->s.heads, e)))
        goto out;
    if (find_key(c, K_VOCAB, &k) == NULL && c != root && find_key(root, K_VOCAB, &k) != NULL)
        rc = need_count(m, path, root, K_VOCAB, "the vocabulary size", &m->s.vocab, e);
    else
        rc = need_count(m, path, c, K_VOCAB, "the vocabulary size", &m->s.vocab, e);
    if (rc != GP_OK)
        goto out;

    /* Attention. */
    if ((rc = get_count(m, path, c, K_KV, 1, &m->s.kv_heads, e)) != GP_OK)
        goto out;
    if (!(m->s.kv_heads > 0.0)) {
        if ((rc = get_bool(m, path, c, "multi_query", &b, e)) != GP_OK)
            goto out;
        m->s.kv_heads = b == 1 ? 1.0 : m->s.heads;
    }
    /* Each key/value head serves a whole group of query heads
     * (transformers' repeat_kv: num_attention_heads // num_key_value_heads
     * copies of each). */
    if (m->s.kv_heads > m->s.heads || fmod(m->s.heads, m->s.kv_heads) != 0.0) {
        const char *kh, *kk;
        if (find_key(c, K_KV, &kk) == NULL)
            kk = "multi_query";
        find_key(c, K_HEADS, &kh);
        rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                         m->s.kv_heads > m->s.heads
                             ? "key '%s': %.0f key/value heads exceed the %.0f attention heads "
                               "(%s)"
                             : "key '%s': %.0f key/value heads do not divide the %.0f attention "
                               "heads (%s)",
                         kk, m->s.kv_heads, m->s.heads, kh);
        goto out;
    }
    if ((rc = get_count(m, path, c, K_HEAD_DIM, 1, &m->s.head_dim, e)) != GP_OK)
        goto out;
    if (!(m->s.head_dim > 0.0)) {
        if (fmod(m->s.hidden, m->s.heads) != 0.0) {
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                             "missing key 'head_dim', and hidden size %.0f is not a multiple of "
                             "the %.0f heads",
                             m->s.hidden, m->s.heads);
            goto out;
        }
        m->s.head_dim = m->s.hidden / m->s.heads;
    }
    if ((rc = get_count(m, path, c, K_KV_LORA, 1, &m->s.kv_lora_rank, e)) != GP_OK)
        goto out;
    if (m->s.kv_lora_rank > 0.0) {
        if ((rc = get_count(m, path, c, K_Q_LORA, 1, &m->s.q_lora_rank, e)) ||
            (rc = need_count(m, path, c, K_NOPE, "latent attention's query/key width without RoPE",
                             &m->s.qk_nope_head_dim, e)) ||
            (rc = need_count(m, path, c, K_ROPE, "latent attention's RoPE width",
                             &m->s.qk_rope_head_dim, e)) ||
            (rc = need_count(m, path, c, K_VDIM, "latent attention's value width",
                             &m->s.v_head_dim, e)))
            goto out;
        m->attention = "mla";
        m->s.kv_heads = m->s.heads;
        m->s.head_dim = m->s.v_head_dim;
        m->kv_dim = m->s.kv_lora_rank + m->s.qk_rope_head_dim;
        m->qk_head_dim = m->s.qk_nope_head_dim + m->s.qk_rope_head_dim;
    } else if (m->s.kv_heads == 1.0 && m->s.heads > 1.0) {
        m->attention = "mqa";
    } else {
        m->attention = m->s.kv_heads < m->s.heads ? "gqa" : "mha";
    }

    /* Context. */
    if ((rc = get_count(m, path, c, K_CTX, 1, &m->context, e)) != GP_OK)
        goto out;
    if (!(m->context > 0.0)) {
        m->context = 2048.0;
        warnf(m, "no max_position_embeddings (nor n_positions, seq_length, max_seq_len): context "
                 "2048 assumed; edit the entry's context");
    }

    /* The family's rules. */
    {
        static const char *const K_ACT[] = {"hidden_act", "hidden_activation",
                                            "activation_function", NULL};
        const char *which;
        json_t *av = find_key(c, K_ACT, &which);
        if (av != NULL && !json_is_string(av)) {
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "key '%s': expected a string (got %s)",
                             which, jtype(av));
            goto out;
        }
        act = av != NULL ? json_string_value(av) : NULL;
    }
    if (in_list(mt, GATED)) {
        m->s.gated = 1;
    } else if (in_list(mt, UNGATED_RMS)) {
        m->s.gated = 0;
    } else if (in_list(mt, UNGATED)) {
        m->s.gated = 0;
        m->s.norm_bias = 1;
    } else {
        m->s.gated = act != NULL && (strstr(act, "silu") || strstr(act, "swiglu") ||
                                     strstr(act, "swish") || strstr(act, "geglu"));
        warnf(m, "model_type '%s' is not one gpuplan knows: the FFN is taken as %s (from "
                 "hidden_act '%s'), the norms as RMSNorm without biases; check the parameter count",
              mt ? mt : "(none)", m->s.gated ? "gated (3 h f)" : "plain (2 h f)", act ? act : "(none)");
    }
    if (in_list(mt, ALL_BIAS)) {
        m->s.qkv_bias = m->s.o_bias = m->s.mlp_bias = 1;
        if (strcmp(mt, "phi") == 0) {
            /* phi's parallel block: one input LayerNorm per layer. */
            m->s.norms_per_layer = 1.0;
            warnf(m, "phi's lm_head bias (vocab_size parameters) is not counted");
        }
    }
    if (mt != NULL && strcmp(mt, "falcon") == 0) {
        int nda;
        if ((rc = get_bool(m, path, c, "bias", &b, e)) != GP_OK)
            goto out;
        m->s.qkv_bias = m->s.o_bias = m->s.mlp_bias = b == 1;
        /* The parallel block of Falcon-7B has one input LayerNorm; the
         * "new decoder architecture" (40B, 180B) has two (ln_attn, ln_mlp). */
        if ((rc = get_bool(m, path, c, "new_decoder_architecture", &nda, e)) != GP_OK ||
            (rc = get_bool(m, path, c, "parallel_attn", &b, e)) != GP_OK)
            goto out;
        if (nda != 1 && b != 0) /* parallel_attn defaults to true (FalconConfig) */
            m->s.norms_per_layer = 1.0;
    }
    if (mt != NULL && strcmp(mt, "bloom") == 0)
        m->s.embed_norm = 1; /* word_embeddings_layernorm */
    if (mt != NULL && strcmp(mt, "mpt") == 0) {
        /* MPT: no_bias (the default) drops every bias, the LayerNorms' too. */
        if ((rc = get_bool(m, path, c, "no_bias", &b, e)) != GP_OK)
            goto out;
        m->s.norm_bias = b == 0;
        m->s.qkv_bias = m->s.o_bias = m->s.mlp_bias = b == 0;
    }
    m->s.router_bias = in_list(mt, ROUTER_BIAS);
    if (in_list(mt, QKV_BIAS))
        m->s.qkv_bias = 1;
    if ((rc = get_bool(m, path, c, "attention_bias", &b, e)) != GP_OK)
        goto out;
    if (b >= 0) {
        /* GLM-4 / GLM-4.5 and Seed-OSS put attention_bias on q, k and v
         * only; elsewhere it covers o too. */
        m->s.qkv_bias = b;
        if (!in_list(mt, QKV_ONLY_BIAS))
            m->s.o_bias = b;
    }
    /* Seed-OSS: the output projection's own (SeedOssConfig). */
    if ((rc = get_bool(m, path, c, "attention_out_bias", &b, e)) != GP_OK)
        goto out;
    if (b >= 0)
        m->s.o_bias = b;
    if ((rc = get_bool(m, path, c, "mlp_bias", &b, e)) != GP_OK)
        goto out;
    if (b >= 0)
        m->s.mlp_bias = b;
    m->s.qk_norm = in_list(mt, QK_NORM_FULL) ? GP_QK_NORM_FULL
                   : in_list(mt, QK_NORM)    ? GP_QK_NORM_HEAD
                                             : GP_QK_NORM_NONE;
    /* GLM-4.5 states its per-head q/k norms (use_qk_norm true; the Air
     * false), which the model type alone does not tell; a family whose
     * norms span the projection keeps that width; Llama 4's is weightless. */
    if ((rc = get_bool(m, path, c, "use_qk_norm", &b, e)) != GP_OK)
        goto out;
    if (b >= 0 && !in_list(mt, QK_NORM_WEIGHTLESS))
        m->s.qk_norm = b == 0                               ? GP_QK_NORM_NONE
                       : m->s.qk_norm == GP_QK_NORM_FULL ? GP_QK_NORM_FULL
                                                         : GP_QK_NORM_HEAD;
    if ((rc = hf_family(m, path, c, mt, e)) != GP_OK)
        goto out;
    m->s.sandwich_norm = in_list(mt, SANDWICH);
    if (mt != NULL && strcmp(mt, "gpt_oss") == 0) {
        m->s.attn_sinks = 1;
        m->s.router_bias = 1;
        m->s.mlp_bias = 1;
        m->s.active_no_embed = 1;
    }
    if (mt != NULL && strcmp(mt, "gpt2") == 0)
        m->s.pos_embed = m->context;
    if (mt != NULL && strcmp(mt, "opt") == 0)
        m->s.pos_embed = m->context + 2.0;

    /* Embeddings: the file's flag, else transformers' PretrainedConfig
     * default (true). */
    if ((rc = get_bool(m, path, c, "tie_word_embeddings", &tied, e)) != GP_OK)
        goto out;
    if (tied < 0 && c != root && (rc = get_bool(m, path, root, "tie_word_embeddings", &tied, e)))
        goto out;
    if (tied < 0) {
        tied = 1;
        warnf(m, "no tie_word_embeddings: transformers' PretrainedConfig default (true) taken, so "
                 "the lm_head is not counted; the model's own config class may differ");
    }
    m->s.tied = tied;

    /* FFN and experts. */
    if ((rc = get_count(m, path, c, K_FFN, 1, &m->s.ffn, e)) != GP_OK)
        goto out;
    if (!(m->s.ffn > 0.0) && mt != NULL && strcmp(mt, "mpt") == 0) {
        /* MPT: expansion_ratio x d_model (llm-foundry's MPTConfig). */
        static const char *const K_RATIO[] = {"expansion_ratio", NULL};
        double ratio;
        if ((rc = get_count(m, path, c, K_RATIO, 1, &ratio, e)) != GP_OK)
            goto out;
        if (ratio > 0.0)
            m->s.ffn = ratio * m->s.hidden;
    }
    if (!(m->s.ffn > 0.0)) {
        m->s.ffn = 4.0 * m->s.hidden;
        /* BLOOM's and Falcon's MLPs are 4 x hidden by construction (their
         * configs carry no width); elsewhere it is a guess. */
        ffn_guessed = !(mt != NULL && (strcmp(mt, "bloom") == 0 || strcmp(mt, "falcon") == 0));
    }
    if (in_list(mt, LLAMA4)) {
        /* Llama 4: intermediate_size is the experts' (and the shared
         * expert's) width, intermediate_size_mlp the dense layers' FFN
         * (Llama4TextConfig; 16384 when absent). */
        static const char *const K_MLP[] = {"intermediate_size_mlp", NULL};
        char miss[64] = "";
        llama4_expert = m->s.ffn;
        if ((rc = count_or(m, path, c, K_MLP, 1, 16384, &m->s.ffn, miss, sizeof miss, e)) !=
            GP_OK)
            goto out;
        warn_defaults(m, miss, "Llama4TextConfig");
    }
    m->ffn_hidden = m->s.ffn;
    /* Nemotron-H's experts live in MoE blocks ('E', hf_mamba); configs
     * saved by transformers carry NemotronHConfig's MoE defaults without
     * them. */
    if (!is_mt(mt, "nemotron_h") &&
        (rc = get_count(m, path, c, K_EXPERTS, 0, &m->s.experts, e)) != GP_OK)
        goto out;
    /* JambaConfig, and Hunyuan's dense configs (num_experts 1): one
     * "expert" is the dense MLP. */
    if ((is_mt(mt, "jamba") || in_list(mt, HUNYUAN)) && m->s.experts <= 1.0)
        m->s.experts = 0.0;
    if (is_mt(mt, "granitemoehybrid")) {
        /* Granite 4.0-H: every layer's FFN is shared_mlp, gated, of width
         * shared_intermediate_size, beside the experts (of width
         * intermediate_size) when num_local_experts > 0
         * (GraniteMoeHybridDecoderLayer); absent, GraniteMoeHybridConfig's
         * default 1024, warned. */
        static const char *const K_GSHARED[] = {"shared_intermediate_size", NULL};
        double sw_g;
        char miss[64] = "";
        if ((rc = count_or(m, path, c, K_GSHARED, 0, 1024, &sw_g, miss, sizeof miss, e)) !=
            GP_OK)
            goto out;
        warn_defaults(m, miss, "GraniteMoeHybridConfig");
        if (!(m->s.experts > 0.0) && !(sw_g > 0.0)) {
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                             "key 'shared_intermediate_size': 0 with no experts "
                             "(num_local_experts 0) leaves the layers without an FFN");
            goto out;
        }
        if (!(m->s.experts > 0.0)) {
            m->s.ffn = sw_g;
            m->ffn_hidden = sw_g;
        } else if (sw_g > 0.0) {
            granite_shared = sw_g;
        }
    }
    if (m->s.experts > 0.0) {
        json_t *only;
        double L = m->s.layers, dense = 0.0, lead = 0.0;
        if ((rc = need_count(m, path, c, K_ACTIVE, "the experts routed per token",
                             &m->s.experts_active, e)) ||
            (rc = get_count(m, path, c, K_EFFN, 1, &m->s.expert_ffn, e)) ||
            (rc = get_count(m, path, c, K_SHARED, 0, &m->s.shared_experts, e)) ||
            (rc = get_count(m, path, c, K_SHARED_FFN, 0, &shared_w, e)) ||
            (rc = get_count(m, path, c, K_FIRST_DENSE, 0, &first_dense, e)) ||
            (rc = get_count(m, path, c, K_SPARSE_STEP, 0, &step, e)) ||
            (rc = get_count(m, path, c, K_MOE_FREQ, 0, &freq, e)))
            goto out;
        if (m->s.experts_active > m->s.experts) {
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                             "key 'num_experts_per_tok': %.0f exceeds the %.0f experts",
                             m->s.experts_active, m->s.experts);
            goto out;
        }
        if (in_list(mt, LLAMA4)) {
            /* Llama4TextMoe: the routed experts and one shared expert,
             * both intermediate_size wide. */
            m->s.expert_ffn = llama4_expert;
            m->s.shared_experts = 1.0;
        }
        if (in_list(mt, HUNYUAN) && (rc = hunyuan_shared(m, path, c, e)) != GP_OK)
            goto out;
        if (!(m->s.expert_ffn > 0.0))
            m->s.expert_ffn = m->s.ffn;
        if (shared_w > 0.0 || granite_shared > 0.0) {
            /* Qwen2-MoE: one shared expert of this width behind a sigmoid
             * gate; Granite 4.0-H: its shared_mlp, ungated.  The entry keeps
             * shared experts of the routed width. */
            m->s.shared_experts = 1.0;
            m->s.shared_ffn = shared_w > 0.0 ? shared_w : granite_shared;
            m->s.shared_gate = shared_w > 0.0;
            if (fmod(m->s.shared_ffn, m->s.expert_ffn) != 0.0)
                warnf(m, "%s %.0f is not a multiple of the expert width %.0f: the entry's "
                         "moe.shared is rounded",
                      shared_w > 0.0 ? "shared_expert_intermediate_size"
                                     : "shared_intermediate_size",
                      m->s.shared_ffn, m->s.expert_ffn);
        }
        if (freq > 1.0)
            warnf(m, "moe_layer_freq %.0f is not modelled: every layer after first_k_dense_replace "
                     "is counted as MoE",
                  freq);
        only = json_object_get(c, "mlp_only_layers");
        if (only != NULL && !json_is_null(only) && !json_is_array(only)) {
            rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                             "key 'mlp_only_layers': expected a list of layer numbers");
            goto out;
        }
        /* Which layers are dense: the first first_k_dense_replace (A), with
         * decoder_sparse_step s those where (i + 1) % s != 0 (B,
         * transformers' Qwen2-MoE / Qwen3-MoE rule), and those in
         * mlp_only_layers (C).  Counted without visiting every layer (a
         * config may claim 1e9 of them): |A u B| by arithmetic, then the
         * sorted, distinct in-range C outside A u B; the leading run ends at
         * the first layer outside all three. */
        if (is_mt(mt, "jamba")) {
            /* JambaConfig.layers_num_experts: experts on the layers i with
             * i % expert_layer_period == expert_layer_offset. */
            double p = 2.0, o = 1.0;
            char miss[128] = "";
            if ((rc = jamba_period(m, path, c, "expert_layer_period", "expert_layer_offset", &p,
                                   &o, miss, sizeof miss, e)) != GP_OK)
                goto out;
            warn_defaults(m, miss, "JambaConfig");
            dense = L - every_pth(L, p, o);
            lead = o < L ? o : L;
        } else if (in_list(mt, LLAMA4)) {
            if ((rc = llama4_moe_layers(m, path, c, L, &dense, &lead, e)) != GP_OK)
                goto out;
        } else if (is_mt(mt, "ernie4_5_moe")) {
            if ((rc = ernie_moe_layers(m, path, c, L, &dense, &lead, e)) != GP_OK)
                goto out;
        } else if ((rc = dense_layers_of(only, L, first_dense, step, path, &dense, &lead, e)) !=
                   GP_OK) {
            goto out;
        }
        if (only != NULL && json_array_size(only) > 0)
            used_add(m, "mlp_only_layers", "[...]");
        if (dense > lead)
            warnf(m, "%.0f of the %.0f dense layers are not the leading ones: the entry's "
                     "moe.dense_layers counts them as leading (the count is the same)",
                  dense - lead, dense);
        m->s.dense_layers = dense;
        moe_layers = L - dense;
        if (moe_layers <= 0.0) {
            warnf(m, "num_experts %.0f but no layer is MoE: imported as a dense model",
                  m->s.experts);
            m->s.experts = m->s.experts_active = m->s.expert_ffn = 0.0;
            m->s.shared_experts = m->s.shared_ffn = 0.0;
            m->s.shared_gate = 0;
            m->s.dense_layers = 0.0;
        } else if (dense == 0.0) {
            /* No dense FFN runs: the entry's ffn_hidden is the expert width,
             * as the shipped MoE entries give it. */
            m->ffn_hidden = m->s.expert_ffn;
        }
    }

    /* A guessed FFN width is said when a layer uses it (an all-MoE config,
     * Qwen3.5's, has no intermediate_size to give). */
    if (ffn_guessed && !(m->s.experts > 0.0 && !(m->s.dense_layers > 0.0)))
        warnf(m, "no intermediate_size (nor n_inner, ffn_dim): FFN width 4 x hidden = %.0f "
                 "assumed",
              m->s.ffn);

    /* Sliding window. */
    if ((rc = get_bool(m, path, c, "use_sliding_window", &use_sw, e)) != GP_OK)
        goto out;
    v = json_object_get(c, "sliding_window");
    if (v != NULL && json_is_true(v)) {
        /* Python reads true as a window of 1: no config means that. */
        rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                         "key 'sliding_window': expected a window in tokens, null or false (got "
                         "true)");
        goto out;
    }
    if (v != NULL && json_is_false(v))
        v = NULL; /* some configs write false for none */
    if (v != NULL && (rc = get_count(m, path, c, K_WINDOW, 1, &sw, e)) != GP_OK)
        goto out;
    if (is_mt(mt, "olmo3") && json_object_get(c, "sliding_window") == NULL) {
        sw = 4096.0; /* Olmo3Config's default; null is none */
        warnf(m, "no sliding_window: transformers' Olmo3Config default 4096 taken");
    }
    if (use_sw == 0)
        sw = 0.0;
    if (sw > 0.0) {
        json_t *lt = NULL;
        double local = m->s.layers;
        if ((rc = get_count(m, path, c, K_WPATTERN, 1, &pattern, e)) ||
            (rc = get_count(m, path, c, K_MAX_WINDOW, 0, &maxwl, e)))
            goto out;
        if ((rc = get_str_list(path, c, "layer_types", &lt, e)) != GP_OK)
            goto out;
        if (lt != NULL) {
            size_t j;
            json_t *it;
            local = 0.0;
            json_array_foreach(lt, j, it)
            {
                if (strcmp(json_string_value(it), "sliding_attention") == 0)
                    local++;
            }
            used_add(m, "layer_types", "[...]");
        } else if (pattern > 0.0) {
            /* Gemma 3: every pattern-th layer is global. */
            local = m->s.layers - floor(m->s.layers / pattern);
        } else if (mt != NULL && strcmp(mt, "gemma2") == 0) {
            /* Gemma 2 alternates, local first (transformers Gemma2Config). */
            local = ceil(m->s.layers / 2.0);
        } else if (use_sw == 1 && maxwl > 0.0) {
            /* Qwen2: layers from max_window_layers on use the window. */
            local = m->s.layers - maxwl;
        } else if (is_mt(mt, "olmo3")) {
            /* Olmo3Config: every fourth layer global, the others local. */
            local = m->s.layers - floor(m->s.layers / 4.0);
        }
        if (local > m->s.layers)
            local = m->s.layers;
        if (sw >= m->context) {
            warnf(m, "sliding_window %.0f is not below the context %.0f: no window", sw,
                  m->context);
        } else if (local > 0.0) {
            m->window = sw;
            m->window_layers = local < m->s.layers ? local : 0.0;
        }
    }
    if (in_list(mt, LLAMA4) && (rc = llama4_chunks(m, path, c, e)) != GP_OK)
        goto out;

    if (is_mt(mt, "nemotron_h") || is_mt(mt, "granitemoehybrid") || is_mt(mt, "jamba"))
        rc = hf_mamba(m, path, c, mt, e);
    else
        rc = hf_linear(m, path, c, mt, e);
    if (rc != GP_OK)
        goto out;

    /* The count. */
    if ((rc = gp_model_count_params(&m->s, &m->n, e)) != GP_OK) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e != NULL ? e->msg : "");
        rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0, "the shape does not add up: %s", msg);
        goto out;
    }
    if (m->n.total < GP_MODEL_PARAMS_MIN || m->n.total > GP_MODEL_PARAMS_MAX) {
        rc = GP_RAISE_AT(e, GP_ESCHEMA, path, 0, 0,
                         "%.6g parameters is outside the database's range (1e3 to 1e15)",
                         m->n.total);
        goto out;
    }

    /* Id and name. */
    default_id(path, np, m->id, sizeof m->id, defname, sizeof defname);
    if (as != NULL) {
        if (!valid_id(as)) {
            rc = GP_RAISE_AT(e, GP_EINVAL, "--as", 0, 0,
                             "'%s' is not an id: 1 to 64 of a-z, 0-9, '.', '_', '-', "
                             "starting with a letter or digit",
                             as);
            goto out;
        }
        snprintf(m->id, sizeof m->id, "%s", as);
    } else if (m->id[0] != '\0' && !valid_id(m->id)) {
        rc = GP_RAISE_AT(e, GP_EINVAL, path, 0, 0,
                         "the id made from the file, '%s', is not usable: give --as ID", m->id);
        goto out;
    } else if (m->id[0] == '\0') {
        rc = GP_RAISE_AT(e, GP_EINVAL, path, 0, 0,
                         "no id can be made from the file (no _name_or_path, no usable file or "
                         "directory name): give --as ID");
        goto out;
    }
    snprintf(m->name, sizeof m->name, "%s", name ? name : defname[0] ? defname : m->id);
out:
    json_decref(root);
    return rc;
}

/* ---- the YAML entry --------------------------------------------------------------------- */

static void yq(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* 8030261248 -> "8,030,261,248" */
static char *grp(double v, char *buf, size_t n)
{
    char t[40];
    size_t len, i, k = 0;
    snprintf(t, sizeof t, "%.0f", v);
    len = strlen(t);
    for (i = 0; i < len && k + 2 < n; i++) {
        buf[k++] = t[i];
        if (i + 1 < len && (len - i - 1) % 3 == 0)
            buf[k++] = ',';
    }
    buf[k] = '\0';
    return buf;
}

/* The linear layers' mixer, as the note and the table name it. */
static const char *mixer_name(const gp_param_shape *s)
{
    return s->linear_kind == GP_MIXER_MAMBA2   ? "Mamba-2"
           : s->linear_kind == GP_MIXER_MAMBA1 ? "Mamba-1"
                                               : "Gated DeltaNet";
}

/* Nemotron-H's blocks: each one's parameters and the sum. */
static void note_blocks(FILE *f, const hfm *m)
{
    const gp_param_count *n = &m->n;
    const gp_param_shape *s = &m->s;
    double la = s->layers - s->linear_layers;
    char a[40], b[40], c[40], d[40], t[40];
    if (s->moe_blocks > 0.0)
        fprintf(f, " Blocks: the config's %.0f (%.0f Mamba-2, %.0f attention, %.0f MLP, %.0f MoE) "
                   "are entered as %.0f layers, one per mixer block; the MLP and MoE blocks' "
                   "parameters are in params, but gpuplan's per-layer figures (activations, "
                   "per-layer overheads, train's shape) take %.0f layers as a mixer with the "
                   "MoE FFN and the other %.0f (moe.dense_layers) as a mixer with an FFN of "
                   "width %.0f.",
                m->blocks, s->linear_layers, la, s->ffn_blocks, s->moe_blocks, s->layers,
                s->moe_blocks, s->layers - s->moe_blocks, s->ffn);
    else
        fprintf(f, " Blocks: the config's %.0f (%.0f Mamba-2, %.0f attention, %.0f MLP) are "
                   "entered as %.0f layers, one per mixer block; the MLP blocks' parameters are "
                   "in params, but gpuplan's per-layer figures (activations, per-layer "
                   "overheads, train's shape) take each layer as a mixer with an FFN of width "
                   "%.0f.",
                m->blocks, s->linear_layers, la, s->ffn_blocks, s->layers, s->ffn);
    fprintf(f, " params = attention block %s + norm %s = %s",
            grp(n->attn, a, sizeof a), grp(n->norms, b, sizeof b),
            grp(n->attn + n->norms, c, sizeof c));
    if (s->linear_layers > 0.0)
        fprintf(f, "; Mamba-2 block %s + norm = %s", grp(n->linear_attn, a, sizeof a),
                grp(n->linear_attn + n->norms, b, sizeof b));
    if (s->ffn_blocks > 0.0)
        fprintf(f, "; MLP block FFN %s + norm = %s", grp(n->dense_ffn, a, sizeof a),
                grp(n->ffn_block, b, sizeof b));
    if (s->moe_blocks > 0.0) {
        fprintf(f, "; MoE block router %s + %.0f %s experts x %s", grp(n->router, a, sizeof a),
                s->experts, experts_plain(s) ? "plain" : "gated", grp(n->expert, b, sizeof b));
        if (n->shared > 0.0)
            fprintf(f, " + shared %s", grp(n->shared, c, sizeof c));
        fprintf(f, " + norm = %s", grp(n->moe_block, d, sizeof d));
    }
    fprintf(f, "; total %.0f x %s", la, grp(n->attn + n->norms, a, sizeof a));
    if (s->linear_layers > 0.0)
        fprintf(f, " + %.0f x %s", s->linear_layers, grp(n->linear_attn + n->norms, b, sizeof b));
    if (s->ffn_blocks > 0.0)
        fprintf(f, " + %.0f x %s", s->ffn_blocks, grp(n->ffn_block, c, sizeof c));
    if (s->moe_blocks > 0.0)
        fprintf(f, " + %.0f x %s", s->moe_blocks, grp(n->moe_block, c, sizeof c));
    fprintf(f, " + embedding %s", grp(n->embed, d, sizeof d));
    if (n->lm_head > 0.0)
        fprintf(f, " + lm_head %s", grp(n->lm_head, a, sizeof a));
    else
        fprintf(f, " (tied)");
    fprintf(f, " + final norm %s = %s.", grp(n->final_norm, b, sizeof b),
            grp(n->total, t, sizeof t));
    if (s->moe_blocks > 0.0)
        fprintf(f, " Active: %s per MoE block (router, %.0f experts%s, norm) = %s with both "
                   "embeddings (%s without the input one).",
                grp(n->moe_ffn_active + n->norms, a, sizeof a), s->experts_active,
                n->shared > 0.0 ? ", shared" : "", grp(n->active, t, sizeof t),
                grp(n->active - n->embed, b, sizeof b));
}

static void note_text(FILE *f, const hfm *m)
{
    const gp_param_count *n = &m->n;
    const gp_param_shape *s = &m->s;
    char a[40], b[40], c[40], d[40], t[40];
    double dense = s->experts > 0.0 ? s->dense_layers : s->layers, moe = s->layers - dense;
    fprintf(f, "Imported from a Hugging Face config.json (model_type %s%s).",
            m->model_type[0] ? m->model_type : "unknown", m->text_config ? ", text_config" : "");
    if (s->split_blocks) {
        note_blocks(f, m);
        goto counted;
    }
    fprintf(f, " params = per layer attention %s + norms %s", grp(n->attn, a, sizeof a),
            grp(n->norms, b, sizeof b));
    if (dense > 0.0)
        fprintf(f, "; dense layers (%.0f): attention + norms + FFN %s = %s each", dense,
                grp(n->dense_ffn, a, sizeof a), grp(n->dense_layer, b, sizeof b));
    if (moe > 0.0) {
        fprintf(f, "; MoE layers (%.0f): attention + norms + router %s + %.0f experts x %s", moe,
                grp(n->router, a, sizeof a), s->experts, grp(n->expert, b, sizeof b));
        if (n->shared > 0.0)
            fprintf(f, " + shared %s", grp(n->shared, c, sizeof c));
        fprintf(f, " = %s each", grp(n->moe_layer, d, sizeof d));
    }
    fprintf(f, "; total %.0f x %s%s + embedding %s", dense > 0.0 ? dense : moe,
            dense > 0.0 ? "dense" : "MoE", dense > 0.0 && moe > 0.0 ? " + MoE layers" : " layers",
            grp(n->embed, a, sizeof a));
    if (n->lm_head > 0.0)
        fprintf(f, " + lm_head %s", grp(n->lm_head, a, sizeof a));
    else
        fprintf(f, " (tied)");
    if (n->pos_embed > 0.0)
        fprintf(f, " + positions %s", grp(n->pos_embed, a, sizeof a));
    fprintf(f, " + final norm %s", grp(n->final_norm, b, sizeof b));
    if (s->linear_layers > 0.0)
        fprintf(f, " + %.0f linear-attention layers x (%s %s - attention %s)", s->linear_layers,
                mixer_name(s), grp(n->linear_attn, a, sizeof a), grp(n->attn, c, sizeof c));
    fprintf(f, " = %s.", grp(n->total, t, sizeof t));
    if (moe > 0.0)
        fprintf(f, " Active: %s per MoE layer (router, %.0f experts%s)%s%s%s = %s%s.",
                grp(n->attn + n->norms + n->moe_ffn_active, a, sizeof a), s->experts_active,
                n->shared > 0.0 ? ", shared" : "",
                s->linear_layers > 0.0 ? ", the same linear-attention difference on " : "",
                s->linear_layers > 0.0 ? grp(s->linear_layers, b, sizeof b) : "",
                s->linear_layers > 0.0 ? " layers" : "", grp(n->active, t, sizeof t),
                s->active_no_embed ? " (input embedding left out, the gpt-oss card's convention)"
                                   : " with both embeddings");
counted:
    {
        /* What the count holds beyond projections, FFNs and two norms a
         * layer, listed with commas. */
        const char *item[10];
        size_t k, ni = 0;
        if (s->qkv_bias)
            item[ni++] = "q/k/v biases";
        if (s->o_bias)
            item[ni++] = "o bias";
        if (s->mlp_bias)
            item[ni++] = "FFN biases";
        if (s->qk_norm)
            item[ni++] = s->qk_norm == GP_QK_NORM_FULL
                             ? "q/k norms over the whole projections (H d + K d)"
                             : "q/k norms";
        if (s->sandwich_norm)
            item[ni++] = "four norms per layer";
        if (s->attn_sinks)
            item[ni++] = "attention sinks";
        if (s->norm_bias)
            item[ni++] = "LayerNorm biases";
        if (s->attn_gate)
            item[ni++] = "an attention output gate (q_proj h x 2 H d)";
        if (s->router_bias && s->experts > 0.0)
            item[ni++] = "a router bias per expert";
        if (s->index_heads > 0.0)
            item[ni++] = "a lightning indexer (q_r n_i d_i + h d_i + 2 d_i + h n_i)";
        for (k = 0; k < ni; k++)
            fprintf(f, "%s%s", k ? ", " : " Counted: ", item[k]);
        if (ni > 0)
            fputc('.', f);
    }
    if (s->linear_layers > 0.0 && s->linear_kind == GP_MIXER_MAMBA2)
        fprintf(f, " Mamba-2: %.0f of %.0f layers (%.0f heads of %.0f, %.0f group%s, state %.0f, "
                   "kernel %.0f%s%s; d_i = %.0f, c = d_i + 2 G N = %.0f conv channels): h (d_i + c "
                   "+ H) + c K + 3 H + d_i + d_i h%s%s = %s each; state d_i N + (K - 1) c = %s "
                   "elements per sequence per layer.",
                s->linear_layers, s->layers, s->ssm_heads, s->ssm_inner / s->ssm_heads,
                s->ssm_groups, s->ssm_groups == 1.0 ? "" : "s", s->ssm_state, s->linear_conv,
                s->ssm_conv_bias ? ", conv bias" : "", s->ssm_proj_bias ? ", projection biases" : "",
                s->ssm_inner, s->ssm_inner + 2.0 * s->ssm_groups * s->ssm_state,
                s->ssm_conv_bias ? " + c" : "", s->ssm_proj_bias ? " + (d_i + c + H + h)" : "",
                grp(n->linear_attn, a, sizeof a), grp(n->linear_state, b, sizeof b));
    else if (s->linear_layers > 0.0 && s->linear_kind == GP_MIXER_MAMBA1)
        fprintf(f, " Mamba-1: %.0f of %.0f layers (d_i %.0f, state %.0f, dt rank %.0f, kernel "
                   "%.0f%s%s%s): 2 h d_i + d_i K + d_i (R + 2 N) + R d_i + d_i + d_i N + d_i + d_i "
                   "h%s%s%s = %s each; state d_i N + (K - 1) d_i = %s elements per sequence per "
                   "layer.",
                s->linear_layers, s->layers, s->ssm_inner, s->ssm_state, s->ssm_dt_rank,
                s->linear_conv, s->ssm_conv_bias ? ", conv bias" : "",
                s->ssm_proj_bias ? ", projection biases" : "",
                s->ssm_dt_norms ? ", dt/B/C norms" : "", s->ssm_conv_bias ? " + d_i" : "",
                s->ssm_proj_bias ? " + 2 d_i + h" : "", s->ssm_dt_norms ? " + R + 2 N" : "",
                grp(n->linear_attn, a, sizeof a), grp(n->linear_state, b, sizeof b));
    else if (s->linear_layers > 0.0)
        fprintf(f, " Linear attention: %.0f of %.0f layers are Gated DeltaNet (%.0f key and %.0f "
                   "value heads of %.0f and %.0f, kernel %.0f): h (2 n_k d_k + 2 n_v d_v) + h 2 "
                   "n_v + (2 n_k d_k + n_v d_v) K + 2 n_v + d_v + n_v d_v h = %s each; state "
                   "n_v d_k d_v + (2 n_k d_k + n_v d_v)(K - 1) = %s elements per sequence per "
                   "layer.",
                s->linear_layers, s->layers, s->linear_key_heads, s->linear_value_heads,
                s->linear_key_dim, s->linear_value_dim, s->linear_conv,
                grp(n->linear_attn, a, sizeof a), grp(n->linear_state, b, sizeof b));
    fprintf(f, " MODEL: docs/hwdb.md, Importing a Hugging Face config.json.");
}

/* Bytes of one Mamba layer's state per sequence when the config asks for a
 * float32 SSM cache (mamba_ssm_cache_dtype): the temporal state d_i N in 4
 * bytes an element, the convolution's (K - 1) channels in 2 (vLLM's
 * mamba_cache_dtype stays the model's); 0 otherwise. */
static double state_fp32_bytes(const hfm *m)
{
    double temporal = m->s.ssm_inner * m->s.ssm_state;
    if (!m->ssm_fp32 || m->s.linear_kind == GP_MIXER_GDN || !(temporal > 0.0) ||
        !(temporal <= m->n.linear_state))
        return 0.0;
    return 4.0 * temporal + 2.0 * (m->n.linear_state - temporal);
}

/* A dense model of one-sublayer blocks with MLP blocks on fewer than its
 * mixer layers: written as ffn_layers (docs/hwdb.md). */
static int has_ffn_layers(const gp_param_shape *s)
{
    return s->split_blocks && !(s->experts > 0.0) && s->ffn_blocks > 0.0 &&
           s->ffn_blocks < s->layers;
}

/* The entry's YAML (malloc'd into *out) with `date` in its source. */
static int render(const hfm *m, const char *path, const char *date, char **out, gp_err *e)
{
    char *buf = NULL, src[4096];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const gp_param_shape *s = &m->s;
    *out = NULL;
    if (f == NULL)
        return GP_RAISE(e, GP_ENOMEM, "out of memory writing the model entry");
    /* The path is quoted in sources.hf_config below; a comment line would
     * carry a newline in a file name into the YAML. */
    fprintf(f, "%s\n# from a Hugging Face config.json (see sources.hf_config); edit freely (a "
               "re-import replaces this file).\n",
            HF_MARK);
    fprintf(f, "id: %s\nname: ", m->id);
    yq(f, m->name);
    fprintf(f, "\nfamily: ");
    yq(f, m->model_type[0] ? m->model_type : "unknown");
    fprintf(f, "\nattention: %s\nsrc: hf_config\nsources:\n  hf_config: ", m->attention);
    snprintf(src, sizeof src, "%s (model_type %s%s; %s), " HF_DATE_TAG "%s",
             strlen(path) < 1024 ? path : "config.json",
             m->model_type[0] ? m->model_type : "unknown", m->text_config ? ", text_config" : "",
             m->used, date);
    yq(f, src);
    fprintf(f, "\nnote: ");
    {
        char *nb = NULL;
        size_t nl = 0;
        FILE *nf = open_memstream(&nb, &nl);
        if (nf == NULL) {
            fclose(f);
            free(buf);
            return GP_RAISE(e, GP_ENOMEM, "out of memory writing the model entry");
        }
        note_text(nf, m);
        fclose(nf);
        yq(f, nb);
        free(nb);
    }
    fprintf(f, "\nparams: {value: %.0f, src: derived}\n", m->n.total);
    if (s->experts > 0.0)
        fprintf(f, "params_active: {value: %.0f, src: derived}\n", m->n.active);
    fprintf(f, "layers: %.0f\nhidden: %.0f\nheads: %.0f\nkv_heads: %.0f\nhead_dim: %.0f\n",
            s->layers, s->hidden, s->heads, s->kv_heads, s->head_dim);
    fprintf(f, "ffn_hidden: %.0f\nvocab: %.0f\ncontext: %.0f\ntied_embeddings: %s\n",
            m->ffn_hidden, s->vocab, m->context, s->tied ? "true" : "false");
    if (s->attn_gate)
        fprintf(f, "attention_gate: true\n");
    if (has_ffn_layers(s))
        fprintf(f, "ffn_layers: %.0f\n", s->ffn_blocks);
    if (m->kv_dim > 0.0)
        fprintf(f, "kv_dim: %.0f\nqk_head_dim: %.0f\n", m->kv_dim, m->qk_head_dim);
    if (s->experts > 0.0) {
        fprintf(f, "moe:\n  experts: %.0f\n  active: %.0f\n", s->experts, s->experts_active);
        if (s->shared_experts > 0.0) {
            double sh = s->shared_ffn > 0.0 ? floor(s->shared_experts * s->shared_ffn /
                                                    s->expert_ffn + 0.5)
                                            : s->shared_experts;
            fprintf(f, "  shared: %.0f\n", sh < 1.0 ? 1.0 : sh);
        }
        fprintf(f, "  expert_ffn_hidden: %.0f\n", s->expert_ffn);
        if (s->dense_layers > 0.0)
            fprintf(f, "  dense_layers: %.0f\n", s->dense_layers);
        if (experts_plain(s))
            fprintf(f, "  expert_ffn_kind: plain\n");
    }
    if (m->window > 0.0) {
        fprintf(f, "window:\n  tokens: %.0f\n", m->window);
        if (m->window_layers > 0.0)
            fprintf(f, "  layers: %.0f\n", m->window_layers);
    }
    if (m->s.linear_layers > 0.0)
        fprintf(f, "linear:\n  layers: %.0f\n  state: {value: %.0f, src: derived}\n"
                   "  params: {value: %.0f, src: derived}\n",
                m->s.linear_layers, m->n.linear_state, m->n.linear_attn);
    if (m->s.linear_layers > 0.0 && state_fp32_bytes(m) > 0.0)
        fprintf(f, "  state_bytes: {value: %.0f, src: derived}\n", state_fp32_bytes(m));
    if (fclose(f) != 0) {
        free(buf);
        return GP_RAISE(e, GP_ENOMEM, "out of memory writing the model entry");
    }
    *out = buf;
    return GP_OK;
}

/* Today (UTC), or $SOURCE_DATE_EPOCH's day when set (reproducible files). */
static void today(char *buf, size_t n)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t = time(NULL);
    struct tm tm;
    if (sde != NULL && sde[0] != '\0') {
        char *end;
        long long v;
        errno = 0;
        v = strtoll(sde, &end, 10);
        if (errno == 0 && *end == '\0' && v >= 0)
            t = (time_t)v;
    }
    if (gmtime_r(&t, &tm) == NULL)
        snprintf(buf, n, "1970-01-01");
    else
        strftime(buf, n, "%Y-%m-%d", &tm);
}

static void print_warnings(const gp_cli *cli, const char *path, const hfm *m)
{
    size_t i;
    for (i = 0; i < m->nwarn; i++)
        fprintf(stderr, "gpuplan %s: warning: %s: %s\n", cli->cmd ? cli->cmd : "", path,
                m->warn[i]);
}

/* ---- --model FILE.json ------------------------------------------------------------------- */

int gp_cli_model_file(gp_cli *cli, const char **model_id)
{
    gp_err e;
    hfm *m;
    char date[16], *text = NULL, label[PATH_MAX + 8];
    const gp_db *db0;
    gp_db *db = NULL;
    int rc;
    if (*model_id == NULL || !gp_cli_is_model_file(*model_id))
        return GP_EXIT_OK;
    gp_err_clear(&e);
    if ((m = calloc(1, sizeof *m)) == NULL) {
        fprintf(stderr, "gpuplan %s: out of memory\n", cli->cmd ? cli->cmd : "");
        return GP_EXIT_FAIL;
    }
    if (hf_convert(*model_id, NULL, NULL, m, &e) != GP_OK) {
        free(m);
        /* "--model" when the file cannot be read names the option too. */
        return gp_cli_fail(cli, &e);
    }
    print_warnings(cli, *model_id, m);
    if ((db0 = gp_cli_db(cli)) == NULL) {
        free(m);
        return GP_EXIT_USAGE;
    }
    /* An id the database already has (the shipped entry the file came
     * from) would merge into it: the run's entry takes "<id>.json". */
    if (gp_db_find_model(db0, m->id) != NULL) {
        size_t n = strlen(m->id);
        if (n > 59)
            n = 59;
        memcpy(m->id + n, ".json", 6);
        if (gp_db_find_model(db0, m->id) != NULL) {
            fprintf(stderr, "gpuplan %s: --model %s: the database already has models '%.*s' and "
                            "'%s'; import it under another id (gpuplan hw import-model --as ID)\n",
                    cli->cmd ? cli->cmd : "", *model_id, (int)n, m->id, m->id);
            free(m);
            return GP_EXIT_USAGE;
        }
    }
    today(date, sizeof date);
    if ((rc = render(m, *model_id, date, &text, &e)) != GP_OK) {
        free(m);
        return gp_cli_fail(cli, &e);
    }
    snprintf(label, sizeof label, "hf:%s", *model_id);
    rc = gp_db_open_with_text(&db, 0, cli->db_dirs, cli->n_db, GP_KIND_MODEL, label, text,
                              strlen(text), &e);
    free(text);
    if (rc != GP_OK) {
        free(m);
        return gp_cli_fail(cli, &e);
    }
    gp_db_free(cli->db);
    cli->db = db;
    snprintf(cli->model_file_id, sizeof cli->model_file_id, "%s", m->id);
    *model_id = cli->model_file_id;
    free(m);
    return GP_EXIT_OK;
}

/* ---- hw import-model ---------------------------------------------------------------------- */

static const char import_usage[] =
    "usage: gpuplan [--db DIR] [--json] hw import-model FILE [--as ID] [--name NAME] [--force]\n"
    "\n"
    "Read a Hugging Face config.json and write the model entry (shape and parameter\n"
    "counts, every figure sourced) to models/ID.yaml in the first --db DIR, else the\n"
    "first $GPUPLAN_DB entry, else ${XDG_CONFIG_HOME:-~/.config}/gpuplan; atomic, and\n"
    "the same file twice writes the same bytes.  Shipped files are never touched.\n"
    "decode, train and scale also take '--model FILE.json' for one run, writing\n"
    "nothing.  The conversion: docs/hwdb.md, 'Importing a Hugging Face config.json'.\n"
    "\n"
    "  --as ID      the entry's id (default: _name_or_path's last part, lower-cased;\n"
    "               else the directory of a file named config.json; else the file's name)\n"
    "  --name NAME  the entry's name (default: _name_or_path's last part)\n"
    "  --force      allow an id that names a shipped model (the entry then overrides it\n"
    "               field by field), and replace a file import-model did not write\n";

/* Every directory gpuplan loads, with the write directory last when it is
 * not among them (a default directory created by this import). */
static size_t load_dirs(const gp_cli *cli, const char *dir, const char **dirs, size_t cap)
{
    size_t i, n = 0;
    int have = 0;
    for (i = 0; i < cli->n_db && n < cap; i++) {
        dirs[n++] = cli->db_dirs[i];
        if (strcmp(cli->db_dirs[i], dir) == 0)
            have = 1;
    }
    if (!have && n < cap)
        dirs[n++] = dir;
    return n;
}

static void restore(const char *mdir, const char *fname, const char *path, const char *old)
{
    gp_err e;
    gp_err_clear(&e);
    if (old == NULL)
        unlink(path);
    else
        (void)gp_cli_write_atomic(mdir, fname, old, &e);
}

static json_t *import_json(const hfm *m, const char *path, const char *state)
{
    json_t *o = json_object(), *w = json_array();
    const gp_param_shape *s = &m->s;
    size_t i;
    json_object_set_new(o, "id", json_string(m->id));
    json_object_set_new(o, "name", json_string(m->name));
    json_object_set_new(o, "path", json_string(path));
    json_object_set_new(o, "status", json_string(state));
    json_object_set_new(o, "model_type", json_string(m->model_type));
    json_object_set_new(o, "text_config", json_boolean(m->text_config));
    json_object_set_new(o, "params", jcount(m->n.total));
    json_object_set_new(o, "params_active", jcount(m->n.active));
    json_object_set_new(o, "layers", jcount(s->layers));
    json_object_set_new(o, "hidden", jcount(s->hidden));
    json_object_set_new(o, "heads", jcount(s->heads));
    json_object_set_new(o, "kv_heads", jcount(s->kv_heads));
    json_object_set_new(o, "head_dim", jcount(s->head_dim));
    json_object_set_new(o, "ffn_hidden", jcount(m->ffn_hidden));
    json_object_set_new(o, "vocab", jcount(s->vocab));
    json_object_set_new(o, "context", jcount(m->context));
    json_object_set_new(o, "tied_embeddings", json_boolean(s->tied));
    json_object_set_new(o, "attention", json_string(m->attention));
    json_object_set_new(o, "kv_dim", m->kv_dim > 0.0 ? jcount(m->kv_dim) : json_null());
    json_object_set_new(o, "qk_head_dim",
                        m->qk_head_dim > 0.0 ? jcount(m->qk_head_dim) : json_null());
    if (s->experts > 0.0) {
        json_t *moe = json_object();
        json_object_set_new(moe, "experts", jcount(s->experts));
        json_object_set_new(moe, "active", jcount(s->experts_active));
        json_object_set_new(moe, "shared", jcount(s->shared_experts));
        json_object_set_new(moe, "expert_ffn_hidden", jcount(s->expert_ffn));
        json_object_set_new(moe, "expert_ffn_kind",
                            json_string(experts_plain(s) ? "plain" : "gated"));
        json_object_set_new(moe, "dense_layers", jcount(s->dense_layers));
        json_object_set_new(o, "moe", moe);
    } else {
        json_object_set_new(o, "moe", json_null());
    }
    if (m->window > 0.0) {
        json_t *win = json_object();
        json_object_set_new(win, "tokens", jcount(m->window));
        json_object_set_new(win, "layers",
                            jcount(m->window_layers > 0.0 ? m->window_layers : s->layers));
        json_object_set_new(o, "window", win);
    } else {
        json_object_set_new(o, "window", json_null());
    }
    if (m->s.linear_layers > 0.0) {
        json_t *lin = json_object();
        json_object_set_new(lin, "layers", jcount(m->s.linear_layers));
        json_object_set_new(lin, "state", jcount(m->n.linear_state));
        json_object_set_new(lin, "mixer_params", jcount(m->n.linear_attn));
        if (state_fp32_bytes(m) > 0.0)
            json_object_set_new(lin, "state_bytes", jcount(state_fp32_bytes(m)));
        json_object_set_new(lin, "kind",
                            json_string(m->s.linear_kind == GP_MIXER_MAMBA2   ? "mamba2"
                                        : m->s.linear_kind == GP_MIXER_MAMBA1 ? "mamba1"
                                                                              : "gated_deltanet"));
        json_object_set_new(o, "linear", lin);
    } else {
        json_object_set_new(o, "linear", json_null());
    }
    if (s->split_blocks) {
        json_t *bl = json_object();
        json_object_set_new(bl, "blocks", jcount(m->blocks));
        json_object_set_new(bl, "mixer", jcount(s->layers));
        json_object_set_new(bl, "ffn", jcount(s->ffn_blocks));
        json_object_set_new(bl, "ffn_block_params", jcount(m->n.ffn_block));
        json_object_set_new(bl, "moe", jcount(s->moe_blocks));
        json_object_set_new(bl, "moe_block_params", jcount(m->n.moe_block));
        json_object_set_new(o, "blocks", bl);
    } else {
        json_object_set_new(o, "blocks", json_null());
    }
    for (i = 0; i < m->nwarn; i++)
        json_array_append_new(w, json_string(m->warn[i]));
    json_object_set_new(o, "warnings", w);
    return o;
}

static void import_table(const hfm *m, const char *file, const char *path, const char *state)
{
    const gp_param_shape *s = &m->s;
    char a[48], b[64];
    printf("%s: %s (model, from %s, model_type %s%s)\n", m->id, m->name, file,
           m->model_type[0] ? m->model_type : "unknown", m->text_config ? ", text_config" : "");
    gp_cli_row(state, path, NULL);
    snprintf(b, sizeof b, "%s", grp(m->n.total, a, sizeof a));
    gp_cli_row("params", b, "derived from the shape");
    if (s->experts > 0.0)
        gp_cli_row("params active", grp(m->n.active, a, sizeof a), "per token");
    snprintf(b, sizeof b, "%.0f layers x hidden %.0f", s->layers, s->hidden);
    gp_cli_row("shape", b, NULL);
    snprintf(b, sizeof b, "%s, %.0f heads, %.0f KV, head_dim %.0f", m->attention, s->heads,
             s->kv_heads, s->head_dim);
    gp_cli_row("attention", b, NULL);
    if (m->kv_dim > 0.0) {
        snprintf(b, sizeof b, "kv_dim %.0f, qk_head_dim %.0f", m->kv_dim, m->qk_head_dim);
        gp_cli_row("latent attention", b, NULL);
    }
    snprintf(b, sizeof b, "%.0f%s", m->ffn_hidden, s->gated ? " (gated)" : "");
    gp_cli_row("ffn_hidden", b, NULL);
    if (s->experts > 0.0) {
        snprintf(b, sizeof b, "%.0f experts, %.0f active, width %.0f%s", s->experts,
                 s->experts_active, s->expert_ffn, experts_plain(s) ? " (plain)" : "");
        gp_cli_row("moe", b, s->dense_layers > 0.0 ? "with dense layers" : NULL);
        if (s->dense_layers > 0.0) {
            snprintf(b, sizeof b, "%.0f", s->dense_layers);
            gp_cli_row("dense layers", b, NULL);
        }
        if (s->shared_experts > 0.0) {
            snprintf(b, sizeof b, "%.0f of width %.0f", s->shared_experts,
                     s->shared_ffn > 0.0 ? s->shared_ffn : s->expert_ffn);
            gp_cli_row("shared experts", b, NULL);
        }
    }
    snprintf(b, sizeof b, "%.0f", s->vocab);
    gp_cli_row("vocab", b, s->tied ? "tied embeddings" : "untied embeddings");
    snprintf(b, sizeof b, "%.0f", m->context);
    gp_cli_row("context", b, NULL);
    if (m->window > 0.0) {
        snprintf(b, sizeof b, "%.0f tokens on %.0f of %.0f layers", m->window,
                 m->window_layers > 0.0 ? m->window_layers : s->layers, s->layers);
        gp_cli_row("sliding window", b, NULL);
    }
    if (m->s.linear_layers > 0.0) {
        snprintf(b, sizeof b, "%.0f of %.0f layers, state %.0f elements", m->s.linear_layers,
                 s->layers, m->n.linear_state);
        gp_cli_row("linear attention", b,
                   s->linear_kind == GP_MIXER_MAMBA2   ? "Mamba-2: no KV cache, a state per sequence"
                   : s->linear_kind == GP_MIXER_MAMBA1 ? "Mamba-1: no KV cache, a state per sequence"
                                                       : "Gated DeltaNet: no KV cache, a state per "
                                                         "sequence");
    }
    if (s->split_blocks) {
        if (s->moe_blocks > 0.0)
            snprintf(b, sizeof b, "%.0f blocks: %.0f mixer, %.0f MLP, %.0f MoE", m->blocks,
                     s->layers, s->ffn_blocks, s->moe_blocks);
        else
            snprintf(b, sizeof b, "%.0f blocks: %.0f mixer, %.0f MLP", m->blocks, s->layers,
                     s->ffn_blocks);
        gp_cli_row("blocks", b, "one layer per mixer block");
    }
}

/* 1 when s is well-formed UTF-8 (no overlong forms, surrogates or code
 * points above U+10FFFF) without control characters: a name the YAML file
 * and a terminal can both hold. */
static int printable_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, n, cp, k;
        if (c < 0x20 || c == 0x7f)
            return 0;
        if (c < 0x80) {
            p++;
            continue;
        }
        n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
        if (n == 0 || c > 0xf4)
            return 0;
        cp = c & (0x3fu >> n);
        for (k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[k] & 0x3fu);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
            return 0;
        p += n + 1;
    }
    return 1;
}

int gp_cli_hw_import(gp_cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {{"as", required_argument, NULL, 'a'},
                                         {"name", required_argument, NULL, 'n'},
                                         {"force", no_argument, NULL, 'f'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *as = NULL, *name = NULL, *file, *dirs[20], *state;
    char dir[PATH_MAX], mdir[PATH_MAX], fname[96], path[PATH_MAX], date[16];
    char *text = NULL, *old = NULL, *oldre = NULL;
    int c, force = 0, is_default, status = GP_EXIT_OK;
    gp_err e;
    hfm *m = NULL;
    gp_db *b = NULL, *db = NULL;
    const gp_model *shipped, *back;

    gp_cli_getopt_reset();
    while ((c = gp_cli_getopt(cli, argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'a': as = optarg; break;
        case 'n': name = optarg; break;
        case 'f': force = 1; break;
        case 'h': fputs(import_usage, stdout); return GP_EXIT_OK;
        case GP_CLI_OPT_REPEAT: return GP_EXIT_USAGE;
        case ':':
            return gp_cli_usage(cli, "import-model: option '%s' needs a value",
                                argv[optind - 1]);
        default:
            return gp_cli_usage(cli, "import-model: unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return gp_cli_usage(cli, "import-model needs a config.json file");
    file = argv[optind];
    if (file[0] == '\0')
        return gp_cli_usage(cli, "import-model needs a config.json file (got '')");
    if (optind + 1 < argc)
        return gp_cli_usage(cli, "import-model: unexpected argument '%s'", argv[optind + 1]);
    if (name != NULL && (name[0] == '\0' || strlen(name) > 200))
        return gp_cli_usage(cli, "import-model: '--name' must be 1 to 200 characters");
    if (name != NULL && !printable_utf8(name))
        return gp_cli_usage(cli, "import-model: '--name' must be UTF-8 text without control "
                                 "characters");
    gp_err_clear(&e);
    if ((m = calloc(1, sizeof *m)) == NULL) {
        fprintf(stderr, "gpuplan hw: out of memory\n");
        return GP_EXIT_FAIL;
    }
    if (hf_convert(file, as, name, m, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        goto done;
    }
    print_warnings(cli, file, m);
    /* A shipped id (or alias, or the same name words) is refused unless --force. */
    if (gp_db_open(&b, 0, NULL, 0, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        goto done;
    }
    shipped = gp_db_find_model(b, m->id);
    if (shipped != NULL && !force) {
        fprintf(stderr,
                "gpuplan hw: import-model: id '%s' names the shipped model '%s' (%s); an entry "
                "with it would override the shipped figures: give another id with --as ID, or "
                "--force to override\n",
                m->id, shipped->id, shipped->name ? shipped->name : "");
        status = GP_EXIT_USAGE;
        goto done;
    }
    if (gp_cli_user_db_dir(cli, dir, sizeof dir, &is_default, &e) != GP_OK ||
        gp_cli_mkdir_p(dir, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        goto done;
    }
    snprintf(fname, sizeof fname, "%s.yaml", m->id);
    if ((size_t)snprintf(mdir, sizeof mdir, "%s/models", dir) >= sizeof mdir ||
        (size_t)snprintf(path, sizeof path, "%s/%s", mdir, fname) >= sizeof path) {
        GP_RAISE_AT(&e, GP_EIO, dir, 0, 0, "path too long");
        status = gp_cli_fail(cli, &e);
        goto done;
    }
    if (gp_cli_mkdir_p(mdir, &e) != GP_OK || gp_cli_slurp(path, &old, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        goto done;
    }
    today(date, sizeof date);
    if (render(m, file, date, &text, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        goto done;
    }
    state = "wrote";
    if (old != NULL && strncmp(old, HF_MARK, strlen(HF_MARK)) != 0 && !force) {
        fprintf(stderr, "gpuplan hw: import-model: %s exists and was not written by "
                        "'gpuplan hw import-model'; refusing to replace it (--force replaces it, "
                        "or --as ID names another file)\n",
                path);
        status = GP_EXIT_USAGE;
        goto done;
    }
    if (old != NULL) {
        /* The same file imported on another day: same entry, keep the bytes. */
        const char *d = strstr(old, HF_DATE_TAG);
        char odate[16];
        if (d != NULL && strlen(d + strlen(HF_DATE_TAG)) >= 10) {
            snprintf(odate, sizeof odate, "%.10s", d + strlen(HF_DATE_TAG));
            if (render(m, file, odate, &oldre, &e) != GP_OK) {
                status = gp_cli_fail(cli, &e);
                goto done;
            }
        }
        if (strcmp(old, text) == 0 || (oldre != NULL && strcmp(old, oldre) == 0))
            state = "unchanged";
        else
            state = "replaced";
    }
    if (strcmp(state, "unchanged") != 0 && gp_cli_write_atomic(mdir, fname, text, &e) != GP_OK) {
        status = gp_cli_fail(cli, &e);
        if (status == GP_EXIT_USAGE)
            status = GP_EXIT_FAIL; /* a write that failed is not the user's input */
        goto done;
    }
    /* Loaded back by the normal loader, with every overlay: a failure rolls
     * the file back. */
    {
        size_t nd = load_dirs(cli, dir, dirs, sizeof dirs / sizeof dirs[0]);
        if (gp_db_open(&db, 0, dirs, nd, &e) != GP_OK) {
            if (strcmp(state, "unchanged") != 0)
                restore(mdir, fname, path, old);
            fprintf(stderr, "gpuplan hw: import-model: the entry does not load; %s %s:\n",
                    strcmp(state, "unchanged") != 0 ? "nothing written to" : "left", path);
            status = gp_cli_fail(cli, &e);
            goto done;
        }
        back = gp_db_find_model(db, m->id);
        if (back == NULL || back->params.v != m->n.total) {
            if (strcmp(state, "unchanged") != 0)
                restore(mdir, fname, path, old);
            fprintf(stderr, "gpuplan hw: import-model: %s: another overlay entry overrides '%s'; "
                            "nothing written (give another id with --as ID)\n",
                    path, m->id);
            status = GP_EXIT_USAGE;
            goto done;
        }
    }
    if (cli->json) {
        status = gp_cli_emit(import_json(m, path, state)) == 0 ? GP_EXIT_OK : GP_EXIT_FAIL;
    } else {
        import_table(m, file, path, state);
        if (is_default)
            printf("  (the default database directory; gpuplan loads it on every run)\n");
    }
done:
    gp_db_free(db);
    gp_db_free(b);
    free(text);
    free(old);
    free(oldre);
    free(m);
    return status;
}
