/* The three-account ledger: combine account times and name the binding one. */
#include "gpuplan/ledger.h"

#include <math.h>
#include <stddef.h>

void gp_ledger_close(gp_ledger *l, gp_overlap rule)
{
    int i;
    double best = -1.0, second = 0.0, sum = 0.0;
    if (l == NULL)
        return;
    l->rule = rule;
    l->binding = GP_ACCT_COMPUTE;
    l->runner_up = GP_ACCT_COMPUTE;
    for (i = 0; i < GP_ACCT__COUNT; i++) {
        double t = l->t[i];
        sum += t;
        if (t > best) {
            second = best > 0.0 ? best : 0.0;
            l->runner_up = l->binding;
            best = t;
            l->binding = (gp_account)i;
        } else if (t > second) {
            second = t;
            l->runner_up = (gp_account)i;
        }
    }
    if (rule == GP_OVERLAP_SUM) {
        l->total = sum;
    } else if (rule == GP_OVERLAP_ROOF) {
        double tc = l->t[GP_ACCT_COMPUTE], tm = l->t[GP_ACCT_MEMORY];
        l->total = (tc > tm ? tc : tm) + l->t[GP_ACCT_MOVEMENT];
    } else {
        l->total = best;
    }
    l->margin = second > 0.0 ? best / second : 0.0;
}

const char *gp_overlap_name(gp_overlap r)
{
    switch (r) {
    case GP_OVERLAP_MAX:
        return "max";
    case GP_OVERLAP_SUM:
        return "sum";
    case GP_OVERLAP_ROOF:
        return "roof+movement";
    default:
        return "unknown";
    }
}

const char *gp_account_name(gp_account a)
{
    switch (a) {
    case GP_ACCT_COMPUTE:
        return "compute";
    case GP_ACCT_MEMORY:
        return "memory";
    case GP_ACCT_MOVEMENT:
        return "movement";
    default:
        return "unknown";
    }
}

int gp_ledger_diagnose(const gp_ledger *ceiling, const gp_ledger *expected, double measured_s,
                       gp_diagnosis *d)
{
    int a;
    if (ceiling == NULL || expected == NULL || d == NULL || !(measured_s > 0.0) ||
        !isfinite(measured_s))
        return -1;
    d->measured_s = measured_s;
    d->ceiling_s = ceiling->total;
    d->expected_s = expected->total;
    d->of_ceiling = ceiling->total / measured_s;
    d->of_expected = expected->total / measured_s;
    d->gap_s = measured_s - expected->total;
    d->busiest = GP_ACCT_COMPUTE;
    for (a = 0; a < GP_ACCT__COUNT; a++) {
        d->util[a] = ceiling->t[a] / measured_s;
        if (d->util[a] > d->util[d->busiest])
            d->busiest = (gp_account)a;
    }
    d->saturated = d->util[d->busiest] >= GP_DIAG_SATURATED;
    /* A relative slack of 1e-9 keeps a run measured at exactly the ceiling
     * (rounded output fed back in) possible. */
    if (measured_s < ceiling->total * (1.0 - 1e-9))
        d->verdict = GP_VERDICT_IMPOSSIBLE;
    else if (measured_s * (1.0 + GP_DIAG_TOLERANCE) < expected->total)
        d->verdict = GP_VERDICT_FASTER;
    else if (measured_s <= expected->total * (1.0 + GP_DIAG_TOLERANCE))
        d->verdict = GP_VERDICT_AS_EXPECTED;
    else
        d->verdict = GP_VERDICT_SLOWER;
    return 0;
}

const char *gp_verdict_name(gp_verdict v)
{
    switch (v) {
    case GP_VERDICT_IMPOSSIBLE:
        return "impossible";
    case GP_VERDICT_AS_EXPECTED:
        return "as_expected";
    case GP_VERDICT_SLOWER:
        return "slower";
    case GP_VERDICT_FASTER:
        return "faster";
    default:
        return "unknown";
    }
}
