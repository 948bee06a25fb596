/* Question 2 through the library: what tokens/s can a 7B model reach on an
 * RTX 4090, quantised like this, and how big is its KV cache?  Uses only the
 * public API and the built-in database; prints datasheet ceilings (stable)
 * and the expected figure's shape, not its value. */
#include <stdio.h>

#include "gpuplan.h"

int main(void)
{
    gp_db *db = NULL;
    gp_err e;
    const char *const fmts[] = {"fp16", "q8_0", "q4_0"};
    const gp_gpu *g;
    const gp_model *m;
    gp_model seven;
    gp_infer_params p;
    gp_infer_result r;
    size_t i;

    gp_err_clear(&e);
    if (gp_db_open(&db, 0, NULL, 0, &e) != GP_OK) {
        fprintf(stderr, "decode example: %s\n", e.msg);
        return 1;
    }
    g = gp_db_find_gpu(db, "rtx-4090");
    m = gp_db_find_model(db, "llama-2-7b");
    if (g == NULL || m == NULL) {
        gp_db_free(db);
        return 1;
    }

    /* The article's arithmetic: 7e9 parameters, weights only. */
    seven = *m;
    seven.params.v = 7e9;
    seven.layers.v = seven.hidden.v = seven.heads.v = seven.kv_heads.v = 0;
    seven.head_dim.v = seven.vocab.v = seven.kv_dim.v = 0;
    gp_infer_params_init(&p);
    p.gpu = g;
    p.model = &seven;
    for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        p.weights = gp_db_find_format(db, fmts[i]);
        if (gp_infer_eval(&p, &r, &e) != GP_OK)
            break;
        printf("7B %-5s on %s: %5.2f GB per token, ceiling %5.1f tok/s, expected below it: %s\n",
               fmts[i], g->id, r.weight_bytes / 1e9, r.ceiling.tokens_per_s,
               r.expected.tokens_per_s < r.ceiling.tokens_per_s ? "yes" : "no");
    }

    /* The KV cache of the real Llama-2-7B: 2 x 32 x 32 x 128 x 2 B per token. */
    p.model = m;
    p.weights = NULL;
    for (i = 0; i < 2; i++) {
        p.context = i == 0 ? 4096 : 32768;
        if (gp_infer_eval(&p, &r, &e) != GP_OK)
            break;
        printf("%s at %5.0f tokens: KV %6.2f GiB per sequence, %s\n", m->id, p.context,
               r.kv_bytes / 1073741824.0,
               r.kv_dominates ? "more than the weights: the KV cache dominates"
                              : "less than the weights");
    }
    gp_db_free(db);
    return 0;
}
