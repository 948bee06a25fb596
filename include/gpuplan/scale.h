/* Does adding GPUs help?  Data-parallel step time = compute + exposed
 * gradient AllReduce, under strong or weak scaling; speedup, efficiency and
 * the GPU count past which more cards stop paying.  MODEL:
 * docs/models/scaling.md. */
#ifndef GP_SCALE_H
#define GP_SCALE_H

#include <stddef.h>

#include "gpuplan/comm.h"
#include "gpuplan/db.h"
#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_scaling {
    GP_SCALING_WEAK,   /* fixed per-GPU batch: compute(n) = T, throughput x n */
    GP_SCALING_STRONG  /* fixed global batch:  compute(n) = T / n            */
} gp_scaling;

/* The job and the machine. */
typedef struct gp_scale_req {
    const gp_link *scale_up;  /* link inside a node (NULL: single GPUs only) */
    const gp_link *scale_out; /* link between nodes (NULL: one node)         */
    long gpus_per_node;       /* GPUs per node; 0 = every count in one node  */
    long nics_per_node;       /* NICs per node; 0: gp_topo_default_nics      */
    double grad_bytes;        /* gradient bytes AllReduced per step (> 0)    */
    /* ZeRO-3 / FSDP (fully sharded): instead of the AllReduce, every step
     * AllGathers weight_bytes twice (forward and backward) and
     * ReduceScatters grad_bytes; the gathers prefetch under the whole step,
     * so up to all of compute(n) can hide the traffic (not only the
     * backward share).  0: plain data parallelism.                        */
    int zero3;
    double weight_bytes;      /* with zero3: weights gathered (> 0)          */
    /* Micro-batches per step on each GPU (gradient accumulation), in [1,
     * GP_SCALE_MICRO_BATCHES_MAX]; 0 = 1 (a memset req keeps the results
     * of one micro-batch).  ZeRO-3 gathers the weights for every
     * micro-batch's forward and backward and reduce-scatters each one's
     * gradients: M x (2 AllGathers + 1 ReduceScatter) a step, each hidden
     * under its own micro-batch's compute.  Plain data parallelism
     * accumulates (DDP's no_sync) and AllReduces once a step, hidden only
     * under the last micro-batch's backward: backward_share x compute / M. */
    long micro_batches;
    /* Counts below min_gpus do not fit in memory (gp_scale_replica_memory):
     * they are priced, but never the best or the fastest, and the stop rule
     * and the verdict start at the first count that fits.  0: every count
     * fits; above every count: none does, and the choice runs over all of
     * them as if memory were no limit (res->first says which).            */
    long min_gpus;
    double step_compute_s;    /* compute time of one step on ONE GPU, s (> 0,
                                 <= GP_SCALE_STEP_MAX_S):
                                 weak: per-GPU batch; strong: global batch   */
    gp_scaling mode;
    /* With zero3: the layers the gathers and scatters go by, one at a time
     * (a whole number in [1, 1e9]); 0 = unknown.  The first layer's forward
     * AllGather has no compute before it to hide under, and the last
     * ReduceScatter (the first layer's gradients) none after it: one
     * layer's share of each, (AllGather(W) + ReduceScatter(G)) / layers,
     * stays exposed a step (docs/models/scaling.md).                       */
    double layers;
    /* The link a row's node uses when it holds more GPUs than scale_up
     * joins (scale_up->max_gpus: a GA102 NVLink bridge joins a pair): the
     * host's PCIe, over which NCCL's ring then runs.  NULL: such a row is
     * refused, naming the link. */
    const gp_link *wide_link;
} gp_scale_req;

/* Plausibility cap on step_compute_s: 1e9 s (31.7 years per step). */
#define GP_SCALE_STEP_MAX_S 1e9

/* Plausibility cap on gp_scale_req.micro_batches: 1e6 a step. */
#define GP_SCALE_MICRO_BATCHES_MAX 1000000L

typedef struct gp_scale_params {
    /* Fraction of the AllReduce that can overlap the backward pass (bucketed
     * gradients as in PyTorch DDP), in [0,1].  Default 0 (the article's
     * serial case). */
    double overlap;
    /* Share of the compute step that is backward pass, i.e. the most
     * communication can hide behind.  Default 2/3: backward costs twice the
     * forward (Kaplan et al. 2020, sec. 2.1: 6N = 2N forward + 4N backward). */
    double backward_share;
    /* Efficiency below which adding GPUs stops paying, in (0,1]: a count
     * fails when its efficiency, or the marginal efficiency of the cards
     * added since the previous count, falls below it.  Default 0.5. */
    double threshold;
    int ceiling;              /* 1: datasheet link figures; 0: expected      */
    /* AllReduce algorithm (default GP_COLL_AUTO: each row what NCCL runs by
     * default, gp_comm_eval -- NVLS, NVLS-tree over nodes, where the
     * NVSwitch reduces and it is faster, else the ring).  GP_COLL_NVLS
     * prices rows of 3 or more GPUs a node as NVLink SHARP (NVLS-tree over
     * nodes); a one-node row of 2 GPUs on a link with an NVLS figure is
     * priced as the ring NCCL runs there (it enables NVLS only above 2
     * GPUs), rows over nodes of 1 or 2 as its tree.  ZeRO-3's AllGathers
     * and ReduceScatter are rings whatever algo says. */
    gp_coll_algo algo;
    gp_comm_params comm;
} gp_scale_params;

/* Fill p with the documented defaults.  NULL is a no-op. */
void gp_scale_params_default(gp_scale_params *p);

typedef struct gp_scale_row {
    long gpus;
    long nodes;
    double compute_s;       /* compute per step on each GPU                  */
    double comm_s;          /* full gradient AllReduce time                  */
    double hidden_s;        /* part of it overlapped with backward (ZeRO-3:
                               with the whole step, less one layer's first
                               gather and last scatter)                     */
    double exposed_s;       /* comm_s - hidden_s                             */
    double step_s;          /* compute_s + exposed_s                         */
    double comm_fraction;   /* exposed_s / step_s                            */
    double speedup;         /* throughput relative to one GPU                */
    double efficiency;      /* speedup / gpus                                */
    double marginal;        /* (speedup - previous speedup) / added GPUs;
                               NaN for the first row                         */
    const gp_link *link;    /* the link inside its nodes: scale_up, or
                               wide_link for nodes wider than scale_up joins */
    gp_coll_algo algo;      /* the algorithm priced for this row's gradient
                               collective (never GP_COLL_AUTO)              */
} gp_scale_row;

typedef enum gp_scale_stop {
    GP_STOP_NONE,       /* every count pays                                  */
    GP_STOP_FALLS,      /* speedup does not rise                             */
    GP_STOP_EFFICIENCY, /* efficiency below threshold                        */
    GP_STOP_MARGINAL    /* added cards give less than threshold each         */
} gp_scale_stop;

typedef struct gp_scale_result {
    size_t n_rows;
    size_t best;         /* index of the last count that pays               */
    long best_gpus;
    size_t stop;         /* index of the first count that does not (== n_rows
                            when none)                                       */
    gp_scale_stop reason;
    size_t fastest;      /* index of the highest speedup (may lie past stop) */
    long fastest_gpus;
    double threshold;
    gp_scaling mode;
    size_t first;        /* index of the first count >= min_gpus (n_rows when
                            none fits); best and fastest are chosen from it
                            on, or from 0 when none fits                    */
} gp_scale_result;

/* Evaluate `n` GPU counts `gpus[0..n)` (strictly increasing, each >= 1) into
 * caller-owned rows[0..n).  MODEL (docs/models/scaling.md):
 *   compute(n) = T (weak) or T/n (strong)
 *   comm(n)    = gp_comm_eval AllReduce of grad_bytes over nodes of
 *                min(n, gpus_per_node) GPUs (n must fill whole nodes);
 *                zero3: M x (2 AllGathers of weight_bytes + 1
 *                ReduceScatter of grad_bytes), M = micro_batches
 *   hidden(n)  = min(overlap * comm(n), backward_share * compute(n) / M);
 *                zero3: min(overlap * comm(n), compute(n))
 *   step(n)    = compute(n) + comm(n) - hidden(n)
 *   speedup(n) = n*T/step(n) (weak) or T/step(n) (strong); efficiency =
 *   speedup/n.  best = the last count before the first whose speedup does not
 *   rise, whose efficiency < threshold, or whose marginal efficiency
 *   (speedup gain per added GPU) < threshold, counting from the first count
 *   >= q->min_gpus (res->first).
 * p may be NULL (defaults).  Returns GP_OK or GP_EINVAL / GP_ERANGE with e
 * naming the option ("--gpus", "--overlap", "--grad-bytes" (also above
 * GP_COMM_BYTES_MAX), "--micro-batches",
 * "--step-compute-s", "--threshold", "--scale-out", "--link").  NULL q,
 * rows or res, and NULL gpus with n > 0: GP_EINVAL.  Pure; no
 * allocation. */
int gp_scale_eval(const gp_scale_req *q, const gp_scale_params *p,
                  const long *gpus, size_t n, gp_scale_row *rows,
                  gp_scale_result *res, gp_err *e);

/* Gradient bytes for `params` parameters kept in precision `prec` (fp64 8,
 * fp32/tf32 4, fp16/bf16 2, fp8/int8 1, int4/fp4 0.5 bytes).  Returns GP_OK,
 * GP_EINVAL ("--params" when params <= 0) or GP_ERANGE ("--params" when the
 * bytes exceed GP_COMM_BYTES_MAX, the largest message gp_scale_eval prices);
 * *out untouched on error.  NULL out: GP_EINVAL. */
int gp_scale_grad_bytes(double params, gp_precision prec, double *out, gp_err *e);

/* The 16-bit weight bytes of `params` parameters: the weights one replica
 * holds in mixed-precision Adam training (gp_train_state_bytes(GP_OPT_ADAM,
 * 1, ...): 2 B per parameter, Rajbhandari et al. 2020 §3.1) -- which
 * gp_scale_replica_memory reports as weight_bytes -- and so the bytes
 * ZeRO-3 AllGathers (gp_scale_req.weight_bytes): one source for both.  No
 * cap here: gp_scale_eval refuses a gather above GP_COMM_BYTES_MAX.
 * Returns GP_OK, or GP_EINVAL naming "--params" (params not > 0 and
 * finite); *out untouched on error.  NULL out: GP_EINVAL.  Pure. */
int gp_scale_weight_bytes(double params, double *out, gp_err *e);

/* What one data-parallel replica holds on every GPU (plain data
 * parallelism keeps the whole model on each; docs/models/scaling.md, "Memory
 * of one replica"): for `params` parameters the states of mixed-precision
 * Adam -- bf16 weights 2 B (gp_scale_weight_bytes), fp32 master weights, m
 * and v 12 B (gp_train_state_bytes, Rajbhandari et al. 2020) -- and the
 * `grad_bytes`
 * of gradients the AllReduce moves (2 B per parameter in bf16/fp16: 16 B
 * per parameter in all), `activations` bytes (0 when not known) and the
 * training memory model's runtime reserve (gp_train_params_init: 1 GiB + 5 %
 * of usable memory), against the GPU's usable memory (gp_gpu_usable_mem).
 * zero3_min_gpus: the fewest GPUs over which ZeRO-3 / FSDP, sharding all the
 * model states, leaves room for the activations and the reserve (1 when the
 * replica already fits; 0 when activations and reserve alone exceed the
 * GPU). */
typedef struct gp_scale_memory {
    double weight_bytes, grad_bytes, optim_bytes, activation_bytes, reserve_bytes;
    double total_bytes;  /* the five above                               */
    double usable_bytes;
    int fits;            /* total_bytes <= usable_bytes                  */
    long zero3_min_gpus;
} gp_scale_memory;

/* Fill *out for GPU g (zeroed first when out is not NULL).  Returns GP_OK,
 * or GP_EINVAL naming "--params" (params not > 0 and finite: the counts
 * gp_scale_grad_bytes takes), "--grad-bytes" or "activations" (negative,
 * NaN or infinite).  NULL g or out: GP_EINVAL.  Pure. */
int gp_scale_replica_memory(const gp_gpu *g, double params, double grad_bytes,
                            double activations, gp_scale_memory *out, gp_err *e);

/* A one-line English verdict for res/rows into buf (size n), e.g. "adding
 * GPUs pays up to 4 (2.82x, 70% efficiency); 8 GPUs would not help: ...";
 * "adding GPUs does not pay beyond 1 GPU (...); 2 GPUs ..." when the first
 * count considered is the best.
 * Never fails; truncates.  Returns buf: "" for a NULL res or rows; a NULL
 * buf (or n 0) writes nothing. */
char *gp_scale_verdict(const gp_scale_result *res, const gp_scale_row *rows,
                       char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GP_SCALE_H */
