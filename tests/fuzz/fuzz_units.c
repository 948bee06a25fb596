/* libFuzzer harness: the quantity parser and formatter on arbitrary bytes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s;
    int k;
    if (size == 0)
        return 0;
    s = malloc(size);
    if (s == NULL)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    k = data[0] % (int)GP_Q__COUNT;
    {
        double v = -1.0;
        long n = 0;
        char buf[64];
        gp_err e;
        gp_err_clear(&e);
        if (gp_parse_qty(s, (gp_qty)k, "fuzz", &v, &e) == GP_OK) {
            /* A parsed value is finite and non-negative, and formats. */
            if (!isfinite(v) || v < 0)
                abort();
            gp_format_qty(v, (gp_qty)k, data[0] % 4, data[0] & 1, buf, sizeof buf);
        } else if (e.msg[0] == '\0') {
            abort(); /* every refusal says why */
        }
        (void)gp_parse_int(s, 1, "fuzz", &n, &e);
    }
    free(s);
    return 0;
}
