/* libFuzzer harness: the measurement-file reader (calib.h) on arbitrary
 * text, then everything a parsed file feeds: the summary (statistics and
 * alpha-beta fits through GSL), a fit per series kind, and the overlay YAML
 * writers.  A refusal must leave nothing behind and say why. */
#include <stdint.h>
#include <stdlib.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_calib *c = NULL;
    gp_err e;
    gp_err_clear(&e);
    if (gp_calib_read_text("fuzz.yaml", (const char *)data, size, &c, &e) == GP_OK) {
        gp_calib_summary s;
        gp_calib_fit fit;
        char *text = NULL;
        gp_calib_summarize(c, &s);
        (void)gp_calib_fit_series(c, GP_CALIB_TRANSFER, "h2d-pinned", 0, 0, &fit, &e);
        (void)gp_calib_fit_series(c, GP_CALIB_TRANSFER, "d2h-pinned", 0, 0, &fit, &e);
        (void)gp_calib_fit_series(c, GP_CALIB_ALLREDUCE, "allreduce", 0, 0, &fit, &e);
        (void)gp_calib_fit_series(c, GP_CALIB_PEER, "uni", 0, 0, &fit, &e);
        if (gp_calib_overlay_gpu(c, &s, "h100-sxm", "fuzz.yaml", &text, &e) == GP_OK)
            free(text);
        text = NULL;
        if (gp_calib_overlay_link(c, &s, "nvlink4", "fuzz.yaml", &text, &e) == GP_OK)
            free(text);
        gp_calib_free(c);
    } else if (c != NULL || e.msg[0] == '\0') {
        abort();
    }
    return 0;
}
