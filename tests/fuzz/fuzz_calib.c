/* libFuzzer harness: the measurement-file readers (calib.h: the probe's
 * YAML, nccl-tests/rccl-tests, BabelStream and nvbandwidth text, and the detection that
 * picks one) on arbitrary text, then everything a parsed file feeds: the
 * summary (statistics and alpha-beta fits through GSL), a fit per series
 * kind, the efficiencies and the overlay YAML writers.  A refusal must leave
 * nothing behind and say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gsl_set_error_handler_off(); /* as the CLI does: GSL reports, never aborts */
    return 0;
}

static void feed(const gp_calib *c)
{
    gp_calib_summary s;
    gp_calib_fit fit;
    gp_calib_eff eff[8];
    gp_err e;
    char *text = NULL;
    gp_err_clear(&e);
    gp_calib_summarize(c, &s);
    (void)gp_calib_fit_series(c, GP_CALIB_TRANSFER, "h2d-pinned", 0, 0, &fit, &e);
    (void)gp_calib_fit_series(c, GP_CALIB_TRANSFER, "d2h-pinned", 0, 0, &fit, &e);
    (void)gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce", 0, 0, &fit, &e);
    (void)gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce", GP_CALIB_AR_BW_MIN_BYTES, 0,
                              &fit, &e);
    (void)gp_calib_fit_series(c, GP_CALIB_PEER, "uni", 0, 0, &fit, &e);
    (void)gp_calib_fit_series(c, GP_CALIB_MEMORY, "copy", 0, 0, &fit, &e);
    {
        /* Efficiencies against a hand-built GPU and link (no database here). */
        gp_gpu g;
        gp_link l;
        memset(&g, 0, sizeof g);
        memset(&l, 0, sizeof l);
        g.id = "fuzz";
        g.mem_bw.v = 3.35e12;
        l.id = "fuzz-link";
        l.bw.v = 450e9;
        (void)gp_calib_efficiencies(&s, &g, &l, &l, eff, 8);
    }
    if (gp_calib_overlay_gpu(c, &s, "h100-sxm", "fuzz.yaml", &text, &e) == GP_OK)
        free(text);
    text = NULL;
    if (gp_calib_overlay_link(c, &s, "nvlink4", "fuzz.yaml", &text, &e) == GP_OK)
        free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const gp_calib_format fmts[] = {GP_CALIB_FMT_AUTO, GP_CALIB_FMT_NCCL_TESTS,
                                           GP_CALIB_FMT_BABELSTREAM, GP_CALIB_FMT_NVBANDWIDTH};
    size_t i;
    /* AUTO covers the probe reader (and detection); the text readers are
     * also run directly, whatever detection says. */
    for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        gp_calib *c = NULL;
        gp_err e;
        gp_err_clear(&e);
        if (gp_calib_read_any("fuzz.yaml", (const char *)data, size, fmts[i], &c, &e) == GP_OK) {
            if (c == NULL)
                abort();
            feed(c);
            gp_calib_free(c);
        } else if (c != NULL || e.msg[0] == '\0') {
            abort();
        }
    }
    return 0;
}
