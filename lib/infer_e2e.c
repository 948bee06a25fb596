/* End-to-end request latency and throughput: prefill of P prompt tokens,
 * whose logits give the first of the N output tokens, plus N - 1 decode
 * steps at contexts P+1, ..., P+N-1.
 * MODEL: docs/models/inference.md 5.2. */
#include <math.h>
#include <stddef.h>

#include "gpuplan/infer.h"

/* The parts of one decode step that the sum needs, both sides:
 * step = max(tc, tm) + mv (ledger rule GP_OVERLAP_ROOF). */
typedef struct e2e_pt {
    double c;                  /* context                                    */
    double tc[2], tm[2], mv[2]; /* [0] ceiling, [1] expected                 */
} e2e_pt;

static int step_at(const gp_infer_params *base, double ctx, double prompt, e2e_pt *o,
                   gp_infer_result *r, double *evals, gp_err *e)
{
    gp_infer_params q = *base;
    int rc, s;
    q.context = ctx;
    q.prompt = prompt;
    if ((rc = gp_infer_eval(&q, r, e)) != GP_OK)
        return rc;
    *evals += 1.0;
    o->c = ctx;
    for (s = 0; s < 2; s++) {
        const gp_infer_side *d = s ? &r->expected : &r->ceiling;
        o->tc[s] = d->ledger.t[GP_ACCT_COMPUTE];
        o->tm[s] = d->ledger.t[GP_ACCT_MEMORY];
        o->mv[s] = d->ledger.t[GP_ACCT_MOVEMENT];
    }
    return GP_OK;
}

static double roof(double tc, double tm)
{
    return tc > tm ? tc : tm;
}

/* One side's step at a point: max(tc, tm) + mv. */
static double pt_step(const e2e_pt *pt, int s)
{
    return roof(pt->tc[s], pt->tm[s]) + pt->mv[s];
}

/* Value at integer context x of the affine function through (a, ya) and
 * (b, yb). */
static double lerp(double a, double ya, double b, double yb, double x)
{
    return b > a ? ya + (yb - ya) * (x - a) / (b - a) : ya;
}

/* Sum over the integers a..b of an affine function with values ya at a and
 * yb at b: (b - a + 1)(ya + yb) / 2, exact for an affine function. */
static double asum(double a, double ya, double b, double yb)
{
    return b < a ? 0.0 : (b - a + 1.0) * (ya + yb) / 2.0;
}

/* Sum of max(tc, tm) over the integer contexts pa.c..pb.c of one side, where
 * tc and tm are affine between the two points: where tc - tm changes sign
 * (at x, solved from the endpoints), the dominant line changes.  *cross:
 * the first integer context past the change (NaN: none). */
static double seg_sum(const e2e_pt *pa, const e2e_pt *pb, int s, double *cross)
{
    double a = pa->c, b = pb->c;
    double da = pa->tc[s] - pa->tm[s], db = pb->tc[s] - pb->tm[s];
    double x, k, g1a, g1k, g2k, g2b;
    *cross = NAN;
    if (b <= a)
        return roof(pa->tc[s], pa->tm[s]);
    if ((da >= 0.0 && db >= 0.0) || (da <= 0.0 && db <= 0.0))
        return asum(a, roof(pa->tc[s], pa->tm[s]), b, roof(pb->tc[s], pb->tm[s]));
    /* One sign change: tc - tm = 0 at x in (a, b). */
    x = a + da / (da - db) * (b - a);
    k = floor(x);
    if (k < a)
        k = a;
    if (k >= b)
        k = b - 1.0;
    *cross = k + 1.0;
    if (da > 0.0) { /* compute-bound first, then memory-bound */
        g1a = pa->tc[s];
        g1k = lerp(a, pa->tc[s], b, pb->tc[s], k);
        g2k = lerp(a, pa->tm[s], b, pb->tm[s], k + 1.0);
        g2b = pb->tm[s];
    } else {
        g1a = pa->tm[s];
        g1k = lerp(a, pa->tm[s], b, pb->tm[s], k);
        g2k = lerp(a, pa->tc[s], b, pb->tc[s], k + 1.0);
        g2b = pb->tc[s];
    }
    return asum(a, g1a, k, g1k) + asum(k + 1.0, g2k, b, g2b);
}

/* Latency and rates from the TTFT and the decode sum, then the end of the
 * request: P + N tokens against the model's maximum and the memory. */
static int e2e_finish(const gp_infer_params *p, double P, double N, double B, gp_infer_e2e *r,
                      gp_err *e)
{
    gp_infer_params q = *p;
    gp_infer_result res;
    int rc, s;
    for (s = 0; s < 2; s++) {
        gp_infer_e2e_side *o = s ? &r->expected : &r->ceiling;
        o->latency_s = o->ttft_s + o->decode_s;
        o->output_tokens_per_s = o->latency_s > 0.0 ? B * N / o->latency_s : INFINITY;
        o->total_tokens_per_s = o->latency_s > 0.0 ? B * (P + N) / o->latency_s : INFINITY;
    }
    q.context = P + N;
    q.prompt = 0.0;
    if ((rc = gp_infer_eval(&q, &res, e)) != GP_OK)
        return rc;
    r->evals += 1.0;
    r->context_exceeds = res.context_exceeds;
    r->fits = res.fits;
    r->mem_need = res.mem_need;
    return GP_OK;
}

int gp_infer_e2e_eval(const gp_infer_params *p, double output, gp_infer_e2e *r, gp_err *e)
{
    gp_infer_result res;
    e2e_pt first, pt, last;
    double P, N, lo, hi, B, sum[2] = {0.0, 0.0}, cross[2] = {NAN, NAN};
    int rc, s;

    if (p == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_infer_e2e_eval: NULL p");
    if (r == NULL)
        return GP_RAISE(e, GP_EINVAL, "gp_infer_e2e_eval: NULL r");
    if (!isfinite(output) || !(output >= 1.0) || output != floor(output))
        return GP_RAISE_AT(e, GP_EINVAL, "--output", 0, 0,
                           "output must be a whole number of tokens >= 1 (got %g)", output);
    if (output > GP_INFER_MAX_OUTPUT)
        return GP_RAISE_AT(e, GP_EINVAL, "--output", 0, 0,
                           "output must be at most %.0f tokens per request (got %g)",
                           GP_INFER_MAX_OUTPUT, output);
    P = p->prompt;
    /* The prefill's logits give the first output token: with no prompt
     * token (a request holds at least its BOS) that token would be free. */
    if (!isfinite(P) || !(P >= 1.0) || P != floor(P))
        return GP_RAISE_AT(e, GP_EINVAL, "--prompt", 0, 0,
                           "prompt must be a whole number of tokens >= 1 (got %g)", P);
    /* Beyond 2^53 consecutive contexts are no longer distinct doubles. */
    if (P + output > 1e15)
        return GP_RAISE_AT(e, GP_EINVAL, "--output", 0, 0,
                           "prompt + output must be at most 1e15 tokens (got %g + %g)", P,
                           output);
    N = output;
    B = p->batch;
    r->prompt = P;
    r->output = N;
    r->batch = B;
    r->final_context = P + N;
    r->evals = 0.0;
    lo = P + 1.0;
    hi = P + N - 1.0;

    /* The prefill (its logits pick the first output token). */
    if ((rc = step_at(p, P, P, &first, &res, &r->evals, e)) != GP_OK)
        return rc;
    r->ceiling.ttft_s = res.ceiling.ttft_s;
    r->expected.ttft_s = res.expected.ttft_s;
    if (N < 2.0) {
        /* One output token: the prefill is the whole request. */
        r->summed = 1;
        for (s = 0; s < 2; s++) {
            gp_infer_e2e_side *o = s ? &r->expected : &r->ceiling;
            o->first_step_s = o->last_step_s = o->mean_step_s = NAN;
            o->decode_s = 0.0;
            o->crossover_context = NAN;
        }
        return e2e_finish(p, P, N, B, r, e);
    }
    /* The first decode step (context P + 1). */
    if ((rc = step_at(p, lo, 0.0, &first, &res, &r->evals, e)) != GP_OK)
        return rc;
    for (s = 0; s < 2; s++) {
        gp_infer_e2e_side *o = s ? &r->expected : &r->ceiling;
        o->first_step_s = pt_step(&first, s);
    }

    r->summed = N - 1.0 <= GP_INFER_E2E_SUM_STEPS;
    if (r->summed) {
        /* Step by step: the reference the closed form is tested against. */
        double c;
        int b0[2], bound;
        for (s = 0; s < 2; s++)
            b0[s] = first.tc[s] > first.tm[s];
        sum[0] = r->ceiling.first_step_s;
        sum[1] = r->expected.first_step_s;
        pt = first;
        for (c = lo + 1.0; c <= hi; c += 1.0) {
            if ((rc = step_at(p, c, 0.0, &pt, &res, &r->evals, e)) != GP_OK)
                return rc;
            sum[0] += res.ceiling.step_s;
            sum[1] += res.expected.step_s;
            for (s = 0; s < 2; s++) {
                bound = pt.tc[s] > pt.tm[s];
                if (bound != b0[s] && isnan(cross[s]))
                    cross[s] = c;
            }
        }
        last = pt;
    } else {
        /* Closed form: the step is affine in the context on each side of a
         * sliding window's kink (gp_model_kv_positions), compute and memory
         * each; split there, then sum each piece exactly (seg_sum). */
        double w = p->model != NULL ? p->model->window.v : 0.0, cuts[3];
        int n = 0, i;
        e2e_pt a = first, b;
        cuts[n++] = lo;
        if (w > 0.0 && floor(w) >= lo && floor(w) < hi)
            cuts[n++] = floor(w) + 1.0; /* first integer context past W */
        cuts[n] = hi + 1.0;
        for (i = 0; i < n; i++) {
            double sa = cuts[i], sb = cuts[i + 1] - 1.0;
            if (i > 0 && (rc = step_at(p, sa, 0.0, &a, &res, &r->evals, e)) != GP_OK)
                return rc;
            b = a;
            if (sb > sa && (rc = step_at(p, sb, 0.0, &b, &res, &r->evals, e)) != GP_OK)
                return rc;
            for (s = 0; s < 2; s++) {
                double cr;
                int ba = a.tc[s] > a.tm[s];
                sum[s] += seg_sum(&a, &b, s, &cr) + asum(sa, a.mv[s], sb, b.mv[s]);
                /* A change of roof at a piece's first context. */
                if (i > 0 && isnan(cross[s]) && ba != (first.tc[s] > first.tm[s]))
                    cross[s] = sa;
                if (isnan(cross[s]) && !isnan(cr))
                    cross[s] = cr;
            }
            a = b;
        }
        last = b;
    }
    for (s = 0; s < 2; s++) {
        gp_infer_e2e_side *o = s ? &r->expected : &r->ceiling;
        o->decode_s = sum[s];
        o->mean_step_s = o->decode_s / (N - 1.0);
        o->crossover_context = cross[s];
    }
    r->ceiling.last_step_s = pt_step(&last, 0);
    r->expected.last_step_s = pt_step(&last, 1);
    return e2e_finish(p, P, N, B, r, e);
}
