/* The three-account ledger every gpuplan answer carries: compute, memory
 * (bandwidth) and movement (communication).  See docs/models/ledger.md. */
#ifndef GP_LEDGER_H
#define GP_LEDGER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_account {
    GP_ACCT_COMPUTE,  /* FLOPs / FLOP/s                                  */
    GP_ACCT_MEMORY,   /* bytes through device memory / bytes/s           */
    GP_ACCT_MOVEMENT, /* bytes over links / bytes/s + latency            */
    GP_ACCT__COUNT
} gp_account;

typedef enum gp_overlap {
    GP_OVERLAP_MAX, /* accounts overlap fully: total = max (roofline)    */
    GP_OVERLAP_SUM, /* accounts serialise: total = sum                   */
    GP_OVERLAP_ROOF /* on-chip work overlaps, movement serialises:
                       total = max(compute, memory) + movement (decode:
                       per-layer fixed costs and AllReduces)              */
} gp_overlap;

typedef struct gp_ledger {
    double t[GP_ACCT__COUNT]; /* seconds charged to each account (>= 0)  */
    double total;             /* combined time under `rule`, seconds      */
    gp_overlap rule;
    gp_account binding;       /* account with the largest time            */
    double margin;            /* binding time / runner-up time (>= 1; 0
                                 when the runner-up is 0: nothing else)   */
} gp_ledger;

/* Set total, binding and margin from t[] under `rule`.  NULL is a no-op. */
void gp_ledger_close(gp_ledger *l, gp_overlap rule);

/* "max", "sum", "roof+movement". */
const char *gp_overlap_name(gp_overlap r);

/* "compute", "memory", "movement". */
const char *gp_account_name(gp_account a);

#ifdef __cplusplus
}
#endif
#endif /* GP_LEDGER_H */
