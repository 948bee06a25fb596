/* libFuzzer harness: the YAML database loader on arbitrary text.  The first
 * byte picks the kind (byte % 4: gpus, links, models, formats) and, when its
 * top four bits are all set, loads the text over the built-in database
 * (merging; ~1 ms a run), else on its own (fast). */
#include <stdint.h>
#include <stdlib.h>

#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_db *db = NULL;
    gp_err e;
    gp_kind kind;
    if (size < 1)
        return 0;
    kind = (gp_kind)(data[0] % GP_KIND__COUNT);
    gp_err_clear(&e);
    if (gp_db_open_text(&db, (data[0] & 0xF0) != 0xF0, kind, "fuzz.yaml",
                        (const char *)data + 1, size - 1, &e) == GP_OK) {
        size_t i, n = gp_db_count(db, GP_KIND_GPU);
        for (i = 0; i < n; i++) /* touch what loaded */
            (void)gp_gpu_expected_mem_bw(gp_db_gpu_at(db, i));
        gp_db_free(db);
    } else if (db != NULL || e.msg[0] == '\0') {
        abort(); /* failure leaves nothing behind and says why */
    }
    return 0;
}
