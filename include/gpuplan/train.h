/* Training planner: FLOPs (6ND and the exact dense-transformer count),
 * GPU-days and wall-clock, profile extrapolation, memory per GPU (model
 * states, ZeRO, tensor/pipeline sharding, activations) and cost.
 * Formulas, derivations and sources: docs/models/training.md. */
#ifndef GP_TRAIN_H
#define GP_TRAIN_H

#include "gpuplan/db.h"
#include "gpuplan/ledger.h"
#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_train_recompute {
    GP_RECOMPUTE_NONE,      /* every activation kept                        */
    GP_RECOMPUTE_SELECTIVE, /* attention core recomputed (Korthikanti 2022) */
    GP_RECOMPUTE_FULL,      /* only each layer's input kept; layer re-run   */
    GP_RECOMPUTE_BLOCK      /* full recompute of the first recompute_layers
                               layers of each model chunk, the rest kept
                               whole (Megatron-LM --recompute-granularity
                               full --recompute-method block)            */
} gp_train_recompute;

typedef enum gp_train_optimizer {
    GP_OPT_ADAM,     /* mixed-precision Adam(W): fp32 master + m + v       */
    GP_OPT_ADAM8BIT, /* 8-bit Adam states (bitsandbytes), fp32 master      */
    GP_OPT_SGD       /* SGD with momentum, fp32 master + momentum          */
} gp_train_optimizer;

/* How model FLOPs are counted. */
typedef enum gp_train_count {
    GP_COUNT_6ND,   /* 6 x N_active x D (Kaplan et al. 2020)               */
    GP_COUNT_EXACT  /* per-layer dense-transformer count incl. attention   */
} gp_train_count;

/* Constants of the model that are not datasheet figures: defaults and their
 * sources in gp_train_params_init and docs/models/training.md. */
/* Profile mode refuses a measured step that implies an MFU above this
 * (GP_ERANGE naming --tokens-per-step / --batch), and a given MFU whose HFU
 * or PaLM-count MFU is above it (GP_ERANGE naming --mfu): no run reaches
 * 1.25 x the datasheet peak -- GeForce cards boost ~8 % above it at most
 * (RTX 4090 MAMF 178.8 vs 165.2 TFLOP/s) -- so the tokens are one GPU's,
 * the time is not one step's, or the MFU was quoted on another count.
 * gp_train_result.peak_share is the figure checked.  docs/models/
 * training.md sections 2 and 2.1. */
#define GP_TRAIN_PROFILE_MFU_MAX 1.25

/* The smallest --params accepted (GP_ERANGE below it): a count under 1e5 is
 * a forgotten suffix ("7" for 7B). */
#define GP_TRAIN_PARAMS_MIN 1e5

/* The highest MFU (PaLM count: 6N + attention) of a published training run
 * known to gpuplan: FlashAttention-2 training GPT-style 2.7B models on A100
 * at 225 TFLOP/s per GPU, 72 % (Dao 2023, arXiv 2307.08691, section 4.2).
 * A step-time prediction above it is flagged as an upper bound. */
#define GP_TRAIN_MFU_PUBLISHED_MAX 0.72

typedef struct gp_train_params {
    double mfu_fallback;        /* MFU when neither --mfu nor the GPU has one */
    const char *mfu_fallback_src;
    double reserve_bytes;       /* per-GPU runtime reserve (CUDA context,
                                   cuBLAS/NCCL workspaces), bytes            */
    double reserve_fraction;    /* + this fraction of usable memory
                                   (caching-allocator fragmentation)         */
    const char *reserve_src;
    int causal_attention;       /* 1: count half the s^2 attention FLOPs    */
    double default_seq;         /* sequence length when neither given nor
                                   known from the model                      */
    double max_default_seq;     /* cap on a model's context used as default  */
    double aspect_ratio;        /* hidden/layers to infer a shape from N    */
    double head_dim;            /* head size for an inferred shape          */
    double vocab;               /* vocabulary for an inferred shape         */
    double years;               /* amortisation period of a purchase        */
    double pue;                 /* data-centre power usage effectiveness    */
    double kwh_price;           /* USD per kWh                              */
    const char *years_src, *pue_src, *kwh_src;
    /* --- step-time model (GP_MFU_MODEL); docs/models/training.md -------- */
    double step_batch_tokens;   /* default global batch, tokens (4M)        */
    double step_ew_res_bytes;   /* element-wise bytes per token per hidden
                                   unit per layer, forward, 16-bit: 2 norms
                                   (2+2 each) + 2 bias-dropout-residual (2+2+2
                                   + 1 mask each) = 22                       */
    double step_ew_score_bytes; /* unfused attention: bytes per score element
                                   forward: softmax 2+2, dropout 2+2+1 = 9  */
    double step_ew_bwd;         /* backward element-wise traffic / forward (2) */
    double step_xent_bytes;     /* cross-entropy bytes per logit element,
                                   forward + backward (16)                   */
    double step_flash_bwd;      /* FlashAttention backward FLOPs / forward:
                                   5 matmuls vs 2 = 2.5 (Dao 2023)           */
    double step_flash_eff;      /* fused attention's rate / the expected GEMM
                                   rate at the same precision (0.70: H100
                                   cuDNN 0.66, FlashAttention-3 0.72; Shah
                                   et al. 2024)                              */
    double step_fp8_cast_bytes; /* 8-bit training: bytes per element of each
                                   GEMM input (forward) and output gradient
                                   (backward) quantised: read 2, write 1 + 1
                                   transposed = 4 (4-bit: 1 less)            */
    double step_fp8_amax_bytes; /* current (dynamic per-tensor) scaling's
                                   amax pass before each cast: read 2; 0
                                   under delayed scaling                     */
    double step_tile_m, step_tile_n; /* GEMM output tile for wave quantisation
                                   (256 x 128)                               */
    double step_bucket_bytes;   /* last gradient bucket, exposed (25 MiB)    */
    double step_a2a_sms;        /* SMs an overlapped all-to-all's kernels
                                   take from the computation (20: DeepSeek-V3
                                   §3.2.2, DeepEP's default); of 132 when the
                                   GPU has no SM count                       */
    double step_moe_perm_bytes; /* MoE token permutation, bytes per routed
                                   token copy per hidden unit, forward,
                                   16-bit: the gather before the dispatch and
                                   the weighted un-permute after the combine
                                   each read and write a row (2 x (2+2)) = 8 */
} gp_train_params;

/* Fill p with the documented defaults.  NULL is a no-op. */
void gp_train_params_init(gp_train_params *p);

/* A dense or MoE transformer shape (counts).  Build it from a database
 * model with gp_train_shape_from_model or by hand; 0 = unknown/default. */
typedef struct gp_train_shape {
    double layers, hidden, heads, kv_heads, head_dim, ffn_hidden, vocab;
    double ffn_matrices;   /* 2: up+down (GELU); 3: gate+up+down (SwiGLU)   */
    double expert_ffn_matrices; /* the experts' (routed and shared) k_f: 2
                              plain (Nemotron 3), 3 gated; 0 = ffn_matrices
                              (as before the field)                      */
    int tied_embeddings;
    double experts, experts_active, shared_experts, expert_ffn_hidden,
        dense_layers;      /* MoE; experts = 0 for a dense model           */
    double attn_params;    /* Q/K/V/O matrix params per layer when the
                              heads do not tell (MLA); 0 = from the heads  */
    double qk_head_dim;    /* query/key width per head when it differs from
                              head_dim (the value's; MLA: 192); 0 = same   */
    int inferred;          /* 1: guessed from N (no model shape given)     */
    /* Layer kinds (docs/models/training.md 1.2); all 0 = every layer
     * attends to the whole sequence, as before these fields existed. */
    double window;         /* sliding-window attention: keys a local layer
                              attends to (W; Mistral 7B v0.1: 4096); 0 =
                              every attending layer is global             */
    double window_layers;  /* attending layers with the window (Gemma 2: 21
                              of 42); 0 (or >= the attending layers) with a
                              window = all of them                        */
    double linear_layers;  /* layers whose token mixer is linear attention
                              or an SSM (Qwen3-Next: 36 of 48): no s^2
                              term, a recurrence over linear_state; 0 =
                              none; not below layers: read as none       */
    double linear_state;   /* recurrent-state elements per sequence per
                              such layer (Qwen3-Next: 548,864)            */
    double linear_params;  /* parameters of one such layer's mixer, priced
                              at 2 FLOP each per token forward in place of
                              the attention's q/k/v/o (Qwen3-Next's Gated
                              DeltaNet: 33,718,464); 0 = as the attention */
    double ffn_layers;     /* a dense shape's layers that hold its FFN when
                              fewer than layers (Nemotron-H 8B: 24 of 28);
                              0 (or not below layers) = every layer       */
    int attn_gate;         /* 1: Q projection h x 2q (an output gate, the
                              model's attention_gate): h q more a layer  */
} gp_train_shape;

/* Fill s from m.  ffn_matrices is decided by which of 2 or 3 FFN matrices
 * reproduces m->params more closely (the database has no "gated" flag for
 * the dense FFN).  A model that names its experts' kind
 * (moe.expert_ffn_kind) sets expert_ffn_matrices to 2 (plain) or 3
 * (gated), and only the dense FFN's k is then chosen by the count; absent,
 * expert_ffn_matrices is 0 (the experts take ffn_matrices, as before).
 * For MLA attention (low-rank Q/KV projections) the FFN is taken as gated
 * and attn_params is what remains of m->params after FFNs and embeddings.
 * The layer kinds come with the model: its window (window.tokens,
 * window.layers) and its linear-attention layers and state (linear_layers
 * below layers, linear_state; else 0 both).
 * Returns GP_OK, or GP_EINVAL when m lacks layers/hidden/heads/ffn_hidden/
 * vocab (message names the model and field).  NULL m or s: GP_EINVAL (a
 * non-NULL s is zeroed on every error). */
int gp_train_shape_from_model(const gp_model *m, gp_train_shape *s, gp_err *e);

/* Parameters implied by a shape (matrices only; norms and biases ignored):
 * L*(2*h*q + 2*h*kv + k*h*f) + V*h*(tied ? 1 : 2), MoE FFNs summed over all
 * experts (k_e h f_e each, k_e = expert_ffn_matrices, else k).  `active` counts only the experts a token uses.  0 for a NULL
 * s. */
double gp_train_shape_params(const gp_train_shape *s, int active);

/* Forward FLOPs per token of one training sequence of length seq:
 * weight matmuls 2 * (matrix params used per token, logits included) plus
 * the token mixers' core: attention 4 * seq * q_dim per attending layer
 * (x 0.5 when causal), on a sliding-window layer 4 * q_dim * 2 pairs/seq
 * with pairs = W^2/2 + (seq - W) W (gp_model_attn_pairs; seq when seq <=
 * W), and on each linear-attention layer its recurrence,
 * GP_INFER_LINEAR_FLOP (8) per state element, whatever seq.  The three
 * parts are returned separately (each may be NULL): matmul in the layers,
 * the mixers' core (attention + recurrence), and the logit layer 2*h*V; 0
 * each for a NULL s.  A shape without windows or linear layers gets
 * 4 * seq * q_dim * layers, as before the layer kinds.
 * MODEL: Narayanan et al. 2021 §5.1 (24h^2 + 4sh per layer, 2hV logits);
 * docs/models/training.md 1.2. */
void gp_train_fwd_flop_per_token(const gp_train_shape *s, double seq, int causal,
                                 double *layers_matmul, double *attention,
                                 double *logits);

/* Activation bytes of one transformer layer for one micro-batch (16-bit
 * activations), tensor-parallel degree t, sequence parallelism sp:
 *   none:      s*b*h*(10 + 24/t + 5*a*s/(h*t)),  with sp: s*b*h*(34 + 5as/h)/t
 *   selective: s*b*h*(10 + 24/t),                with sp: 34*s*b*h/t
 *   full:      2*s*b*h (the layer input),        with sp: 2*s*b*h/t
 * GP_RECOMPUTE_BLOCK has no per-layer figure of its own (a layer of it is
 * either fully recomputed or not at all): it returns the none figure, the
 * layers the block does not recompute.
 * MODEL: Korthikanti et al. 2022 eqs. 1-2 and Table 2. */
double gp_train_activation_bytes_per_layer(double seq, double micro_batch,
                                           double hidden, double heads, double t,
                                           int sp, gp_train_recompute rc);

/* Model-state bytes per parameter (weights, gradients, optimizer) for a
 * trainable parameter.  mixed = 1: 16-bit weights/grads with an fp32 master
 * copy; mixed = 0: fp32 everything (no master).  Adam 2+2+12 = 16 B
 * (Rajbhandari et al. 2020 §3.1); 8-bit Adam 2+2+(4+1+1) = 10 B (Dettmers
 * et al. 2022); SGD+momentum 2+2+(4+4) = 12 B.  Each out may be NULL. */
void gp_train_state_bytes(gp_train_optimizer opt, int mixed, double *weight,
                          double *grad, double *optim);

/* The least MFU an input may give: 0.1 %, far below any published run
 * (5-60 %); smaller values only overflow the derived times and costs. */
#define GP_TRAIN_MFU_MIN 0.001

typedef struct gp_train_in {
    const gp_gpu *gpu;          /* required                                 */
    const gp_model *model;      /* NULL: use params (and an inferred shape) */
    const gp_train_shape *shape;/* optional explicit shape (wins over model) */
    double params;              /* N when model is NULL                      */
    double tokens;              /* D, training tokens, in [1, 1e18]          */
    long gpus;                  /* [1, 2^30]                                 */
    double mfu;                 /* [0.001,1]; 0 = GPU default, else fallback */
    int precision_set;          /* 0: bf16, else fp16, else tf32, else fp32  */
    gp_precision precision;
    gp_train_count count;       /* GP_COUNT_6ND (default) or EXACT           */
    gp_train_recompute recompute;
    int zero;                   /* ZeRO stage 0..3 over the DP degree        */
    long tp, pp;                /* tensor / pipeline parallel degrees (>= 1) */
    int sequence_parallel;      /* 1 (default): SP with TP (Korthikanti)     */
    gp_train_optimizer optimizer;
    double lora_params;         /* > 0: adapter fine-tuning of a frozen base */
    double base_bits;           /* with lora_params: bits per weight of the
                                   frozen base (QLoRA: NF4 4.5); 0 = the
                                   training precision; wider than the
                                   training weights: GP_EINVAL               */
    double seq;                 /* 0: model context (capped) or default     */
    double micro_batch;         /* sequences per GPU per micro-step (>= 1)   */
    double step_time;           /* > 0: profile mode (s per optimizer step)  */
    double tokens_per_step;     /* tokens per step over all GPUs             */
    double batch;               /* sequences per step over all GPUs: when
                                   tokens_per_step is 0, it is batch x seq    */
    double price;               /* USD/GPU-hour; 0 = database rent          */
    double purchase;            /* USD per GPU; 0 = database price          */
    double years, pue, kwh_price; /* 0 = params defaults                    */
    /* --- step-time model (mfu_mode == GP_MFU_MODEL); see gp_train_step_result
     * and docs/models/training.md "Step-time model" ---------------------- */
    int mfu_mode;               /* 0: MFU given/database/fallback (default);
                                   GP_MFU_MODEL: predicted per optimizer step */
    const gp_link *scale_up;    /* link inside a node (NVLink, PCIe); needed
                                   when tp > 1 or a group shares a node     */
    const gp_link *scale_out;   /* link between nodes (IB, RoCE); needed when
                                   the run spans nodes                       */
    long gpus_per_node;         /* 0: min(8, gpus, scale_up max_gpus)        */
    long nics_per_node;         /* scale-out ports per node; 0:
                                   gp_topo_default_nics(up, out, g)          */
    double global_batch;        /* sequences per step, all GPUs; 0: 4M tokens
                                   / seq rounded to a multiple of dp x b     */
    long interleave;            /* virtual pipeline stages per GPU; 0 = 1    */
    int attn_unfused;           /* 1: attention core materialises the s x s
                                   scores (pre-FlashAttention: Megatron 2021) */
    int dp_no_overlap;          /* 1: gradient AllReduce after the backward
                                   pass (Megatron 2021); 0: overlapped       */
    long cp;                    /* context-parallel degree (0 or 1: none):
                                   each of cp ranks holds s/cp of every
                                   sequence; attention exchanges K and V
                                   round a ring (Megatron-core); dense
                                   shapes with fused attention and no
                                   linear-attention layers only (GP_EUNSUP
                                   "--cp" for those)                         */
    /* --- mixture of experts (a shape with experts > 0) ------------------- */
    long ep;                    /* expert-parallel degree E (0 or 1: none):
                                   the routed experts are sharded over E
                                   ranks of the data-parallel group
                                   (Megatron-core: E divides dp and the
                                   expert count); memory and step model      */
    double moe_imbalance;       /* step model: tokens on the busiest expert
                                   rank / the balanced share, in [1, E];
                                   0 = 1 (perfectly balanced)                */
    int moe_dedup;              /* step model: 1 = the dispatch sends a token
                                   once to each other node its experts are
                                   on and forwards it there on the scale-up
                                   link (DeepEP / DeepSeek-V3); 0 = one
                                   AllToAll of every routed copy; 1 needs a
                                   MoE shape and ep > 1 (GP_EINVAL
                                   "--moe-dispatch"), as moe_overlap does   */
    long moe_node_limit;        /* with moe_dedup: a token's experts lie on
                                   at most this many nodes (DeepSeek-V3's
                                   node-limited routing: 4); 0 = no limit  */
    int moe_overlap;            /* step model: 1 = a micro-batch's AllToAlls
                                   run under the adjacent micro-batch's
                                   computation (Megatron-core's combined
                                   1F1B, DeepSeek-V3's DualPipe), their
                                   kernels taking step_a2a_sms SMs         */
    /* --- partial full recompute (appended: ABI order) ---------------------- */
    long recompute_layers;      /* with GP_RECOMPUTE_BLOCK: N layers of each
                                   pipeline stage's model chunk (each virtual
                                   chunk when interleaved) recomputed in
                                   full, the others store every activation
                                   (FlashAttention: no s x s scores); 0 <= N
                                   <= ceil(L / (pp v)), GP_EINVAL
                                   "--recompute" otherwise; N = 0 prices as
                                   none, N = L/(pp v) as full; ignored by
                                   the other modes                          */
} gp_train_in;

/* Zero the input and set the defaults (gpus 1, tp = pp = 1, micro_batch 1,
 * sequence_parallel 1, Adam, selective recompute -- the CLI's default --,
 * 6ND, bf16, ep 1, moe_imbalance 1).  NULL is a no-op. */
void gp_train_in_init(gp_train_in *in);

/* The training sequence length a run uses: in->seq when given, else the
 * model's pre-training sequence (train_seq), else its context capped at
 * p->max_default_seq, else p->default_seq (p NULL: the defaults).  0 for a
 * NULL in. */
double gp_train_seq(const gp_train_in *in, const gp_train_params *p);

/* Where the MFU came from. */
enum { GP_MFU_GIVEN, GP_MFU_DATABASE, GP_MFU_FALLBACK, GP_MFU_PROFILE, GP_MFU_MODEL };

/* One optimizer step as the step-time model prices it, per GPU (the slowest
 * pipeline stage).  Seconds unless named otherwise.
 * MODEL: docs/models/training.md "Step-time model (--mfu model)". */
typedef struct gp_train_step_result {
    double global_batch;        /* sequences per step, all GPUs              */
    double tokens_per_step;     /* global_batch x seq                        */
    double micro_batches;       /* m = global_batch / (dp x b), per pipeline */
    long gpus_per_node, interleave;
    double layers_per_stage;    /* L / pp                                    */
    double peak_expected;       /* FLOP/s: gp_gpu_expected_peak             */
    double attn_peak_expected;  /* FLOP/s of the attention core: the 16-bit
                                   rate under fp8 / fp4 / int8 training
                                   (Transformer Engine keeps attention in
                                   BF16), else peak_expected               */
    double attn_eff;            /* fused attention's share of that rate
                                   (step_flash_eff; 1 when unfused)          */
    double mem_bw_expected;     /* bytes/s: gp_gpu_expected_mem_bw          */
    /* per micro-batch on one stage */
    double gemm_s;              /* layer + logit GEMMs (fwd, bwd, recompute) */
    double gemm_flop;           /* their FLOPs                               */
    double gemm_eff;            /* gemm_flop / (gemm_s x peak_expected)      */
    double attn_s, attn_flop;   /* attention core                            */
    double elementwise_s;       /* norms, activation, dropout, residual,
                                   softmax (unfused), cross-entropy          */
    double elementwise_bytes;
    double fp8_cast_bytes;      /* of those: 8-bit training's casts (0 else) */
    double fp8_cast_elem_bytes; /* their bytes per element cast: amax pass +
                                   cast (0 at 16 bits and wider)             */
    double dequant_bytes;       /* of those: a quantised frozen base's
                                   dequantisation (QLoRA; 0 else)            */
    double tp_comm_mb_s;        /* tensor-parallel collectives, exposed      */
    double tp_allreduce_s;      /* one AllReduce of b x s x h activations    */
    double pp_p2p_mb_s;         /* pipeline sends (activations, gradients)   */
    double cp_bytes;            /* K and V one rank receives per layer
                                   forward (context parallel; 0 without)     */
    double cp_ring_fwd_s, cp_ring_bwd_s; /* one layer's ring exchange,
                                   forward / backward (K, V and their
                                   gradients), before overlap               */
    double cp_comm_mb_s;        /* the part attention does not hide, per
                                   micro-batch                               */
    double fwd_s, bwd_s;        /* the micro-batch's forward / backward
                                   (recompute included in bwd)               */
    double micro_batch_s;       /* fwd_s + bwd_s                             */
    /* per step */
    double compute_s;           /* m x (gemm_s + attn_s)                     */
    double memory_s;            /* m x elementwise_s + optimizer_s           */
    double optimizer_s, optimizer_bytes;
    double tp_comm_s;           /* m x (tp_comm_mb_s)                        */
    double pp_comm_s;           /* m x pp_p2p_mb_s                           */
    double cp_comm_s;           /* m x cp_comm_mb_s                          */
    double bubble_fraction;     /* (p-1)/(m v)                               */
    double bubble_s;            /* (p-1)/v x micro_batch_s                   */
    double dp_bytes;            /* gradient (or FSDP parameter) bytes per
                                   collective, per GPU                       */
    double dp_comm_s;           /* data-parallel collectives per step        */
    double dp_comm_exposed_s;   /* the part not hidden behind compute        */
    double step_s;              /* ledger total                              */
    double hardware_flop;       /* executed FLOPs per GPU per step           */
    double mfu, hfu;            /* model / conventional hardware FLOPs per
                                   step / (gpus x peak x step_s)             */
    /* mixture of experts (0 for a dense model) */
    long ep;                    /* expert-parallel degree E                 */
    double moe_imbalance;       /* F used                                   */
    double moe_layers_per_stage, dense_layers_per_stage;
    double expert_rows;         /* m = F T k E / experts rows per expert GEMM */
    double expert_gemm_s;       /* routed-expert GEMMs per micro-batch (part
                                   of gemm_s; fwd, bwd, recompute)           */
    double expert_gemm_flop;
    double alltoall_bytes;      /* S of one dispatch/combine, per GPU        */
    double alltoall_1_s;        /* one AllToAll of S over the EP group       */
    double alltoall_node_share; /* of the copies bound for other nodes, the
                                   share that crosses the scale-out link
                                   (1; with moe_dedup the distinct nodes) */
    double alltoall_mb_s;       /* all of them in one micro-batch            */
    double alltoall_s;          /* exposed: m x alltoall_mb_s, or with
                                   moe_overlap (m - 1) x max(A k/S, A - C)
                                   + A (A = alltoall_mb_s, C = a micro-
                                   batch's computation, k of S SMs)          */
    double alltoall_hidden_s;   /* m x alltoall_mb_s - alltoall_s            */
    double dp_expert_bytes;     /* expert gradient bytes per GPU, reduced over
                                   the dp/E expert-data-parallel ranks       */
    gp_ledger ledger;           /* per step: compute; memory; movement =
                                   tp + pp + exposed dp + bubble + all-to-all
                                   (SUM)                                     */
} gp_train_step_result;

typedef struct gp_train_result {
    /* --- what was assumed ------------------------------------------------ */
    gp_precision precision;
    gp_pipeline pipeline;
    double peak_flop_per_s;     /* dense datasheet peak, fp32 accumulate     */
    const char *peak_src;
    double mfu;                 /* used (given, default, or implied)        */
    const char *mfu_src;        /* "--mfu", the database source, the fallback
                                   source, or "profile" (implied)           */
    int mfu_origin;             /* GP_MFU_GIVEN, _DATABASE, _FALLBACK, _PROFILE */
    double mfu_reference;       /* a default MFU as quoted: on the PaLM count
                                   (6N + 12 s q L per token) at selective
                                   recompute; mfu restates it for the run's
                                   count and recompute (docs/models/
                                   training.md 1.3).  = mfu when given or
                                   implied by a profile                      */
    double mfu_precision_scale; /* a default quoted for the 16-bit training
                                   precision: that precision's step time /
                                   this one's (only the GEMM share moves with
                                   the peak); 1 when the peaks agree        */
    double params;              /* N total                                   */
    double params_active;       /* N used per token (MoE: active)            */
    double seq;
    gp_train_shape shape;       /* used for attention/activations           */
    int shape_known;            /* 0: inferred from N                        */
    long dp;                    /* data-parallel degree gpus/(tp*pp*cp)      */
    long cp;                    /* context-parallel degree used (>= 1)       */
    long ep;                    /* expert-parallel degree used (>= 1)        */
    double expert_params;       /* routed-expert parameters of the shape
                                   (kk h f_e x experts x MoE layers, at most
                                   N); sharded over ep                       */
    /* --- compute ------------------------------------------------------- */
    double flop_6nd;            /* 6 N_active D (LoRA: 4ND + 6 N_a D)        */
    double flop_exact;          /* exact count (shape known or inferred)     */
    double model_flop;          /* the chosen count: what MFU is quoted on  */
    double hardware_flop;       /* + recompute FLOPs (HFU basis)             */
    double model_flop_per_token, hardware_flop_per_token;
    double hfu;                 /* mfu * hardware_flop / model_flop          */
    double palm_flop_per_token; /* the run's PaLM count: 6N + 12 s q L
                                   (LoRA: 4N + 6 N_a + 12 s q L)             */
    double mfu_palm;            /* mfu restated on that count, the basis of
                                   published MFUs (PaLM, Llama 3, MosaicML) */
    double peak_share;          /* the share of the datasheet peak the run
                                   claims: profile: the implied mfu; a given
                                   --mfu: max(hfu, mfu_palm); the step model:
                                   hfu; else 0.  Refused above
                                   GP_TRAIN_PROFILE_MFU_MAX (not the step
                                   model's: its count then claims more FLOPs
                                   than the step runs); above 1 the CLI warns */
    double gpu_seconds, gpu_hours, gpu_days;
    double wall_s, wall_days;
    double ceiling_gpu_days;    /* at MFU = 1 (datasheet bound)              */
    double tokens_per_s_per_gpu;
    double tokens_per_s;        /* whole cluster                             */
    int profiled;               /* 1: time from the measured step            */
    double tokens_per_step;     /* profile: tokens per step, all GPUs        */
    /* --- memory per GPU (bytes) ---------------------------------------- */
    double weight_bytes, grad_bytes, optim_bytes, state_bytes;
    double activation_bytes;
    double reserve_bytes, usable_bytes, total_bytes;
    int fits;
    long min_gpus;              /* least GPU count that fits with the chosen
                                   ZeRO/TP/PP; 0 when no count does          */
    long min_gpus_zero3;        /* same with ZeRO-3; 0 when none            */
    /* --- cost and energy ----------------------------------------------- */
    double rent_per_gpu_hour;   /* NaN when unknown                         */
    double cost_rent_usd;       /* NaN when no price is known               */
    double cost_own_usd;        /* capex share + energy; NaN without price  */
    double cost_capex_usd;      /* purchase x gpus x wall / (years)          */
    double cost_energy_usd;
    double energy_kwh;          /* gpus x TDP x PUE x wall                   */
    double years, pue, kwh_price;
    /* --- ledger -------------------------------------------------------- */
    gp_ledger ledger;           /* compute = wall-clock at the MFU; memory
                                   stalls and communication are inside MFU.
                                   GP_MFU_MODEL: the step ledger x steps   */
    int step_model;             /* 1: `step` is filled (GP_MFU_MODEL)       */
    gp_train_step_result step;
} gp_train_result;

/* Plan one training run.  Pure: no I/O, no allocation, no globals.
 * Returns GP_OK with *out filled (on error *out is partly written and must
 * not be used), or (with e naming the option/field and
 * quoting the value): GP_EINVAL for tokens/params <= 0, MFU outside
 * [GP_TRAIN_MFU_MIN, 1],
 * a bad ZeRO stage, degrees < 1, a GPU count not divisible by tp*pp, more
 * pipeline stages than layers ("--pp"; an inferred shape's layers too), a
 * tp that does not divide the attention heads or with the KV heads does
 * not divide one another ("--tp"; heads known from a shape only), a
 * profile with only one of step_time/tokens_per_step, a model without
 * params, an expert-parallel degree ep < 0, ep > 1 on a dense shape, ep not
 * dividing dp or the expert count ("--ep"), moe_imbalance outside [1, ep]
 * ("--moe-imbalance"), an enumeration out of range ("--recompute",
 * "--optimizer", "--exact" for count, "--precision" when precision_set;
 * "--mfu" for an mfu_mode other than 0 and GP_MFU_MODEL); GP_EUNSUP when
 * the GPU has no rate for the precision or the
 * precision is not one training uses (fp64, int8, int4); GP_ERANGE for
 * inputs beyond the plausibility caps (params/lora_params > 1e15, tokens
 * outside [1, 1e18], seq > 1e9, micro_batch > 1e9 outside the step model
 * (which names its 1e9-sequence global batch), gpus > 2^30, step_time outside [1e-6, 1e7] s, tokens per step outside [1, 1e12],
 * price > 1e4 USD/GPU-hour, purchase > 1e8 USD, years outside [0.01, 100],
 * pue outside [1, 10], kwh_price > 100 USD/kWh; docs/models/training.md 7;
 * a NaN or negative price, purchase, years, pue, kwh_price, step_time,
 * tokens_per_step or batch is GP_EINVAL naming its option, never "not
 * given")
 * and for a profile or a given MFU whose peak_share is above
 * GP_TRAIN_PROFILE_MFU_MAX ("--tokens-per-step"/"--batch", "--mfu").
 * p may be NULL (defaults); NULL in or out: GP_EINVAL.  Not fitting in
 * memory is reported in out->fits, not as an error.
 * A default MFU (database or fallback) is a figure quoted on the PaLM count
 * (6N + 12 s q L per token, A = 4 s q L the attention core forward) for
 * runs at selective recompute; the GPU's hardware rate is what carries
 * over: mfu = mfu_reference x (M_ref + A)/M_ref x model FLOPs per token / W
 * with M_ref = 6N + 3A and W = f + 3A + recompute extra (selective A, full
 * 2N + A, block:N phi_m x full's), so longer sequences and full recompute
 * cost time and the count (--exact) does not move it.  A given --mfu is final.  The default
 * sequence is in->seq, else the model's train_seq, else its context capped
 * at p->max_default_seq, else p->default_seq.
 * MODEL: time = model FLOPs / (peak x MFU) (Chowdhery et al. 2022 App. B);
 * memory per Rajbhandari et al. 2020 and Korthikanti et al. 2022; with
 * ep > 1 each GPU holds N_e/(t p ep) of the routed experts N_e and
 * (N - N_e)/(t p) of the rest, a ZeRO-sharded state N/(t p dp)
 * (docs/models/training.md 3.1).  The step model (GP_MFU_MODEL) prices MoE
 * shapes with expert parallelism: docs/models/training.md 9.8. */
int gp_train_estimate(const gp_train_in *in, const gp_train_params *p,
                      gp_train_result *out, gp_err *e);

/* Names ("unknown" out of range) and parsers: "none" "selective" "full";
 * "adam" (also "adamw") "adam8bit" (also "adam-8bit", "adamw8bit") "sgd",
 * case-insensitively.  GP_EINVAL naming "--recompute" / "--optimizer"
 * otherwise, *out untouched.  NULL s or out: GP_EINVAL.
 * gp_train_recompute_parse_layers also reads "block:N" (GP_RECOMPUTE_BLOCK,
 * N a whole number of layers per model chunk, 0..1000000, into *layers;
 * 0 for the other modes); gp_train_recompute_parse, with nowhere to put N,
 * refuses "block:N" (GP_EINVAL).  The name of GP_RECOMPUTE_BLOCK is
 * "block" (the CLI prints "block:N"). */
/* 1 when in's recompute re-runs every layer of a model of `layers`
 * layers: full, or block:N with N at least a model chunk's ceil(L / (p v))
 * layers (v = interleave, 1 without); 0 otherwise and for a NULL in. */
int gp_train_recomputes_all(const gp_train_in *in, double layers);
const char *gp_train_recompute_name(gp_train_recompute r);
int gp_train_recompute_parse(const char *s, gp_train_recompute *out, gp_err *e);
int gp_train_recompute_parse_layers(const char *s, gp_train_recompute *out, long *layers,
                                    gp_err *e);
const char *gp_train_optimizer_name(gp_train_optimizer o);
int gp_train_optimizer_parse(const char *s, gp_train_optimizer *out, gp_err *e);

#ifdef __cplusplus
}
#endif
#endif /* GP_TRAIN_H */
