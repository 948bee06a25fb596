/* The three-account ledger: combine account times and name the binding one. */
#include "gpuplan/ledger.h"

#include <stddef.h>

void gp_ledger_close(gp_ledger *l, gp_overlap rule)
{
    int i;
    double best = -1.0, second = 0.0, sum = 0.0;
    if (l == NULL)
        return;
    l->rule = rule;
    l->binding = GP_ACCT_COMPUTE;
    for (i = 0; i < GP_ACCT__COUNT; i++) {
        double t = l->t[i];
        sum += t;
        if (t > best) {
            second = best > 0.0 ? best : 0.0;
            best = t;
            l->binding = (gp_account)i;
        } else if (t > second) {
            second = t;
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
