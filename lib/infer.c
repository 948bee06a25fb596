/* Inference planner: decode bytes, FLOPs, ceiling and expected tokens/s,
 * prefill, ridge batch, memory fit, MoE experts touched, tensor-parallel
 * AllReduces.  MODEL: docs/models/inference.md. */
#include <math.h>
#include <stddef.h>

#include "gpuplan/comm.h"
#include "gpuplan/infer.h"
#include "db_int.h"
#include "gemm_int.h"

void gp_infer_params_init(gp_infer_params *p)
{
    if (p == NULL)
        return;
    p->gpu = NULL;
    p->model = NULL;
    p->link = NULL;
    p->weights = NULL;
    p->kv = NULL;
    p->embed = NULL;
    p->engine = NULL;
    p->context = GP_INFER_DEFAULT_CONTEXT;
    p->batch = 1.0;
    p->gpus = 1.0;
    p->prompt = 0.0;
    p->decode_eff = 0.0;
    p->prefill_eff = 0.0;
    p->price = 0.0;
    p->layer_overhead = -1.0;
    p->moe_layer_overhead = -1.0;
    p->runtime_overhead = -1.0;
    p->act_bytes = 2.0;
    p->accum = GP_ACC_FP32;
    p->split = GP_SPLIT_DEFAULT;
    gp_comm_params_default(&p->comm);
    p->scale_out = NULL;
    p->gpus_per_node = 0.0;
    p->attn_unfused = -1;
}

static double fmt_bits(const gp_format *f)
{
    return f != NULL && f->bits.v > 0.0 ? f->bits.v : 16.0;
}

double gp_infer_kv_bytes_per_token(const gp_model *m, double kv_bits)
{
    if (m == NULL || m->layers.v <= 0.0)
        return 0.0;
    /* Linear-attention layers cache no keys and values (inference.md §1.2). */
    return gp_model_attn_layers(m) * gp_model_kv_elems_per_layer(m) * kv_bits / 8.0;
}

double gp_infer_state_bytes_per_seq(const gp_model *m)
{
    double el = gp_model_state_elems(m);
    /* An entry's own bytes per layer (a float32 SSM cache) over its layers. */
    if (el > 0.0 && m->linear_state_bytes.v > 0.0)
        return el / m->linear_state.v * m->linear_state_bytes.v;
    return el * GP_INFER_STATE_BITS / 8.0;
}

double gp_infer_experts_touched(double n, double k, double batch)
{
    if (n <= 0.0 || k <= 0.0)
        return 0.0;
    if (k >= n)
        return n;
    if (batch <= 1.0)
        return k;
    /* MODEL: each token picks k of n; P(expert untouched) = (1-k/n)^B. */
    return n * (1.0 - pow(1.0 - k / n, batch));
}

/* Link time of the tensor-parallel or layer-split traffic, priced by the
 * collectives module (comm.h): p->gpus GPUs on p->link in one node, or
 * nodes of p->gpus_per_node joined by p->scale_out (a two-level gp_topo,
 * the node's NICs gp_topo_default_nics); p->comm for host staging.
 *   tensor parallel: one AllReduce of `bytes`, ring or tree, whichever is
 *     cheaper on each basis (comm.h's formulas, over nodes the two-level
 *     ones; docs/models/collectives.md);
 *   layer split: one hand-off of `bytes` to the next GPU = one ring step
 *     between two GPUs, i.e. comm.h's AllGather of 2 x bytes on 2 GPUs
 *     (each GPU sends its `bytes` once: bytes / B + alpha).  Over nodes the
 *     gpus - 1 hand-offs are gpus - nodes inside a node and nodes - 1 over
 *     the scale-out link; the figure returned is their mean, so the caller's
 *     gpus - 1 of them add up to the whole.
 * *exp_s: comm's expected time (achievable/calibrated B and alpha, host
 * staging).  *ceil_s: only the bandwidth terms of comm's ceiling (datasheet
 * B): the hwdb latency is a typical measurement, not a lower bound, so the
 * ceiling charges zero alpha and stays an upper bound on tokens/s.
 * *algo: the algorithm behind *exp_s.  Errors from gp_comm_eval ("--link":
 * no bandwidth) pass through; a node larger than the link joins is
 * "--gpus" on one node (naming --gpus-per-node and --scale-out, the
 * options that make nodes), "--gpus-per-node" over nodes. */
static int link_time(const gp_infer_params *p, int split_layers, double bytes,
                     double *exp_s, double *ceil_s, gp_coll_algo *algo, gp_err *e)
{
    gp_topo t;
    gp_comm_result a, b;
    int rc;
    long gpn = (long)p->gpus, nodes = 1;

    if (p->scale_out != NULL && p->gpus_per_node > 0.0 && p->gpus_per_node < p->gpus) {
        gpn = (long)p->gpus_per_node;
        nodes = (long)(p->gpus / p->gpus_per_node);
    }
    t.scale_up = p->link;
    t.scale_out = NULL;
    t.nodes = 1;
    t.nics_per_node = 1;
    if (split_layers) {
        t.gpus_per_node = 2;
        if ((rc = gp_comm_eval(&t, GP_COLL_ALLGATHER, GP_COLL_RING, 2.0 * bytes, &p->comm, &a,
                               e)) != GP_OK)
            return rc;
        *exp_s = a.expected.time_s;
        *ceil_s = a.ceiling.bw_s;
        *algo = GP_COLL_RING;
        if (nodes > 1) {
            /* A hand-off between nodes: one GPU per node, two nodes. */
            double n = p->gpus;
            t.gpus_per_node = 1;
            t.nodes = 2;
            t.scale_out = p->scale_out;
            if ((rc = gp_comm_eval(&t, GP_COLL_ALLGATHER, GP_COLL_RING, 2.0 * bytes, &p->comm,
                                   &b, e)) != GP_OK)
                return rc;
            *exp_s = ((n - (double)nodes) * *exp_s +
                      ((double)nodes - 1.0) * b.expected.time_s) / (n - 1.0);
            *ceil_s = ((n - (double)nodes) * *ceil_s + ((double)nodes - 1.0) * b.ceiling.bw_s) /
                      (n - 1.0);
        }
        return GP_OK;
    }
    t.gpus_per_node = gpn;
    if (nodes > 1) {
        /* The node size is the option at fault, not --gpus (comm.h's
         * message for one node). */
        if (p->link != NULL && p->link->max_gpus.v > 0.0 && (double)gpn > p->link->max_gpus.v)
            return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                               "link '%s' joins at most %.0f GPUs, asked for %ld per node",
                               p->link->id ? p->link->id : "?", p->link->max_gpus.v, gpn);
        t.nodes = nodes;
        t.scale_out = p->scale_out;
        t.nics_per_node = gp_topo_default_nics(p->link, p->scale_out, gpn);
    } else if (p->link != NULL && p->link->max_gpus.v > 0.0 &&
               (double)gpn > p->link->max_gpus.v) {
        /* One node of more GPUs than its link joins: the remedy is nodes,
         * and the options that make them are named (comm.h's message is
         * every command's, and their options differ). */
        return GP_RAISE_AT(e, GP_ERANGE, "--gpus", 0, 0,
                           "link '%s' joins at most %.0f GPUs, asked for %ld per node: spread "
                           "them over nodes with --gpus-per-node %.0f (or fewer) and "
                           "--scale-out ID, the link between the nodes (ib-ndr, roce-400, ...)",
                           p->link->id ? p->link->id : "?", p->link->max_gpus.v, gpn,
                           p->link->max_gpus.v);
    }
    if ((rc = gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_RING, bytes, &p->comm, &a, e)) != GP_OK)
        return rc;
    *algo = GP_COLL_RING;
    *exp_s = a.expected.time_s;
    /* The ceiling: no latency, the faster schedule's bandwidth term.  On
     * one node the ring's 2(n-1)/n S/B is never above the tree's 2 S/B;
     * over nodes the tree's pipelined stages can beat it (comm.h). */
    *ceil_s = a.ceiling.bw_s;
    /* On 2 GPUs the tree is the ring (S/B + 2 alpha both): price it only
     * for n > 2. */
    if ((long)p->gpus > 2) {
        if ((rc = gp_comm_eval(&t, GP_COLL_ALLREDUCE, GP_COLL_TREE, bytes, &p->comm, &b, e)) !=
            GP_OK)
            return rc;
        if (b.expected.time_s < a.expected.time_s) {
            *algo = GP_COLL_TREE;
            *exp_s = b.expected.time_s;
        }
        if (b.ceiling.bw_s < *ceil_s)
            *ceil_s = b.ceiling.bw_s;
    }
    return GP_OK;
}

/* Shape-derived quantities shared by both sides. */
typedef struct shape {
    double layers, hidden, heads, head_dim, ffn;
    double core_dim;      /* attention core width per head: (d_qk + d_v) / 2 */
    double embed_params;  /* vocab x hidden, one matrix                       */
    double n_embed;       /* matrices stored: 1 tied, 2 untied               */
    double body;          /* params excluding embedding matrices (all experts) */
    double expert_params; /* one routed expert                               */
    double moe_layers;
    double experts, k;
} shape;

static void get_shape(const gp_model *m, shape *s)
{
    double P = m->params.v;
    s->layers = m->layers.v > 0.0 ? m->layers.v : 0.0;
    s->hidden = m->hidden.v > 0.0 ? m->hidden.v : 0.0;
    s->heads = m->heads.v > 0.0 ? m->heads.v : 0.0;
    s->head_dim = m->head_dim.v > 0.0 ? m->head_dim.v
                                      : (s->heads > 0.0 ? s->hidden / s->heads : 0.0);
    s->ffn = m->ffn_hidden.v > 0.0 ? m->ffn_hidden.v : 4.0 * s->hidden;
    /* Q.K^T runs over the query/key width (MLA: 192), P.V over the value's. */
    s->core_dim = m->qk_head_dim.v > 0.0 ? (m->qk_head_dim.v + s->head_dim) / 2.0 : s->head_dim;
    s->n_embed = m->tied_embeddings ? 1.0 : 2.0;
    s->embed_params = m->vocab.v > 0.0 && s->hidden > 0.0 ? m->vocab.v * s->hidden : 0.0;
    if (s->embed_params * s->n_embed >= P)
        s->embed_params = 0.0; /* inconsistent shape: treat all as body */
    s->body = P - s->n_embed * s->embed_params;
    s->expert_params = 0.0;
    s->moe_layers = 0.0;
    s->experts = m->experts.v;
    s->k = m->experts_active.v;
    if (s->experts > 0.0 && s->k > 0.0 && s->k < s->experts && s->layers > 0.0) {
        double ml = s->layers - (m->dense_layers.v > 0.0 ? m->dense_layers.v : 0.0);
        double ep = 0.0;
        if (ml > 0.0) {
            /* k_f h f_e: gate, up, down (k_f 3), or up, down (plain
             * experts, moe.expert_ffn_kind: k_f 2). */
            if (m->expert_ffn_hidden.v > 0.0 && s->hidden > 0.0)
                ep = gp_model_expert_matrices(m) * s->hidden * m->expert_ffn_hidden.v;
            else if (m->params_active.v > 0.0 && m->params_active.v < P)
                ep = (P - m->params_active.v) / (ml * (s->experts - s->k));
        }
        if (ep > 0.0 && ml * s->experts * ep < s->body) {
            s->expert_params = ep;
            s->moe_layers = ml;
        }
    }
}

/* A dense prefill's layer GEMMs, each on its own roofline with wave
 * quantisation (inference.md 5.4): per layer Q/K/V (out N = (q + 2 kv)/t,
 * inner h), the output projection (h, q/t), the FFN's input side (N_in/t,
 * h) and its output (h, f/t), on `rows` prompt rows over t tensor ranks;
 * N_in is what remains of a layer's body after the attention's 2hq + 2h kv,
 * over h, less f (k_f - 1 = 1 plain, 2 gated).  Each costs
 * max(2 rows N K / (rate x waves), (N K wbyte + ebyte rows (N + K)) / bw),
 * waves = gp__wave_eff over `sms` SMs with the GP_GEMM_TILE_M x
 * GP_GEMM_TILE_N tile.  *time: per rank, all layers; *flop and *wbytes: the
 * GEMMs' FLOPs and weight bytes over all ranks.  Returns 0 (nothing set)
 * when the shape does not decompose so: MoE, latent attention (kv_dim),
 * a missing width, N_in <= 0. */
static int prefill_gemms(const gp_model *m, const shape *sh, double rows, double t,
                         double rate, double bw, double wbyte, double ebyte, double sms,
                         double *time, double *flop, double *wbytes)
{
    double h = sh->hidden, L = sh->layers, f = sh->ffn;
    double kvh = m->kv_heads.v > 0.0 ? m->kv_heads.v : sh->heads;
    double q = sh->heads * sh->head_dim, kv = kvh * sh->head_dim, nin, nk[4][2];
    double tt = 0.0, ff = 0.0, ww = 0.0;
    int i;
    if (!(L > 0.0 && h > 0.0 && q > 0.0 && f > 0.0 && t >= 1.0 && rows >= 1.0 &&
          rate > 0.0 && bw > 0.0) ||
        sh->moe_layers > 0.0 || m->kv_dim.v > 0.0)
        return 0;
    nin = (sh->body / L - 2.0 * h * (q + kv)) / h - f;
    if (!(nin > 0.0))
        return 0;
    nk[0][0] = (q + 2.0 * kv) / t; nk[0][1] = h;
    nk[1][0] = h;                  nk[1][1] = q / t;
    nk[2][0] = nin / t;            nk[2][1] = h;
    nk[3][0] = h;                  nk[3][1] = f / t;
    for (i = 0; i < 4; i++) {
        double n = nk[i][0], k = nk[i][1];
        double tf = 2.0 * rows * n * k /
                    (rate * gp__wave_eff(rows, n, 1.0, sms, GP_GEMM_TILE_M, GP_GEMM_TILE_N));
        double tb = (n * k * wbyte + ebyte * rows * (n + k)) / bw;
        tt += tf > tb ? tf : tb;
        ff += 2.0 * rows * n * k;
        ww += n * k * wbyte;
    }
    *time = L * tt;
    *flop = L * t * ff;
    *wbytes = L * t * ww;
    return 1;
}

/* Body params touched by `tokens` tokens routed independently; *touched:
 * distinct experts per MoE layer, *routed: the touched experts' params. */
static double body_touched(const shape *s, double tokens, double *touched, double *routed)
{
    double t;
    if (s->moe_layers <= 0.0) {
        *touched = *routed = 0.0;
        return s->body;
    }
    t = gp_infer_experts_touched(s->experts, s->k, tokens);
    *touched = t;
    *routed = s->moe_layers * t * s->expert_params;
    return s->body - s->moe_layers * (s->experts - t) * s->expert_params;
}

/* Bytes of `body` body parameters of which `experts` sit in routed experts:
 * the experts at wbits, the rest (attention, router, dense and shared FFNs)
 * at dbits -- the weights format's `dense` format, else wbits too. */
static double body_bytes(double body, double experts, double wbits, double dbits)
{
    return experts * wbits / 8.0 + (body - experts) * dbits / 8.0;
}

/* 1 when g is an Apple GPU with a tensor rate at prec (the M5 generation's
 * Neural Accelerators).  Only Metal 4's tensor matmul ops reach that unit,
 * and llama.cpp calls them from its matrix-matrix kernels (PR #16634: the
 * prefill and decode batches past GP_INFER_MMVQ_MAX_BATCH); its
 * matrix-vector kernels (decode batches up to it), and every kernel of an
 * engine without them (prefill_mx_flop 0), run on the SIMD ALUs, the cuda
 * pipeline.  docs/models/inference.md section 5.3. */
static int apple_mx(const gp_gpu *g, gp_precision prec)
{
    return gp__vendor_is(g, "Apple") && gp_gpu_default_pipeline(g, prec) == GP_PIPE_TENSOR;
}

static double peak_for(const gp_gpu *g, gp_precision p, gp_pipeline pipe,
                       gp_accum acc, int ceiling)
{
    return ceiling ? gp_gpu_peak(g, p, pipe, acc, 0)
                   : gp_gpu_expected_peak(g, p, pipe, acc, 0);
}

/* The ceiling's matmul rate: the fastest datasheet path the format's
 * kernels can take, so that no run beats it -- precision prec with either
 * accumulate (GeForce halves the fp32-accumulate rate; cuBLAS and llama.cpp
 * run fp16 GEMMs with CUBLAS_COMPUTE_16F), and the format's `mma` path
 * (llama.cpp's MMQ runs GGUF integer quants on int8 tensor cores, PR #7676).
 * docs/models/inference.md section 5. */
static double ceiling_peak(const gp_gpu *g, gp_precision prec, const gp_format *w,
                           gp_precision *bp, gp_accum *ba)
{
    double best = gp_gpu_peak(g, prec, gp_gpu_default_pipeline(g, prec), GP_ACC_FP32, 0), v;
    *bp = prec;
    *ba = GP_ACC_FP32;
    v = gp_gpu_peak(g, prec, gp_gpu_default_pipeline(g, prec), GP_ACC_FP16, 0);
    if (v > best) {
        best = v;
        *ba = GP_ACC_FP16;
    }
    if (w != NULL && (unsigned)w->mma < GP_PREC__COUNT && w->mma != GP_FP64) {
        v = gp_gpu_peak(g, w->mma, gp_gpu_default_pipeline(g, w->mma), GP_ACC_FP32, 0);
        if (v > best) {
            best = v;
            *bp = w->mma;
            *ba = GP_ACC_FP32;
        }
    }
    return best;
}

/* The matmul precision: the format's compute precision when the GPU has it,
 * else fp16, else fp32. */
static gp_precision pick_precision(const gp_gpu *g, const gp_format *w)
{
    gp_precision p = w != NULL ? w->compute : GP_FP16;
    if ((unsigned)p >= GP_PREC__COUNT)
        p = GP_FP16;
    if (gp_gpu_peak(g, p, gp_gpu_default_pipeline(g, p), GP_ACC_FP32, 0) > 0.0)
        return p;
    if (gp_gpu_peak(g, GP_FP16, gp_gpu_default_pipeline(g, GP_FP16), GP_ACC_FP32, 0) > 0.0)
        return GP_FP16;
    return GP_FP32;
}

static double div0(double a, double b)
{
    return b > 0.0 ? a / b : (a > 0.0 ? INFINITY : 0.0);
}

typedef struct sums {
    double w_bytes;    /* weight bytes per step, all GPUs                    */
    double w_save_ceil; /* of them, what the ceiling leaves out: an lm_head
                          at a default (unstated) format wider than the
                          weights, which an engine may quantise with them  */
    double o_bytes;    /* KV + activation bytes per step                     */
    double act_bytes;  /* of which activations (left out of the ceiling)     */
    double flop;       /* matmul + attention                                 */
    double deq;        /* dequant FLOP                                       */
    double deq_seq;    /* of deq, what each sequence adds (engines whose
                          GEMVs unpack per sequence: dequant_per_seq)     */
    double deq_once;   /* dequant FLOP at this batch unpacked once a step
                          (the figure past the GEMV batches)              */
    double deq_fixed;  /* of deq, what does not grow with the batch: all of
                          it unpacked once a step, else a dearer format's
                          extra over Q4_0 (dequant_per_seq)               */
    double comm_exp;   /* link time per step, expected (comm.h)              */
    double comm_ceil;  /* link time per step, ceiling (bandwidth terms only) */
    double kv_seq;     /* KV bytes per sequence at this context              */
    double st_seq;     /* recurrent-state bytes per sequence per step (read
                          and written back; linear-attention layers)         */
    double kv_copies;  /* of o_bytes: the extra KV copies tensor parallelism
                          keeps (kv_replicas - 1 of the cache); engines with
                          data-parallel attention avoid them, so the ceiling
                          leaves them out                                    */
    double kv_seq_copies; /* the same per sequence                           */
    double act_seq;    /* activation bytes per sequence per step             */
    double emb_seq;    /* of w_bytes, each sequence's input-embedding row
                          (untied; tied: the lm_head read covers it)         */
    double flop_seq;   /* FLOP per sequence per step                         */
    double layers;
    double moe_layers; /* layers with routed experts (their extra fixed cost) */
    double div;        /* GPUs sharing each step's work: gpus (TP) or 1      */
    int split_layers;
} sums;

static void side_eval(const gp_infer_params *p, const sums *s, gp_precision prec,
                      int ceiling, const gp_engine *eng, gp_infer_side *o,
                      const char **eff_src, const char **ovh_src)
{
    const gp_gpu *g = p->gpu;
    double n = s->div, tc, tm, ew, eo, ovh, movh, mmq = 0.0, mxp = 0.0;
    gp_pipeline pipe = gp_gpu_default_pipeline(g, prec);
    /* Apple with a tensor rate (expected side): decode's GEMVs stay on the
     * ALUs (mx); the matrix-matrix kernels reach the tensor rate only
     * through an engine that has them (mx_mm). */
    int mx = !ceiling && apple_mx(g, prec);
    int mx_mm = mx && eng->prefill_mx_flop > 0.0;
    o->mem_bw = ceiling ? g->mem_bw.v : gp_gpu_expected_mem_bw(g);
    if (ceiling) {
        gp_precision bp;
        gp_accum ba;
        o->peak = ceiling_peak(g, prec, p->weights, &bp, &ba);
        o->peak_precision = bp;
        o->peak_accum = ba;
    } else {
        gp_pipeline dp = mx ? GP_PIPE_CUDA : pipe;
        o->peak = peak_for(g, prec, dp, p->accum, 0);
        o->peak_precision = prec;
        o->peak_accum = p->accum;
        pipe = mx_mm ? GP_PIPE_TENSOR : dp;
    }
    o->prefill_pipeline = pipe;
    o->prefill_peak = ceiling ? o->peak : peak_for(g, prec, pipe, p->accum, 0);
    o->cuda_peak = peak_for(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, ceiling);
    o->sm_stream_bw = 0.0;
    o->sm_limited = 0;
    o->prefill_eff = 1.0;
    o->prefill_rate = o->prefill_peak;
    /* mmq: the per-SM rate of the engine's batched matrix kernels
     * (llama.cpp's MMQ; its F16 path on NVIDIA too), 0 when it has none. */
    if (ceiling) {
        ew = eo = 1.0;
        ovh = movh = 0.0;
    } else {
        const char *es = eng->src, *os = eng->src;
        int wide = p->weights == NULL || fmt_bits(p->weights) >= 16.0;
        double clk, sm_flop;
        /* Tensor matmuls narrower than 16 bits (fp8, int8, fp4, int4) have
         * their own fraction where the engine has one; int8 on CUDA cores
         * (a P40's dp4a) is not the narrow tensor path it was fitted on. */
        o->prefill_eff = p->prefill_eff > 0.0
                             ? p->prefill_eff
                             : gp_engine_prefill_eff(eng, gp_precision_is_narrow(prec, pipe));
        o->prefill_rate = o->prefill_peak * o->prefill_eff;
        /* An engine whose quantised-weight prefill kernels run at their own
         * per-SM rate (llama.cpp's MMQ) is capped by it, at the boost clock
         * (else the base clock, else the 2 GHz reference the overheads use);
         * on an Apple GPU's tensor rate by its prefill_mx_flop instead;
         * --prefill-eff replaces the engine's figures, the cap included. */
        clk = g->clock_boost.v > 0.0  ? g->clock_boost.v
              : g->clock_base.v > 0.0 ? g->clock_base.v
                                      : GP_INFER_REF_CLOCK;
        sm_flop = mx_mm ? eng->prefill_mx_flop : eng->prefill_sm_flop;
        /* 16-bit weights too on NVIDIA: llama.cpp's F16 prefill reaches
         * about the same per-SM rate (inference.md 5.3); elsewhere (Apple's
         * F16 Metal kernels) they keep the engine's fraction. */
        if ((!wide || gp__vendor_is(g, "NVIDIA")) && p->prefill_eff <= 0.0 && sm_flop > 0.0 &&
            g->sm_count.v > 0.0) {
            double cap = sm_flop * g->sm_count.v * clk;
            if (cap < o->prefill_rate)
                o->prefill_rate = cap;
            mmq = cap < o->prefill_peak ? cap : o->prefill_peak;
        }
        ew = wide                                                     ? eng->eff_float
             : eng->eff_quant4 > 0.0 && p->weights != NULL && fmt_bits(p->weights) < 8.0
                 ? eng->eff_quant4
                 : eng->eff_quant;
        eo = eng->eff_float;
        ovh = eng->layer_overhead;
        movh = eng->moe_layer_overhead;
        if (g->clock_boost.v > 0.0) {
            ovh *= GP_INFER_REF_CLOCK / g->clock_boost.v;
            movh *= GP_INFER_REF_CLOCK / g->clock_boost.v;
        }
        if (eng == gp_engine_default() && g->eff_decode.v > 0.0) {
            ew = eo = g->eff_decode.v;
            es = g->eff_decode.src ? g->eff_decode.src : "hwdb efficiency.decode";
        }
        if (eng == gp_engine_default() && g->decode_layer_overhead.v > 0.0) {
            ovh = g->decode_layer_overhead.v;
            os = g->decode_layer_overhead.src ? g->decode_layer_overhead.src
                                              : "hwdb efficiency.decode_layer_overhead";
        }
        if (p->decode_eff > 0.0) {
            ew = eo = p->decode_eff;
            es = "--decode-eff";
        }
        if (p->layer_overhead >= 0.0) {
            ovh = p->layer_overhead;
            os = "--layer-overhead";
        }
        if (p->moe_layer_overhead >= 0.0)
            movh = p->moe_layer_overhead;
        /* Little's law: the engine's kernels stream at most sm_bw per SM
         * (an explicit --decode-eff replaces the engine's figures). */
        if (eng->sm_bw > 0.0 && g->sm_count.v > 0.0)
            o->sm_stream_bw = g->sm_count.v * eng->sm_bw;
        if (p->decode_eff <= 0.0 && o->sm_stream_bw > 0.0 && o->mem_bw > 0.0) {
            double cap = o->sm_stream_bw / o->mem_bw;
            if (ew > cap) {
                ew = cap;
                es = eng->src;
                o->sm_limited = 1;
            }
            if (eo > cap)
                eo = cap;
        }
        if (eff_src)
            *eff_src = es;
        if (ovh_src)
            *ovh_src = os;
    }
    o->eff_weights = ew;
    o->eff_other = eo;
    o->layer_overhead_s = ovh;
    o->moe_overhead_s = movh;
    o->overhead_s = s->layers * ovh + s->moe_layers * movh;
    o->comm_s = ceiling ? s->comm_ceil : s->comm_exp;
    /* The ceiling charges only what no engine can avoid: weights and KV
     * bytes, matmul and attention FLOPs (no activation round-trips, no
     * dequantisation work). */
    /* A batch above GP_INFER_MMVQ_MAX_BATCH runs the same kernels as the
     * prefill (llama.cpp's MMQ), at their rate and with their unpacking
     * inside it; a smaller one the GEMV kernels (MMVQ): the matmul rate and
     * the dequantisation on the CUDA cores. */
    /* Apple with an engine whose matrix-matrix kernels reach the tensor
     * rate (prefill_pipeline tensor): batches past the GEMVs run there
     * when no per-core cap applies (16-bit weights, --prefill-eff), as
     * they do on the prefill's peak elsewhere (section 5.3). */
    if (mx_mm && mmq <= 0.0)
        mxp = o->prefill_peak;
    if (mmq > 0.0 && p->batch > GP_INFER_MMVQ_MAX_BATCH)
        tc = div0(s->flop / n, mmq);
    else if (mxp > 0.0 && p->batch > GP_INFER_MMVQ_MAX_BATCH)
        tc = div0(s->flop / n, mxp) + div0(s->deq / n, o->cuda_peak);
    else
        tc = div0(s->flop / n, o->peak) + (ceiling ? 0.0 : div0(s->deq / n, o->cuda_peak));
    tm = div0((s->w_bytes - (ceiling ? s->w_save_ceil : 0.0)) / n, o->mem_bw * ew) +
         div0((s->o_bytes - (ceiling ? s->act_bytes + s->kv_copies : 0.0)) / n,
              o->mem_bw * eo);
    o->ledger.t[GP_ACCT_COMPUTE] = tc;
    o->ledger.t[GP_ACCT_MEMORY] = tm;
    o->ledger.t[GP_ACCT_MOVEMENT] = o->overhead_s + o->comm_s;
    /* Fixed costs serialise with the step: total = max(c, m) + movement. */
    gp_ledger_close(&o->ledger, GP_OVERLAP_ROOF);
    o->step_s = o->ledger.total;
    o->tokens_per_s = div0(1.0, o->step_s);
    o->aggregate_tokens_per_s = p->batch * o->tokens_per_s;
    {
        double price = p->price > 0.0 ? p->price : (g->rent.v > 0.0 ? g->rent.v : 0.0);
        o->usd_per_mtok = price > 0.0 && o->aggregate_tokens_per_s > 0.0 &&
                                  isfinite(o->aggregate_tokens_per_s)
                              ? price * p->gpus / (o->aggregate_tokens_per_s * 3600.0) * 1e6
                              : 0.0;
    }
    /* Ridge: B where B x flop_seq / peak (+ dequant) = W / bw_w + B x
     * (emb_seq / bw_w + (kv_seq + act_seq) / bw_o), with W the weight bytes
     * at the current batch (MoE: experts touched now) less its B embedding
     * rows; the ceiling leaves out act and dequant. */
    {
        double bwe = o->mem_bw * ew, bwo = o->mem_bw * eo;
        double per_seq = (ceiling ? s->kv_seq - s->kv_seq_copies : s->kv_seq + s->act_seq) +
                         s->st_seq;
        double slope = div0(s->flop_seq / n, o->peak) - div0(per_seq / n, bwo) -
                       div0(s->emb_seq / n, bwe);
        double wb = div0((s->w_bytes - p->batch * s->emb_seq -
                          (ceiling ? s->w_save_ceil : 0.0)) / n, bwe);
        /* Dequantisation per sequence (dequant_per_seq) joins the slope;
         * the rest stays a fixed cost beside the weights. */
        double w1 = wb - (ceiling ? 0.0 : div0(s->deq_fixed / n, o->cuda_peak));
        if (!ceiling && s->deq_seq > 0.0)
            slope += div0(s->deq_seq / n, o->cuda_peak);
        o->ridge_batch = slope > 0.0 ? (w1 > 0.0 ? w1 / slope : 1.0) : INFINITY;
        if (o->ridge_batch < 1.0)
            o->ridge_batch = 1.0;
        /* Past the GEMV batches the MMQ regime decides: its own rate, no
         * separate dequantisation; the first such batch at the least.  It
         * decides too when the GEMV batches are compute-bound (dequantising
         * on slow fp32 cores, an A100's) but the first MMQ batch is not:
         * compute-bound from a batch means every larger batch too.  With
         * per-sequence unpacking but no MMQ rate (llama.cpp-rocm,
         * --prefill-eff) the step past the GEMV batches unpacks once
         * (side_eval): the ridge there is the once-a-step one, at the
         * matmul peak. */
        double rate = 0.0, wq = 0.0;
        int past = 1;
        if (mmq > 0.0 || mxp > 0.0) {
            rate = mmq > 0.0 ? mmq : mxp;
            wq = mmq > 0.0 ? wb : w1;
        } else if (!ceiling && s->deq_seq > 0.0) {
            rate = o->peak;
            wq = wb - div0(s->deq_once / n, o->cuda_peak);
        } else {
            past = 0;
        }
        if (past) {
            double sq = div0(s->flop_seq / n, rate) - div0(per_seq / n, bwo) -
                        div0(s->emb_seq / n, bwe);
            double rq = sq > 0.0 ? (wq > 0.0 ? wq / sq : 1.0) : INFINITY;
            if (rq < GP_INFER_MMVQ_MAX_BATCH + 1.0)
                rq = GP_INFER_MMVQ_MAX_BATCH + 1.0;
            if (o->ridge_batch > GP_INFER_MMVQ_MAX_BATCH || rq > GP_INFER_MMVQ_MAX_BATCH + 1.0)
                o->ridge_batch = rq;
        }
    }
    o->ttft_s = 0.0;
    o->prefill_score_s = 0.0;
    o->prefill_gemm_s = 0.0;
}

/* What a MoE step's weight read depends on: the formats' bits, the
 * lm_head (fixed), one sequence's embedding row and the dequantisation
 * FLOP per weight read. */
typedef struct moe_read {
    double wbits, dbits, lm_fixed, emb_row, deq_per_param;
    int deq_dense; /* 1: the dense tensors dequantise too, 0: experts only */
    gp_precision prec;
    const gp_engine *eng;
} moe_read;

/* side_eval's ridge with the weights (and their dequantisation) that a
 * batch of b touches: body_touched's experts for b (b may be INFINITY: all
 * of them). */
static double ridge_with(const gp_infer_params *p, const sums *s, const shape *sh,
                         const moe_read *w, int ceiling, double b)
{
    gp_infer_params q = *p;
    sums t = *s;
    gp_infer_side o;
    double touched, routed, bt = body_touched(sh, b, &touched, &routed);
    q.batch = 1.0; /* side_eval takes one embedding row off w_bytes */
    t.w_bytes = body_bytes(bt, routed, w->wbits, w->dbits) + w->lm_fixed + w->emb_row;
    t.deq_once = (w->deq_dense ? bt : routed) * w->deq_per_param;
    t.deq = t.deq_seq > 0.0 ? t.deq_seq : t.deq_once;
    side_eval(&q, &t, w->prec, ceiling, w->eng, &o, NULL, NULL);
    return o.ridge_batch;
}

/* The ridge of a MoE model: the batch B whose own weight read (the experts
 * B sequences touch, E (1 - (1 - k/E)^B) per layer) puts compute and
 * memory level, i.e. the B with ridge_with(B) = B (inference.md 5).  The
 * experts read at the batch asked would move the answer with that batch
 * (Mixtral at batch 1 reads 2 of 8: a ridge 3.7x too low).
 *
 * f(B) = ridge_with(B) - B falls through zero once: ridge_with grows with
 * the experts B touches and is bounded by its value with all of them, R,
 * so [1, R] brackets the root.  Regula falsi with the Illinois rule (the
 * stale end's f halved) converges superlinearly on this smooth f, in about
 * ten evaluations where bisection to the same 1e-12 took fifty; a GSL
 * fsolver would allocate on every decode evaluation. */
static double moe_ridge(const gp_infer_params *p, const sums *s, const shape *sh,
                        const moe_read *w, int ceiling)
{
    double lo = 1.0, hi, flo, fhi, x, fx;
    int i, side = 0;
    flo = ridge_with(p, s, sh, w, ceiling, lo) - lo;
    if (!(flo > 0.0))
        return flo + lo; /* compute-bound from the first sequence */
    hi = ridge_with(p, s, sh, w, ceiling, INFINITY);
    if (!isfinite(hi) || hi > 1e15)
        return INFINITY;
    fhi = ridge_with(p, s, sh, w, ceiling, hi) - hi;
    if (!(fhi < 0.0))
        return hi; /* the usual case: a batch of R reads every expert (Mixtral's 8
                      at R = 869: 0.75^869 of a layer's experts unread), so R is
                      the root; and f(R) > 0 cannot happen (ridge_with(B) <= R) */
    for (i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
        x = hi - fhi * (hi - lo) / (fhi - flo);
        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        fx = ridge_with(p, s, sh, w, ceiling, x) - x;
        if (fabs(fx) <= 1e-12 * x)
            return x;
        if (fx < 0.0) {
            hi = x;
            fhi = fx;
            if (side == -1)
                flo *= 0.5;
            side = -1;
        } else {
            lo = x;
            flo = fx;
            if (side == 1)
                fhi *= 0.5;
            side = 1;
        }
    }
    return hi;
}

static int infer_eval(const gp_infer_params *p, gp_infer_result *r, gp_err *e);

/* A format for MoE checkpoints (its dense tensors in a format of their own:
 * mxfp4-moe, mxfp4-moe-bf16) on a model without routed experts stores every
 * weight in that dense format, as llama-quantize writes it: priced as such,
 * efficiencies and kernel regimes included, its output matrix kept. */
int gp_infer_eval(const gp_infer_params *p, gp_infer_result *r, gp_err *e)
{
    if (p != NULL && p->model != NULL && p->weights != NULL && p->weights->dense != NULL) {
        shape sh;
        get_shape(p->model, &sh);
        if (!(sh.moe_layers > 0.0)) {
            gp_infer_params q = *p;
            q.weights = p->weights->dense;
            if (q.embed == NULL && p->weights->output != NULL &&
                p->weights->output != p->weights->dense)
                q.embed = p->weights->output;
            return infer_eval(&q, r, e);
        }
    }
    return infer_eval(p, r, e);
}

static int infer_eval(const gp_infer_params *p, gp_infer_result *r, gp_err *e)
{
    const gp_model *m;
    const gp_gpu *g;
    const gp_engine *eng;
    shape sh;
    sums s;
    double wbits, dbits, kbits, ebits, ibits, touched, body_t, B, ctx, act_elems, ex_t;
    double store, kv_tok, kv_all, usable, ovh_mem, free1, pos, tok_params, emb_row;
    double st_seq, st_elems, lin, la, per_seq, deq_w;
    int quant, dquant, split;

    if (p == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_infer_eval: NULL p");
    if (r == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_infer_eval: NULL r");
    m = p->model;
    g = p->gpu;
    if (g == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpu", 0, 0, "no GPU given");
    if (m == NULL || !(m->params.v > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--params", 0, 0,
                           "the model needs a positive parameter count");
    if (!(g->mem_bw.v > 0.0))
        return GP_RAISE_AT(e, GP_EINVAL, "--gpu", 0, 0,
                           "GPU '%s' has no memory bandwidth", g->id ? g->id : "?");
    if ((unsigned)p->split > (unsigned)GP_SPLIT_LAYER)
        return GP_RAISE_AT(e, GP_EINVAL, "--split", 0, 0, "split mode %d out of range",
                           (int)p->split);
    if ((unsigned)p->accum > (unsigned)GP_ACC_FP16)
        return GP_RAISE_AT(e, GP_EINVAL, "--accumulate", 0, 0,
                           "accumulate mode %d out of range", (int)p->accum);
    if (!(p->batch >= 1.0) || !isfinite(p->batch))
        return GP_RAISE_AT(e, GP_EINVAL, "--batch", 0, 0, "batch must be >= 1 (got %g)",
                           p->batch);
    if (!(p->gpus >= 1.0) || !isfinite(p->gpus))
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0, "gpus must be >= 1 (got %g)",
                           p->gpus);
    if (!(p->context >= 0.0) || !isfinite(p->context))
        return GP_RAISE_AT(e, GP_EINVAL, "--context", 0, 0,
                           "context must be >= 0 tokens (got %g)", p->context);
    if (!(p->prompt >= 0.0) || !isfinite(p->prompt))
        return GP_RAISE_AT(e, GP_EINVAL, "--prompt", 0, 0,
                           "prompt must be >= 0 tokens (got %g)", p->prompt);
    if (p->gpus > 1.0 && (p->gpus != floor(p->gpus) || p->gpus > GP_INFER_MAX_GPUS))
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "gpus must be a whole number from 1 to %.0f (got %g)",
                           GP_INFER_MAX_GPUS, p->gpus);
    if (p->gpus > 1.0 && p->link == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "%g GPUs need a link between them (GPU '%s' names none)",
                           p->gpus, g->id ? g->id : "?");
    if (!(p->gpus_per_node >= 0.0) || p->gpus_per_node != floor(p->gpus_per_node) ||
        p->gpus_per_node > GP_INFER_MAX_GPUS)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                           "GPUs per node must be a whole number from 1 to %.0f (got %g)",
                           GP_INFER_MAX_GPUS, p->gpus_per_node);
    if (p->gpus_per_node > 0.0 && p->gpus_per_node < p->gpus) {
        if (fmod(p->gpus, p->gpus_per_node) != 0.0)
            return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                               "%g GPUs do not fill whole nodes of %g", p->gpus,
                               p->gpus_per_node);
        if (p->scale_out == NULL)
            return GP_RAISE_AT(e, GP_EINVAL, "--scale-out", 0, 0,
                               "%g GPUs span %g nodes of %g: give the link between nodes "
                               "(--scale-out ID, e.g. ib-ndr)",
                               p->gpus, p->gpus / p->gpus_per_node, p->gpus_per_node);
    }
    if (!(p->price >= 0.0) || p->price > 1e4)
        return GP_RAISE_AT(e, GP_EINVAL, "--price", 0, 0,
                           "price must lie in [0, 1e4] USD per GPU-hour (got %g)", p->price);
    if (!(p->decode_eff >= 0.0 && p->decode_eff <= 1.0)) /* NaN too */
        return GP_RAISE_AT(e, GP_EINVAL, "--decode-eff", 0, 0,
                           "decode efficiency must lie in (0, 1] (got %g)", p->decode_eff);
    /* The overrides a caller sets by hand: negative means "the default", a
     * NaN is no number at all (it was taken for "not given"), and the CLI's
     * bounds keep every derived time and byte count finite. */
    if (isnan(p->layer_overhead) || p->layer_overhead > 1.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--layer-overhead", 0, 0,
                           "layer overhead must be at most 1 s (negative: the engine's; "
                           "got %g)", p->layer_overhead);
    if (isnan(p->moe_layer_overhead) || p->moe_layer_overhead > 1.0)
        return GP_RAISE_AT(e, GP_EINVAL, "--moe-layer-overhead", 0, 0,
                           "MoE layer overhead must be at most 1 s (negative: the engine's; "
                           "got %g)", p->moe_layer_overhead);
    if (isnan(p->runtime_overhead) || p->runtime_overhead > 1e15)
        return GP_RAISE_AT(e, GP_EINVAL, "--runtime-overhead", 0, 0,
                           "runtime overhead must be at most 1e15 bytes (negative: the "
                           "default; got %g)", p->runtime_overhead);
    if (!(p->act_bytes > 0.0 && p->act_bytes <= 8.0))
        return GP_RAISE_AT(e, GP_EINVAL, "act_bytes", 0, 0,
                           "bytes per activation element must lie in (0, 8] (got %g)",
                           p->act_bytes);
    if (!(p->prefill_eff >= 0.0 && p->prefill_eff <= 1.0)) /* NaN too */
        return GP_RAISE_AT(e, GP_EINVAL, "--prefill-eff", 0, 0,
                           "prefill efficiency must lie in (0, 1] (got %g)", p->prefill_eff);
    if (p->attn_unfused < -1 || p->attn_unfused > 1)
        return GP_RAISE_AT(e, GP_EINVAL, "--attention", 0, 0,
                           "attention must be -1 (the engine's), 0 (fused) or 1 (unfused) "
                           "(got %d)",
                           p->attn_unfused);

    /* The engine: given, else the one the weights' format implies (a GGUF
     * file runs on llama.cpp), else the generic profile. */
    eng = p->engine;
    r->engine_implied = 0;
    if (eng == NULL && p->weights != NULL && p->weights->engine != NULL &&
        (eng = gp_engine_find(p->weights->engine)) != NULL)
        r->engine_implied = 1;
    if (eng == NULL)
        eng = gp_engine_default();
    /* An engine runs its build for the GPU's vendor (llama.cpp's HIP, SYCL
     * and Metal backends, vLLM's ROCm build). */
    r->engine_requested = eng;
    eng = gp_engine_for_gpu(eng, p->gpu);
    r->engine_backend = eng != r->engine_requested;
    B = p->batch;
    ctx = p->context;
    wbits = fmt_bits(p->weights);
    dbits = p->weights != NULL && p->weights->dense != NULL ? fmt_bits(p->weights->dense)
                                                           : wbits;
    kbits = fmt_bits(p->kv);
    /* Embeddings: --embed-format for both matrices; else a format that
     * names its output matrix's (a GGUF file keeps output.weight at Q6_K and
     * quantises token_embd like the body); else 16 bit. */
    r->embed_format = p->embed;
    r->embed_in_format = p->embed;
    if (p->embed == NULL && p->weights != NULL && p->weights->output != NULL) {
        r->embed_format = p->weights->output;
        r->embed_in_format = p->weights;
    }
    /* A format that names its dense tensors' format keeps the input
     * embedding in it (GGUF token_embd is quantised like the rest). */
    if (p->embed == NULL && p->weights != NULL && p->weights->dense != NULL)
        r->embed_in_format = p->weights->dense;
    ebits = fmt_bits(r->embed_format);
    ibits = fmt_bits(r->embed_in_format);
    quant = p->weights != NULL && p->weights->kind != GP_FMT_FLOAT && wbits < 16.0;
    /* A format whose dense tensors stay 16-bit (mxfp4-moe-bf16) unpacks
     * only its routed experts. */
    dquant = quant && (p->weights->dense == NULL ||
                       (p->weights->dense->kind != GP_FMT_FLOAT && dbits < 16.0));
    get_shape(m, &sh);

    /* Weights read per step. */
    body_t = body_touched(&sh, B, &touched, &ex_t);
    r->experts_touched = touched;
    r->body_bytes = body_bytes(body_t, ex_t, wbits, dbits);
    r->body_params = body_t;
    r->body_dense_params = body_t - ex_t;
    r->lm_head_bytes = sh.embed_params * ebits / 8.0;
    /* Untied: the input embedding reads B rows only (none split off, no
     * vocabulary: the body holds it). */
    emb_row = sh.n_embed > 1.0 && sh.embed_params > 0.0 ? sh.hidden * ibits / 8.0 : 0.0;
    r->lm_head_bytes += B * emb_row;
    r->weight_bytes = r->body_bytes + r->lm_head_bytes;
    store = body_bytes(sh.body, sh.moe_layers * sh.experts * sh.expert_params, wbits, dbits) +
            sh.embed_params * ebits / 8.0 +
            (sh.n_embed - 1.0) * sh.embed_params * ibits / 8.0;
    r->weight_store_bytes = store;

    /* KV cache and activations.  Tensor parallelism splits the KV heads
     * among the GPUs; with fewer KV heads than GPUs (GQA) each GPU still
     * holds a whole head, and an MLA latent (kv_dim) is one head that every
     * GPU holds: kv_replicas = gpus x ceil(kv_heads / gpus) / kv_heads copies
     * of the cache in all (1 when gpus divides kv_heads; a layer split
     * copies nothing). */
    kv_tok = gp_infer_kv_bytes_per_token(m, kbits);
    r->kv_bytes_per_token = kv_tok;
    split = p->gpus > 1.0 && (p->split == GP_SPLIT_LAYER ||
                              (p->split == GP_SPLIT_DEFAULT && eng->split_layers));
    r->kv_replicas = 1.0;
    if (!split && p->gpus > 1.0 && kv_tok > 0.0) {
        double kvh = m->kv_dim.v > 0.0 ? 1.0 : m->kv_heads.v > 0.0 ? m->kv_heads.v : m->heads.v;
        if (kvh >= 1.0)
            r->kv_replicas = p->gpus * ceil(kvh / p->gpus) / kvh;
    }
    kv_all = kv_tok * r->kv_replicas;
    /* Sliding-window layers cache min(ctx, window) positions (inference.md §1.1). */
    pos = gp_model_kv_positions(m, ctx);
    r->kv_positions = pos;
    r->kv_bytes = B * pos * kv_all;
    /* Linear-attention (and SSM) layers: no positions, a constant state
     * per sequence at GP_INFER_STATE_BITS or the entry's linear_state_bytes
     * (not --kv: vLLM's mamba cache dtypes default to the model's), read
     * and written back every step;
     * tensor parallelism shards it by heads, a layer split by layers: no
     * copies (inference.md §1.2). */
    lin = m->layers.v > 0.0 ? m->layers.v - gp_model_attn_layers(m) : 0.0;
    r->linear_layers = lin;
    st_elems = gp_model_state_elems(m);
    st_seq = gp_infer_state_bytes_per_seq(m);
    r->state_bytes_per_seq = st_seq;
    r->state_bytes = 2.0 * B * st_seq;

    /* A model known only by its parameter count still has layers: guess the
     * missing depth or width (N = 12 L h^2) for the per-layer overhead,
     * activations and tensor-parallel AllReduces.  Weights, KV and
     * attention keep the model as given. */
    r->shape_inferred = sh.layers <= 0.0 || sh.hidden <= 0.0;
    if (r->shape_inferred) {
        gp_model_guess_shape(m->params.v, GP_MODEL_ASPECT_RATIO, &sh.layers, &sh.hidden);
        if (!(sh.hidden >= 1.0))
            return GP_RAISE_AT(e, GP_EINVAL, "--layers", 0, 0,
                               "%.4g parameters over %.0f layers leave %.3g hidden units per "
                               "layer (N = 12 L h^2): give fewer layers or '--hidden'",
                               m->params.v, sh.layers, sh.hidden);
        if (!(m->ffn_hidden.v > 0.0))
            sh.ffn = 4.0 * sh.hidden;
    }
    r->layers = sh.layers;
    r->hidden = sh.hidden;
    /* A layer split gives each GPU at least one layer; tensor parallelism
     * at least one attention head (no engine splits a head). */
    if (split && !r->shape_inferred && p->gpus > sh.layers)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "a layer split of %.0f layers over %g GPUs leaves GPUs without a "
                           "layer (at most %.0f)",
                           sh.layers, p->gpus, sh.layers);
    if (!split && p->gpus > 1.0 && m->heads.v > 0.0 && p->gpus > m->heads.v)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                           "tensor parallelism over %g GPUs cannot split %.0f attention heads "
                           "(at most %.0f GPUs)",
                           p->gpus, m->heads.v, m->heads.v);
    /* Per layer: ~10 hidden-sized and 4 ffn-sized vectors written or read
     * between kernels (norms, q/k/v/o, residuals, gate/up/act/down). */
    act_elems = sh.layers * (10.0 * sh.hidden + 4.0 * sh.ffn);
    r->act_bytes = B * act_elems * p->act_bytes;
    r->bytes_per_step = r->weight_bytes + r->kv_bytes + r->state_bytes + r->act_bytes;
    r->bytes_per_token = r->bytes_per_step / B;

    /* FLOPs. */
    r->active_params = m->params_active.v > 0.0 && m->params_active.v <= m->params.v
                           ? m->params_active.v : m->params.v;
    /* Attention runs on the attending layers only (the layers guessed for a
     * --params model all attend); each linear-attention layer's recurrence
     * costs GP_INFER_LINEAR_FLOP per state element per token. */
    la = sh.layers - lin;
    r->attn_flop = 4.0 * la * sh.heads * sh.core_dim * pos * B;
    r->linear_flop = GP_INFER_LINEAR_FLOP * st_elems * B;
    /* Matmul parameters a token runs through: the layers' (the experts it
     * is routed to) and the output layer; the input embedding is a row
     * lookup, no FLOPs. */
    tok_params = sh.embed_params > 0.0
                     ? sh.body - sh.moe_layers * (sh.experts - sh.k) * sh.expert_params +
                           sh.embed_params
                     : r->active_params;
    if (!(tok_params > 0.0) || tok_params > r->active_params + sh.embed_params)
        tok_params = r->active_params;
    r->flop = 2.0 * tok_params * B + r->attn_flop + r->linear_flop;
    r->flop_params = tok_params;
    /* Unpacking work per weight: the engine's figure (Q4_0-like blocks)
     * times the format's relative cost (K-quant sub-block scales, i-quant
     * grids; inference.md 2). */
    r->dequant_scale = quant ? gp_engine_dequant_scale(eng, p->weights) : 0.0;
    deq_w = eng->dequant_flop * r->dequant_scale;
    r->dequant_flop = quant ? (dquant ? body_t : ex_t) * deq_w : 0.0;
    s.deq_once = r->dequant_flop;
    s.deq_seq = 0.0;
    s.deq_fixed = r->dequant_flop;
    if (quant && eng->dequant_per_seq) {
        /* llama.cpp's GEMVs (MMVQ) unpack and dot every block once per
         * sequence: each sequence's own weights (a MoE token's k experts),
         * once per sequence, at Q4_0's cost (inference.md 2).  What a
         * dearer format adds (K-quant sub-block scales, i-quant grid
         * lookups: dequant_scale - 1) depends on the weights alone, which
         * the unrolled columns share: once a step over the weights
         * touched.  Past its GEMV batches the MMQ kernels' rate holds the
         * unpacking (side_eval). */
        double tok_t, tok_routed, tok_body = body_touched(&sh, 1.0, &tok_t, &tok_routed);
        double extra = r->dequant_scale > 1.0 ? r->dequant_scale - 1.0 : 0.0;
        double base = r->dequant_scale < 1.0 ? r->dequant_scale : 1.0;
        s.deq_seq = (dquant ? tok_body : tok_routed) * eng->dequant_flop * base;
        s.deq_fixed = (dquant ? body_t : ex_t) * eng->dequant_flop * extra;
        if (B <= GP_INFER_MMVQ_MAX_BATCH)
            r->dequant_flop = B * s.deq_seq + s.deq_fixed;
    }
    r->precision = pick_precision(g, p->weights);
    r->pipeline = apple_mx(g, r->precision) ? GP_PIPE_CUDA
                                            : gp_gpu_default_pipeline(g, r->precision);
    r->comm_bytes = B * sh.hidden * p->act_bytes;

    s.w_bytes = r->weight_bytes;
    /* No --embed-format given and none named by the weights' format (GGUF
     * names output.weight's): the lm_head's 16-bit default is a guess, and
     * engines that quantise the weights may quantise it too (TensorRT-Edge-
     * LLM's NVFP4 checkpoints do): the ceiling reads it at the narrower of
     * the two, so that it stays a bound. */
    s.w_save_ceil = r->embed_format == NULL && ebits > wbits && wbits > 0.0
                        ? sh.embed_params * (ebits - wbits) / 8.0
                        : 0.0;
    s.o_bytes = r->kv_bytes + r->state_bytes + r->act_bytes;
    s.act_bytes = r->act_bytes;
    s.flop = r->flop;
    s.deq = r->dequant_flop;
    s.comm_exp = s.comm_ceil = 0.0;
    s.kv_seq = pos * kv_all;
    s.st_seq = 2.0 * st_seq;
    s.kv_seq_copies = pos * (kv_all - kv_tok);
    s.kv_copies = B * s.kv_seq_copies;
    s.act_seq = act_elems * p->act_bytes;
    s.emb_seq = emb_row;
    s.flop_seq = 2.0 * tok_params + 4.0 * la * sh.heads * sh.core_dim * pos +
                 GP_INFER_LINEAR_FLOP * st_elems;
    s.layers = sh.layers;
    s.moe_layers = sh.moe_layers;
    r->moe_layers = sh.moe_layers;
    s.split_layers = split;
    s.div = s.split_layers ? 1.0 : p->gpus;
    r->split_layers = s.split_layers;
    r->comm_algo = GP_COLL_RING;
    if (p->gpus > 1.0) {
        /* Tensor parallel: 2 AllReduces per layer (after attention, after
         * the MLP); layer split: gpus - 1 hand-offs. */
        double ce, cc, k = s.split_layers ? p->gpus - 1.0 : 2.0 * sh.layers;
        int rc;
        /* The collectives model prices messages up to GP_COMM_BYTES_MAX; say
         * which of decode's inputs made a larger one. */
        if (r->comm_bytes > GP_COMM_BYTES_MAX)
            return GP_RAISE_AT(e, GP_ERANGE, "--batch", 0, 0,
                               "%g sequences x %.0f hidden x %g B = %.3g B per %s, beyond the "
                               "collectives model's 1e18",
                               B, sh.hidden, p->act_bytes, r->comm_bytes,
                               s.split_layers ? "layer hand-off" : "tensor-parallel message");
        rc = link_time(p, s.split_layers, r->comm_bytes, &ce, &cc, &r->comm_algo, e);
        if (rc != GP_OK)
            return rc;
        s.comm_exp = k * ce;
        s.comm_ceil = k * cc;
    }

    r->engine = eng;
    r->eff_src = "datasheet";
    r->overhead_src = "none";
    side_eval(p, &s, r->precision, 1, eng, &r->ceiling, NULL, NULL);
    side_eval(p, &s, r->precision, 0, eng, &r->expected, &r->eff_src, &r->overhead_src);
    if (sh.moe_layers > 0.0) {
        /* The ridge reads the experts its own batch touches. */
        moe_read w;
        w.wbits = wbits;
        w.dbits = dbits;
        w.lm_fixed = sh.embed_params * ebits / 8.0;
        w.emb_row = emb_row;
        w.deq_per_param = quant ? deq_w : 0.0;
        w.deq_dense = dquant;
        w.prec = r->precision;
        w.eng = eng;
        r->ceiling.ridge_batch = moe_ridge(p, &s, &sh, &w, 1);
        r->expected.ridge_batch = moe_ridge(p, &s, &sh, &w, 0);
    }

    /* Prefill: every sequence's prompt in one pass; causal attention
     * 4 x layers x heads x head_dim x pairs per sequence, pairs = P^2 / 2
     * (within the window on local layers: gp_model_attn_pairs).
     * MoE (inference.md 5.1): the T = batch x prompt tokens route T x k rows
     * to the X experts they touch, so each touched expert runs its gate/up/
     * down (plain experts: up/down) GEMMs on me = T k / X rows and reads its weights once.  The
     * expected figure prices each expert GEMM on its own roofline,
     * max(2 me Pe / peak, Pe bits / 8 / bw), X of them per MoE layer, after
     * the rest of the layer (attention, router, shared/dense FFNs, lm_head:
     * T rows each) on its roofline; few rows per expert (short prompts,
     * many experts) make them memory-bound.  The ceiling keeps one roofline
     * over the whole pass, max(FLOP / peak, bytes / bw), which no schedule
     * can beat (a perfect engine overlaps one expert's stream with another's
     * math), so it stays a bound. */
    r->prefill_flop = 0.0;
    r->attn_unfused = 0;
    r->prefill_experts_touched = 0.0;
    r->prefill_expert_rows = 0.0;
    if (p->prompt > 0.0) {
        double P = p->prompt, tok = B * P, tdt, trouted, wb, pf, ce = 0.0, cc = 0.0;
        double k = s.split_layers ? p->gpus - 1.0 : 2.0 * sh.layers;
        double pairs = gp_model_attn_pairs(m, P);
        double attn = 4.0 * la * sh.heads * sh.core_dim * pairs * B +
                      GP_INFER_LINEAR_FLOP * st_elems * tok;
        /* Unfused attention (inference.md 5.5): the whole P x P square per
         * head (the causal half and any window only masked), its scores
         * through memory at GP_INFER_SCORE_BYTES each; the expected
         * figure only (the ceiling is what no engine can avoid). */
        int unf = p->attn_unfused >= 0 ? p->attn_unfused : eng->prefill_unfused;
        double sq = unf ? la * sh.heads * P * P * B : 0.0;
        double u_flop = unf ? 4.0 * la * sh.heads * sh.core_dim * (P * P - pairs) * B : 0.0;
        double ex_f = 0.0, ex_b = 0.0, me = 0.0, dense_f, dense_b, lmh;
        gp_coll_algo algo;
        int side;
        r->attn_unfused = unf;
        if (p->gpus > 1.0) {
            int rc;
            if (tok * sh.hidden * p->act_bytes > GP_COMM_BYTES_MAX)
                return GP_RAISE_AT(e, GP_ERANGE, "--prompt", 0, 0,
                                   "%g sequences x %g prompt tokens x %.0f hidden x %g B = %.3g "
                                   "B per %s, beyond the collectives model's 1e18",
                                   B, P, sh.hidden, p->act_bytes, tok * sh.hidden * p->act_bytes,
                                   s.split_layers ? "layer hand-off" : "tensor-parallel message");
            rc = link_time(p, s.split_layers, tok * sh.hidden * p->act_bytes, &ce, &cc, &algo,
                           e);
            if (rc != GP_OK)
                return rc;
        }
        wb = body_touched(&sh, tok, &tdt, &trouted);
        wb = body_bytes(wb, trouted, wbits, dbits) + r->lm_head_bytes;
        /* Every prompt token runs the layers; only each sequence's last one
         * runs the output layer (the next token's logits). */
        lmh = tok_params > sh.embed_params ? sh.embed_params : 0.0;
        pf = 2.0 * (tok_params - lmh) * tok + 2.0 * lmh * B + attn;
        dense_f = pf;
        dense_b = wb;
        if (sh.moe_layers > 0.0 && tdt > 0.0) {
            /* Per token the experts run L_moe x k x Pe params; the rest of
             * the active count (attention, router, shared experts, dense
             * layers, lm_head) runs on all T rows.  Without params_active
             * the active count is the whole model: the rest is then every
             * parameter outside the routed experts. */
            double ex_tok = sh.moe_layers * sh.k * sh.expert_params;
            double rest = tok_params - lmh - ex_tok;
            if (rest < 0.0)
                rest = 0.0;
            me = tok * sh.k / tdt;
            ex_f = 2.0 * me * sh.expert_params;   /* one expert's GEMMs   */
            ex_b = sh.expert_params * wbits / 8.0; /* its weights, once   */
            dense_f = 2.0 * rest * tok + 2.0 * lmh * B + attn;
            dense_b = wb - sh.moe_layers * tdt * ex_b;
            pf = dense_f + sh.moe_layers * tdt * ex_f;
            r->prefill_experts_touched = tdt;
            r->prefill_expert_rows = me;
        }
        r->prefill_flop = pf;
        for (side = 0; side < 2; side++) {
            gp_infer_side *o = side ? &r->expected : &r->ceiling;
            double bw = o->mem_bw * o->eff_weights, t, pk = o->prefill_rate;
            double uf = side ? u_flop : 0.0; /* unfused attention's other half */
            o->prefill_score_s = side ? div0(GP_INFER_SCORE_BYTES * sq / s.div,
                                             o->mem_bw * o->eff_other)
                                      : 0.0;
            if (side && me > 0.0) {
                double tcd = div0((dense_f + uf) / s.div, pk), tmd = div0(dense_b / s.div, bw);
                double tce = div0(ex_f / s.div, pk), tme = div0(ex_b / s.div, bw);
                t = (tcd > tmd ? tcd : tmd) +
                    sh.moe_layers * r->prefill_experts_touched * (tce > tme ? tce : tme);
            } else {
                double tc = div0((pf + uf) / s.div, pk);
                double tm = div0((wb - (side ? 0.0 : s.w_save_ceil)) / s.div, bw);
                double tg, gf, gw;
                t = tc > tm ? tc : tm;
                /* Tiled library GEMMs (inference.md 5.4): the layers' GEMMs
                 * each on its roofline, the rest (attention core,
                 * recurrence, logits, norms; the output matrix's bytes) on
                 * one. */
                if (side && eng->prefill_tiled && g->sm_count.v > 0.0 && !r->shape_inferred &&
                    !gp__vendor_is(g, "Apple") &&
                    prefill_gemms(m, &sh, tok, s.div, pk, bw, dbits / 8.0, p->act_bytes,
                                  g->sm_count.v, &tg, &gf, &gw)) {
                    double rc_ = div0((pf + uf - gf) / s.div, pk);
                    double rb = div0((wb - gw) / s.div, bw);
                    o->prefill_gemm_s = tg;
                    t = tg + (rc_ > rb ? rc_ : rb);
                }
            }
            o->ttft_s = t + o->prefill_score_s + o->overhead_s + k * (side ? ce : cc);
        }
    }

    /* Memory fit. */
    ovh_mem = p->runtime_overhead >= 0.0 ? p->runtime_overhead : GP_INFER_RUNTIME_OVERHEAD;
    r->runtime_overhead = ovh_mem;
    usable = gp_gpu_usable_mem(g) * p->gpus;
    r->mem_usable = usable;
    /* Each sequence holds its KV cache and, with linear-attention layers,
     * its recurrent state (inference.md §6). */
    per_seq = pos * kv_all + st_seq;
    r->mem_need = store + B * per_seq + ovh_mem * p->gpus;
    r->fits = r->mem_need <= usable;
    free1 = usable - store - ovh_mem * p->gpus;
    r->short_bytes = (store + per_seq + ovh_mem * p->gpus) - usable;
    r->fits_batch1 = r->short_bytes <= 0.0;
    if (free1 <= 0.0) {
        r->max_batch = 0.0;
        r->max_context = 0.0;
    } else {
        r->max_batch = per_seq > 0.0 ? floor(free1 / per_seq) : INFINITY;
        if (free1 - B * st_seq <= 0.0)
            r->max_context = 0.0; /* the states alone fill the memory */
        else
            r->max_context = kv_all > 0.0 ? floor(gp_model_kv_context(m, (free1 - B * st_seq) /
                                                                         (B * kv_all)))
                                          : INFINITY;
    }
    /* The prefill holds the whole prompt before the first step, whatever
     * --context says the step sees (inference.md §6). */
    if (p->prompt > 0.0) {
        r->prefill_mem_need = store +
                              B * (gp_model_kv_positions(m, p->prompt) * kv_all + st_seq) +
                              ovh_mem * p->gpus;
        r->prefill_fits = r->prefill_mem_need <= usable;
    } else {
        r->prefill_mem_need = 0.0;
        r->prefill_fits = 1;
    }
    r->kv_dominates = r->kv_bytes > r->weight_bytes;
    r->kv_counted = r->kv_bytes_per_token > 0.0;
    r->context_exceeds = m->context.v > 0.0 &&
                         (ctx > m->context.v || p->prompt > m->context.v);
    return GP_OK;
}
