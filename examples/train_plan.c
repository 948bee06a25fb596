/* Planning question 1 through the public API: how many GPU-days does
 * GPT-3 (175B parameters, 300B tokens) take on H100s, how long on 1024 of
 * them, and does Llama 2 7B fit on 8 A100s with ZeRO-3?
 * Build: cc train_plan.c $(pkg-config --cflags --libs gpuplan) */
#include <stdio.h>

#include "gpuplan.h"

int main(void)
{
    gp_db *db = NULL;
    gp_err e;
    gp_train_in in;
    gp_train_result r;
    char buf[512];
    const gp_gpu *h100, *a100;
    const gp_model *llama;
    static const double mfus[3] = {0.4, 0.5, 0.6};
    int rc = 1, k;

    gp_err_clear(&e);
    if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK) {
        fprintf(stderr, "train_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
        return 1;
    }
    h100 = gp_db_find_gpu(db, "h100-sxm");
    a100 = gp_db_find_gpu(db, "a100-sxm-80gb");
    llama = gp_db_find_model(db, "llama-2-7b");
    if (h100 == NULL || a100 == NULL || llama == NULL) {
        fprintf(stderr, "train_plan: database lacks h100-sxm, a100-sxm-80gb or llama-2-7b\n");
        goto out;
    }

    /* GPT-3: 6 x 175e9 x 300e9 = 3.15e23 FLOP at MFU 0.4, 0.5, 0.6. */
    gp_train_in_init(&in);
    in.gpu = h100;
    in.params = 175e9;
    in.tokens = 300e9;
    in.gpus = 1024;
    for (k = 0; k < 3; k++) {
        in.mfu = mfus[k];
        if (gp_train_estimate(&in, NULL, &r, &e) != GP_OK) {
            fprintf(stderr, "train_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
            goto out;
        }
        /* gp_format_qty writes the FLOP count as docs/units.md has it: 3.15e23. */
        printf("GPT-3 on H100 at MFU %.1f: %s, %.0f GPU-days, %.1f days on %ld GPUs\n",
               in.mfu, gp_format_qty(r.model_flop, GP_Q_FLOP, 2, 0, buf, sizeof buf), r.gpu_days,
               r.wall_days, in.gpus);
    }

    /* Llama 2 7B, Adam (16 B/param): one A100 vs ZeRO-3 over 8. */
    gp_train_in_init(&in);
    in.gpu = a100;
    in.model = llama;
    in.tokens = 2e12;
    in.seq = 2048;
    if (gp_train_estimate(&in, NULL, &r, &e) != GP_OK)
        goto fail;
    printf("Llama 2 7B on 1 A100: %.1f GB of model states -> %s\n", r.state_bytes / 1e9,
           r.fits ? "fits" : "does not fit");
    in.gpus = 8;
    in.zero = 3;
    if (gp_train_estimate(&in, NULL, &r, &e) != GP_OK)
        goto fail;
    printf("Llama 2 7B on 8 A100, ZeRO-3: %.2f GB states + %.2f GB activations per GPU -> %s\n",
           r.state_bytes / 1e9, r.activation_bytes / 1e9, r.fits ? "fits" : "does not fit");
    rc = 0;
    goto out;
fail:
    fprintf(stderr, "train_plan: %s\n", gp_err_format(&e, buf, sizeof buf));
out:
    gp_db_free(db);
    return rc;
}
