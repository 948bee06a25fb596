/* The hardware database: GPUs, links, model shapes and number formats.
 *
 * Loaded once (built-in YAML compiled into the library, then overlay
 * directories in order, later ones winning field by field) into immutable
 * structs owned by the gp_db.  Every figure is SI and remembers its source.
 * Schema: docs/hwdb.md. */
#ifndef GP_DB_H
#define GP_DB_H

#include <stddef.h>

#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Numeric precisions a GPU computes in.  Integer rates are OP/s, stored with
 * the FLOP/s figures. */
typedef enum gp_precision {
    GP_FP64,
    GP_FP32,
    GP_TF32,
    GP_FP16,
    GP_BF16,
    GP_FP8,
    GP_INT8,
    GP_INT4,
    GP_FP4,
    GP_PREC__COUNT
} gp_precision;

/* Execution pipelines: CUDA cores (AMD: vector ALUs) vs Tensor Cores (AMD:
 * matrix cores). */
typedef enum gp_pipeline { GP_PIPE_CUDA, GP_PIPE_TENSOR, GP_PIPE__COUNT } gp_pipeline;

/* Tensor-core accumulate mode for fp16/bf16/fp8.  GP_ACC_FP32 is what
 * PyTorch/cuBLAS use and is the default; GeForce parts run GP_ACC_FP16 at
 * twice the fp32-accumulate rate. */
typedef enum gp_accum { GP_ACC_FP32, GP_ACC_FP16 } gp_accum;

/* The range the loader accepts for a link's rates (bytes/s per direction:
 * bandwidth, achievable, nvls, measured.bandwidth, a GPU's host copies) and
 * the cap on every rate it holds; options that stand in for such a rate
 * (allreduce/scale --host-bw, allreduce --measured-busbw) take the same
 * range, so every time derived from them stays finite. */
#define GP_LINK_RATE_MIN 1e3
#define GP_RATE_MAX 1e15

/* How far a GPU's measured figure (measured.compute.*,
 * measured.memory_bandwidth) may stand above its datasheet figure: GPU
 * Boost runs GeForce cards above their rated boost clock (an RTX 4090 rated
 * 2520 MHz sustains ~2.7-2.8 GHz, +7..11 %), and memory is overclocked (a
 * 4090 at 1018 of 1008 GB/s), so such a measurement is kept -- the expected
 * figure is then the datasheet's, which stays the ceiling
 * (gp_gpu_expected_peak, gp_gpu_expected_mem_bw); beyond, the loader refuses
 * it (another GPU's file, a sparse figure, a working set inside the caches). */
#define GP_MEAS_BOOST_MAX 1.15

/* How far a measured figure (memory bandwidth, a GEMM rate, host copies, a
 * link's bandwidth) may stand below its datasheet figure: 1 %.  No working
 * link, memory or GEMM runs 100 x under its datasheet -- a PCIe x16 link
 * trained down to x1 keeps 1/16 (6 %), a BF16 GEMM on CUDA cores instead of
 * Tensor Cores ~1/7 -- so a figure below is a latency-bound size, a unit
 * slip (MB/s read as GB/s is 1/1000), a broken slot (gen1 x1 on a gen5 x16
 * link, 1/512: `calib show` flags it DOWN-TRAINED, no figure to plan with)
 * or another device's file: `calib import` and the loader refuse it. */
#define GP_MEAS_FLOOR_MIN 0.01

/* How much less of its datasheet rate a GEMM in a format narrower than 16
 * bits reaches than a BF16 GEMM, where the GPU has no measurement of its own
 * (efficiency.compute_fp8): MAMF's best-shape GEMMs on the H100 SXM, FP8
 * 1402.6 of 1978.9 TFLOP/s (0.7088) against BF16 794.5 of 989.4 (0.8030)
 * (Bekman, ml-engineering @744d01e).  Doubling the tensor cores' rate
 * halves a tile's main loop while its epilogue (FP32 accumulators out, the
 * scales applied) and the power it draws do not shrink with it. */
#define GP_EFF_NARROW_RATIO ((1402.6 / 1978.9) / (794.5 / 989.4))

/* The same ratio on Blackwell, whose tensor cores keep 8-bit GEMMs nearly
 * as busy as 16-bit ones: MAMF on the B200, FP8 3432.5 of 4500 TFLOP/s
 * (0.7628) against BF16 1745.0 of 2250 (0.7756) -- 0.9835 (GB200: 0.723 /
 * 0.729, B300: 0.745 / 0.786).  For GPUs whose architecture starts with
 * "Blackwell" and that have no efficiency.compute_fp8. */
#define GP_EFF_NARROW_RATIO_BLACKWELL ((3432.5 / 4500.0) / (1745.0 / 2250.0))

/* MEAS against DATASHEET (> 0): 1 when it stands more than GP_MEAS_BOOST_MAX
 * above it, or (a figure > 0) below GP_MEAS_FLOOR_MIN of it -- with 1e-9 of
 * room, so that a figure written at exactly a bound (calib import prints
 * 3852.500GB/s for 1.15 x 3.35 TB/s) reads back within it.  The loader,
 * calib import and calib show all hold figures to these. */
int gp_meas_above_boost(double meas, double datasheet);
int gp_meas_below_floor(double meas, double datasheet);

/* One figure: an SI value (0 = not given; every stored quantity is > 0),
 * the citation it came from (datasheet title/URL, or "calibration FILE DATE")
 * and the place it was read ("builtin:gpus/h100-sxm.yaml:14:3" or an overlay
 * path).  Strings are owned by the database; NULL when absent. */
typedef struct gp_fig {
    double v;
    const char *src;
    const char *origin;
} gp_fig;

typedef struct gp_gpu {
    const char *id;
    const char *name;
    const char *const *aliases;
    size_t n_aliases;
    const char *vendor;
    const char *architecture;
    const char *compute_capability; /* "9.0"; NULL for non-NVIDIA           */
    const char *form_factor;        /* "SXM5", "PCIe card", ...             */
    const char *memory_type;        /* "HBM3", "GDDR6X", ...                */
    gp_fig sm_count;                /* SMs (AMD: CUs)                       */
    gp_fig clock_base;              /* Hz                                   */
    gp_fig clock_boost;             /* Hz                                   */
    /* Dense peak FLOP/s (OP/s for int) per precision and pipeline.  Tensor
     * rates for fp16/bf16/fp8 are the fp32-accumulate rates. */
    gp_fig peak[GP_PREC__COUNT][GP_PIPE__COUNT];
    /* Tensor rate with fp16 accumulate where the part distinguishes it
     * (GeForce); v = 0 means "same as peak[p][GP_PIPE_TENSOR]". */
    gp_fig peak_fp16acc[GP_PREC__COUNT];
    gp_fig sparsity;                /* 2:4 multiplier on tensor rates (2); 0 = none */
    gp_fig mem_capacity;            /* bytes, the marketed label            */
    gp_fig mem_usable;              /* bytes usable (nvidia-smi total)      */
    gp_fig mem_bw;                  /* device memory bytes/s                */
    gp_fig l2_size;                 /* bytes                                */
    gp_fig l2_bw;                   /* bytes/s                              */
    gp_fig lat_l1, lat_l2, lat_dram; /* seconds, load-to-use                */
    const char *host_link;          /* link id (PCIe generation x16)        */
    const char *scale_up_link;      /* link id, NULL when none (PCIe only)  */
    gp_fig tdp;                     /* watts                                */
    gp_fig price;                   /* USD purchase                         */
    gp_fig rent;                    /* USD per GPU-hour                     */
    /* Default efficiencies (fractions) for "expected" figures. */
    gp_fig eff_mem;                 /* achievable / datasheet memory bw     */
    gp_fig eff_compute;             /* achievable dense GEMM / datasheet    */
    gp_fig eff_compute_fp8;         /* the same for tensor math narrower than
                                       16 bits (fp8, int8, fp4, int4); 0 =
                                       eff_compute x GP_EFF_NARROW_RATIO
                                       (_BLACKWELL on Blackwell)            */
    gp_fig eff_mfu;                 /* default training MFU                 */
    gp_fig eff_decode;              /* decode: achieved fraction of bw      */
    gp_fig decode_layer_overhead;   /* decode: seconds per layer per token  */
    /* Measured figures from a calibration overlay (v = 0 when absent). */
    gp_fig meas_mem_bw;             /* bytes/s, device-memory copy (r+w)    */
    gp_fig meas_peak[GP_PREC__COUNT][GP_PIPE__COUNT]; /* FLOP/s, best GEMM  */
    gp_fig meas_l2_bw;              /* bytes/s                              */
    gp_fig meas_lat_l1, meas_lat_l2, meas_lat_dram; /* seconds              */
    gp_fig meas_h2d_bw, meas_d2h_bw; /* bytes/s pinned, per direction       */
    gp_fig meas_h2d_lat;            /* seconds                              */
    const char *calibration;        /* calibration file + date, NULL if none */
    int unified_memory;             /* 1: one per machine, its memory the CPU's
                                       (DGX Spark, Jetson; Apple by vendor) */
    const char *wide_link;          /* link id of a node of more GPUs than
                                       scale_up_link joins (its max_gpus: an
                                       NVLink bridge's pair); NULL = host_link.
                                       GeForce RTX 3090: pcie4-x16-host     */
} gp_gpu;

typedef enum gp_link_kind {
    GP_LINK_PCIE,
    GP_LINK_NVLINK,         /* NVLink through NVSwitch or direct mesh       */
    GP_LINK_NVLINK_BRIDGE,  /* NVLink bridge between a pair of cards        */
    GP_LINK_INFINIBAND,
    GP_LINK_ROCE,
    GP_LINK_ETHERNET,
    GP_LINK_INFINITY_FABRIC,
    GP_LINK_OTHER,          /* described by its figures alone (--link-bw)   */
    GP_LINK__COUNT
} gp_link_kind;

typedef enum gp_link_scope { GP_SCOPE_SCALE_UP, GP_SCOPE_SCALE_OUT } gp_link_scope;

typedef struct gp_link {
    const char *id;
    const char *name;
    const char *const *aliases;
    size_t n_aliases;
    gp_link_kind kind;
    gp_link_scope scope;
    gp_fig bw;              /* peak bytes/s per direction, per GPU (NIC: per port) */
    gp_fig bw_achievable;   /* typical achieved bytes/s per direction     */
    /* NVLink SHARP (NVLS) AllReduce, where the switch reduces: the achievable
     * bytes/s per direction per GPU when each GPU moves S(1+1/n) each way
     * (published busbw x (n+1) / (2(n-1))).  A different algorithm from the
     * ring behind bw_achievable, so it may exceed it; never above bw.
     * v = 0: the link has no in-network reduction.  Only on a switched
     * NVLink (kind GP_LINK_NVLINK, switched).  docs/models/collectives.md. */
    gp_fig bw_nvls;
    gp_fig latency;         /* alpha: seconds per message per hop         */
    gp_fig max_gpus;        /* GPUs it can join (bridge: 2); 0 = unbounded */
    int p2p;                /* 1: peer-to-peer; 0: staged through host    */
    int switched;           /* 1: full-bandwidth switch (NVSwitch, fabric) */
    gp_fig nics_per_gpu;    /* the scale-out NICs a node carries per GPU:
                               on a scale-up link, its nodes' (DGX-2: 8 for
                               16 = 0.5); on a scale-out link, its instance's
                               (efa-p4d: 4 for 8), which wins; 0 = the kind's
                               default (gp_topo_default_nics)             */
    gp_fig meas_bw;         /* calibration: measured bytes/s per direction */
    gp_fig meas_latency;    /* calibration: seconds                       */
    const char *calibration;
} gp_link;

typedef struct gp_model {
    const char *id;
    const char *name;
    const char *const *aliases;
    size_t n_aliases;
    const char *family;
    const char *attention;  /* "mha", "gqa" or "mla"                      */
    gp_fig params;          /* total parameters                          */
    gp_fig params_active;   /* active per token (MoE); = params if dense  */
    gp_fig layers, hidden, heads, kv_heads, head_dim, ffn_hidden, vocab;
    gp_fig context;         /* maximum context length, tokens             */
    gp_fig train_seq;       /* sequence length of its pre-training (the
                               bulk of the tokens), when it is shorter
                               than context; 0 = unknown                  */
    int tied_embeddings;    /* 1: lm_head shares the embedding matrix     */
    gp_fig experts;         /* MoE: routed experts per MoE layer (0: dense) */
    gp_fig experts_active;  /* MoE: routed experts used per token         */
    gp_fig shared_experts;  /* MoE: always-on experts                     */
    gp_fig expert_ffn_hidden; /* MoE: FFN width of one expert             */
    gp_fig dense_layers;    /* MoE: leading dense (non-MoE) layers        */
    const char *expert_ffn_kind; /* MoE: the experts' FFN (routed and
                               shared), "gated" (gate, up, down: 3 h f_e;
                               SwiGLU, every shipped MoE) or "plain" (up,
                               down: 2 h f_e; Nemotron 3's squared-ReLU
                               experts); NULL (absent) = gated            */
    gp_fig kv_dim;          /* elements cached per token per layer (K+V);
                               0 = 2 * kv_heads * head_dim (MLA: 576)     */
    gp_fig qk_head_dim;     /* query/key width per head when it differs from
                               the value's head_dim (MLA: 128 + 64 rope =
                               192); 0 = head_dim                         */
    gp_fig window;          /* sliding-window attention: positions a local
                               layer attends to and caches (Mistral 7B
                               v0.1: 4096); 0 = every layer is global     */
    gp_fig window_layers;   /* layers that use the window (Gemma 2: 21 of
                               42); 0 with a window = all layers          */
    gp_fig linear_layers;   /* layers whose token mixer is linear attention
                               or a state-space model (Qwen3-Next: 36 Gated
                               DeltaNet layers of 48): they cache no
                               positions but hold a constant recurrent
                               state per sequence; 0 = every layer attends.
                               Fewer than layers                          */
    gp_fig linear_state;    /* elements of that state per sequence per such
                               layer (Gated DeltaNet: v_heads x d_k x d_v +
                               (2 k_heads d_k + v_heads d_v)(conv - 1);
                               Qwen3-Next: 548,864).  Given with
                               linear_layers                              */
    gp_fig linear_params;   /* parameters of one such layer's token mixer
                               (gp_param_count.linear_attn: Qwen3-Next's
                               Gated DeltaNet 33,718,464; Nemotron-H 8B's
                               Mamba-2 109,635,968), which train prices in
                               place of the attention's q/k/v/o; 0 = not
                               given (priced as the attention's).  Only with
                               linear_layers                              */
    gp_fig ffn_layers;      /* layers that hold the dense FFN when fewer than
                               layers: a model of one-sublayer blocks
                               (Nemotron-H 8B: 24 MLP blocks for its 28
                               mixer blocks, which are its layers); 0 =
                               every layer.  train prices that many FFNs;
                               dense models only                          */
    gp_fig linear_state_bytes; /* bytes of linear_state per sequence per
                               such layer as engines hold it, when not 2
                               per element: a float32 SSM cache (Nemotron
                               3 Nano's mamba_ssm_cache_dtype: 524,288 x 4
                               + 18,432 x 2 = 2,134,016); 0 = 2 x
                               linear_state (GP_INFER_STATE_BITS)        */
    int attention_gate;     /* 1: the attention's q projection is twice as
                               wide, h x 2 q, the second half an output gate
                               (Qwen3-Next's gated attention): h q more per
                               attending layer, which train prices       */
} gp_model;

typedef enum gp_format_kind { GP_FMT_FLOAT, GP_FMT_INT, GP_FMT_QUANT } gp_format_kind;

typedef struct gp_format {
    const char *id;
    const char *name;
    const char *const *aliases;
    size_t n_aliases;
    gp_format_kind kind;
    gp_fig bits;            /* effective bits per element, scales and zero points included */
    gp_precision compute;   /* precision the arithmetic runs in (Q4_0: fp16) */
    gp_precision mma;       /* a faster tensor-core path the format's
                               matrix-matrix kernels may take besides
                               `compute` (GGUF integer quants: int8, llama.cpp
                               MMQ); GP_PREC__COUNT = none (the loader's
                               default; GP_FP64, what memset leaves, is read
                               as none too and refused in YAML).  Only the
                               ceiling uses it (docs/models/inference.md 5) */
    gp_fig group;           /* elements per scale group (0 = per tensor/none) */
    gp_fig dequant_scale;   /* unpacking work per weight relative to Q4_0's
                               simple blocks: the engine's dequant_flop is
                               multiplied by it (K-quant super-blocks with
                               sub-block scales and mins, i-quant grid
                               lookups cost more); 0 = not given = 1
                               (docs/models/inference.md 2)               */
    const char *engine;     /* id of the engine (infer.h) whose kernels the
                               format implies: GGUF types run on llama.cpp;
                               NULL = any engine                          */
    const char *output_id;  /* format of the output (lm_head) matrix in files
                               of this type, as given (GGUF: q6_k)         */
    const struct gp_format *output; /* that format, resolved after loading;
                               NULL = none given                          */
    const char *dense_id;   /* format of the body tensors outside the routed
                               experts (attention, router, dense and shared
                               FFNs; the input embedding) in files of this
                               type, as given (GGUF MXFP4 MoE: q8_0)       */
    const struct gp_format *dense; /* that format, resolved; NULL = the whole
                               body (and input embedding) in this format  */
} gp_format;

typedef enum gp_kind { GP_KIND_GPU, GP_KIND_LINK, GP_KIND_MODEL, GP_KIND_FORMAT, GP_KIND__COUNT } gp_kind;

typedef struct gp_db gp_db;

/* The loader's caps on a model entry (docs/hwdb.md "Limits and value
 * checks"), shared with gp_model_count_params and the config.json import:
 * every dimension (layers, widths, heads, vocab, context) a whole number in
 * [1, GP_MODEL_DIM_MAX]; a parameter count in [GP_MODEL_PARAMS_MIN,
 * GP_MODEL_PARAMS_MAX]. */
#define GP_MODEL_DIM_MAX 1e9
#define GP_MODEL_PARAMS_MIN 1e3
#define GP_MODEL_PARAMS_MAX 1e15

/* Load the built-in database (unless no_builtin) and then each overlay
 * directory in order (same layout as hwdb/: gpus/ links/ models/ formats/
 * and an optional sources.yaml).  On success *out owns everything; free it
 * with gp_db_free.  On failure *out is NULL and e names file:line:col and the
 * field.  Returns GP_OK, GP_EIO, GP_EPARSE, GP_ESCHEMA, GP_EDUP, GP_ENOMEM.
 * NULL out: GP_EINVAL.  overlay_dirs may be NULL when n_overlays is 0; a
 * NULL list for n_overlays > 0, or a NULL entry in it, is GP_EINVAL (*out
 * NULL). */
int gp_db_open(gp_db **out, int no_builtin, const char *const *overlay_dirs,
               size_t n_overlays, gp_err *e);

/* Load from YAML text (for tests and fuzzing): `name` is used in messages.
 * The text is one file of kind `kind`, applied over the built-in database
 * unless no_builtin.  NULL out: GP_EINVAL.  name may be NULL ("<text>"); a
 * NULL text is the empty file when len is 0, GP_EINVAL otherwise.  On
 * failure *out is NULL. */
int gp_db_open_text(gp_db **out, int no_builtin, gp_kind kind, const char *name,
                    const char *text, size_t len, gp_err *e);

void gp_db_free(gp_db *db); /* NULL is a no-op */

/* gp_db_open with one more layer after the overlays: `text`, one file of
 * kind `kind` held in memory (a model converted from a Hugging Face
 * config.json), named `name` in messages and origins.  It wins over every
 * overlay, as a last --db would: an entry whose id or alias names an
 * existing entry is merged into it, field by field.  The text is parsed
 * during the call and not kept (the caller still owns it; the database
 * copies what it needs).  All or nothing: on failure *out is NULL and e
 * names file:line:col (for errors in the text, `name`:line:col).  Returns
 * the codes of gp_db_open; GP_EINVAL for a bad kind or a NULL text with
 * len > 0.  NULL out, overlay_dirs and name: as for gp_db_open and
 * gp_db_open_text. */
int gp_db_open_with_text(gp_db **out, int no_builtin, const char *const *overlay_dirs,
                         size_t n_overlays, gp_kind kind, const char *name,
                         const char *text, size_t len, gp_err *e);

/* Entries of `kind`, and the i-th entry in database order: 0 / NULL for a
 * NULL db, a bad kind or i out of range. */
size_t gp_db_count(const gp_db *db, gp_kind kind);
const gp_gpu *gp_db_gpu_at(const gp_db *db, size_t i);
const gp_link *gp_db_link_at(const gp_db *db, size_t i);
const gp_model *gp_db_model_at(const gp_db *db, size_t i);
const gp_format *gp_db_format_at(const gp_db *db, size_t i);

/* Look up by id or alias, case-insensitively.  NULL when unknown, and for
 * a NULL db or name. */
const gp_gpu *gp_db_find_gpu(const gp_db *db, const char *name);
const gp_link *gp_db_find_link(const gp_db *db, const char *name);
const gp_model *gp_db_find_model(const gp_db *db, const char *name);
const gp_format *gp_db_find_format(const gp_db *db, const char *name);

/* As gp_db_find_*, but an unknown name is GP_ENOTFOUND with a message that
 * quotes it and lists the known ids, and a name two entries share is
 * GP_EINVAL ("could be A or B"); `what` names the option ("--gpu"; may be
 * NULL).  On failure *out is NULL.  NULL db, name or out: GP_EINVAL. */
int gp_db_get_gpu(const gp_db *db, const char *name, const char *what,
                  const gp_gpu **out, gp_err *e);
int gp_db_get_link(const gp_db *db, const char *name, const char *what,
                   const gp_link **out, gp_err *e);
int gp_db_get_model(const gp_db *db, const char *name, const char *what,
                    const gp_model **out, gp_err *e);
int gp_db_get_format(const gp_db *db, const char *name, const char *what,
                     const gp_format **out, gp_err *e);

/* Up to three ids of `kind` near `name` (a small edit distance from the id
 * or an alias, or a whole-word extension of it: "rtx-4060-ti" suggests the
 * 16 GB and 8 GB cards), nearest first, as "a, b, c" in out (cap bytes,
 * always terminated when cap > 0; whole ids only, the list ends at the
 * first that does not fit).  Returns how many it wrote; 0 when none, for a
 * NULL db or name (out then ""), a bad kind or cap 0.  NULL out: 0, nothing
 * written. */
size_t gp_db_suggest(const gp_db *db, gp_kind kind, const char *name, char *out, size_t cap);

/* The ids of `kind` in database order, space-separated, into out (cap bytes,
 * always terminated when cap > 0).  Whole ids only: when they do not all
 * fit the list ends with "... and N more: gpuplan hw list <kind>s", so a cut
 * is never silent.  Returns how many ids it wrote; 0 for a NULL db (out
 * then ""), a bad kind or cap 0.  NULL out: 0, nothing written. */
size_t gp_db_known(const gp_db *db, gp_kind kind, char *out, size_t cap);

/* Names: "fp16", "cuda"/"tensor", "gpu"/"link"/... ("unknown" out of
 * range).  The parsers return GP_OK or GP_EINVAL, *out untouched on error;
 * NULL s or out: GP_EINVAL. */
const char *gp_precision_name(gp_precision p);
int gp_precision_parse(const char *s, gp_precision *out, gp_err *e);
const char *gp_pipeline_name(gp_pipeline p);
int gp_pipeline_parse(const char *s, gp_pipeline *out, gp_err *e);
const char *gp_link_kind_name(gp_link_kind k);
const char *gp_kind_name(gp_kind k);

/* Dense (or 2:4-sparse when `sparse`) datasheet peak FLOP/s of precision p on
 * pipeline pipe with accumulate mode acc; 0 when the GPU lacks it (or sparse
 * is asked on a pipeline without it) and for a NULL g.  Every accessor from
 * here to gp_model_kv_elems_per_layer takes a NULL gpu, link or model as
 * well: it returns 0 (gp_gpu_default_pipeline: GP_PIPE_CUDA;
 * gp_link_mesh_share: 1). */
double gp_gpu_peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                   gp_accum acc, int sparse);

/* The pipeline a framework uses for precision p: Tensor Cores when the GPU
 * has a tensor rate for p, else CUDA cores. */
gp_pipeline gp_gpu_default_pipeline(const gp_gpu *g, gp_precision p);

/* Expected (achievable) FLOP/s: the calibrated figure when measured (at
 * most the datasheet's: gp_gpu_peak_capped), else peak x
 * gp_gpu_compute_eff.  0 when unsupported. */
double gp_gpu_expected_peak(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                            gp_accum acc, int sparse);

/* The fraction of the datasheet rate a GEMM in precision p on pipe reaches
 * without a calibration: efficiency.compute; for tensor math narrower than
 * 16 bits (fp8, int8, fp4, int4) efficiency.compute_fp8, else efficiency.compute
 * x GP_EFF_NARROW_RATIO (x GP_EFF_NARROW_RATIO_BLACKWELL on a Blackwell
 * GPU); 1 when the database has none.  *src (when src is
 * not NULL) names the figure's source: the database's, or "derived" text
 * naming the ratio; NULL when it is 1. */
double gp_gpu_compute_eff(const gp_gpu *g, gp_precision p, gp_pipeline pipe, const char **src);

/* Where gp_gpu_expected_peak's figure for p on pipe comes from, for
 * labels: the datasheet when a calibration measured above it (said so), the
 * calibration (its file and date, else the measured figure's source) when
 * it measured that GEMM, else gp_gpu_compute_eff's source; NULL when
 * there is none (no efficiency: the datasheet peak itself). */
const char *gp_gpu_expected_peak_src(const gp_gpu *g, gp_precision p, gp_pipeline pipe);

/* 1 for Tensor Core math narrower than 16 bits (fp8, int8, fp4, int4): the
 * formats gp_gpu_compute_eff gives efficiency.compute_fp8. */
int gp_precision_is_narrow(gp_precision p, gp_pipeline pipe);

/* The database field gp_gpu_compute_eff takes for p on pipe, for labels:
 * "efficiency.compute", "efficiency.compute_fp8", or
 * "efficiency.compute x 0.883" ("x 0.983" on Blackwell) when the narrow
 * figure is derived. */
const char *gp_gpu_compute_eff_field(const gp_gpu *g, gp_precision p, gp_pipeline pipe);

/* Expected device-memory bytes/s: calibrated (at most the datasheet's:
 * gp_gpu_mem_bw_capped), else mem_bw x eff_mem. */
double gp_gpu_expected_mem_bw(const gp_gpu *g);

/* 1 when a calibration measured above the datasheet (a boost clock, a
 * memory overclock: GP_MEAS_BOOST_MAX), so that the expected figure is the
 * datasheet's: what labels say where they name the expected figure's
 * source.  0 for a NULL g. */
int gp_gpu_peak_capped(const gp_gpu *g, gp_precision p, gp_pipeline pipe);
int gp_gpu_mem_bw_capped(const gp_gpu *g);

/* The source such a capped device-memory figure is given. */
#define GP_MEM_BW_CAPPED_SRC                                                     \
    "the datasheet bandwidth: the calibration measured above it (a memory "     \
    "overclock), and no expected figure passes its ceiling"

/* Expected link bytes/s per direction: calibrated, else bw_achievable, else bw. */
double gp_link_expected_bw(const gp_link *l);
/* Expected link latency (s): calibrated, else latency. */
double gp_link_expected_latency(const gp_link *l);
/* The share of a link's per-GPU bandwidth that n GPUs on it can use.  A
 * point-to-point mesh -- an Infinity Fabric link, not switched, joining at
 * most max_gpus > 2 GPUs, each GPU's figure split over one direct link to
 * each of its max_gpus - 1 peers (MI300X xGMI: 7 x 64 GB/s) -- gives n GPUs
 * the n - 1 links among them: (n - 1) / (max_gpus - 1), at most 1; one peer
 * (n = 2) gets one link.  1 for every other link (a switch or a PCIe port
 * serves each GPU at its full rate; an NVLink bridge entry covers both its
 * 2- and 4-way boards, so it is left whole; and for a NULL l).
 * docs/models/collectives.md. */
double gp_link_mesh_share(const gp_link *l, double n);

/* 1 for a scale-up link that joins at most max_gpus GPUs and is neither a
 * switch nor a full mesh (an NVLink bridge's pair): a node of more GPUs
 * gives way to another path (the GPU's wide_link, else its host link).  0
 * for a switch or mesh, which joins its whole domain, for a link without
 * max_gpus, and for a NULL l. */
int gp_link_gives_way(const gp_link *l);

/* 1 for a GPU that is one per machine and shares one memory with the CPU
 * (Apple silicon: vendor "Apple"; entries with unified_memory: true -- DGX
 * Spark's GB10, Jetson modules), whose database host link is nominal or
 * joins the CPU: host data is device memory, and there is no peer GPU to
 * reach without a network. */
int gp_gpu_unified(const gp_gpu *g);

/* Usable device memory in bytes: mem_usable, else mem_capacity. */
double gp_gpu_usable_mem(const gp_gpu *g);

/* Per-token KV-cache elements per layer (K and V): kv_dim, else
 * 2 * kv_heads * head_dim (head_dim defaulting to hidden / heads). */
double gp_model_kv_elems_per_layer(const gp_model *m);

/* The layers that attend and cache keys and values: L_a = layers -
 * linear_layers (Qwen3-Next: 48 - 36 = 12); layers when the model has no
 * linear-attention layers (or linear_layers is not below layers).  0 for
 * an unknown depth (layers 0) and a NULL m.  docs/models/inference.md
 * §1.2. */
double gp_model_attn_layers(const gp_model *m);

/* Weight matrices of one expert, k_f: 2 when moe.expert_ffn_kind is
 * "plain" (up, down), else 3 (gate, up, down; absent = gated, as before
 * the field).  One expert holds k_f h f_e weights.  3 for a NULL m.
 * docs/models/inference.md §1, docs/models/training.md §9.8. */
double gp_model_expert_matrices(const gp_model *m);

/* Parameters in the embedding matrices: vocab x hidden, once tied, twice
 * untied.  0 without both figures and for a NULL m. */
double gp_model_embed_params(const gp_model *m);

/* Recurrent-state elements one sequence holds, all layers together:
 * linear_layers x linear_state (Qwen3-Next: 36 x 548,864 = 19,759,104); 0
 * without linear-attention layers (as gp_model_attn_layers counts them)
 * and for a NULL m.  docs/models/inference.md §1.2. */
double gp_model_state_elems(const gp_model *m);

/* Sliding-window attention (docs/models/inference.md §1.1).  With a window
 * W on L_w of the L_a attending layers (gp_model_attn_layers: linear-
 * attention layers cache and attend to nothing, §1.2), a local layer
 * caches and attends to min(C, W) positions at context C, a global layer
 * to C.
 *   gp_model_kv_positions: the average over the attending layers,
 *     (L_g C + L_w min(C, W)) / L_a with L_g = L_a - L_w; C itself without
 *     a window (or C <= W).  Mistral 7B v0.1 (W 4096 on all 32 layers) at
 *     C = 32768: 4096.  Gemma 2 (W 4096 on 21 of 42) at C = 8192: 6144.
 *     Qwen3-Next (12 attending layers, no window): C.
 *   gp_model_kv_context: its inverse, the largest C whose average is <= pos
 *     (INFINITY when every attending layer is local and pos >= W).
 *   gp_model_attn_pairs: causal (query, key) pairs of a P-token prompt,
 *     averaged the same way: P^2/2 on a global layer, W^2/2 + (P - W) W on a
 *     local one when P > W.
 * Multiplied by L_a (the KV bytes per token and the attention FLOPs count
 * the attending layers only) they give the whole model's.  0 for C, pos or
 * P <= 0.  A NULL m is a model without a window. */
double gp_model_kv_positions(const gp_model *m, double ctx);
double gp_model_kv_context(const gp_model *m, double pos);
double gp_model_attn_pairs(const gp_model *m, double prompt);

/* Aspect ratio hidden / layers of the shape guessed for a model known only
 * by its parameter count: GPT-3 175B 12288/96, LLaMA 7B 4096/32, 13B
 * 5120/40 (docs/models/training.md §3.4). */
#define GP_MODEL_ASPECT_RATIO 128.0

/* Guess the depth and width of a dense transformer of `params` parameters
 * from N = 12 L h^2 (per layer 4 h^2 attention + 8 h^2 FFN of width 4h;
 * embeddings left in).  *layers and *hidden are in/out: a value > 0 is kept,
 * a missing one is guessed:
 *   neither given:  L = max(1, round(h0 / r)) with h0 = cbrt(r N / 12)
 *                   (r = aspect), then h = sqrt(N / (12 L));
 *   L given:        h = sqrt(N / (12 L));
 *   h given:        L = max(1, round(N / (12 h^2))).
 * Layers come out whole.  7e9: h0 = 4210.9, L = 33, h = 4204.4.  No-op
 * when params <= 0, both are given, or layers or hidden is NULL.
 * MODEL: docs/models/training.md §3.4. */
void gp_model_guess_shape(double params, double aspect, double *layers, double *hidden);

/* ---- parameter count from a shape (lib/paramcount.c) ----------------------
 * A decoder-only transformer as a Hugging Face config.json describes it
 * (docs/hwdb.md "Importing a Hugging Face config.json").  Widths are element
 * counts and must be whole; 0 means absent where a default is given.  The
 * int fields are flags (0 or 1). */
typedef struct gp_param_shape {
    double layers, hidden, heads, vocab; /* required, >= 1                  */
    double kv_heads;        /* 0 = heads                                     */
    double head_dim;        /* 0 = hidden / heads (must then divide)         */
    double ffn;             /* dense FFN inner width (required when a layer
                               is dense)                                     */
    double pos_embed;       /* rows of a learned position table (GPT-2:
                               n_positions; OPT: max_position_embeddings + 2);
                               0 = none (rotary)                             */
    int tied;               /* lm_head shares the input embedding            */
    int gated;              /* FFN gate + up + down: 3 h f; 0: up + down 2 h f */
    int norm_bias;          /* LayerNorm: every norm has a bias beside its weight */
    int qkv_bias;           /* q, k and v projections carry biases           */
    int o_bias;             /* the output projection carries a bias          */
    int mlp_bias;           /* FFN and expert projections carry biases       */
    int qk_norm;            /* RMSNorms on q and k: 0 none; GP_QK_NORM_HEAD
                               (1) per head, 2 d (Qwen3, Gemma 3);
                               GP_QK_NORM_FULL (2) over the whole
                               projections, H d + K d (OLMo 2 and 3,
                               MiniMax-M2)                                   */
    int sandwich_norm;      /* 4 norms per layer, not 2 (Gemma 2 and 3)      */
    int attn_sinks;         /* one learned sink logit per head (gpt-oss)     */
    double norms_per_layer; /* 0: 2 (4 with sandwich_norm); a parallel block
                               with one input norm (Falcon-7B): 1            */
    int embed_norm;         /* a norm on the input embedding (BLOOM's
                               word_embeddings_layernorm)                    */
    /* Mixture of experts: experts 0 = every layer dense. */
    double experts;         /* routed experts per MoE layer                  */
    double experts_active;  /* routed experts per token (<= experts)         */
    double expert_ffn;      /* width of one expert; 0 = ffn                  */
    double shared_experts;  /* always-on experts per MoE layer               */
    double shared_ffn;      /* width of one shared expert; 0 = expert_ffn    */
    int shared_gate;        /* a 1-wide sigmoid gate on the shared expert
                               (Qwen2-MoE: h weights)                        */
    int router_bias;        /* the router has a bias (gpt-oss)               */
    double dense_layers;    /* layers with a dense FFN instead (<= layers)   */
    double expert_matrices; /* the experts' (routed and shared) matrices k_e:
                               2 up + down (Nemotron 3's squared-ReLU
                               experts), 3 gate + up + down; 0 = as the
                               dense FFN (gated)                            */
    /* Multi-head latent attention (DeepSeek V2/V3): kv_lora_rank > 0. */
    double kv_lora_rank, q_lora_rank; /* q_lora_rank 0: queries uncompressed */
    double qk_nope_head_dim, qk_rope_head_dim, v_head_dim;
    int active_no_embed;    /* leave the input embedding (and position table)
                               out of the active count: the gpt-oss model
                               card's convention                             */
    int attn_gate;          /* an output gate on the attention: q_proj twice
                               as wide, h 2 H d (Qwen3-Next)                */
    /* Linear-attention or SSM mixers on linear_layers of the layers (0:
     * none; fewer than layers), the others attending; linear_kind says
     * which (GP_MIXER_GDN, the default, reads the linear_* widths;
     * GP_MIXER_MAMBA2 and GP_MIXER_MAMBA1 the ssm_* ones): */
    double linear_layers;
    int linear_kind;
    double linear_key_heads, linear_value_heads; /* n_k, n_v                 */
    double linear_key_dim, linear_value_dim;     /* d_k, d_v per head        */
    double linear_conv;     /* the short convolution's kernel K (all kinds) */
    double ssm_inner;       /* Mamba: the mixer's inner width d_i (Mamba-2:
                               ssm_heads x head width)                       */
    double ssm_heads;       /* Mamba-2: heads H (d_i / H each)              */
    double ssm_groups;      /* Mamba-2: B and C groups G                     */
    double ssm_state;       /* Mamba: d_state N                              */
    double ssm_dt_rank;     /* Mamba-1: rank R of the dt projection          */
    int ssm_conv_bias;      /* Mamba: conv1d carries a bias                  */
    int ssm_proj_bias;      /* Mamba: in_proj and out_proj carry biases      */
    int ssm_dt_norms;       /* Mamba-1: RMSNorms on dt, B and C (Jamba)      */
    /* Blocks of one sublayer each (Nemotron-H): with split_blocks a layer
     * is a mixer block (one norm, attention or linear mixer, no FFN),
     * ffn_blocks more blocks hold one norm and one dense FFN each, and
     * moe_blocks more (Nemotron 3's 'E') one norm and one MoE FFN each
     * (router, experts, shared experts; dense_layers unused). */
    int split_blocks;
    double ffn_blocks;
    double moe_blocks;
    /* DeepSeek Sparse Attention's lightning indexer (DeepSeek-V3.2), beside
     * latent attention with q_lora_rank: index_heads heads of
     * index_head_dim; 0 = none. */
    double index_heads, index_head_dim;
} gp_param_shape;

/* gp_param_shape.qk_norm. */
enum {
    GP_QK_NORM_NONE = 0,
    GP_QK_NORM_HEAD = 1,    /* one RMSNorm of head_dim for q, one for k      */
    GP_QK_NORM_FULL = 2     /* RMSNorms of H d (q) and K d (k)               */
};

/* gp_param_shape.linear_kind. */
enum {
    GP_MIXER_GDN = 0,       /* Gated DeltaNet (Qwen3-Next)                   */
    GP_MIXER_MAMBA2 = 1,    /* Mamba-2 (Nemotron-H, Granite 4.0-H)           */
    GP_MIXER_MAMBA1 = 2     /* Mamba-1 (Jamba)                               */
};

/* The count, by part.  "Per layer" parts are for one layer. */
typedef struct gp_param_count {
    double attn;            /* per attending layer: projections, their biases,
                               q/k norms, MLA norms, sinks                   */
    double linear_attn;     /* per linear-attention layer: its token mixer
                               (0 without such layers)                       */
    double linear_state;    /* per linear-attention layer: its recurrent
                               state, elements per sequence (0 without)      */
    double ffn_block;       /* split_blocks: one FFN block, FFN + its norm   */
    double moe_block;       /* split_blocks: one MoE block, moe_ffn + its norm */
    double norms;           /* per layer: the layer's norms                  */
    double dense_ffn;       /* per dense layer: its FFN                      */
    double expert;          /* one routed expert                             */
    double router;          /* per MoE layer: h E (+ E bias)                 */
    double shared;          /* per MoE layer: shared experts (+ their gate)  */
    double moe_ffn;         /* per MoE layer: router + E experts + shared    */
    double moe_ffn_active;  /* per MoE layer: router + k experts + shared    */
    double dense_layer;     /* attn + norms + dense_ffn (an attending layer) */
    double moe_layer;       /* attn + norms + moe_ffn (an attending layer)   */
    double embed;           /* V h                                           */
    double lm_head;         /* V h, 0 when tied                              */
    double pos_embed;       /* pos_embed h                                   */
    double final_norm;      /* h (2 h with norm_bias)                        */
    double embed_norm;      /* the input embedding's norm: as final_norm, or 0 */
    double total;           /* every parameter, each tied matrix once        */
    double active;          /* per token: = total when dense                 */
} gp_param_count;

/* Count the parameters of shape s into *out (zeroed first).  With L layers,
 * D = dense_layers, M = L - D MoE layers, h hidden, H heads, K kv_heads,
 * d head_dim, f ffn, fe expert width, E experts, k active, V vocab:
 *   attention  h H d (q) + 2 h K d (k, v) + H d h (o)
 *              [+ H d + 2 K d q/k/v biases] [+ h o bias] [+ 2 d q/k norms]
 *              [+ H sinks]; q/k norms 2 d per head (GP_QK_NORM_HEAD),
 *              H d + K d over the projections (GP_QK_NORM_FULL);
 *   MLA        q: h H (n + r), or h q_r + q_r (norm) + q_r H (n + r);
 *              kv_a h (c + r) + c (norm) + c H (n + v) + H v h (o),
 *              with n, r the nope / rope widths, c the kv_lora_rank, v the
 *              value width; a lightning indexer of n_i heads of d_i
 *              (index_heads) adds q_r n_i d_i (wq_b) + h d_i (wk) + 2 d_i
 *              (k_norm, a LayerNorm) + h n_i (weights_proj);
 *   FFN(w)     3 h w gated, else 2 h w [+ biases 2 w + h gated, w + h not];
 *              an expert's (routed or shared) with k_e = expert_matrices
 *              when given (2: up + down, 3: gate + up + down);
 *   norms      (norms_per_layer, else 4 sandwich, else 2) h per layer, x2
 *              with norm_bias;
 *   MoE layer  h E [+ E] router + E FFN(fe) + S FFN(fs) [+ h shared gate];
 *   gate       with attn_gate, q is h 2 H d (an output gate per head);
 *   linear     a Gated DeltaNet layer's mixer, with n_k, n_v heads of d_k,
 *              d_v and kernel K: h (2 n_k d_k + 2 n_v d_v) (in_proj_qkvz) +
 *              h 2 n_v (in_proj_ba) + (2 n_k d_k + n_v d_v) K (conv1d) +
 *              2 n_v (A_log, dt_bias) + d_v (gated norm) + n_v d_v h
 *              (out_proj), in place of the attention on L_lin layers;
 *              its state n_v d_k d_v + (2 n_k d_k + n_v d_v)(K - 1);
 *   Mamba-2    (linear_kind GP_MIXER_MAMBA2) with H heads, d_i inner
 *              width, G groups, state N, c = d_i + 2 G N conv channels:
 *              h (d_i + c + H) (in_proj) + c K (conv1d) + 3 H (dt_bias,
 *              A_log, D) + d_i (gated norm) + d_i h (out_proj) [+ the
 *              projections' biases d_i + c + H + h] [+ c conv bias]; its
 *              state d_i N + (K - 1) c;
 *   Mamba-1    (GP_MIXER_MAMBA1) with d_i, N and dt rank R: h 2 d_i
 *              (in_proj) + d_i K (conv1d) + d_i (R + 2 N) (x_proj) + R d_i
 *              + d_i (dt_proj) + d_i N (A_log) + d_i (D) + d_i h (out_proj)
 *              [+ biases 2 d_i + h] [+ d_i conv bias] [+ R + 2 N dt/B/C
 *              norms]; its state d_i N + (K - 1) d_i;
 *   total      (L - L_lin) attention + L_lin linear + L norms + D FFN(f) +
 *              M MoE + V h [+ V h untied] [+ P h positions] + final norm
 *              [+ embedding norm]; with split_blocks the layers' norms are
 *              one h each, they hold no FFN, F = ffn_blocks blocks add
 *              F (FFN(f) + h) and B = moe_blocks blocks B (MoE + h) (B
 *              (active MoE + h) to the active count);
 *   active     as total with k routed experts instead of E (the router and
 *              shared experts run for every token); with active_no_embed the
 *              input embedding and positions are left out and only the
 *              unembedding V h counted.
 * Every figure of the shipped hwdb/models entries whose params src is
 * `derived` is reproduced exactly (tests/check_hfimport.c).  Returns GP_OK,
 * or GP_EINVAL naming the field (a required width < 1, a width not whole,
 * kv_heads > heads, experts_active > experts, dense_layers > layers, head_dim
 * missing where hidden / heads is not whole, MLA widths missing,
 * linear_layers not below layers or without its widths, an unknown
 * linear_kind, a Mamba-2 inner width not a multiple of its heads or groups,
 * split_blocks with experts but no moe_blocks, moe_blocks without
 * split_blocks or without experts, expert_matrices not 0, 2 or 3, qk_norm
 * not 0, 1 or 2, index_heads without index_head_dim or without latent
 * attention's q_lora_rank).  NULL s
 * or out: GP_EINVAL (a non-NULL out still zeroed).
 * MODEL: docs/hwdb.md "Importing a Hugging Face config.json". */
int gp_model_count_params(const gp_param_shape *s, gp_param_count *out, gp_err *e);

#ifdef __cplusplus
}
#endif
#endif /* GP_DB_H */
