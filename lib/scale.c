/* Data-parallel scaling: step time, comm share, speedup, efficiency and the
 * break-even GPU count.  MODEL: docs/models/scaling.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan/scale.h"
#include "gpuplan/train.h"
#include "gpuplan/units.h"
#include "comm_int.h"

void gp_scale_params_default(gp_scale_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->overlap = 0.0;
    p->backward_share = 2.0 / 3.0; /* Kaplan et al. 2020 sec. 2.1 */
    p->threshold = 0.5;
    p->ceiling = 0;
    p->algo = GP_COLL_AUTO; /* NCCL's default choice (gp_comm_eval) */
    gp_comm_params_default(&p->comm);
}

int gp_scale_grad_bytes(double params, gp_precision prec, double *out, gp_err *e)
{
    static const double bytes[GP_PREC__COUNT] = {8, 4, 4, 2, 2, 1, 1, 0.5, 0.5};
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_grad_bytes: NULL out");
    if (!(params > 0.0) || !isfinite(params))
        return GP_RAISE_AT(e, GP_EINVAL, "--params", 0, 0,
                           "parameter count must be > 0, got %g", params);
    if ((unsigned)prec >= GP_PREC__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, "--grad-precision", 0, 0, "unknown precision %d",
                           (int)prec);
    /* One AllReduce message prices at most GP_COMM_BYTES_MAX (1e18 B): say
     * so in the terms the caller gave, not as the collective's --bytes. */
    if (params * bytes[prec] > GP_COMM_BYTES_MAX)
        return GP_RAISE_AT(e, GP_ERANGE, "--params", 0, 0,
                           "%g parameters x %g bytes = %g gradient bytes, above the 1e18 bytes "
                           "one AllReduce is priced for",
                           params, bytes[prec], params * bytes[prec]);
    *out = params * bytes[prec];
    return GP_OK;
}

int gp_scale_weight_bytes(double params, double *out, gp_err *e)
{
    double wb;
    if (out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_weight_bytes: NULL out");
    if (!(params > 0.0) || !isfinite(params))
        return GP_RAISE_AT(e, GP_EINVAL, "--params", 0, 0,
                           "parameter count must be > 0 and finite, got %g", params);
    /* Mixed-precision Adam's 16-bit weights: what a replica holds and what
     * ZeRO-3 gathers (Rajbhandari et al. 2020 §3.1). */
    gp_train_state_bytes(GP_OPT_ADAM, 1, &wb, NULL, NULL);
    *out = params * wb;
    return GP_OK;
}

int gp_scale_replica_memory(const gp_gpu *g, double params, double grad_bytes,
                            double activations, gp_scale_memory *out, gp_err *e)
{
    gp_train_params tp;
    double ob, room;
    int rc;
    if (out != NULL)
        memset(out, 0, sizeof *out);
    if (g == NULL || out == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_replica_memory: NULL %s", g == NULL ? "g" : "out");
    /* Every count scale prices (gp_scale_grad_bytes' domain): the check
     * only warns, so it must not refuse what --link alone accepts. */
    if (!(params > 0.0) || !isfinite(params))
        return GP_RAISE_AT(e, GP_EINVAL, "--params", 0, 0,
                           "parameter count must be > 0 and finite, got %g", params);
    if (!(grad_bytes >= 0.0) || !isfinite(grad_bytes))
        return GP_RAISE_AT(e, GP_EINVAL, "--grad-bytes", 0, 0,
                           "gradient bytes must be >= 0 and finite, got %g", grad_bytes);
    if (!(activations >= 0.0) || !isfinite(activations))
        return GP_RAISE_AT(e, GP_EINVAL, "activations", 0, 0,
                           "activation bytes must be >= 0 and finite, got %g", activations);
    gp_train_params_init(&tp);
    if ((rc = gp_scale_weight_bytes(params, &out->weight_bytes, e)) != GP_OK)
        return rc;
    gp_train_state_bytes(GP_OPT_ADAM, 1, NULL, NULL, &ob);
    out->grad_bytes = grad_bytes;
    out->optim_bytes = params * ob;
    out->activation_bytes = activations;
    out->usable_bytes = gp_gpu_usable_mem(g);
    out->reserve_bytes = tp.reserve_bytes + tp.reserve_fraction * out->usable_bytes;
    out->total_bytes = out->weight_bytes + out->grad_bytes + out->optim_bytes + activations +
                       out->reserve_bytes;
    out->fits = out->usable_bytes > 0.0 && out->total_bytes <= out->usable_bytes;
    /* ZeRO-3 over n GPUs: states / n + activations + reserve <= usable. */
    room = out->usable_bytes - out->reserve_bytes - activations;
    if (out->fits)
        out->zero3_min_gpus = 1;
    else if (room > 0.0)
        out->zero3_min_gpus = (long)fmin(
            ceil((out->weight_bytes + out->grad_bytes + out->optim_bytes) / room), 1e15);
    return GP_OK;
}

static int check_req(const gp_scale_req *q, const gp_scale_params *p, gp_err *e)
{
    if (!(q->grad_bytes >= 0.0) || !isfinite(q->grad_bytes))
        return GP_RAISE_AT(e, GP_EINVAL, "--grad-bytes", 0, 0,
                           "gradient bytes must be finite and >= 0, got %g", q->grad_bytes);
    if (q->grad_bytes > GP_COMM_BYTES_MAX)
        return GP_RAISE_AT(e, GP_ERANGE, "--grad-bytes", 0, 0,
                           "gradient bytes must be <= 1e18, the largest AllReduce priced "
                           "(got %g)", q->grad_bytes);
    if (q->zero3 && (!(q->weight_bytes > 0.0) || !(q->weight_bytes <= GP_COMM_BYTES_MAX)))
        return GP_RAISE_AT(e, GP_EINVAL, "--zero", 0, 0,
                           "ZeRO-3 gathers the weights: their bytes must lie in (0, 1e18], "
                           "got %g",
                           q->weight_bytes);
    if (!(q->layers == 0.0 || (q->layers >= 1.0 && q->layers <= 1e9 &&
                               q->layers == floor(q->layers))))
        return GP_RAISE_AT(e, GP_EINVAL, "--model", 0, 0,
                           "layers must be a whole number in [1, 1e9] (or 0: unknown), got %g",
                           q->layers);
    if (!(q->step_compute_s > 0.0) || !isfinite(q->step_compute_s))
        return GP_RAISE_AT(e, GP_EINVAL, "--step-compute-s", 0, 0,
                           "compute time per step must be > 0 s, got %g", q->step_compute_s);
    /* Plausibility cap (31.7 years per step): beyond it n x T overflows and
     * the speedup and efficiency print as inf (docs/models/scaling.md). */
    if (q->step_compute_s > GP_SCALE_STEP_MAX_S)
        return GP_RAISE_AT(e, GP_ERANGE, "--step-compute-s", 0, 0,
                           "compute time per step must be <= %g s, got %g",
                           GP_SCALE_STEP_MAX_S, q->step_compute_s);
    if (!(p->overlap >= 0.0 && p->overlap <= 1.0))
        return GP_RAISE_AT(e, GP_ERANGE, "--overlap", 0, 0,
                           "overlap must lie in [0,1], got %g", p->overlap);
    if (!(p->backward_share >= 0.0 && p->backward_share <= 1.0))
        return GP_RAISE_AT(e, GP_ERANGE, "backward_share", 0, 0,
                           "backward share must lie in [0,1], got %g", p->backward_share);
    if (!(p->threshold > 0.0 && p->threshold <= 1.0))
        return GP_RAISE_AT(e, GP_ERANGE, "--threshold", 0, 0,
                           "threshold must lie in (0,1], got %g", p->threshold);
    if (q->micro_batches < 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--micro-batches", 0, 0,
                           "micro-batches per step must be >= 1 (0: one), got %ld",
                           q->micro_batches);
    if (q->micro_batches > GP_SCALE_MICRO_BATCHES_MAX)
        return GP_RAISE_AT(e, GP_ERANGE, "--micro-batches", 0, 0,
                           "micro-batches per step must be <= %ld, got %ld",
                           GP_SCALE_MICRO_BATCHES_MAX, q->micro_batches);
    if (q->gpus_per_node < 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus-per-node", 0, 0,
                           "GPUs per node must be >= 1, got %ld", q->gpus_per_node);
    if (q->mode != GP_SCALING_WEAK && q->mode != GP_SCALING_STRONG)
        return GP_RAISE(e, GP_EINVAL, "unknown scaling mode %d", (int)q->mode);
    return GP_OK;
}

int gp_scale_eval(const gp_scale_req *q, const gp_scale_params *p,
                  const long *gpus, size_t n, gp_scale_row *rows,
                  gp_scale_result *res, gp_err *e)
{
    gp_scale_params def;
    size_t i, start;
    int rc;
    double t1, m;

    if (q == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_eval: NULL q");
    if (n > 0 && gpus == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_eval: NULL gpus with n %zu", n);
    if (rows == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_eval: NULL rows");
    if (res == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_scale_eval: NULL res");
    if (p == NULL) {
        gp_scale_params_default(&def);
        p = &def;
    }
    if ((rc = check_req(q, p, e)) != GP_OK)
        return rc;
    if (n == 0)
        return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0, "the list of GPU counts is empty");
    t1 = q->step_compute_s;
    m = q->micro_batches > 0 ? (double)q->micro_batches : 1.0;

    for (i = 0; i < n; i++) {
        gp_topo topo;
        gp_scale_row *r = &rows[i];
        long g, dn = gpus[i];
        double dg, comm = 0.0, unhid = 0.0;
        gp_coll_algo algo;

        if (dn < 1)
            return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0, "GPU counts must be >= 1, got %ld",
                               dn);
        if (i > 0 && dn <= gpus[i - 1])
            return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                               "GPU counts must increase, got %ld after %ld", dn, gpus[i - 1]);
        g = q->gpus_per_node > 0 && q->gpus_per_node < dn ? q->gpus_per_node : dn;
        if (dn % g != 0)
            return GP_RAISE_AT(e, GP_EINVAL, "--gpus", 0, 0,
                               "%ld GPUs do not fill whole nodes of %ld", dn, g);
        if (dn > g && q->scale_out == NULL)
            return GP_RAISE_AT(e, GP_EINVAL, "--scale-out", 0, 0,
                               "%ld GPUs need %ld nodes of %ld: give a scale-out link", dn,
                               dn / g, g);
        memset(&topo, 0, sizeof topo);
        topo.scale_up = q->scale_up;
        if (q->wide_link != NULL && q->scale_up != NULL && q->scale_up->max_gpus.v > 0.0 &&
            (double)g > q->scale_up->max_gpus.v)
            topo.scale_up = q->wide_link;
        topo.gpus_per_node = g;
        topo.scale_out = q->scale_out;
        topo.nodes = dn / g;
        topo.nics_per_node = q->nics_per_node;
        algo = p->algo;
        /* NCCL enables NVLink SHARP only above 2 GPUs (src/transport/nvls.cc);
         * on 2 it runs a ring, which is also faster there (S/B vs 1.5 S/B). */
        if (algo == GP_COLL_NVLS && topo.nodes == 1 && g < GP_COMM_NVLS_MIN_GPUS &&
            topo.scale_up != NULL &&
            topo.scale_up->bw_nvls.v > 0.0)
            algo = GP_COLL_RING;
        /* Over nodes of 1 or 2 GPUs NCCL has no NVLS-tree either: its tree. */
        if (algo == GP_COLL_NVLS && topo.nodes > 1 && g < GP_COMM_NVLS_MIN_GPUS)
            algo = GP_COLL_TREE;
        if (q->zero3) {
            /* Two AllGathers of the weights and a ReduceScatter of the
             * gradients (Rajbhandari et al. 2020, ZeRO-3: 1.5x an
             * AllReduce's bytes when weights and gradients are the same),
             * for every micro-batch: the weights are re-gathered for each
             * one's forward and backward and its gradients reduce-scattered
             * (as train prices it, docs/models/training.md 9.3). */
            double ag = 0.0, rs = 0.0;
            if ((rc = gp__comm_time(&topo, GP_COLL_ALLGATHER, algo, q->weight_bytes, &p->comm,
                                    p->ceiling, &ag, NULL, e)) != GP_OK ||
                (rc = gp__comm_time(&topo, GP_COLL_REDUCESCATTER, algo, q->grad_bytes,
                                    &p->comm, p->ceiling, &rs, &r->algo, e)) != GP_OK)
                return rc;
            comm = m * (2.0 * ag + rs);
            /* The first forward gather and the last scatter of a step, one
             * layer's share each, have no compute to hide under. */
            unhid = q->layers >= 1.0 ? (ag + rs) / q->layers : 0.0;
        } else if ((rc = gp__comm_time(&topo, GP_COLL_ALLREDUCE, algo, q->grad_bytes, &p->comm,
                                       p->ceiling, &comm, &r->algo, e)) != GP_OK) {
            return rc;
        }
        dg = (double)dn;
        r->gpus = dn;
        r->link = g > 1 ? topo.scale_up : NULL;
        r->nodes = topo.nodes;
        r->compute_s = q->mode == GP_SCALING_STRONG ? t1 / dg : t1;
        r->comm_s = comm;
        /* ZeRO-3: each micro-batch's gathers and scatter hide under its own
         * compute, M x min(f c, T/M) = min(f M c, T).  Plain data
         * parallelism: the one AllReduce overlaps the last micro-batch's
         * backward only (DDP's no_sync before it; train, training.md 9.3). */
        r->hidden_s = fmin(p->overlap * (r->comm_s - unhid),
                           q->zero3 ? r->compute_s : p->backward_share * r->compute_s / m);
        r->exposed_s = r->comm_s - r->hidden_s;
        r->step_s = r->compute_s + r->exposed_s;
        r->comm_fraction = r->exposed_s / r->step_s;
        r->speedup = q->mode == GP_SCALING_STRONG ? t1 / r->step_s : dg * (t1 / r->step_s);
        r->efficiency = r->speedup / dg;
        r->marginal = i == 0 ? NAN
                             : (r->speedup - rows[i - 1].speedup) / (dg - (double)gpus[i - 1]);
    }

    memset(res, 0, sizeof *res);
    res->n_rows = n;
    res->threshold = p->threshold;
    res->mode = q->mode;
    /* Counts that cannot run are never chosen: the choice starts at the
     * first that fits (at 0 when none does). */
    for (res->first = 0; res->first < n && gpus[res->first] < q->min_gpus; res->first++)
        ;
    start = res->first < n ? res->first : 0;
    res->best = start;
    res->stop = n;
    res->reason = GP_STOP_NONE;
    for (i = start + 1; i < n; i++) {
        const gp_scale_row *b = &rows[res->best], *r = &rows[i];
        double marginal = (r->speedup - b->speedup) / (double)(r->gpus - b->gpus);
        gp_scale_stop why = GP_STOP_NONE;
        if (!(r->speedup > b->speedup))
            why = GP_STOP_FALLS;
        else if (r->efficiency < p->threshold)
            why = GP_STOP_EFFICIENCY;
        else if (marginal < p->threshold)
            why = GP_STOP_MARGINAL;
        if (why != GP_STOP_NONE) {
            res->stop = i;
            res->reason = why;
            break;
        }
        res->best = i;
    }
    res->best_gpus = rows[res->best].gpus;
    res->fastest = start;
    for (i = start + 1; i < n; i++)
        if (rows[i].speedup > rows[res->fastest].speedup)
            res->fastest = i;
    res->fastest_gpus = rows[res->fastest].gpus;
    return GP_OK;
}

char *gp_scale_verdict(const gp_scale_result *res, const gp_scale_row *rows,
                       char *buf, size_t n)
{
    const gp_scale_row *b, *s;
    double marginal;
    int k, d;
    if (buf == NULL || n == 0)
        return buf;
    buf[0] = '\0';
    if (res == NULL || rows == NULL || res->n_rows == 0)
        return buf;
    b = &rows[res->best];
    /* One count to choose from (one listed, or one that fits). */
    if (res->n_rows - (res->first < res->n_rows ? res->first : 0) == 1) {
        if (b->gpus == 1)
            snprintf(buf, n, "1 GPU: no gradient exchange, communication costs nothing; "
                             "give more counts (--gpus 1,2,4,8) to compare");
        else
            snprintf(buf, n, "%ld GPUs give %.2fx one GPU's throughput (%.0f%% efficiency, "
                             "communication %.0f%% of the step)",
                     b->gpus, b->speedup, 100.0 * b->efficiency, 100.0 * b->comm_fraction);
        return buf;
    }
    if (res->stop >= res->n_rows) {
        snprintf(buf, n, "adding GPUs keeps paying up to %ld (%.2fx, %.0f%% efficiency, "
                         "communication %.0f%% of the step)",
                 b->gpus, b->speedup, 100.0 * b->efficiency, 100.0 * b->comm_fraction);
        return buf;
    }
    s = &rows[res->stop];
    /* The first count considered is already the best: no added GPU pays
     * ("pays up to 1" read as if one did). */
    if (res->best == (res->first < res->n_rows ? res->first : 0))
        k = snprintf(buf, n, "adding GPUs does not pay beyond %ld %s (%.2fx, %.0f%% efficiency); ",
                     b->gpus, b->gpus == 1 ? "GPU" : "GPUs", b->speedup, 100.0 * b->efficiency);
    else
        k = snprintf(buf, n, "adding GPUs pays up to %ld (%.2fx, %.0f%% efficiency); ", b->gpus,
                     b->speedup, 100.0 * b->efficiency);
    if (k < 0 || (size_t)k >= n)
        return buf;
    switch (res->reason) {
    case GP_STOP_FALLS:
        snprintf(buf + k, n - (size_t)k,
                 "%ld GPUs%s would not help: %.2fx, no faster than %.2fx on %ld, "
                 "communication %.0f%% of the step",
                 s->gpus, s->nodes > 1 ? " across nodes" : "", s->speedup, b->speedup, b->gpus,
                 100.0 * s->comm_fraction);
        break;
    case GP_STOP_EFFICIENCY:
        d = gp_format_apart_digits(100.0 * s->efficiency, 100.0 * res->threshold, 0);
        snprintf(buf + k, n - (size_t)k,
                 "%ld GPUs%s would not pay: %.2fx at %.*f%% efficiency (below %.*f%%), "
                 "communication %.0f%% of the step",
                 s->gpus, s->nodes > 1 ? " across nodes" : "", s->speedup, d,
                 100.0 * s->efficiency, d, 100.0 * res->threshold, 100.0 * s->comm_fraction);
        break;
    default:
        marginal = (s->speedup - b->speedup) / (double)(s->gpus - b->gpus);
        d = gp_format_apart_digits(marginal, res->threshold, 2);
        snprintf(buf + k, n - (size_t)k,
                 "%ld GPUs%s would not help enough: %.2fx, each added GPU adds %.*f of one "
                 "(below %.*f), communication %.0f%% of the step",
                 s->gpus, s->nodes > 1 ? " across nodes" : "", s->speedup, d, marginal, d,
                 res->threshold, 100.0 * s->comm_fraction);
        break;
    }
    if (res->fastest != res->best) {
        const gp_scale_row *f = &rows[res->fastest];
        size_t used = strlen(buf);
        if (used + 1 < n)
            snprintf(buf + used, n - used,
                     " (the fastest is %ld GPUs at %.2fx, %.0f%% efficiency)", f->gpus,
                     f->speedup, 100.0 * f->efficiency);
    }
    return buf;
}
