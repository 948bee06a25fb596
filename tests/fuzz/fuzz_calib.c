/* libFuzzer harness: the measurement-file reader on arbitrary text; what
 * parses is summarised, fitted and turned into overlay text. */
#include <stdint.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const series[] = {"h2d-pinned", "d2h-pinned", "uni", "allreduce"};
    static const gp_calib_kind kinds[] = {GP_CALIB_TRANSFER, GP_CALIB_TRANSFER, GP_CALIB_PEER,
                                          GP_CALIB_ALLREDUCE};
    gp_calib *c = NULL;
    gp_calib_summary s;
    gp_calib_fit f;
    gp_err e;
    char *text = NULL;
    size_t i;
    gsl_set_error_handler_off();
    gp_err_clear(&e);
    if (gp_calib_read_text("fuzz.yaml", (const char *)data, size, &c, &e) != GP_OK) {
        if (c != NULL || e.msg[0] == '\0')
            abort(); /* failure leaves nothing behind and says why */
        return 0;
    }
    gp_calib_summarize(c, &s);
    for (i = 0; i < sizeof series / sizeof series[0]; i++)
        (void)gp_calib_fit_series(c, kinds[i], series[i], 0, 0, &f, &e);
    if (gp_calib_overlay_gpu(c, &s, "fuzz", "fuzz.yaml", &text, &e) == GP_OK)
        free(text);
    text = NULL;
    if (gp_calib_overlay_link(c, &s, "fuzz", "fuzz.yaml", &text, &e) == GP_OK)
        free(text);
    gp_calib_free(c);
    return 0;
}
