/* Inference planner: bytes per decode step (weights + KV cache), the decode
 * ceiling and expectation in tokens/s, prefill (time to first token), the
 * batch at which decode turns compute-bound, memory fit, MoE and tensor
 * parallelism.  Pure functions over const structs.  MODEL:
 * docs/models/inference.md. */
#ifndef GP_INFER_H
#define GP_INFER_H

#include <stddef.h>

#include "gpuplan/comm.h"
#include "gpuplan/db.h"
#include "gpuplan/ledger.h"
#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An inference engine's decode profile (static data in lib/engines.c, each
 * figure with its source or derivation in `src`).
 *   eff_float       fraction of the GPU's achievable memory bandwidth that
 *                   the engine's decode reaches on 16-bit weights (and on
 *                   KV-cache/activation bytes);
 *   eff_quant       the same for weights narrower than 16 bits (quantised
 *                   GEMV kernels: unpacking, scale loads, smaller transactions);
 *   layer_overhead  fixed seconds per transformer layer per decode step
 *                   (kernel launches, synchronisation, small latency-bound
 *                   kernels) on a GPU boosting at GP_INFER_REF_CLOCK; scaled
 *                   by GP_INFER_REF_CLOCK / clock_boost on other GPUs;
 *   dequant_flop    CUDA-core FLOP spent per quantised weight per step
 *                   (unpack, convert, scale), charged to the compute account
 *                   at the fp32 CUDA-core rate;
 *   split_layers    1: the engine spreads a model over several GPUs by
 *                   layers (llama.cpp's default --split-mode layer: the GPUs
 *                   work one after another), 0: tensor parallelism;
 *   moe_layer_overhead  extra fixed seconds per MoE layer (router, top-k,
 *                   expert-indexed GEMVs and their sum: kernels a dense FFN
 *                   does not run), at GP_INFER_REF_CLOCK, scaled like
 *                   layer_overhead;
 *   sm_bw           bytes/s one SM streams in the engine's decode kernels
 *                   (0: no limit).  Little's law: a kernel keeps a bounded
 *                   number of bytes in flight per SM, so its bandwidth is at
 *                   most sm_count x sm_bw whatever the memory could do; HBM
 *                   parts (A100, H100: 15-25 GB/s of memory per SM) need
 *                   twice the in-flight bytes of GDDR cards (6-11 GB/s per
 *                   SM) to reach their roof.  Expected figures use
 *                   min(bandwidth x eff, sm_count x sm_bw). */
typedef struct gp_engine {
    const char *id;
    const char *name;
    double eff_float;
    double eff_quant;
    double layer_overhead; /* s per layer per step at GP_INFER_REF_CLOCK  */
    double dequant_flop;   /* FLOP per quantised weight per step          */
    const char *src;
    int split_layers;      /* multi-GPU default: 1 layer split, 0 tensor  */
    double sm_bw;          /* bytes/s per SM its kernels stream; 0 = none */
    double moe_layer_overhead; /* s per MoE layer per step at
                               GP_INFER_REF_CLOCK on top of layer_overhead:
                               the routing and expert-indexed kernels a
                               dense FFN does not run                     */
    double prefill_eff;    /* fraction of the expected matmul rate its
                              prefill reaches; 0 = 1 (no measured gap)   */
    double prefill_eff8;   /* the same for matmuls narrower than 16 bits
                              (fp8, int8, fp4, int4); 0 = prefill_eff   */
    double prefill_sm_flop; /* FLOP per clock per SM (at the boost clock;
                              else base; else 2 GHz) its prefill kernels
                              reach on quantised weights, a cap on the
                              rate unless --prefill-eff; 0 = none       */
    double prefill_mx_flop; /* the same on a matrix unit that only a
                              separate API reaches -- Apple's Neural
                              Accelerators, the Apple entries with a
                              tensor rate -- in place of prefill_sm_flop
                              there; 0 = its kernels do not use that unit:
                              prefill and batched decode run on the ALUs
                              (the cuda pipeline), as before it         */
    int prefill_tiled;     /* 1: its prefill runs each layer's GEMMs as
                              tiled library kernels (cuBLAS, CUTLASS,
                              hipBLASLt), priced each on its own roofline
                              with wave quantisation on a GPU with an SM
                              count (inference.md 5.4); 0: the pass as one
                              roofline, max(FLOP / rate, bytes / bw)     */
    int prefill_unfused;   /* 1: its builds have no fused attention (llama.cpp
                              before PR #5021, April 2024): the prefill's
                              attention is unfused unless --attention says
                              otherwise (inference.md 5.5); 0: fused     */
    double eff_quant4;     /* eff_quant for weights narrower than 8 bits
                              (4-bit weight-only GEMV kernels, which run
                              nearer the roof than 8-bit W8A8 ones in an
                              engine that has both); 0 = eff_quant       */
    int dequant_per_seq;   /* 1: its GEMV kernels for decode batches up to
                              GP_INFER_MMVQ_MAX_BATCH unpack and dot each
                              quantised block once per sequence (llama.cpp's
                              CUDA/HIP mul_mat_vec_q calls vec_dot_q_cuda
                              for every column), so dequant_flop is spent per
                              weight per sequence the step runs; 0: once per
                              weight per step (inference.md 2)          */
    double dequant_scale_mult; /* multiplies the dequant_scale of formats
                              that state one above 1 (their unpacking
                              dearer than Q4_0's): builds whose GEMV
                              kernels for those types were slower than the
                              current ones the format figures were fitted
                              to (llama.cpp-2023: 2.8, inference.md 2);
                              0 = 1                                      */
} gp_engine;

/* How --gpus N shares the model. */
typedef enum gp_infer_split {
    GP_SPLIT_DEFAULT, /* the engine's default                             */
    GP_SPLIT_TENSOR,  /* tensor parallel: each GPU 1/N of every layer, two
                         AllReduces per layer                            */
    GP_SPLIT_LAYER    /* layer (pipeline) split: each GPU 1/N of the layers,
                         one activation hand-off per GPU boundary; the GPUs
                         take turns, so one stream gains no speed         */
} gp_infer_split;

/* Reference boost clock for engine layer overheads (Hz). */
#define GP_INFER_REF_CLOCK 2.0e9
/* Largest decode batch an engine with a per-SM batched-kernel rate
 * (prefill_sm_flop) runs on its GEMV kernels: llama.cpp's
 * MMVQ_MAX_BATCH_SIZE (ggml-cuda/mmvq.cuh). */
#define GP_INFER_MMVQ_MAX_BATCH 8.0

/* Engine table: count, i-th entry (NULL past the end), lookup by id or
 * alias (case-insensitive; NULL when unknown or NULL), and a lookup that
 * raises GP_ENOTFOUND naming `what` (may be NULL) and listing the known
 * ids, *out NULL on failure (NULL name or out: GP_EINVAL).  The table is
 * static; never free it.  gp_engine_default() is the "generic" profile. */
size_t gp_engine_count(void);
const gp_engine *gp_engine_at(size_t i);
const gp_engine *gp_engine_find(const char *name);
int gp_engine_get(const char *name, const char *what, const gp_engine **out,
                  gp_err *e);
const gp_engine *gp_engine_default(void);

/* The fraction of the expected matmul rate engine e's prefill reaches:
 * its prefill_eff8 for matmuls narrower than 16 bits (`narrow`) when it has
 * one, else its prefill_eff, else 1 (also for a NULL e). */
double gp_engine_prefill_eff(const gp_engine *e, int narrow);

/* The unpacking work per weight of format f under engine e relative to
 * Q4_0's: f's dequant_scale (1 when not given or f is NULL), times e's
 * dequant_scale_mult when the scale is above 1 (inference.md 2).  The
 * dequantisation FLOP per weight is e->dequant_flop times this. */
double gp_engine_dequant_scale(const gp_engine *e, const gp_format *f);

/* The profile `e` runs as on GPU g: llama.cpp's CUDA profile ("llama.cpp",
 * and what stands for it: ollama, lmstudio) becomes its ROCm/HIP profile on
 * an AMD GPU (vendor "AMD" or "Advanced Micro Devices"), its SYCL one on an
 * Intel GPU and its Metal one on an Apple GPU (as does the default profile
 * there), and the vllm profile (sglang, lmdeploy, tgi) becomes vllm-rocm on
 * an AMD GPU: the builds those engines use there.  Anything else (other
 * engines, a caller's own profile, NULL) is returned as given, as is e
 * for a NULL g. */
const gp_engine *gp_engine_for_gpu(const gp_engine *e, const gp_gpu *g);

/* Whether engine e (as gp_engine_for_gpu left it) has a build for GPU g's
 * vendor: 1 when it does, or when either is unknown (a caller's own
 * profile, a GPU without a vendor, NULL); 0 with *vendors (when not NULL)
 * set to the vendors it runs on ("NVIDIA", "NVIDIA and AMD", ...) when it
 * does not -- TensorRT-LLM on an AMD GPU, vLLM or ExLlamaV2 on Apple
 * silicon. */
int gp_engine_runs_on(const gp_engine *e, const gp_gpu *g, const char **vendors);

/* Whether engine e reads weights in format f: 0 for a llama.cpp build
 * ("llama.cpp", "llama.cpp-*"), which loads GGUF files only -- the quant
 * types whose format names it (gp_format.engine), 16/32-bit floats and
 * gpt-oss's MXFP4 experts with a BF16 rest (mxfp4-moe-bf16, which
 * convert_hf_to_gguf.py writes at --outtype bf16) --
 * given AWQ, GPTQ, NF4, FP8 or NVFP4 weights or a format another engine's
 * kernels own (MLC's q4f16_1); 0 for MLC given another engine's format (a
 * GGUF type); 0 for MLX ("mlx") given anything but its own formats (mlx-4bit
 * ...), 16/32-bit floats and the microscaling mxfp4, mxfp8 and nvfp4 (its
 * quantize modes); 1 otherwise (e or f NULL: 1). */
int gp_engine_loads(const gp_engine *e, const gp_format *f);

/* Whether a KV cache can be stored in format f: 0 for a weights file type
 * that no engine's cache uses -- a GGUF K-quant or i-quant mix, MLC's group
 * formats -- where llama.cpp's cache types are f32, f16, bf16 and the GGUF
 * blocks q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (llama.cpp common/arg.cpp,
 * --cache-type-k) and mlx-lm quantizes its cache in MLX's affine groups
 * (--kv-bits, --kv-group-size 64: the mlx-* formats); 1 otherwise (number
 * formats, FP8, INT8; NULL: 1). */
int gp_format_holds_kv(const gp_format *f);

/* Whether engine e keeps a KV cache in format f, for an engine whose
 * cache option names its types (lib/engines.c, sourced there and in the
 * profiles' src): the llama.cpp builds (f32, f16, bf16, q8_0, q4_0, q4_1,
 * iq4_nl, q5_0, q5_1), vllm and vllm-rocm (16/32-bit floats, fp8-e4m3,
 * fp8-e5m2, and LMDeploy's int8 and int4), tensorrt-llm (floats,
 * fp8-e4m3, int8, nvfp4) and mlx (floats, mlx-3bit ... mlx-8bit).  0 with
 * *types (when not NULL) set to what it keeps, in words, when it does not;
 * 1 when it does, when its profile names no types (generic, gpt-fast, mlc,
 * exllama*, hf-transformers, a caller's own id), or e, f or their ids are
 * NULL.  Formats are matched by id. */
int gp_engine_holds_kv(const gp_engine *e, const gp_format *f, const char **types);

/* Inputs.  Initialise with gp_infer_params_init, then set fields.
 * Pointers are borrowed (the caller keeps them alive during the call). */
typedef struct gp_infer_params {
    const gp_gpu *gpu;        /* required                                   */
    const gp_model *model;    /* required: params > 0; shape fields optional */
    const gp_link *link;      /* link between the GPUs (usually the GPU's
                                 scale_up_link, else host_link); needed
                                 when gpus > 1; priced by comm.h          */
    const gp_format *weights; /* storage format of the body; NULL = 16 bit  */
    const gp_format *kv;      /* KV-cache format; NULL = 16 bit             */
    const gp_format *embed;   /* embeddings/lm_head; NULL = 16 bit          */
    const gp_engine *engine;  /* NULL: the weights format's engine when it
                                 names one (GGUF: llama.cpp), else generic,
                                 where the GPU's eff_decode /
                                 decode_layer_overhead (when set) win      */
    double context;           /* tokens in each sequence's KV cache (>= 0)  */
    double batch;             /* sequences decoded together (>= 1)          */
    double gpus;              /* tensor-parallel GPUs (>= 1)                */
    double prompt;            /* prompt tokens for prefill (0: none)        */
    double decode_eff;        /* > 0: override the engine's efficiencies    */
    double prefill_eff;       /* > 0: override the engine's prefill fraction
                                 of the expected matmul rate, in (0, 1]     */
    double layer_overhead;    /* >= 0: override s per layer (unscaled);
                                 < 0: engine / GPU default                  */
    double moe_layer_overhead; /* >= 0: override the extra s per MoE layer
                                 (unscaled); < 0: the engine's             */
    double price;             /* USD per GPU-hour for usd_per_mtok; 0: the
                                 GPU's database `rent` (0 there: no cost)  */
    double runtime_overhead;  /* bytes per GPU reserved by the runtime
                                 (CUDA context, workspaces); < 0: default   */
    double act_bytes;         /* bytes per activation element, (0, 8] (2)  */
    gp_accum accum;           /* tensor-core accumulate mode (fp32)        */
    gp_infer_split split;     /* multi-GPU split (engine default)          */
    gp_comm_params comm;      /* link model figures (host staging bandwidth);
                                 gp_comm_params_default                    */
    const gp_link *scale_out; /* link between nodes when the GPUs span
                                 several (NULL: one node, `link` joins all) */
    double gpus_per_node;     /* GPUs per node with scale_out (a whole
                                 number dividing gpus; 0: all in one node);
                                 `link` joins a node's GPUs, the node's
                                 NICs are gp_topo_default_nics             */
    int attn_unfused;         /* 1: the prefill's attention materialises
                                 every head's P x P scores (llama.cpp
                                 without flash attention, -fa 0; eager
                                 PyTorch): the whole square's FLOPs and
                                 GP_INFER_SCORE_BYTES a score through
                                 memory, expected figure only
                                 (inference.md 5.5); 0: fused (flash);
                                 -1 (the default): the engine's
                                 (prefill_unfused)                       */
} gp_infer_params;

/* Bytes an unfused attention moves per score element in the prefill: 4 x 2,
 * 16-bit scores written by Q K^T, read and written by the softmax, read by
 * P V (the training step model holds its unfused scores in 16 bits too).
 * An effective figure: ggml's op sequence in F32 would move about 20, but
 * PR #6017's A100 rows show 8 (docs/models/inference.md 5.5). */
#define GP_INFER_SCORE_BYTES 8.0

/* Default runtime memory overhead per GPU: 1 GiB (CUDA context ~0.3-0.5 GiB
 * plus cuBLAS/attention workspaces and allocator slack); see the docs. */
#define GP_INFER_RUNTIME_OVERHEAD (1024.0 * 1024.0 * 1024.0)
/* Largest --gpus accepted (a whole number; the link may join fewer). */
#define GP_INFER_MAX_GPUS 1048576.0
/* Default context when none is given: 128 tokens (llama-bench tg128). */
#define GP_INFER_DEFAULT_CONTEXT 128.0
/* Largest context or prompt the CLI accepts, tokens per sequence (as
 * GP_INFER_MAX_OUTPUT; the longest shipped model holds 10,485,760). */
#define GP_INFER_MAX_CONTEXT 1e9
/* Largest batch the CLI accepts, sequences per step (servers run hundreds
 * to a few thousand). */
#define GP_INFER_MAX_BATCH 1e9

/* Fill p with defaults: batch 1, gpus 1, context GP_INFER_DEFAULT_CONTEXT,
 * prompt 0, act_bytes 2, layer_overhead -1, moe_layer_overhead -1,
 * runtime_overhead -1, attn_unfused -1 (the engine's), rest 0/NULL.  NULL
 * is a no-op. */
void gp_infer_params_init(gp_infer_params *p);

/* Decode ledger under one set of roofs. */
typedef struct gp_infer_side {
    gp_ledger ledger;         /* compute, memory, movement; total = max(compute,
                                 memory) + movement (fixed costs serialise)  */
    double step_s;            /* seconds per decode step (= ledger.total)   */
    double tokens_per_s;      /* per stream: 1 / step_s                     */
    double aggregate_tokens_per_s; /* batch / step_s                        */
    double mem_bw;            /* bytes/s per GPU used                        */
    double peak;              /* FLOP/s per GPU of the matmul precision      */
    gp_precision peak_precision; /* the path `peak` is: the ceiling takes the
                                 fastest the format's kernels can (its mma, or
                                 fp16 accumulate; inference.md 5)           */
    gp_accum peak_accum;
    double cuda_peak;         /* FLOP/s per GPU, fp32 CUDA cores (dequant)   */
    double eff_weights;       /* fraction of mem_bw reached on weights       */
    double eff_other;         /* fraction on KV cache and activations        */
    double layer_overhead_s;  /* per layer per step, after clock scaling     */
    double moe_overhead_s;    /* extra per MoE layer per step, after clock
                                 scaling (the engine's moe_layer_overhead)   */
    double overhead_s;        /* layers x layer_overhead_s + MoE layers x
                                 moe_overhead_s                             */
    double comm_s;            /* link time per step: 2 x layers AllReduces
                                 (tensor parallel) or gpus - 1 hand-offs
                                 (layer split), priced by comm.h; the
                                 ceiling keeps only the bandwidth terms   */
    double prefill_eff;       /* the engine's fraction of `peak` for the
                                 prefill's matmuls (before any per-SM cap;
                                 1 on the ceiling)                          */
    double prefill_peak;      /* FLOP/s per GPU the prefill's matmuls are a
                                 fraction of: `peak`, except on an Apple GPU
                                 with a tensor rate, where decode's GEMVs
                                 (`peak`) run on the ALUs and an engine with
                                 prefill_mx_flop prefills on the tensor rate */
    gp_pipeline prefill_pipeline; /* the pipeline of prefill_peak            */
    double prefill_rate;      /* FLOP/s per GPU the prefill's matmuls run at:
                                 prefill_peak x prefill_eff, capped by the
                                 engine's prefill_sm_flop (prefill_mx_flop
                                 on a tensor prefill_pipeline of an Apple
                                 GPU) x SMs x boost clock                 */
    double ttft_s;            /* prefill time for `prompt` tokens (0: none);
                                 expected: MoE expert GEMMs each on their
                                 roofline (inference.md 5.1), a dense
                                 model's layer GEMMs each on theirs with
                                 wave quantisation (prefill_gemm_s)       */
    double prefill_score_s;   /* expected, --attention unfused: the scores'
                                 traffic, GP_INFER_SCORE_BYTES x heads x
                                 P^2 x batch x attending layers / bw     */
    double prefill_gemm_s;    /* expected, an engine with prefill_tiled on a
                                 GPU with an SM count, a dense model: the
                                 layers' GEMMs of the prefill, each
                                 max(2 M N K / (rate x waves), bytes / bw)
                                 (inference.md 5.4); 0 = not priced so    */
    double sm_stream_bw;      /* expected: the engine's per-SM stream limit x
                                 SMs, bytes/s (0: none; ceiling: 0)          */
    int sm_limited;           /* 1: that limit lowered eff_weights           */
    double ridge_batch;       /* batch from which compute time reaches
                                 memory time, for every larger batch too;
                                 the same whatever p->batch (MoE: the
                                 experts that batch touches); Inf: never    */
    double usd_per_mtok;      /* rent per million generated tokens: price x
                                 gpus / (aggregate tok/s x 3600) x 1e6 (0:
                                 no price known)                           */
} gp_infer_side;

typedef struct gp_infer_result {
    /* Bytes, all GPUs together. */
    double weight_store_bytes;  /* weights held in memory (all experts)      */
    double weight_bytes;        /* weights read per decode step              */
    double body_bytes;          /* of which transformer body (touched)       */
    double body_params;         /* body parameters read per step (touched)   */
    double body_dense_params;   /* of which outside the routed experts, read
                                   at the weights format's `dense` format when
                                   it names one (the rest at its own bits)   */
    double lm_head_bytes;       /* of which lm_head (+ embedding rows)       */
    double kv_bytes_per_token;  /* one sequence, one token, all layers       */
    double kv_replicas;         /* copies of the KV cache across tensor-
                                   parallel GPUs: gpus x ceil(kv_heads/gpus)
                                   / kv_heads (MLA: kv_heads 1), else 1      */
    double kv_positions;        /* positions each attending layer caches per
                                   sequence, averaged over those layers: the
                                   context, fewer on sliding-window layers
                                   (gp_model_kv_positions)                   */
    double kv_bytes;            /* KV read per step, all GPUs: batch x
                                   kv_positions x above x kv_replicas        */
    double linear_layers;       /* linear-attention / SSM layers (0: none)   */
    double state_bytes_per_seq; /* their recurrent state, one sequence, all
                                   layers, at GP_INFER_STATE_BITS or the
                                   model's linear_state_bytes: held in
                                   memory whatever the context
                                   (gp_infer_state_bytes_per_seq)            */
    double state_bytes;         /* state read and written back per step, all
                                   GPUs: 2 x batch x state_bytes_per_seq     */
    double act_bytes;           /* activations read+written per step         */
    double bytes_per_step;      /* weight + kv + state + act                 */
    double bytes_per_token;     /* bytes_per_step / batch                    */
    /* FLOPs per step, all GPUs. */
    double flop;                /* 2 x flop_params x batch + attention +
                                   linear recurrence                         */
    double attn_flop;           /* 4 x attending layers x heads x head_dim x
                                   kv_positions x batch                      */
    double linear_flop;         /* GP_INFER_LINEAR_FLOP x state elements
                                   (gp_model_state_elems) x batch            */
    double dequant_flop;        /* quantised weights x engine dequant_flop
                                   x dequant_scale                          */
    double dequant_scale;       /* gp_engine_dequant_scale of the weights'
                                   format (1: Q4_0-like; 0 when nothing
                                   dequantises)                             */
    double active_params;       /* params used per token (MoE: active)       */
    double flop_params;         /* matmul params a token runs through: the
                                   layers (its routed experts) + the output
                                   layer; no input embedding (a lookup)    */
    double experts_touched;     /* MoE: expected distinct experts per layer  */
    double moe_layers;          /* MoE: layers with routed experts (0: dense) */
    double comm_bytes;          /* AllReduce payload per step (per message)  */
    gp_coll_algo comm_algo;     /* AllReduce algorithm of the expected figure
                                   (the cheaper of ring and tree)            */
    double prefill_flop;        /* prompt FLOPs, all sequences               */
    double prefill_experts_touched; /* MoE: distinct experts per MoE layer the
                                   batch x prompt tokens route to (0: dense
                                   model or no prompt)                       */
    double prefill_expert_rows; /* MoE: rows of each touched expert's GEMMs,
                                   batch x prompt x k / experts touched; the
                                   expected TTFT prices each expert GEMM on
                                   its own roofline (inference.md 5.1)      */
    int attn_unfused;           /* the expected prefill's attention as
                                   priced: 1 unfused (the param, else the
                                   engine's prefill_unfused), 0 fused      */
    gp_precision precision;     /* matmul precision used                     */
    gp_pipeline pipeline;
    /* Two answers. */
    gp_infer_side ceiling;      /* datasheet roofs, zero overhead            */
    gp_infer_side expected;     /* achievable roofs x engine efficiency + overhead */
    const char *eff_src;        /* where the expected efficiency came from   */
    const char *overhead_src;   /* where the layer overhead came from        */
    const gp_engine *engine;    /* profile used                              */
    const gp_format *embed_format;    /* lm_head format used (NULL: 16 bit):
                                   --embed-format, else the weights format's
                                   output (GGUF: Q6_K)                       */
    const gp_format *embed_in_format; /* input embedding's (the body's when
                                   the output format came from the weights) */
    int engine_implied;         /* 1: not given; the weights' format named it
                                   (gp_format.engine: GGUF -> llama.cpp)     */
    int engine_backend;         /* 1: the engine's build for the GPU's vendor
                                   replaced the profile asked for
                                   (gp_engine_for_gpu: llama.cpp, vllm)     */
    const gp_engine *engine_requested; /* the profile asked for (or implied)
                                   before that replacement                  */
    /* Memory. */
    double runtime_overhead;    /* bytes per GPU                             */
    double mem_need;            /* weights + KV + state + runtime x gpus     */
    double mem_usable;          /* usable bytes x gpus                       */
    int fits;                   /* mem_need <= mem_usable (without the KV
                                   cache when kv_counted is 0: the weights,
                                   states and runtime only)                 */
    int fits_batch1;            /* fits at batch 1 (same context)            */
    double short_bytes;         /* need - usable at batch 1 (> 0: no fit)    */
    double max_batch;           /* largest batch at this context (Inf: nothing
                                   grows with it, which with kv_counted 0
                                   means unknown, not unbounded; 0: none)   */
    double max_context;         /* largest context at this batch (Inf: every
                                   attending layer windowed, or, with
                                   kv_counted 0, unknown)                   */
    int kv_dominates;           /* kv_bytes > weight_bytes: bytes read per
                                   step, both (a MoE model's weight_bytes
                                   are the experts touched, not all held)   */
    int split_layers;           /* 1: layer split used, 0: tensor parallel   */
    int context_exceeds;        /* context (or prompt) > model's maximum     */
    /* Shape used for the per-layer costs, activations and tensor-parallel
     * messages: the model's, or guessed from its parameter count when it
     * lacks layers or hidden (gp_model_guess_shape; shape_inferred = 1).  A
     * guessed shape adds no KV cache and no attention: those need the heads
     * (MHA and GQA differ up to 8x), so kv_bytes stays 0 until given. */
    double layers, hidden;
    int shape_inferred;
    /* The prefill's memory (appended: ABI order).  A prompt of P tokens
     * caches P positions a sequence before the first decode step, so a
     * --context below --prompt does not describe what the prefill holds:
     * prefill_mem_need = weights + batch x (kv_positions(P) x KV per token
     * + state) + runtime x gpus; prefill_fits = that <= mem_usable.  No
     * prompt: 0 and 1.  inference.md §6. */
    double prefill_mem_need;
    int prefill_fits;
    /* 1: the KV cache is counted (kv_bytes_per_token > 0); 0: the model has
     * no heads to size it (--params without its shape), so kv_bytes is 0,
     * `fits` covers the weights (and any states) alone, and max_batch /
     * max_context are Inf for want of the figure, not because nothing
     * bounds them (appended: ABI order; inference.md §6). */
    int kv_counted;
} gp_infer_result;

/* Evaluate one decode configuration.
 * Bytes per step = body weights touched x weight bits/8 + lm_head x embed
 * bits/8 (+ the batch's embedding rows when untied) + batch x context x
 * layers x kv_elems x kv bits/8 + activations; FLOPs = 2 x flop_params x
 * batch + attention; each side's step = max(FLOPs / peak + dequant / CUDA
 * peak, bytes / (bw x eff)) + layers x overhead + 2 x layers AllReduces
 * of batch x hidden x act_bytes on p->link, priced by gp_comm_eval (one
 * node of gpus GPUs; expected: the cheaper of ring and tree on achievable
 * figures, with host staging when the link has no peer-to-peer; ceiling:
 * the bandwidth terms on datasheet figures, zero latency, so it stays a
 * bound).  The ceiling leaves out activations, dequantisation, the
 * per-layer overhead and the KV copies of kv_replicas (bytes and work a
 * perfect engine avoids).  Tensor
 * parallel: per GPU everything is divided by gpus.  Layer split: the GPUs
 * take turns (no division) and gpus - 1 hand-offs of batch x hidden
 * activations (each one ring step on two GPUs: S/B + alpha) replace the
 * AllReduces.
 * MODEL: docs/models/inference.md §Decode (Pope et al. 2022 "Efficiently
 * Scaling Transformer Inference" for the bytes/FLOPs accounting).
 * Returns GP_OK, or GP_EINVAL naming the field (missing gpu/model, params
 * <= 0, batch < 1, gpus < 1 or not whole, negative context, gpus > 1
 * without link, GPU without memory bandwidth, link without bandwidth, a
 * split or accumulate mode out of range: "--split", "--accumulate"; a NaN
 * or out-of-range override: decode_eff outside [0, 1] "--decode-eff",
 * layer_overhead or moe_layer_overhead NaN or above 1 s
 * "--layer-overhead" / "--moe-layer-overhead", runtime_overhead NaN or
 * above 1e15 bytes "--runtime-overhead", act_bytes outside (0, 8]
 * "act_bytes"), or
 * GP_ERANGE ("--gpus": more GPUs than the link joins, e.g. 4 on a 2-GPU
 * bridge; "--batch" / "--prompt": a message between the GPUs, batch x
 * hidden x act_bytes or batch x prompt x hidden x act_bytes, above
 * GP_COMM_BYTES_MAX).  Never allocates; r is fully written on GP_OK.  NULL
 * p or r: GP_EINVAL. */
int gp_infer_eval(const gp_infer_params *p, gp_infer_result *r, gp_err *e);

/* End to end: a batch of `batch` requests, each a prompt of P tokens
 * followed by N generated tokens (vLLM benchmark_latency, TensorRT-LLM
 * gptManagerBenchmark; llama-bench's pp+tg is N + 1 here, as it decodes N
 * after the prompt).  The prefill's logits give the first output token, so
 * N - 1 decode steps follow.  MODEL: inference.md 5.2:
 *   latency = TTFT(P, B) + sum_{j=1}^{N-1} step(P + j)
 *   output tokens/s = B N / latency,  total tokens/s = B (P + N) / latency.
 * One side (ceiling or expected). */
typedef struct gp_infer_e2e_side {
    double ttft_s;            /* prefill of the B prompts                    */
    double decode_s;          /* sum of the N - 1 decode steps               */
    double latency_s;         /* ttft_s + decode_s                           */
    double mean_step_s;       /* decode_s / (N - 1); NaN when N = 1          */
    double first_step_s;      /* step at context P + 1 (NaN when N = 1)      */
    double last_step_s;       /* step at context P + N - 1 (NaN when N = 1)  */
    double output_tokens_per_s; /* B N / latency_s                           */
    double total_tokens_per_s;  /* B (P + N) / latency_s                     */
    double crossover_context; /* first context in [P+1, P+N-1] where the
                                 step's binding roof (compute or memory)
                                 differs from the first step's; NaN: none */
} gp_infer_e2e_side;

typedef struct gp_infer_e2e {
    double prompt;            /* P (p->prompt)                               */
    double output;            /* N                                           */
    double batch;             /* B                                           */
    double final_context;     /* P + N: the tokens each sequence holds at the
                                 end, held against the model's maximum      */
    int summed;               /* 1: every step evaluated (N - 1 <=
                                 GP_INFER_E2E_SUM_STEPS); 0: closed form     */
    double evals;             /* gp_infer_eval calls made                    */
    int context_exceeds;      /* P + N > the model's maximum context         */
    int fits;                 /* weights + KV of P + N tokens x B fit        */
    double mem_need;          /* bytes needed at P + N (all GPUs)            */
    gp_infer_e2e_side ceiling, expected;
} gp_infer_e2e;

/* Outputs up to this many steps are summed step by step; longer ones in
 * closed form (the step time is piecewise affine in the context: exact up
 * to rounding, inference.md 5.2). */
#define GP_INFER_E2E_SUM_STEPS 1024.0
/* Largest N accepted (tokens per request). */
#define GP_INFER_MAX_OUTPUT 1e9

/* Evaluate a whole request: prefill of p->prompt tokens (p->context is
 * ignored: step j sees context p->prompt + j), then `output` decode steps.
 * The decode step time is max(compute, memory) + movement with compute and
 * memory affine in the cached positions, and the positions piecewise affine
 * in the context (one kink at a sliding window), so the step is piecewise
 * affine with at most two kinks: the sum over N steps is computed exactly,
 * segment by segment, from at most five gp_infer_eval calls (rounding
 * error only, < 1e-12 relative), or step by step when N <=
 * GP_INFER_E2E_SUM_STEPS.  Returns GP_OK, GP_EINVAL naming "--output" (N <
 * 1, not whole, not finite, above GP_INFER_MAX_OUTPUT) or "--prompt" (P <
 * 1: the prefill gives the first output token, so a request needs a prompt
 * token; not whole, not finite), or what gp_infer_eval raises.  NULL p or
 * r: GP_EINVAL.  Never allocates. */
int gp_infer_e2e_eval(const gp_infer_params *p, double output, gp_infer_e2e *r,
                      gp_err *e);

/* KV-cache bytes per token per sequence: attending layers
 * (gp_model_attn_layers: linear-attention layers cache nothing) x kv
 * elements per layer (gp_model_kv_elems_per_layer) x kv_bits / 8, for a
 * position every attending layer caches (within any sliding window).  0
 * when the shape is unknown (or m is NULL).  MODEL: 2 x layers x kv_heads x
 * head_dim x bytes (Llama-2-7B fp16: 2 x 32 x 32 x 128 x 2 = 524288 B;
 * Qwen3-Next-80B-A3B: 2 x 12 x 2 x 256 x 2 = 24576 B). */
double gp_infer_kv_bytes_per_token(const gp_model *m, double kv_bits);

/* Bits per element of a linear-attention layer's recurrent state: vLLM's
 * mamba_cache_dtype and mamba_ssm_cache_dtype default to "auto", the
 * model's dtype (bf16), whatever the KV cache's (vllm/config/cache.py,
 * CacheConfig).  docs/models/inference.md §1.2. */
#define GP_INFER_STATE_BITS 16.0
/* FLOP per state element per token of a linear-attention layer's
 * recurrence: the gated delta rule S' = S a (I - b k k^T) + b v k^T, o =
 * S' q touches each element of the d_k x d_v state four times (decay, read
 * S k, rank-1 write, read S q: about 4 multiply-adds; the gated delta
 * rule of Yang, Kautz and Hatamizadeh 2024, "Gated Delta Networks",
 * arXiv:2412.06464), applied to the whole state (the convolution's window
 * too) as a round figure.  docs/models/inference.md §1.2. */
#define GP_INFER_LINEAR_FLOP 8.0

/* Recurrent-state bytes one sequence holds: gp_model_state_elems(m) x
 * GP_INFER_STATE_BITS / 8, whatever the context (Qwen3-Next-80B-A3B: 36 x
 * 548,864 x 2 = 39,518,208 B); with the entry's linear_state_bytes (a
 * float32 SSM cache), linear layers x those bytes (Nemotron 3 Nano: 23 x
 * 2,134,016 = 49,082,368 B).  0 without linear-attention layers and for a
 * NULL m. */
double gp_infer_state_bytes_per_seq(const gp_model *m);

/* Expected distinct experts touched by `batch` tokens routing k of n experts
 * uniformly: n x (1 - (1 - k/n)^batch).  Returns k for batch 1; 0 when n or
 * k is 0. */
double gp_infer_experts_touched(double n, double k, double batch);

#ifdef __cplusplus
}
#endif
#endif /* GP_INFER_H */
