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
    gp_account runner_up;     /* the account margin is taken against
                                 (meaningful when margin > 0)             */
} gp_ledger;

/* Set total, binding, margin and runner_up from t[] under `rule`.  NULL is
 * a no-op. */
void gp_ledger_close(gp_ledger *l, gp_overlap rule);

/* "max", "sum", "roof+movement". */
const char *gp_overlap_name(gp_overlap r);

/* "compute", "memory", "movement". */
const char *gp_account_name(gp_account a);

/* ---- diagnosis: a measured time against the two ledgers ---------------- */

/* How far a measured run may sit above the expected time and still be "as
 * expected": 15 %, about the spread of the published rows around the
 * expected figures (docs/models/inference.md §8: rms ~9 %). */
#define GP_DIAG_TOLERANCE 0.15
/* A roof this busy at the measured speed is called saturated. */
#define GP_DIAG_SATURATED 0.70

typedef enum gp_verdict {
    GP_VERDICT_IMPOSSIBLE,  /* faster than the ceiling: the inputs do not
                               describe the run (or it counts differently) */
    GP_VERDICT_AS_EXPECTED, /* within GP_DIAG_TOLERANCE of expected: t in
                               [expected / (1 + tol), expected x (1 + tol)] */
    GP_VERDICT_SLOWER,      /* slower than expected by more than that      */
    GP_VERDICT_FASTER       /* faster than that, yet under the ceiling: the
                               expected figure is pessimistic for this run */
} gp_verdict;

typedef struct gp_diagnosis {
    double measured_s;             /* the run's time for the same work      */
    double ceiling_s, expected_s;  /* the two ledgers' totals               */
    double of_ceiling;             /* ceiling_s / measured_s: share of the
                                      best possible speed reached (<= 1)    */
    double of_expected;            /* expected_s / measured_s               */
    double gap_s;                  /* measured_s - expected_s (> 0: slower) */
    double util[GP_ACCT__COUNT];   /* ceiling t[a] / measured_s: how busy
                                      each datasheet roof is at the measured
                                      speed                                 */
    gp_account busiest;            /* the account with the largest util     */
    int saturated;                 /* util[busiest] >= GP_DIAG_SATURATED    */
    gp_verdict verdict;
} gp_diagnosis;

/* Hold a measured time against a ceiling and an expected ledger of the same
 * work (docs/models/ledger.md "Diagnosis").  Returns 0, or -1 (d untouched)
 * when a pointer is NULL or measured_s is not a positive finite number.
 * Pure. */
int gp_ledger_diagnose(const gp_ledger *ceiling, const gp_ledger *expected, double measured_s,
                       gp_diagnosis *d);

/* "impossible", "as_expected", "slower", "faster". */
const char *gp_verdict_name(gp_verdict v);

#ifdef __cplusplus
}
#endif
#endif /* GP_LEDGER_H */
