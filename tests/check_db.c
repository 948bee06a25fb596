/* The hardware database: loading (built-in, fixture, overlays), provenance,
 * lookups, validation of bad input (each error names file:line:col and the
 * field), and the `gpuplan hw` command.
 *
 * Most tests load tests/data/hwdb-min (no built-in) so they do not depend on
 * the shipped data; its figures come from /work/shared/reference/gpu_specs.md
 * and are converted to SI by hand in the comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "testutil.h"

#define MIN_DIR "tests/data/hwdb-min"

static int open_dirs(gp_db **db, gp_err *e, const char *d2)
{
    const char *dirs[2] = {MIN_DIR, d2};
    gp_err_clear(e);
    return gp_db_open(db, 1, dirs, d2 ? 2 : 1, e);
}

static void assert_fig_has_provenance(const gp_fig *f, const char *origin_part)
{
    ck_assert_msg(f->v > 0, "figure missing");
    ck_assert_ptr_nonnull(f->src);
    ck_assert_ptr_nonnull(f->origin);
    ck_assert_msg(strstr(f->origin, origin_part) != NULL, "origin '%s' lacks '%s'", f->origin,
                  origin_part);
}

/* ---- loading ----------------------------------------------------------------- */

START_TEST(fixture_loads_with_si_figures)
{
    gp_db *db;
    gp_err e;
    const gp_gpu *g;
    const gp_link *l;
    const gp_model *m;
    const gp_format *f;
    char buf[1024];
    int rc = open_dirs(&db, &e, NULL);
    ck_assert_msg(rc == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_GPU), 1);
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_LINK), 3);
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_MODEL), 1);
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_FORMAT), 2);

    g = gp_db_find_gpu(db, "h100-sxm");
    ck_assert_ptr_nonnull(g);
    /* 989.4 TFLOPS = 989.4e12; 3.35 TB/s = 3.35e12 B/s; 80 GiB = 80 * 2^30
     * = 85899345920 B; 81559 MiB = 81559 * 1048576 = 85520809984 B;
     * 50 MiB = 52428800 B; 1980 MHz = 1.98e9 Hz; 80% = 0.8. */
    GP_ASSERT_REL(g->peak[GP_BF16][GP_PIPE_TENSOR].v, 989.4e12, 1e-12);
    GP_ASSERT_REL(g->peak[GP_FP32][GP_PIPE_CUDA].v, 66.9e12, 1e-12);
    GP_ASSERT_REL(g->peak[GP_INT8][GP_PIPE_TENSOR].v, 1978.9e12, 1e-12);
    GP_ASSERT_REL(g->peak[GP_FP32][GP_PIPE_TENSOR].v, 0.0, 0);
    GP_ASSERT_REL(g->mem_bw.v, 3.35e12, 1e-12);
    GP_ASSERT_REL(g->mem_capacity.v, 85899345920.0, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, 85520809984.0, 1e-12);
    GP_ASSERT_REL(g->l2_size.v, 52428800.0, 1e-12);
    GP_ASSERT_REL(g->clock_boost.v, 1.98e9, 1e-12);
    GP_ASSERT_REL(g->sm_count.v, 132.0, 0);
    GP_ASSERT_REL(g->tdp.v, 700.0, 0);
    GP_ASSERT_REL(g->eff_compute.v, 0.8, 1e-12);
    /* FP8: 70.9 % (MAMF 1402.6 of 1978.9); 1978.9e12 x 0.709 = 1403.04e12. */
    GP_ASSERT_REL(g->eff_compute_fp8.v, 0.709, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1403.0401e12,
                  1e-9);
    GP_ASSERT_REL(g->sparsity.v, 2.0, 0);
    /* Sparse bf16 = 2 x 989.4 = 1978.8 TFLOP/s. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1978.8e12, 1e-12);
    /* Expected bandwidth = 3.35e12 x 0.90 = 3.015e12. */
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(g), 3.015e12, 1e-12);
    ck_assert_str_eq(g->compute_capability, "9.0");
    ck_assert_str_eq(g->memory_type, "HBM3");
    ck_assert_str_eq(g->host_link, "pcie5-x16");
    ck_assert_str_eq(g->scale_up_link, "nvlink4");
    ck_assert_ptr_null(g->calibration);
    /* Sources: entry default, per-figure, per-group, and the mapping form. */
    ck_assert_str_eq(g->mem_bw.src, "NVIDIA H100 datasheet, https://www.nvidia.com/en-us/data-center/h100/");
    ck_assert_ptr_nonnull(strstr(g->peak[GP_BF16][GP_PIPE_TENSOR].src, "Architecture whitepaper"));
    ck_assert_ptr_nonnull(strstr(g->l2_size.src, "Hopper Tuning Guide"));
    ck_assert_str_eq(g->peak[GP_INT8][GP_PIPE_TENSOR].src, g->mem_bw.src);
    ck_assert_str_eq(g->mem_bw.origin, MIN_DIR "/gpus/h100-sxm.yaml:25:3");

    l = gp_db_find_link(db, "pcie5-x16");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->kind, GP_LINK_PCIE);
    ck_assert_int_eq(l->scope, GP_SCOPE_SCALE_UP);
    ck_assert_int_eq(l->p2p, 0);
    GP_ASSERT_REL(l->bw.v, 63.0e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 52.8e9, 1e-12);
    GP_ASSERT_REL(l->latency.v, 10e-6, 1e-12);
    ck_assert_ptr_nonnull(strstr(l->bw.src, "PCI-SIG")); /* entry-local source */
    l = gp_db_find_link(db, "nvlink4");
    ck_assert_int_eq(l->switched, 1);
    ck_assert_int_eq(l->p2p, 1); /* default */
    GP_ASSERT_REL(l->max_gpus.v, 256.0, 0);

    m = gp_db_find_model(db, "llama-2-7b");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->params.v, 6.74e9, 1e-12);
    GP_ASSERT_REL(m->params_active.v, 6.74e9, 1e-12); /* defaults to params */
    GP_ASSERT_REL(m->ffn_hidden.v, 11008.0, 0);
    ck_assert_str_eq(m->attention, "mha");
    /* KV elements per token-layer: 2 x 32 heads x (4096/32 = 128) = 8192. */
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(m), 8192.0, 0);

    f = gp_db_find_format(db, "q4_0");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->kind, GP_FMT_QUANT);
    ck_assert_int_eq(f->compute, GP_FP16);
    GP_ASSERT_REL(f->bits.v, 4.5, 0);
    GP_ASSERT_REL(f->group.v, 32.0, 0);
    gp_db_free(db);
}
END_TEST

/* Names as people and tools write them find the entry when their words
 * (vendor words and an "org/" prefix dropped) are exactly an id's, an
 * alias's or the name's; never a guess: an extra or missing word, or two
 * entries with the same words, find nothing. */
START_TEST(lookups_by_words)
{
    const gp_db *db = gp_test_db();
    gp_db *db2 = NULL;
    gp_err e;
    static const char *const twin =
        "id: llama-2-7b-twin\nname: Llama 2 7B\nsources: {s: \"test\"}\nsrc: s\n"
        "params: 6.74B\nlayers: 32\nhidden: 4096\nheads: 32\nvocab: 32000\nffn_hidden: 11008\n"
        "context: 4096\n";
    static const struct {
        const char *q, *id;
    } ok[] = {
        {"RTX 4090", "rtx-4090"},                   /* id's words */
        {"NVIDIA GeForce RTX 4090", "rtx-4090"},    /* nvidia-smi name */
        {"NVIDIA A100-SXM4-80GB", "a100-sxm-80gb"}, /* alias a100-sxm4-80gb */
        {"A100 80GB PCIe", "a100-pcie-80gb"},       /* name */
        {"H100-SXM5-80GB", "h100-sxm"},             /* name NVIDIA H100 SXM5 80GB */
        {"NVIDIA H100 80GB HBM3", "h100-sxm"},      /* alias h100-80gb-hbm3 */
        {"RTX 6000 Ada Generation", "rtx-6000-ada"},
        {"AMD Instinct MI300X", "mi300x"},
    };
    size_t i;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const gp_gpu *g = gp_db_find_gpu(db, ok[i].q);
        ck_assert_msg(g != NULL, "'%s' not found", ok[i].q);
        ck_assert_str_eq(g->id, ok[i].id);
    }
    ck_assert_str_eq(gp_db_find_model(db, "meta-llama/Llama-2-7b-hf")->id, "llama-2-7b");
    ck_assert_str_eq(gp_db_find_model(db, "Llama 2 7B")->id, "llama-2-7b");
    ck_assert_str_eq(gp_db_find_model(db, "meta-llama/Meta-Llama-3-8B")->id, "llama-3-8b");
    {
        /* A typo gets the nearest ids: 'lama-2-7b' is one edit from
         * llama-2-7b (and two from llama-2-70b and llama-7b). */
        const gp_model *m;
        ck_assert_int_eq(gp_db_get_model(db, "lama-2-7b", "--model", &m, &e), GP_ENOTFOUND);
        ck_assert_msg(strstr(e.msg, "did you mean llama-2-7b, ") != NULL, "%s", e.msg);
        ck_assert_ptr_null(m);
    }
    {
        /* A name that stops a word short gets the ids it begins, before
         * those one edit away: 'rtx-4060-ti' starts rtx-4060-ti-16gb and
         * rtx-4060-ti-8gb (table order), then rtx-3060-ti (one edit). */
        const gp_gpu *g;
        ck_assert_int_eq(gp_db_get_gpu(db, "rtx-4060-ti", "--gpu", &g, &e), GP_ENOTFOUND);
        ck_assert_msg(strstr(e.msg, "did you mean rtx-4060-ti-16gb, rtx-4060-ti-8gb, "
                                    "rtx-3060-ti?") != NULL,
                      "%s", e.msg);
    }
    {
        /* The same list through the public call, and its edges: a cap too
         * small truncates (still terminated), nothing near gives 0 and "". */
        char out[64];
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "rtx-4060-ti", out, sizeof out), 3);
        ck_assert_str_eq(out, "rtx-4060-ti-16gb, rtx-4060-ti-8gb, rtx-3060-ti");
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_MODEL, "lama-2-7b", out, sizeof out), 3);
        ck_assert_msg(strncmp(out, "llama-2-7b, ", 12) == 0, "%s", out);
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "rtx-4060-ti", out, 8), 0);
        ck_assert_str_eq(out, "");
        /* 16 + 2 + 15 = 33 characters fit in 40, the third id does not. */
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "rtx-4060-ti", out, 40), 2);
        ck_assert_str_eq(out, "rtx-4060-ti-16gb, rtx-4060-ti-8gb");
        /* Spaces and underscores stand for the ids' hyphens. */
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "RTX 4060 Ti", out, sizeof out), 3);
        ck_assert_str_eq(out, "rtx-4060-ti-16gb, rtx-4060-ti-8gb, rtx-3060-ti");
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "rtx_4060_ti", out, sizeof out), 3);
        ck_assert_str_eq(out, "rtx-4060-ti-16gb, rtx-4060-ti-8gb, rtx-3060-ti");
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "zzzzzzzzzzzz", out, sizeof out), 0);
        ck_assert_str_eq(out, "");
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND__COUNT, "h100", out, sizeof out), 0);
        ck_assert_uint_eq(gp_db_suggest(NULL, GP_KIND_GPU, "h100", out, sizeof out), 0);
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, NULL, out, sizeof out), 0);
        ck_assert_uint_eq(gp_db_suggest(db, GP_KIND_GPU, "h100", NULL, 0), 0);
    }
    ck_assert_str_eq(gp_db_find_model(db, "meta-llama/Llama-3.1-8B")->id, "llama-3.1-8b");
    /* Device names as runtimes print them: brand marks and "Graphics" are
     * not words of an id. */
    ck_assert_str_eq(gp_db_find_gpu(db, "Intel(R) Arc(TM) A770 Graphics")->id, "intel-arc-a770");
    ck_assert_str_eq(gp_db_find_gpu(db, "AMD Radeon 8060S Graphics")->id, "ryzen-ai-max-395");
    ck_assert_str_eq(gp_db_find_model(db, "GPT-3 175B")->id, "gpt-3-175b");
    ck_assert_str_eq(gp_db_find_link(db, "IB NDR")->id, "ib-ndr");
    /* A link's name without its remark, a unit's slash no org prefix, and
     * the spellings published tables use. */
    ck_assert_str_eq(gp_db_find_link(db, "InfiniBand NDR 400 Gb/s")->id, "ib-ndr");
    ck_assert_str_eq(gp_db_find_link(db, "HDR InfiniBand")->id, "ib-hdr");
    ck_assert_str_eq(gp_db_find_link(db, "NVLink 3.0")->id, "nvlink3");
    ck_assert_str_eq(gp_db_find_link(db, "NVLink4 + NVSwitch")->id, "nvlink4");
    ck_assert_str_eq(gp_db_find_link(db, "RoCE 400G")->id, "roce-400");
    ck_assert_str_eq(gp_db_find_gpu(db, "AMD Instinct MI250X")->id, "mi250x");
    /* Commentary in parentheses is no part of the name, and a memory size
     * is a word a name may carry when it is the card's own (24 GB on an RTX
     * 4090: 24 x 2^30 bytes), as published tables write them. */
    ck_assert_str_eq(gp_db_find_gpu(db, "RTX 4090 24GB")->id, "rtx-4090");
    ck_assert_str_eq(gp_db_find_gpu(db, "A100-SXM4-80GB (330 W power limit)")->id,
                     "a100-sxm-80gb");
    ck_assert_str_eq(gp_db_find_gpu(db, "A100 (SXM, 8 GPUs, NVSwitch)")->id, "a100-sxm-80gb");
    ck_assert_str_eq(gp_db_find_gpu(db, "V100 (count not disclosed in paper)")->id,
                     "v100-sxm2-32gb");
    ck_assert_str_eq(gp_db_find_model(db, "LLaMA-65B (paper)")->id, "llama-65b");
    /* Words count as often as they occur: "3.3" is two words "3", so Llama
     * 3.3 70B (an alias of llama-3.1-70b) does not make "Llama 3 70B"
     * ambiguous; fine-tunes find their base shape. */
    ck_assert_str_eq(gp_db_find_model(db, "Llama 3 70B")->id, "llama-3-70b");
    ck_assert_str_eq(gp_db_find_model(db, "Llama 3.3 70B")->id, "llama-3.1-70b");
    ck_assert_str_eq(gp_db_find_model(db, "meta-llama/Llama-3.1-8B-Instruct")->id,
                     "llama-3.1-8b");
    ck_assert_str_eq(gp_db_find_model(db, "meta-llama/Llama-2-13b-chat-hf")->id, "llama-2-13b");
    ck_assert_str_eq(gp_db_find_model(db, "google/gemma-2-9b-it")->id, "gemma-2-9b");
    ck_assert_ptr_null(gp_db_find_model(db, "Llama 3 3 3 70B"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "RTX 4090 48GB"));
    {
        /* ... and says whose size it is not (24 x 2^30 = 25.77e9 bytes). */
        const gp_gpu *g;
        ck_assert_int_eq(gp_db_get_gpu(db, "RTX 4090 48GB", "--gpu", &g, &e), GP_ENOTFOUND);
        ck_assert_msg(strstr(e.msg, "rtx-4090 has 26 GB (24 GiB) of memory") != NULL, "%s",
                      e.msg);
    }
    /* Not a guess: a word too many or too few. */
    ck_assert_ptr_null(gp_db_find_gpu(db, "H100 SXM5 94GB"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "RTX 4090 Ti"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "NVIDIA"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "---"));
    ck_assert_ptr_null(gp_db_find_model(db, "Llama 7B 2 13B"));
    /* Two entries with the same words: none. */
    ck_assert_int_eq(gp_db_open_text(&db2, 0, GP_KIND_MODEL, "twin.yaml", twin, strlen(twin), &e),
                     GP_OK);
    ck_assert_ptr_null(gp_db_find_model(db2, "Llama 2 7B"));
    {
        const gp_model *m = NULL;
        char buf[512];
        /* Ambiguous, not absent: GP_EINVAL (an unknown name is GP_ENOTFOUND). */
        ck_assert_int_eq(gp_db_get_model(db2, "Llama 2 7B", "--model", &m, &e), GP_EINVAL);
        ck_assert_ptr_null(m);
        gp_err_format(&e, buf, sizeof buf);
        ck_assert_ptr_nonnull(strstr(buf, "could be 'llama-2-7b' or 'llama-2-7b-twin'"));
    }
    ck_assert_str_eq(gp_db_find_model(db2, "llama-2-7b")->id, "llama-2-7b"); /* exact still wins */
    gp_db_free(db2);
}
END_TEST

/* A name's remarks are dropped only when they do not say it is another
 * entry: a remark word that is a sibling's (an entry with the other words)
 * and not the found entry's makes the lookup ambiguous, a memory size not
 * the card's or a figure of the kind the entry's own remark gives finds
 * nothing.  Before, each of these found the sibling's neighbour. */
START_TEST(lookups_remarks_never_pick_a_sibling)
{
    const gp_db *db = gp_test_db();
    gp_err e;
    static const struct {
        const char *q, *a, *b; /* b NULL: not found */
    } refused[] = {
        /* "H100" is h100-sxm's alias; "pcie" a word of h100-pcie only. */
        {"H100 (PCIe, 350 W)", "h100-sxm", "h100-pcie"},
        {"H100 (NVL, 400 W)", "h100-sxm", "h100-nvl"},
        /* "A100" is a100-sxm-80gb's alias; a100-pcie-40gb is the first
         * entry (table order) with the words a100 and pcie. */
        {"A100 (PCIe, 250 W)", "a100-sxm-80gb", "a100-pcie-40gb"},
        {"A100 40GB (PCIe, 250 W)", "a100-sxm-40gb", "a100-pcie-40gb"},
        {"H200 (NVL, 600 W)", "h200", "h200-nvl"},
        /* "M3 Max" is the 40-core part's alias; 30 is the binned part's. */
        {"M3 Max (30-core GPU, 36GB)", "apple-m3-max", "apple-m3-max-30c"},
        {"M1 (7-core GPU, 8GB)", "apple-m1", "apple-m1-7c"},
        /* "12 GB" is the word 12gb, rtx-3080-12gb's. */
        {"RTX 3080 (12 GB)", "rtx-3080", "rtx-3080-12gb"},
        /* 64 GB is the A16 board's, not one GPU's 16 GB. */
        {"A16 (full board, 64GB)", NULL, NULL},
        {"RTX 4090 (0GB)", NULL, NULL},
        /* 64-core against the entry's own (76-core GPU); 128K against
         * phi-3-mini's (4K); v0.2 against mistral-7b's (v0.1). */
        {"M2 Ultra (64-core GPU)", NULL, NULL},
        {"model:Phi-3-mini (128K)", NULL, NULL},
        {"model:Mistral 7B (v0.2)", NULL, NULL},
    };
    static const struct {
        const char *q, *id;
    } ok[] = {
        /* Remarks that agree, or say nothing of another entry. */
        {"RTX 4090 (24 GB)", "rtx-4090"},
        {"H100 (SXM5, 80GB HBM3)", "h100-sxm"},
        {"RTX 3080 (10 GB)", "rtx-3080"},
        /* The size word with the remark's words: 192 GB is the 60-core
         * part's own (it was the 76-core alias's once the remark went). */
        {"Apple M2 Ultra (60-core GPU) 192GB", "apple-m2-ultra-60c"},
        {"B200 (HGX)", "b200"},
        {"model:Phi-3-mini (4K context)", "phi-3-mini"},
        /* An org prefix before a remark: the space left is no part of the
         * name. */
        {"model:Qwen/Qwen2.5-7B-Instruct (bf16)", "qwen2.5-7b"},
        {"model:meta-llama/Llama-3.1-8B-Instruct (it)", "llama-3.1-8b"},
    };
    size_t i;
    for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *q = refused[i].q;
        int rc;
        if (strncmp(q, "model:", 6) == 0) {
            const gp_model *m;
            ck_assert_ptr_null(gp_db_find_model(db, q + 6));
            rc = gp_db_get_model(db, q + 6, "--model", &m, &e);
        } else {
            const gp_gpu *g;
            ck_assert_msg(gp_db_find_gpu(db, q) == NULL, "'%s' found %s", q,
                          gp_db_find_gpu(db, q)->id);
            rc = gp_db_get_gpu(db, q, "--gpu", &g, &e);
        }
        if (refused[i].b == NULL) {
            ck_assert_msg(rc == GP_ENOTFOUND, "'%s': %d %s", q, rc, e.msg);
        } else {
            char want[128];
            snprintf(want, sizeof want, "could be '%s' or '%s'", refused[i].a, refused[i].b);
            ck_assert_msg(rc == GP_EINVAL && strstr(e.msg, want) != NULL, "'%s': %s", q, e.msg);
        }
    }
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const char *q = ok[i].q, *id;
        if (strncmp(q, "model:", 6) == 0) {
            const gp_model *m = gp_db_find_model(db, q + 6);
            id = m ? m->id : "(none)";
        } else {
            const gp_gpu *g = gp_db_find_gpu(db, q);
            id = g ? g->id : "(none)";
        }
        ck_assert_msg(strcmp(id, ok[i].id) == 0, "'%s' found %s", q, id);
    }
    /* "GPUs" is a noise word as "GPU" is: 8 is no figure of nvlink5's
     * remark (B200), and nvlink5-nvl72's "72 GPUs" no sibling word; 8
     * against nvlink5-nvl72's own 72 finds nothing. */
    ck_assert_str_eq(gp_db_find_link(db, "NVLink 5 + NVLink Switch (8 GPUs)")->id, "nvlink5");
    ck_assert_ptr_null(gp_db_find_link(db, "NVLink 5 + NVLink Switch trays (8 GPUs)"));
}
END_TEST

START_TEST(lookups_by_alias_case_insensitive)
{
    gp_db *db;
    gp_err e;
    const gp_gpu *g;
    const gp_model *m;
    char buf[1024];
    ck_assert_int_eq(open_dirs(&db, &e, NULL), GP_OK);
    g = gp_db_find_gpu(db, "h100");
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "H100-SXM"), g);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "h100-sxm5"), g);
    ck_assert_ptr_eq(gp_db_gpu_at(db, 0), g);
    ck_assert_ptr_null(gp_db_gpu_at(db, 1));
    ck_assert_ptr_nonnull(gp_db_find_link(db, "PCIE5"));
    ck_assert_ptr_nonnull(gp_db_find_format(db, "Half"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "pcie5")); /* kinds are separate */
    ck_assert_ptr_null(gp_db_find_gpu(db, NULL));
    ck_assert_int_eq(gp_db_get_model(db, "LLAMA2-7B", "--model", &m, &e), GP_OK);
    ck_assert_str_eq(m->id, "llama-2-7b");
    /* Unknown: GP_ENOTFOUND naming the option, quoting the name, listing ids. */
    ck_assert_int_eq(gp_db_get_gpu(db, "h900", "--gpu", &g, &e), GP_ENOTFOUND);
    ck_assert_ptr_null(g);
    gp_err_format(&e, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "--gpu"));
    ck_assert_ptr_nonnull(strstr(buf, "'h900'"));
    ck_assert_ptr_nonnull(strstr(buf, "h100-sxm"));
    {
        const gp_link *l;
        const gp_format *f;
        ck_assert_int_eq(gp_db_get_link(db, "x", "--link", &l, &e), GP_ENOTFOUND);
        ck_assert_ptr_nonnull(strstr(e.msg, "nvlink4"));
        ck_assert_int_eq(gp_db_get_format(db, "x", "--weights", &f, &e), GP_ENOTFOUND);
        ck_assert_ptr_nonnull(strstr(e.msg, "q4_0"));
    }
    ck_assert_uint_eq(gp_db_count(NULL, GP_KIND_GPU), 0);
    gp_db_free(db);
    gp_db_free(NULL);
}
END_TEST

START_TEST(builtin_loads_and_every_figure_is_sourced)
{
    const gp_db *db = gp_test_db();
    size_t i, n = gp_db_count(db, GP_KIND_GPU);
    for (i = 0; i < n; i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        ck_assert_ptr_nonnull(g->id);
        ck_assert_ptr_nonnull(g->name);
        assert_fig_has_provenance(&g->mem_bw, "builtin:gpus/");
        assert_fig_has_provenance(&g->mem_capacity, "builtin:gpus/");
        assert_fig_has_provenance(&g->tdp, "builtin:gpus/");
        ck_assert_ptr_nonnull(gp_db_find_link(db, g->host_link));
        ck_assert_ptr_eq(gp_db_find_gpu(db, g->id), g);
    }
    for (i = 0; i < gp_db_count(db, GP_KIND_LINK); i++) {
        const gp_link *l = gp_db_link_at(db, i);
        assert_fig_has_provenance(&l->bw, "builtin:links/");
        assert_fig_has_provenance(&l->bw_achievable, "builtin:links/");
    }
    for (i = 0; i < gp_db_count(db, GP_KIND_MODEL); i++)
        assert_fig_has_provenance(&gp_db_model_at(db, i)->params, "builtin:models/");
    for (i = 0; i < gp_db_count(db, GP_KIND_FORMAT); i++)
        assert_fig_has_provenance(&gp_db_format_at(db, i)->bits, "builtin:formats/");
}
END_TEST


START_TEST(open_text_loads_one_file)
{
    static const char text[] = "id: nf4\n"
                               "name: bitsandbytes NF4\n"
                               "kind: quant\n"
                               "sources: {qlora: \"Dettmers et al. 2023, QLoRA\"}\n"
                               "src: qlora\n"
                               "bits: 4.127\n"
                               "compute: bf16\n"
                               "group: 64\n";
    gp_db *db;
    gp_err e;
    const gp_format *f;
    char buf[512];
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open_text(&db, 1, GP_KIND_FORMAT, "nf4.yaml", text, strlen(text), &e) ==
                      GP_OK,
                  "%s", gp_err_format(&e, buf, sizeof buf));
    f = gp_db_find_format(db, "NF4");
    ck_assert_ptr_nonnull(f);
    GP_ASSERT_REL(f->bits.v, 4.127, 1e-12);
    ck_assert_int_eq(f->compute, GP_BF16);
    ck_assert_str_eq(f->bits.origin, "nf4.yaml:6:1");
    ck_assert_str_eq(f->bits.src, "Dettmers et al. 2023, QLoRA");
    gp_db_free(db);
    /* A UTF-8 byte-order mark (Windows editors write one; YAML allows it
     * at the start) is not part of the first key: same entry, same origin
     * line and column as without it. */
    {
        char bom[sizeof text + 3] = "\xef\xbb\xbf";
        memcpy(bom + 3, text, sizeof text);
        gp_err_clear(&e);
        ck_assert_msg(gp_db_open_text(&db, 1, GP_KIND_FORMAT, "nf4.yaml", bom, strlen(bom),
                                      &e) == GP_OK,
                      "%s", gp_err_format(&e, buf, sizeof buf));
        ck_assert_str_eq(gp_db_find_format(db, "nf4")->bits.origin, "nf4.yaml:6:1");
        gp_db_free(db);
    }
    /* Bad kind argument. */
    ck_assert_int_eq(gp_db_open_text(&db, 1, GP_KIND__COUNT, "x", "", 0, &e), GP_EINVAL);
    ck_assert_ptr_null(db);
}
END_TEST

/* ---- overlays ----------------------------------------------------------------- */

START_TEST(overlay_overrides_field_by_field_with_provenance)
{
    char dir[64], want[128], buf[1024];
    gp_db *db;
    gp_err e;
    const gp_gpu *g;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "sources.yaml", "mine: \"my own measurement\"\n"), 0);
    /* Matches the fixture entry by alias (h100); only bandwidth, price and
     * one bf16 figure change. */
    ck_assert_int_eq(gp_test_write(dir, "gpus/h100-local.yaml",
                                   "id: H100\n"
                                   "aliases: [my-h100]\n"
                                   "src: mine\n"
                                   "memory:\n"
                                   "  bandwidth: 3.0TB/s\n"
                                   "compute:\n"
                                   "  bf16: {tensor: 900TFLOPS}\n"
                                   "price: $25000\n"),
                     0);
    ck_assert_msg(open_dirs(&db, &e, dir) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_GPU), 1);
    g = gp_db_find_gpu(db, "my-h100");
    ck_assert_ptr_nonnull(g);
    ck_assert_str_eq(g->id, "h100-sxm");
    ck_assert_ptr_eq(gp_db_find_gpu(db, "h100-sxm5"), g); /* old aliases kept */
    GP_ASSERT_REL(g->mem_bw.v, 3.0e12, 1e-12);
    GP_ASSERT_REL(g->peak[GP_BF16][GP_PIPE_TENSOR].v, 900e12, 1e-12);
    GP_ASSERT_REL(g->price.v, 25000.0, 0);
    ck_assert_str_eq(g->mem_bw.src, "my own measurement");
    snprintf(want, sizeof want, "%s/gpus/h100-local.yaml:5:3", dir);
    ck_assert_str_eq(g->mem_bw.origin, want);
    /* Untouched figures keep their fixture value and origin. */
    GP_ASSERT_REL(g->peak[GP_BF16][GP_PIPE_CUDA].v, 133.8e12, 1e-12);
    GP_ASSERT_REL(g->mem_capacity.v, 85899345920.0, 1e-12);
    ck_assert_ptr_nonnull(strstr(g->mem_capacity.origin, MIN_DIR "/gpus/h100-sxm.yaml:"));
    ck_assert_str_eq(g->name, "NVIDIA H100 SXM5 80GB");
    gp_db_free(db);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(overlay_adds_entries_and_measured_block)
{
    char dir[64], buf[1024];
    gp_db *db;
    gp_err e;
    const gp_gpu *g;
    const gp_link *l;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/rtx-4090.yaml",
                                   "id: rtx-4090\n"
                                   "name: NVIDIA GeForce RTX 4090\n"
                                   "aliases: ['4090']\n"
                                   "sources: {ada: \"NVIDIA Ada GPU Architecture whitepaper\"}\n"
                                   "src: ada\n"
                                   "vendor: NVIDIA\n"
                                   "architecture: Ada Lovelace\n"
                                   "compute_capability: 8.9\n"
                                   "sm_count: 128\n"
                                   "compute:\n"
                                   "  fp32: {cuda: 82.6TFLOPS}\n"
                                   "  fp16: {tensor: 165.2TFLOPS, tensor_fp16acc: 330.3TFLOPS}\n"
                                   "memory: {capacity: 24GiB, bandwidth: 1008GB/s}\n"
                                   "host_link: pcie4-x16\n"
                                   "power: 450W\n"
                                   "efficiency: {memory: 0.9, compute: 0.7}\n"),
                     0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/calib-h100.yaml",
                                   "id: h100-sxm\n"
                                   "measured:\n"
                                   "  source: \"gpuplan-probe on H100, run 7\"\n"
                                   "  date: 2026-12-01\n"
                                   "  memory_bandwidth: 2.9TB/s\n"
                                   "  latency: {l2: 200ns}\n"
                                   "  compute:\n"
                                   "    bf16: {tensor: 700TFLOPS}\n"),
                     0);
    ck_assert_int_eq(gp_test_write(dir, "links/calib-nvlink4.yaml",
                                   "id: nvlink4\n"
                                   "measured: {source: probe, bandwidth: 360GB/s, latency: 3us}\n"),
                     0);
    ck_assert_msg(open_dirs(&db, &e, dir) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_GPU), 2);
    g = gp_db_find_gpu(db, "4090");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->peak[GP_FP32][GP_PIPE_CUDA].v, 82.6e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 330.3e12, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 1008e9, 1e-12);
    ck_assert_ptr_null(g->scale_up_link);

    g = gp_db_find_gpu(db, "h100");
    ck_assert_str_eq(g->calibration, "gpuplan-probe on H100, run 7, 2026-12-01");
    GP_ASSERT_REL(g->meas_mem_bw.v, 2.9e12, 1e-12);
    GP_ASSERT_REL(g->meas_lat_l2.v, 200e-9, 1e-12);
    GP_ASSERT_REL(g->meas_peak[GP_BF16][GP_PIPE_TENSOR].v, 700e12, 1e-12);
    ck_assert_str_eq(g->meas_mem_bw.src, g->calibration);
    /* Measured figures drive the expected ones. */
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(g), 2.9e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 700e12, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 3.35e12, 1e-12); /* datasheet unchanged */
    l = gp_db_find_link(db, "nvlink4");
    GP_ASSERT_REL(gp_link_expected_bw(l), 360e9, 1e-12);
    GP_ASSERT_REL(gp_link_expected_latency(l), 3e-6, 1e-12);
    ck_assert_str_eq(l->calibration, "probe");
    gp_db_free(db);
    gp_test_rmtree(dir);
}
END_TEST

/* In one overlay directory a second file may patch a GPU the first file
 * added (files apply in name order); within one file an id twice is EDUP. */
START_TEST(overlay_file_patches_entry_from_same_dir)
{
    char dir[64], buf[1024];
    gp_db *db;
    gp_err e;
    const gp_link *l;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "links/a-new.yaml",
                                   "id: ib-ndr\nname: InfiniBand NDR\nkind: infiniband\n"
                                   "scope: scale-out\nsrc: h100_ds\nbandwidth: 400Gb/s\n"
                                   "achievable: 47GB/s\nlatency: 2us\n"),
                     0);
    ck_assert_int_eq(gp_test_write(dir, "links/calib-ib-ndr.yaml",
                                   "id: ib-ndr\nmeasured: {source: ib_write_bw, bandwidth: 48.5GB/s}\n"),
                     0);
    ck_assert_msg(open_dirs(&db, &e, dir) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    l = gp_db_find_link(db, "ib-ndr");
    ck_assert_ptr_nonnull(l);
    /* 400 Gb/s = 400e9 / 8 = 50e9 bytes/s per direction. */
    GP_ASSERT_REL(l->bw.v, 50e9, 1e-12);
    GP_ASSERT_REL(gp_link_expected_bw(l), 48.5e9, 1e-12);
    gp_db_free(db);
    gp_test_rmtree(dir);
}
END_TEST

/* One overlay file that patches the same entry twice (by id, or by an
 * alias and the id) is a copy-paste slip, as a new id twice in one file is
 * (hwdb.md): GP_EDUP at the second, naming the first -- not the later patch
 * silently winning. */
START_TEST(overlay_file_patches_entry_twice)
{
    char dir[64];
    gp_db *db = (gp_db *)1;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "links/x.yaml",
                                   "- id: pcie5-x16\n  achievable: {value: 50GB/s, src: h100_ds}\n"
                                   "- id: pcie5\n  achievable: {value: 52GB/s, src: h100_ds}\n"),
                     0);
    gp_err_clear(&e);
    ck_assert_int_eq(open_dirs(&db, &e, dir), GP_EDUP);
    ck_assert_ptr_null(db);
    ck_assert_uint_eq(e.line, 3);
    ck_assert_ptr_nonnull(strstr(e.msg, "x.yaml:1:3"));
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(later_overlay_wins)
{
    char d1[64], d2[64], buf[1024];
    const char *dirs[3];
    gp_db *db;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(d1, sizeof d1), 0);
    ck_assert_int_eq(gp_test_tmpdir(d2, sizeof d2), 0);
    ck_assert_int_eq(gp_test_write(d1, "links/x.yaml", "id: pcie4-x16\nachievable: {value: 24GB/s, src: h100_ds}\n"), 0);
    ck_assert_int_eq(gp_test_write(d2, "links/x.yaml", "id: pcie4-x16\nachievable: {value: 26GB/s, src: h100_ds}\n"), 0);
    dirs[0] = MIN_DIR;
    dirs[1] = d1;
    dirs[2] = d2;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 1, dirs, 3, &e) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    GP_ASSERT_REL(gp_db_find_link(db, "pcie4-x16")->bw_achievable.v, 26e9, 1e-12);
    ck_assert_ptr_nonnull(strstr(gp_db_find_link(db, "pcie4-x16")->bw_achievable.origin, d2));
    gp_db_free(db);
    gp_test_rmtree(d1);
    gp_test_rmtree(d2);
}
END_TEST

/* `gpuplan --json --db DIR roofline` on the A100, bf16, 1e12 FLOP over
 * 1e9 B with --data DATA (NULL: the default, device): the JSON, and the
 * roof LEVEL's ceiling, expected rate and expected source. */
static json_t *a100_roof(const char *dir, const char *data, const char *level, double *bw,
                         double *exp, const char **src)
{
    const char *a[] = {"--json", "--db", dir, "roofline", "--gpu", "a100-sxm-80gb",
                       "--precision", "bf16", "--flop", "1e12", "--bytes", "1e9",
                       data != NULL ? "--data" : NULL, data, NULL};
    json_t *j = gp_test_cli_json(a), *x;
    size_t i;
    *bw = *exp = 0.0;
    *src = "";
    json_array_foreach(json_object_get(j, "roofs"), i, x)
    {
        if (strcmp(json_string_value(json_object_get(x, "level")), level) != 0)
            continue;
        *bw = gp_test_jnum(x, "bytes_per_s");
        *exp = gp_test_jnum(x, "expected_bytes_per_s");
        *src = json_string_value(json_object_get(x, "expected_source"));
    }
    return j;
}

/* An A100 SXM whose calibration stands above its datasheet -- memory 2.1
 * of 2.039 TB/s (an overclock), bf16 GEMM 330 of 312 TFLOP/s (a boost
 * clock): within GP_MEAS_BOOST_MAX (1.15), so the overlay loads and keeps
 * the figures, and the expected ones are the datasheet's, named so in
 * roofline, decode and hw show.  Its L2 read at 6 TB/s, above the
 * database's 5.4 TB/s estimate, raises the L2 ceiling (no datasheet
 * there); its 40 GB/s of host copies plan at the 31.5 GB/s PCIe 4.0 wire. */
START_TEST(overclocked_measurement_loads_and_plans_at_the_ceiling)
{
    char d[64], *out = NULL;
    const char *dirs[1], *src;
    gp_db *db = NULL;
    const gp_gpu *g;
    gp_err e;
    double bw, exp;
    json_t *j;
    ck_assert_int_eq(gp_test_tmpdir(d, sizeof d), 0);
    ck_assert_int_eq(gp_test_write(d, "gpus/calib-a100.yaml",
                                   "id: a100-sxm-80gb\nmeasured:\n  source: an overclocked card\n"
                                   "  memory_bandwidth: 2.1TB/s\n"
                                   "  compute: {bf16: {tensor: 330TFLOPS}}\n"
                                   "  l2_bandwidth: 6TB/s\n"
                                   "  h2d_bandwidth: 40GB/s\n"),
                     0);
    dirs[0] = d;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, dirs, 1, &e) == GP_OK, "%s", e.msg);
    g = gp_db_find_gpu(db, "a100-sxm-80gb");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->meas_mem_bw.v, 2.1e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(g), 2.039e12, 1e-12);
    GP_ASSERT_REL(gp_gpu_expected_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 312e12,
                  1e-12);
    gp_db_free(db);
    j = a100_roof(d, NULL, "device", &bw, &exp, &src);
    GP_ASSERT_REL(gp_test_jnum(j, "expected_attainable_flop_per_s"), 312e12, 1e-12);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(
                                     json_object_get(j, "sources"), "expected_peak")),
                                 "measured above it (a boost clock)"));
    GP_ASSERT_REL(exp, 2.039e12, 1e-12);
    ck_assert_ptr_nonnull(strstr(src, "measured above it (a memory overclock)"));
    json_decref(j);
    j = a100_roof(d, "l2", "l2", &bw, &exp, &src);
    GP_ASSERT_REL(bw, 6e12, 1e-12);
    GP_ASSERT_REL(exp, 6e12, 1e-12);
    json_decref(j);
    j = a100_roof(d, "host", "host-link", &bw, &exp, &src);
    GP_ASSERT_REL(exp, 31.5e9, 1e-12);
    ck_assert_ptr_nonnull(strstr(src, "measured above it"));
    json_decref(j);
    {
        const char *a[] = {"--json", "--db", d, "decode", "--gpu", "a100-sxm-80gb", "--model",
                           "llama-2-7b", NULL};
        j = gp_test_cli_json(a);
        ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(
                                         json_object_get(j, "assumptions"), "achievable_bw_src")),
                                     "measured above it (a memory overclock)"));
        json_decref(j);
    }
    {
        const char *a[] = {"--db", d, "hw", "show", "a100-sxm-80gb", NULL};
        ck_assert_int_eq(gp_test_cli(a, &out, NULL), 0);
        ck_assert_ptr_nonnull(strstr(out, "datasheet: measured above it, capped"));
        ck_assert_ptr_nonnull(strstr(out, "datasheet: measured above it (boost clock), capped"));
        free(out);
    }
    gp_test_rmtree(d);
}
END_TEST

/* The bounds hold at their edges: H100 SXM memory 3.35 TB/s, written at
 * exactly 1.15 x = 3852.5 GB/s (what calib import prints for it) and at
 * exactly 1 % = 33.5 GB/s, both load; a step past either is refused. */
START_TEST(measured_bounds_hold_at_their_edges)
{
    static const char *const ok[] = {"3852.5GB/s", "33.5GB/s"};
    static const char *const bad[] = {"3853GB/s", "33.4GB/s"};
    size_t k;
    for (k = 0; k < 4; k++) {
        char d[64], text[160];
        const char *dirs[1];
        gp_db *db = NULL;
        gp_err e;
        int good = k < 2;
        ck_assert_int_eq(gp_test_tmpdir(d, sizeof d), 0);
        snprintf(text, sizeof text, "id: h100-sxm\nmeasured:\n  source: edge\n"
                                    "  memory_bandwidth: %s\n",
                 good ? ok[k] : bad[k - 2]);
        ck_assert_int_eq(gp_test_write(d, "gpus/calib-h100.yaml", text), 0);
        dirs[0] = d;
        gp_err_clear(&e);
        ck_assert_msg((gp_db_open(&db, 0, dirs, 1, &e) == GP_OK) == good, "%s: %s", text,
                      e.msg);
        gp_db_free(db);
        gp_test_rmtree(d);
    }
}
END_TEST

/* Two figures that contradict each other are named where the later layer
 * set one of them -- the user's overlay, not the built-in entry's first
 * line -- with where the other came from. */
START_TEST(overlay_conflict_is_named_at_the_overlay)
{
    char d1[64], d2[64], want[128], buf[1024];
    const char *dirs[2];
    gp_db *db = (gp_db *)1;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(d1, sizeof d1), 0);
    ck_assert_int_eq(gp_test_tmpdir(d2, sizeof d2), 0);
    /* nvlink4 ships bandwidth 450 GB/s and achievable 370 GB/s: a 300 GB/s
     * peak on line 2 of the overlay puts the shipped achievable above it. */
    ck_assert_int_eq(gp_test_write(d1, "links/bw.yaml",
                                   "id: nvlink4\nbandwidth: {value: 300GB/s, src: nv_hopper_tg}\n"),
                     0);
    dirs[0] = d1;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 1, &e), GP_ESCHEMA);
    ck_assert_ptr_null(db);
    gp_err_format(&e, buf, sizeof buf);
    snprintf(want, sizeof want, "%s/links/bw.yaml:2:1: link 'nvlink4', field 'bandwidth'", d1);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    ck_assert_msg(strstr(buf, "'achievable' is from builtin:links/nvlink4.yaml:") != NULL, "%s",
                  buf);
    /* h100-sxm ships 80 GiB: 100 GiB usable is above 1.1 x 80 = 88 GiB;
     * "memory: {" is 9 characters, so 'usable' starts at column 10. */
    ck_assert_int_eq(gp_test_write(d2, "gpus/mem.yaml",
                                   "id: h100-sxm\nmemory: {usable: {value: 100GiB, src: nvsmi}}\n"),
                     0);
    dirs[0] = d2;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 1, &e), GP_ESCHEMA);
    gp_err_format(&e, buf, sizeof buf);
    snprintf(want, sizeof want, "%s/gpus/mem.yaml:2:10: gpu 'h100-sxm', field 'memory.usable'",
             d2);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    ck_assert_msg(strstr(buf, "'memory.capacity' is from builtin:gpus/h100-sxm.yaml:") != NULL,
                  "%s", buf);
    gp_test_rmtree(d2);
    /* Two overlays: the first raises achievable to 400 GB/s (fine under 450),
     * the second lowers the peak to 380: the second's line is named, the
     * first's achievable is where the other side came from. */
    ck_assert_int_eq(gp_test_tmpdir(d2, sizeof d2), 0);
    ck_assert_int_eq(gp_test_write(d1, "links/bw.yaml",
                                   "id: nvlink4\nachievable: {value: 400GB/s, src: nv_hopper_tg}\n"),
                     0);
    ck_assert_int_eq(gp_test_write(d2, "links/bw.yaml",
                                   "id: nvlink4\nbandwidth: {value: 380GB/s, src: nv_hopper_tg}\n"),
                     0);
    dirs[0] = d1;
    dirs[1] = d2;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 2, &e), GP_ESCHEMA);
    gp_err_format(&e, buf, sizeof buf);
    snprintf(want, sizeof want, "%s/links/bw.yaml:2:1: link 'nvlink4', field 'bandwidth'", d2);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    snprintf(want, sizeof want, "'achievable' is from %s/links/bw.yaml:2:1", d1);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    /* The other order: the later overlay's achievable is named. */
    dirs[0] = d2;
    dirs[1] = d1;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 2, &e), GP_ESCHEMA);
    gp_err_format(&e, buf, sizeof buf);
    snprintf(want, sizeof want, "%s/links/bw.yaml:2:1: link 'nvlink4', field 'achievable'", d1);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    gp_test_rmtree(d1);
    gp_test_rmtree(d2);
}
END_TEST

/* kv_heads must divide heads, checked on the merged entry and named at the
 * later layer's figure.  phi-4 ships 40 heads and 10 KV heads (hidden 5120):
 * 16 KV heads do not divide 40, but do divide 64 heads given with them. */
#define PHI_HEAD "id: phi-4\nsources: {me: me}\nsrc: me\n" /* lines 1-3 */
START_TEST(kv_heads_divide_the_merged_heads)
{
    char d1[64], d2[64], want[256], buf[1024];
    const char *dirs[2];
    gp_db *db = (gp_db *)1;
    gp_err e;
    const gp_model *m;
    ck_assert_int_eq(gp_test_tmpdir(d1, sizeof d1), 0);
    ck_assert_int_eq(gp_test_tmpdir(d2, sizeof d2), 0);
    /* Both in one overlay: 64 / 16 = 4 query heads a group, loads. */
    ck_assert_int_eq(gp_test_write(d1, "models/phi.yaml", PHI_HEAD "heads: 64\nkv_heads: 16\n"), 0);
    dirs[0] = d1;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, dirs, 1, &e) == GP_OK, "%s", e.msg);
    m = gp_db_find_model(db, "phi-4");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->heads.v, 64.0, 0);
    GP_ASSERT_REL(m->kv_heads.v, 16.0, 0);
    gp_db_free(db);
    /* kv_heads alone: 40 / 16 is no whole group, named at the overlay. */
    ck_assert_int_eq(gp_test_write(d1, "models/phi.yaml", PHI_HEAD "kv_heads: 16\n"), 0);
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 1, &e), GP_ESCHEMA);
    ck_assert_ptr_null(db);
    gp_err_format(&e, buf, sizeof buf);
    snprintf(want, sizeof want,
             "%s/models/phi.yaml:4:1: model 'phi-4', field 'kv_heads': 16 KV heads do not divide "
             "the 40 attention heads",
             d1);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    ck_assert_msg(strstr(buf, "'heads' is from builtin:models/phi-4.yaml:") != NULL, "%s", buf);
    /* Two overlays: 20 KV heads divide the shipped 40; the second overlay's
     * 64 heads are not divided by them: its heads line is named, the first
     * overlay's kv_heads the other side. */
    ck_assert_int_eq(gp_test_write(d1, "models/phi.yaml", PHI_HEAD "kv_heads: 20\n"), 0);
    ck_assert_int_eq(gp_test_write(d2, "models/phi.yaml", PHI_HEAD "heads: 64\n"), 0);
    dirs[1] = d2;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 2, &e), GP_ESCHEMA);
    ck_assert_ptr_null(db);
    gp_err_format(&e, buf, sizeof buf);
    snprintf(want, sizeof want,
             "%s/models/phi.yaml:4:1: model 'phi-4', field 'heads': 20 KV heads do not divide "
             "the 64 attention heads",
             d2);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    snprintf(want, sizeof want, "'kv_heads' is from %s/models/phi.yaml:4:1", d1);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    gp_test_rmtree(d1);
    gp_test_rmtree(d2);
}
END_TEST
#undef PHI_HEAD

/* ---- bad input ---------------------------------------------------------------------- */

typedef struct bad {
    const char *what;
    const char *rel;   /* file in the overlay dir */
    const char *text;
    int status;
    const char *pos;   /* ":line:col: " expected after the file name (or ":line:") */
    const char *field; /* text the message must contain */
} bad;

/* A complete GPU entry to break one line at a time (lines numbered). */
#define GPU_HEAD                                                                \
    "id: test-gpu\n"          /* 1 */                                          \
    "name: Test GPU\n"        /* 2 */                                          \
    "src: h100_ds\n"          /* 3 */                                          \
    "vendor: NVIDIA\n"        /* 4 */                                          \
    "architecture: Hopper\n"  /* 5 */                                          \
    "compute_capability: '9.0'\n" /* 6 */                                      \
    "host_link: pcie5-x16\n"  /* 7 */                                          \
    "power: 700W\n"           /* 8 */                                          \
    "efficiency: {memory: 0.9, compute: 0.8}\n" /* 9 */
#define GPU_SM "sm_count: 132\n"                                       /* 10 */
#define GPU_COMPUTE "compute: {bf16: {tensor: 989.4TFLOPS}}\n"        /* 11 */
#define GPU_MEM "memory: {capacity: 80GiB, bandwidth: 3.35TB/s}\n"    /* 12 */
#define GPU_OK GPU_HEAD GPU_SM GPU_COMPUTE GPU_MEM

#define LINK_HEAD                                                               \
    "id: test-link\n"          /* 1 */                                         \
    "name: Test link\n"        /* 2 */                                         \
    "src: h100_ds\n"           /* 3 */                                         \
    "scope: scale-out\n"       /* 4 */                                         \
    "latency: 2us\n"           /* 5 */

#define MODEL_HEAD                                                              \
    "id: test-model\n"  /* 1 */                                                \
    "name: Test\n"      /* 2 */                                                \
    "src: h100_ds\n"    /* 3 */                                                \
    "params: 7B\n"      /* 4 */                                                \
    "hidden: 4096\n"    /* 5 */                                                \
    "vocab: 32000\n"    /* 6 */                                                \
    "context: 4096\n"   /* 7 */                                                \
    "ffn_hidden: 11008\n" /* 8 */

static const bad bads[] = {
    /* Syntax: an unclosed flow sequence; libyaml stops at the end of input. */
    {"malformed YAML", "gpus/bad.yaml", "id: x\nname: [unclosed\n", GP_EPARSE, ":3:", "name"},
    {"bad indentation", "gpus/bad.yaml", "id: x\n  name: y\n", GP_EPARSE, ":2:7: ", "name"},
    {"wrong type (list for a count)", "gpus/bad.yaml",
     GPU_HEAD "sm_count: [1, 2]\n" GPU_COMPUTE GPU_MEM, GP_ESCHEMA, ":10:11: ", "sm_count"},
    {"wrong type (scalar for a group)", "gpus/bad.yaml",
     GPU_HEAD GPU_SM GPU_COMPUTE "memory: 80GiB\n", GP_ESCHEMA, ":12:9: ", "memory"},
    {"missing required field", "gpus/bad.yaml", GPU_HEAD GPU_SM GPU_COMPUTE
     "memory: {capacity: 80GiB}\n", GP_ESCHEMA, ":1:1: ", "memory.bandwidth"},
    {"missing name", "models/bad.yaml", "id: m\nsrc: h100_ds\n", GP_ESCHEMA, ":1:1: ", "name"},
    {"missing id", "models/bad.yaml", "name: m\n", GP_ESCHEMA, ":1:1: ", "id"},
    {"empty name", "models/bad.yaml", "id: m\nname: \"\"\n", GP_ESCHEMA, ":2:7: ", "name"},
    {"missing enum field", "links/bad.yaml", LINK_HEAD "bandwidth: 50GB/s\nachievable: 40GB/s\n",
     GP_ESCHEMA, ":1:1: ", "'kind'"},
    {"no compute figure", "gpus/bad.yaml", GPU_HEAD GPU_SM GPU_MEM, GP_ESCHEMA, ":1:1: ",
     "compute"},
    {"duplicate id in one layer", "formats/bad.yaml",
     "- {id: f8, name: a, kind: float, bits: 8, compute: fp8, src: h100_ds}\n"
     "- {id: f8, name: b, kind: float, bits: 8, compute: fp8, src: h100_ds}\n",
     GP_EDUP, ":2:8: ", "duplicate format id 'f8'"},
    {"alias collides with another entry", "gpus/bad.yaml",
     GPU_OK "aliases: [H100]\n", GP_EDUP, ":13:11: ", "aliases"},
    {"unknown key (typo)", "gpus/bad.yaml", GPU_OK "memroy: {}\n", GP_ESCHEMA, ":13:1: ",
     "memroy"},
    {"unknown nested key", "gpus/bad.yaml",
     GPU_HEAD GPU_SM GPU_COMPUTE "memory: {capacity: 80GiB, bandwith: 3TB/s}\n", GP_ESCHEMA,
     ":12:27: ", "memory.bandwith"},
    {"unknown precision key", "gpus/bad.yaml",
     GPU_HEAD GPU_SM "compute: {fp12: {cuda: 1TFLOPS}}\n" GPU_MEM, GP_ESCHEMA, ":11:11: ",
     "compute.fp12"},
    {"unknown src key", "gpus/bad.yaml", GPU_OK "clock_boost: {value: 1980MHz, src: nope}\n",
     GP_ESCHEMA, ":13:36: ", "clock_boost"},
    {"figure without a source", "models/bad.yaml",
     "id: m\nname: M\nparams: 7B\n", GP_ESCHEMA, ":3:9: ", "params"},
    {"unknown key in a figure", "gpus/bad.yaml", GPU_OK "tdp_extra: 1\n", GP_ESCHEMA,
     ":13:1: ", "tdp_extra"},
    {"bad unit", "gpus/bad.yaml", GPU_HEAD GPU_SM GPU_COMPUTE
     "memory: {capacity: 80GiB, bandwidth: 3.35TB/h}\n", GP_ESCHEMA, ":12:38: ",
     "memory.bandwidth"},
    {"negative value", "gpus/bad.yaml", GPU_HEAD "sm_count: -132\n" GPU_COMPUTE GPU_MEM,
     GP_ESCHEMA, ":10:11: ", "sm_count"},
    {"NaN", "gpus/bad.yaml", GPU_HEAD GPU_SM GPU_COMPUTE
     "memory: {capacity: 80GiB, bandwidth: nan}\n", GP_ESCHEMA, ":12:38: ", "memory.bandwidth"},
    {"huge bandwidth", "links/bad.yaml",
     LINK_HEAD "kind: infiniband\nbandwidth: 1e20B/s\nachievable: 40GB/s\n", GP_ESCHEMA,
     ":7:12: ", "bandwidth"},
    {"huge FLOP/s", "gpus/bad.yaml", GPU_HEAD GPU_SM "compute: {fp8: {tensor: 5e18}}\n" GPU_MEM,
     GP_ESCHEMA, ":11:25: ", "compute.fp8.tensor"},
    {"zero value", "gpus/bad.yaml", GPU_OK "clock_base: 0MHz\n", GP_ESCHEMA, ":13:13: ",
     "clock_base"},
    {"duplicate group key", "gpus/bad.yaml", GPU_OK "efficiency: {mfu: 1.5}\n", GP_EPARSE,
     ":13:1: ", "duplicate key 'efficiency'"},
    {"fraction above 1", "gpus/bad.yaml",
     "id: test-gpu\nname: T\nsrc: h100_ds\nvendor: NVIDIA\narchitecture: Hopper\n"
     "compute_capability: '9.0'\nhost_link: pcie5-x16\npower: 700W\n"
     "efficiency: {memory: 1.5, compute: 0.8}\n" GPU_SM GPU_COMPUTE GPU_MEM,
     GP_ESCHEMA, ":9:22: ", "efficiency.memory"},
    {"sparsity out of range", "gpus/bad.yaml",
     GPU_HEAD GPU_SM GPU_COMPUTE GPU_MEM "rent: 2.5\n" "sparsity: 40\n", GP_ESCHEMA, ":14:11: ",
     "sparsity"},
    {"non-integer layer count", "models/bad.yaml", MODEL_HEAD "heads: 32\nlayers: 32.5\n",
     GP_ESCHEMA, ":10:9: ", "layers"},
    {"more KV heads than heads", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nkv_heads: 64\n", GP_ESCHEMA, ":11:1: ", "kv_heads"},
    {"KV heads that do not divide the heads", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nkv_heads: 5\n", GP_ESCHEMA, ":11:1: ",
     "field 'kv_heads': 5 KV heads do not divide the 32 attention heads"},
    {"pre-training sequence beyond the context", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\ntrain_seq: 8192\n", GP_ESCHEMA, ":11:1: ", "train_seq"},
    {"more windowed layers than layers", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nwindow: {tokens: 1024, layers: 33}\n", GP_ESCHEMA,
     ":11:24: ", "window.layers"},
    {"windowed layers without a window", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nwindow: {layers: 16}\n", GP_ESCHEMA, ":11:10: ",
     "window.layers"},
    {"a window of the whole context", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nwindow: {tokens: 4096}\n", GP_ESCHEMA, ":11:10: ",
     "window.tokens"},
    {"a fractional window", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nwindow: {tokens: 1024.5}\n", GP_ESCHEMA, ":11:18: ",
     "window.tokens"},
    /* Linear-attention layers (inference.md 1.2). */
    {"linear layers without a state", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nlinear: {layers: 24}\n", GP_ESCHEMA, ":11:10: ",
     "linear.layers"},
    {"a state without linear layers", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nlinear: {state: 1000}\n", GP_ESCHEMA, ":11:10: ",
     "linear.state"},
    {"no layer left attending", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nlinear: {layers: 32, state: 1000}\n", GP_ESCHEMA,
     ":11:10: ", "leave none of the 32 layers attending"},
    {"a negative state", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nlinear: {layers: 8, state: -5}\n", GP_ESCHEMA,
     ":11:28: ", "linear.state"},
    {"an absurd state", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nlinear: {layers: 8, state: 1e12}\n", GP_ESCHEMA,
     ":11:28: ", "linear.state"},
    {"a fractional linear-layer count", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nlinear: {layers: 8.5, state: 1000}\n", GP_ESCHEMA,
     ":11:18: ", "linear.layers"},
    {"a window on every layer with linear layers", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nwindow: {tokens: 1024}\n"
                "linear: {layers: 8, state: 1000}\n",
     GP_ESCHEMA, ":11:10: ", "window.tokens"},
    {"more windowed layers than attending ones", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nwindow: {tokens: 1024, layers: 30}\n"
                "linear: {layers: 8, state: 1000}\n",
     GP_ESCHEMA, ":11:24: ", "30 windowed layers exceed the 24 attending"},
    {"bad enum", "links/bad.yaml",
     LINK_HEAD "kind: warp-drive\nbandwidth: 50GB/s\nachievable: 40GB/s\n", GP_ESCHEMA,
     ":6:7: ", "kind"},
    {"bad bool", "links/bad.yaml",
     LINK_HEAD "kind: roce\nbandwidth: 50GB/s\nachievable: 40GB/s\np2p: maybe\n", GP_ESCHEMA,
     ":9:6: ", "p2p"},
    {"achievable above peak", "links/bad.yaml",
     LINK_HEAD "kind: roce\nbandwidth: 50GB/s\nachievable: 60GB/s\n", GP_ESCHEMA, ":8:1: ",
     "achievable"},
    {"measured bandwidth above peak", "links/bad.yaml",
     LINK_HEAD "kind: roce\nbandwidth: 50GB/s\nachievable: 40GB/s\n"
     "measured: {source: x, bandwidth: 60GB/s}\n", GP_ESCHEMA, ":9:23: ", "measured.bandwidth"},
    {"unknown decode engine", "formats/bad.yaml",
     "id: f\nname: F\nsrc: h100_ds\nkind: quant\nbits: 4.5\ncompute: fp16\nengine: warp-drive\n",
     GP_ESCHEMA, ":7:9: ", "unknown engine 'warp-drive'"},
    {"unknown output-matrix format", "formats/bad.yaml",
     "id: f\nname: F\nsrc: h100_ds\nkind: quant\nbits: 4.5\ncompute: fp16\noutput: q99\n",
     GP_ESCHEMA, ":7:9: ", "unknown format 'q99'"},
    {"bad precision", "formats/bad.yaml",
     "id: f\nname: F\nsrc: h100_ds\nkind: float\nbits: 8\ncompute: fp13\n", GP_ESCHEMA,
     ":6:10: ", "compute"},
    {"bad id characters", "models/bad.yaml", "id: Llama 7B\nname: x\n", GP_ESCHEMA, ":1:5: ",
     "id"},
    {"unknown host link", "gpus/bad.yaml",
     "id: test-gpu\nname: T\nsrc: h100_ds\nvendor: NVIDIA\narchitecture: Hopper\n"
     "compute_capability: '9.0'\nhost_link: pcie9-x16\npower: 700W\n"
     "efficiency: {memory: 0.9, compute: 0.8}\n" GPU_SM GPU_COMPUTE GPU_MEM,
     GP_ESCHEMA, ":7:12: ", "host_link"},
    {"measured block without source", "gpus/bad.yaml",
     "id: h100\nmeasured: {memory_bandwidth: 3TB/s}\n", GP_ESCHEMA, ":2:11: ",
     "measured.source"},
    {"anchor", "gpus/bad.yaml", GPU_OK "cache: &c {l2_size: 50MiB}\n", GP_EPARSE, ":13:8: ",
     "cache"},
    {"alias (bomb)", "gpus/bad.yaml", "id: x\nname: *bomb\n", GP_EPARSE, ":2:7: ", "name"},
    {"tag", "gpus/bad.yaml", "id: x\nname: !!str y\n", GP_EPARSE, ":2:7: ", "name"},
    {"duplicate key", "gpus/bad.yaml", "id: x\nname: a\nname: b\n", GP_EPARSE, ":3:1: ",
     "name"},
    {"non-UTF-8 bytes", "gpus/bad.yaml", "id: x\nname: \xff\xfe\n", GP_EPARSE, ":2:7: ", "name"},
    {"empty file", "gpus/bad.yaml", "", GP_EPARSE, ":1:1: ", "empty file"},
    {"comments only", "gpus/bad.yaml", "# nothing here\n", GP_EPARSE, ":", "empty file"},
    {"empty list", "gpus/bad.yaml", "[]\n", GP_EPARSE, ":1:1: ", "empty file"},
    {"entry is a scalar", "gpus/bad.yaml", "hello\n", GP_ESCHEMA, ":1:1: ", "id"},
    {"two documents", "gpus/bad.yaml", "id: x\n---\nid: y\n", GP_EPARSE, ":2:1: ", "document"},
    {"bad citation in sources.yaml", "sources.yaml", "k: [a, b]\n", GP_ESCHEMA, ":1:4: ", "k"},
    {"empty citation", "sources.yaml", "k: \"\"\n", GP_ESCHEMA, ":1:4: ", "k"},
    {"citation title not a string", "sources.yaml", "k: {title: [a]}\n", GP_ESCHEMA, ":1:12: ",
     "'title' must be a string"},
    {"citation without title", "sources.yaml", "k: {url: x}\n", GP_ESCHEMA, ":1:4: ", "'title'"},
    {"sources.yaml not a mapping", "sources.yaml", "- a\n", GP_ESCHEMA, ":1:1: ", "sources"},
    {"empty src", "models/bad.yaml", "id: m\nname: M\nsrc: \"\"\n", GP_ESCHEMA, ":3:6: ", "src"},
    {"src not a key", "models/bad.yaml", "id: m\nname: M\nsrc: {a: b}\n", GP_ESCHEMA, ":3:6: ",
     "src"},
    {"unknown src in a list", "models/bad.yaml", "id: m\nname: M\nsrc: [h100_ds, nope]\n",
     GP_ESCHEMA, ":3:16: ", "'nope'"},
    {"null figure", "models/bad.yaml", MODEL_HEAD "heads: 32\nlayers: ~\n", GP_ESCHEMA, ":10:9: ",
     "layers"},
    {"implausibly small", "gpus/bad.yaml", GPU_OK "clock_boost: 100Hz\n", GP_ESCHEMA, ":13:14: ",
     "clock_boost"},
    {"figure without value", "gpus/bad.yaml", GPU_OK "clock_boost: {src: h100_ds}\n", GP_ESCHEMA,
     ":13:14: ", "clock_boost"},
    {"measured block with src", "gpus/bad.yaml", "id: h100\nmeasured: {source: x, src: h100_ds}\n",
     GP_ESCHEMA, ":2:23: ", "measured.src"},
    {"measured date not a scalar", "gpus/bad.yaml", "id: h100\nmeasured: {source: x, date: [1]}\n",
     GP_ESCHEMA, ":2:29: ", "measured.date"},
    {"entry sources not a mapping", "models/bad.yaml", "id: m\nname: M\nsources: [a]\n",
     GP_ESCHEMA, ":3:10: ", "sources"},
    {"aliases not a list", "models/bad.yaml", "id: m\nname: M\naliases: m2\n", GP_ESCHEMA,
     ":3:10: ", "aliases"},
    {"bad alias characters", "models/bad.yaml", "id: m\nname: M\naliases: ['a b']\n", GP_ESCHEMA,
     ":3:11: ", "aliases"},
    {"note not a string", "models/bad.yaml", "id: m\nname: M\nnote: [x]\n", GP_ESCHEMA, ":3:7: ",
     "note"},
    {"NVIDIA GPU without compute capability", "gpus/bad.yaml",
     "id: test-gpu\nname: T\nsrc: h100_ds\nvendor: NVIDIA\narchitecture: Hopper\n"
     "host_link: pcie5-x16\npower: 700W\nefficiency: {memory: 0.9, compute: 0.8}\n" GPU_SM
     GPU_COMPUTE GPU_MEM,
     GP_ESCHEMA, ":1:1: ", "compute_capability"},
    {"usable memory above capacity", "gpus/bad.yaml",
     GPU_HEAD GPU_SM GPU_COMPUTE "memory: {capacity: 80GiB, usable: 100GiB, bandwidth: 3TB/s}\n",
     GP_ESCHEMA, ":12:27: ", "memory.usable"},
    {"active parameters above total", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nparams_active: 8B\n", GP_ESCHEMA, ":11:1: ",
     "params_active"},
    {"more active experts than experts", "models/bad.yaml",
     MODEL_HEAD "heads: 32\nlayers: 32\nmoe: {experts: 8, active: 9}\n", GP_ESCHEMA, ":11:19: ",
     "moe.active"},
    {"unknown key in a citation", "sources.yaml", "k: {title: T, ur1: x}\n", GP_ESCHEMA,
     ":1:15: ", "ur1"},
};

START_TEST(bad_input_is_refused_with_place_and_field)
{
    const bad *b = &bads[_i];
    char dir[64], want[256], buf[1200];
    gp_db *db = (gp_db *)1;
    gp_err e;
    int rc;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, b->rel, b->text), 0);
    rc = open_dirs(&db, &e, dir);
    gp_err_format(&e, buf, sizeof buf);
    ck_assert_msg(rc == b->status, "%s: status %d (%s), want %d", b->what, rc, buf, b->status);
    ck_assert_ptr_null(db);
    snprintf(want, sizeof want, "%s/%s%s", dir, b->rel, b->pos);
    ck_assert_msg(strstr(buf, want) != NULL, "%s: message '%s' lacks '%s'", b->what, buf, want);
    ck_assert_msg(strstr(buf, b->field) != NULL, "%s: message '%s' lacks field '%s'", b->what,
                  buf, b->field);
    gp_test_rmtree(dir);
}
END_TEST

/* Schema conveniences: src lists, citation mappings, group src, USD
 * suffixes, figure notes. */
START_TEST(sources_lists_and_citation_forms)
{
    char dir[64], buf[1024];
    gp_db *db;
    gp_err e;
    const gp_gpu *g;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "sources.yaml",
                                   "wp: {title: Whitepaper, edition: v2, section: Table 3, url: "
                                   "https://x.example}\n"
                                   "rent: Cloud price list\n"),
                     0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/x.yaml",
                                   "id: h100\n"
                                   "aliases: [h100, my-gpu, MY-GPU]\n"
                                   "rent: {value: 2.5 USD/h, src: rent, note: on-demand}\n"
                                   "price: {value: 25000 USD, src: [wp, rent]}\n"
                                   "clock_base: {value: 1.59GHz, src: wp}\n"),
                     0);
    ck_assert_msg(open_dirs(&db, &e, dir) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    g = gp_db_find_gpu(db, "my-gpu");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->rent.v, 2.5, 0);
    GP_ASSERT_REL(g->price.v, 25000.0, 0);
    GP_ASSERT_REL(g->clock_base.v, 1.59e9, 1e-12);
    ck_assert_str_eq(g->clock_base.src, "Whitepaper, v2, Table 3, https://x.example");
    ck_assert_str_eq(g->price.src, "Whitepaper, v2, Table 3, https://x.example; Cloud price list");
    ck_assert_uint_eq(g->n_aliases, 3); /* h100, h100-sxm5 + my-gpu; repeats dropped */
    gp_db_free(db);
    gp_test_rmtree(dir);
}
END_TEST

/* Accessors in lib/db_access.c: names, spellings, NULL safety. */
START_TEST(accessor_names_and_null_safety)
{
    gp_precision p;
    gp_pipeline pi;
    gp_err e;
    gp_err_clear(&e);
    ck_assert_int_eq(gp_precision_parse("BF16", &p, &e), GP_OK);
    ck_assert_int_eq(p, GP_BF16);
    ck_assert_int_eq(gp_precision_parse("e4m3", &p, &e), GP_OK);
    ck_assert_int_eq(p, GP_FP8);
    ck_assert_int_eq(gp_precision_parse("half", &p, &e), GP_OK);
    ck_assert_int_eq(p, GP_FP16);
    ck_assert_int_eq(gp_precision_parse("single", &p, &e), GP_OK);
    ck_assert_int_eq(p, GP_FP32);
    ck_assert_int_eq(gp_precision_parse("double", &p, &e), GP_OK);
    ck_assert_int_eq(p, GP_FP64);
    ck_assert_int_eq(gp_precision_parse("fp12", &p, &e), GP_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "'fp12'"));
    ck_assert_int_eq(gp_precision_parse(NULL, &p, &e), GP_EINVAL);
    ck_assert_int_eq(gp_pipeline_parse("matrix", &pi, &e), GP_OK);
    ck_assert_int_eq(pi, GP_PIPE_TENSOR);
    ck_assert_int_eq(gp_pipeline_parse("simt", &pi, &e), GP_OK);
    ck_assert_int_eq(pi, GP_PIPE_CUDA);
    ck_assert_int_eq(gp_pipeline_parse("warp", &pi, &e), GP_EINVAL);
    ck_assert_str_eq(gp_precision_name(GP_INT4), "int4");
    ck_assert_str_eq(gp_precision_name(GP_PREC__COUNT), "unknown");
    ck_assert_str_eq(gp_pipeline_name(GP_PIPE__COUNT), "unknown");
    ck_assert_str_eq(gp_link_kind_name(GP_LINK_NVLINK_BRIDGE), "nvlink-bridge");
    ck_assert_str_eq(gp_link_kind_name(GP_LINK__COUNT), "unknown");
    ck_assert_str_eq(gp_kind_name(GP_KIND_FORMAT), "format");
    ck_assert_str_eq(gp_kind_name(GP_KIND__COUNT), "unknown");
    GP_ASSERT_REL(gp_gpu_peak(NULL, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 0, 0);
    GP_ASSERT_REL(gp_gpu_expected_mem_bw(NULL), 0, 0);
    GP_ASSERT_REL(gp_link_expected_bw(NULL), 0, 0);
    GP_ASSERT_REL(gp_link_expected_latency(NULL), 0, 0);
    GP_ASSERT_REL(gp_gpu_usable_mem(NULL), 0, 0);
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(NULL), 0, 0);
}
END_TEST

START_TEST(api_misuse_is_refused)
{
    gp_db *db = NULL;
    gp_err e;
    const char *empty[] = {""};
    gp_err_clear(&e);
    ck_assert_int_eq(gp_db_open(&db, 1, NULL, 1, &e), GP_EINVAL);
    ck_assert_ptr_null(db);
    ck_assert_int_eq(gp_db_open(&db, 1, empty, 1, &e), GP_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "empty"));
    ck_assert_int_eq(gp_db_open_text(&db, 1, GP_KIND_GPU, "x", NULL, 5, &e), GP_EINVAL);
    ck_assert_ptr_null(db);
    /* Empty databases are fine. */
    ck_assert_int_eq(gp_db_open(&db, 1, NULL, 0, &e), GP_OK);
    ck_assert_uint_eq(gp_db_count(db, GP_KIND_GPU), 0);
    ck_assert_ptr_null(gp_db_find_gpu(db, "h100"));
    gp_db_free(db);
}
END_TEST


START_TEST(deep_nesting_and_huge_scalar_are_refused)
{
    char dir[64], buf[1200], *text;
    gp_db *db;
    gp_err e;
    size_t i;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* 40 nested flow lists under `name`: deeper than the cap of 32. */
    text = malloc(200);
    strcpy(text, "id: x\nname: ");
    for (i = 0; i < 40; i++)
        strcat(text, "[");
    strcat(text, "\n");
    ck_assert_int_eq(gp_test_write(dir, "gpus/deep.yaml", text), 0);
    ck_assert_int_eq(open_dirs(&db, &e, dir), GP_EPARSE);
    gp_err_format(&e, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "gpus/deep.yaml:2:"));
    ck_assert_ptr_nonnull(strstr(buf, "nesting"));
    ck_assert_ptr_nonnull(strstr(buf, "name"));
    free(text);
    /* A 100000-byte scalar. */
    text = malloc(100100);
    strcpy(text, "id: x\nname: ");
    for (i = strlen(text); i < 100012; i++)
        text[i] = 'a';
    text[i++] = '\n';
    text[i] = '\0';
    ck_assert_int_eq(gp_test_write(dir, "gpus/deep.yaml", text), 0);
    ck_assert_int_eq(open_dirs(&db, &e, dir), GP_EPARSE);
    gp_err_format(&e, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "gpus/deep.yaml:2:7: "));
    ck_assert_ptr_nonnull(strstr(buf, "name"));
    ck_assert_ptr_nonnull(strstr(buf, "longer than"));
    free(text);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(io_errors_name_the_path)
{
    char dir[64], path[128], buf[1200];
    gp_db *db;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    /* Missing overlay directory. */
    snprintf(path, sizeof path, "%s/missing", dir);
    ck_assert_int_eq(open_dirs(&db, &e, path), GP_EIO);
    ck_assert_ptr_null(db);
    ck_assert_ptr_nonnull(strstr(gp_err_format(&e, buf, sizeof buf), path));
    /* A file given as the overlay directory. */
    ck_assert_int_eq(gp_test_write(dir, "plain", "x\n"), 0);
    snprintf(path, sizeof path, "%s/plain", dir);
    ck_assert_int_eq(open_dirs(&db, &e, path), GP_EIO);
    ck_assert_ptr_nonnull(strstr(gp_err_format(&e, buf, sizeof buf), "not a directory"));
    /* A directory where a YAML file is expected. */
    snprintf(path, sizeof path, "%s/gpus", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/gpus/sub.yaml", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    ck_assert_int_eq(open_dirs(&db, &e, dir), GP_EIO);
    gp_err_format(&e, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, path));
    ck_assert_ptr_nonnull(strstr(buf, "directory"));
    rmdir(path);
    /* `gpus` itself a file. */
    snprintf(path, sizeof path, "%s/gpus", dir);
    rmdir(path);
    ck_assert_int_eq(gp_test_write(dir, "gpus", "x\n"), 0);
    ck_assert_int_eq(open_dirs(&db, &e, dir), GP_EIO);
    ck_assert_ptr_nonnull(strstr(gp_err_format(&e, buf, sizeof buf), path));
    unlink(path);
    /* An unreadable file (skipped when running as root makes it readable). */
    ck_assert_int_eq(gp_test_write(dir, "models/secret.yaml", "id: x\n"), 0);
    snprintf(path, sizeof path, "%s/models/secret.yaml", dir);
    chmod(path, 0);
    if (access(path, R_OK) != 0) {
        ck_assert_int_eq(open_dirs(&db, &e, dir), GP_EIO);
        gp_err_format(&e, buf, sizeof buf);
        ck_assert_ptr_nonnull(strstr(buf, path));
        ck_assert_ptr_nonnull(strstr(buf, "cannot open"));
    }
    chmod(path, 0644);
    gp_test_rmtree(dir);
}
END_TEST

START_TEST(non_yaml_files_are_ignored)
{
    char dir[64], buf[1024];
    gp_db *db;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/README.md", "not yaml: [\n"), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/.#h100.yaml", "not yaml: [\n"), 0);
    ck_assert_msg(open_dirs(&db, &e, dir) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    gp_db_free(db);
    gp_test_rmtree(dir);
}
END_TEST

/* ---- CLI -------------------------------------------------------------------------- */

static json_t *cli_json(const char *const *argv, int want_status)
{
    char *out = NULL, *err = NULL;
    json_error_t je;
    json_t *j;
    int st = gp_test_cli(argv, &out, &err);
    ck_assert_msg(st == want_status, "exit %d, stderr: %s", st, err ? err : "");
    j = json_loads(out, 0, &je);
    ck_assert_msg(j != NULL, "bad JSON (%s): %s", je.text, out);
    free(out);
    free(err);
    return j;
}

START_TEST(cli_hw_show_json)
{
    const char *argv[] = {"--db", MIN_DIR, "hw", "show", "H100", "--json", NULL};
    json_t *j = cli_json(argv, 0), *src;
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "h100-sxm");
    GP_ASSERT_REL(json_real_value(json_object_get(j, "mem_bw_bytes_per_s")), 3.35e12, 1e-9);
    GP_ASSERT_REL(json_number_value(json_object_get(
                      json_object_get(json_object_get(j, "peak_flop_per_s"), "bf16"), "tensor")),
                  989.4e12, 1e-9);
    GP_ASSERT_REL(json_number_value(json_object_get(
                      json_object_get(json_object_get(j, "sparse_peak_flop_per_s"), "bf16"),
                      "tensor")),
                  1978.8e12, 1e-9);
    GP_ASSERT_REL(json_number_value(json_object_get(j, "mem_capacity_bytes")), 85899345920.0,
                  1e-9);
    src = json_object_get(j, "sources");
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(
        strstr(json_string_value(json_object_get(src, "mem_bw_bytes_per_s")), "H100 datasheet"));
    ck_assert_ptr_nonnull(json_object_get(src, "peak_flop_per_s.bf16.tensor"));
    ck_assert_str_eq(json_string_value(json_object_get(j, "host_link")), "pcie5-x16");
    json_decref(j);
}
END_TEST

START_TEST(cli_hw_show_links_models_formats)
{
    const char *a1[] = {"--db", MIN_DIR, "hw", "show", "pcie5", "--json", NULL};
    const char *a2[] = {"--db", MIN_DIR, "--json", "hw", "show", "llama-2-7b", NULL};
    const char *a3[] = {"--db", MIN_DIR, "hw", "show", "format:q4_0", "--json", NULL};
    const char *a4[] = {"--db", MIN_DIR, "hw", "show", "gpu:q4_0", NULL};
    const char *a5[] = {"--db", MIN_DIR, "hw", "show", "cpu:q4_0", NULL};
    char *err = NULL;
    json_t *j = cli_json(a1, 0);
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "pcie5-x16");
    ck_assert_str_eq(json_string_value(json_object_get(j, "kind")), "pcie");
    GP_ASSERT_REL(json_number_value(json_object_get(j, "bw_bytes_per_s")), 63e9, 1e-9);
    GP_ASSERT_REL(json_number_value(json_object_get(j, "latency_s")), 10e-6, 1e-9);
    ck_assert_ptr_nonnull(json_object_get(json_object_get(j, "sources"), "achievable_bytes_per_s"));
    json_decref(j);
    j = cli_json(a2, 0);
    GP_ASSERT_REL(json_number_value(json_object_get(j, "params")), 6.74e9, 1e-9);
    GP_ASSERT_REL(json_number_value(json_object_get(j, "layers")), 32, 0);
    json_decref(j);
    j = cli_json(a3, 0);
    GP_ASSERT_REL(json_number_value(json_object_get(j, "bits")), 4.5, 0);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "format");
    /* 4.5 bits / 8 = 0.5625 bytes per element. */
    GP_ASSERT_REL(json_number_value(json_object_get(j, "bytes_per_element")), 0.5625, 1e-12);
    json_decref(j);
    /* KIND: restricts the search; a bad KIND is a usage error. */
    ck_assert_int_eq(gp_test_cli(a4, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'q4_0'"));
    free(err);
    ck_assert_int_eq(gp_test_cli(a5, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'cpu'"));
    free(err);
}
END_TEST

START_TEST(cli_hw_list)
{
    const char *a1[] = {"--db", MIN_DIR, "hw", "list", "--json", NULL};
    const char *a2[] = {"--db", MIN_DIR, "hw", "list", "links", "--json", NULL};
    const char *a3[] = {"--db", MIN_DIR, "hw", "list", "gpus", NULL};
    const char *a6[] = {"--db", MIN_DIR, "--csv", "hw", "list", "gpus", NULL};
    /* '--' ends the global options: the command follows it. */
    const char *a7[] = {"--db", MIN_DIR, "--", "hw", "list", "gpus", NULL};
    json_t *j = cli_json(a1, 0), *items;
    size_t i, found = 0;
    char *out = NULL, *err = NULL;
    items = json_object_get(j, "items");
    ck_assert(json_is_array(items));
    for (i = 0; i < json_array_size(items); i++) {
        const char *id = json_string_value(json_object_get(json_array_get(items, i), "id"));
        ck_assert_ptr_nonnull(id);
        ck_assert_ptr_nonnull(json_object_get(json_array_get(items, i), "name"));
        if (strcmp(id, "h100-sxm") == 0 || strcmp(id, "nvlink4") == 0 ||
            strcmp(id, "llama-2-7b") == 0 || strcmp(id, "q4_0") == 0)
            found++;
    }
    ck_assert_uint_eq(found, 4);
    json_decref(j);
    j = cli_json(a2, 0);
    items = json_object_get(j, "items");
    for (i = 0; i < json_array_size(items); i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(items, i), "type")),
                         "link");
    json_decref(j);
    ck_assert_int_eq(gp_test_cli(a3, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "h100-sxm"));
    ck_assert_ptr_nonnull(strstr(out, "GPUs"));
    ck_assert_ptr_null(strstr(out, "nvlink4"));
    /* A name longer than the 48-column cell ends in "...": the 49-character
     * "NVIDIA RTX PRO 6000 Blackwell Workstation Edition" keeps 45 + "...",
     * not 48 characters cut mid-word ("... Workstation Editio"). */
    ck_assert_ptr_nonnull(strstr(out, "NVIDIA RTX PRO 6000 Blackwell Workstation Edi...  "));
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(a7, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "h100-sxm"));
    free(out);
    free(err);
    /* CSV: a header and SI values to 15 digits (989.4 TFLOP/s = 989.4e12, a
     * 15-digit integer; 3.35 TB/s = 3.35e12). */
    ck_assert_int_eq(gp_test_cli(a6, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "id,name,bf16_flop_per_s,mem_capacity_bytes,mem_bw_bytes_per_s"));
    ck_assert_ptr_nonnull(strstr(out, "h100-sxm,\"NVIDIA H100 SXM5 80GB\",989400000000000,"));
    ck_assert_ptr_nonnull(strstr(out, ",3350000000000,"));
    /* Volta has no bf16 rate: the table prints '-', JSON has no key, so the
     * field is empty, not 0 FLOP/s (README: an empty field where the table
     * has n/a). */
    ck_assert_ptr_nonnull(strstr(out, "v100-sxm2-32gb,\"NVIDIA Tesla V100 SXM2 32GB\",,"));
    free(out);
    free(err);
    {
        /* Every kind at once is still one CSV table: a header of type, id,
         * name and the kinds' columns (4 GPU + 4 link + 5 model + 3 format
         * = 16, 19 in all), each row 19 fields, the other kinds' empty:
         * the H100 row ends in its 700 W and 4 + 5 + 3 = 12 empty cells; nvlink4's
         * starts after 4 empty GPU cells. */
        const char *all[] = {"--csv", "hw", "list", NULL};
        const char *line, *hdr = "type,id,name,bf16_flop_per_s,mem_capacity_bytes,"
                          "mem_bw_bytes_per_s,tdp_w,link_kind,bw_bytes_per_s,"
                          "achievable_bytes_per_s,latency_s,params,params_active,"
                          "layers,hidden,context,format_kind,bits,compute\n";
        size_t rows = 0;
        ck_assert_int_eq(gp_test_cli(all, &out, &err), 0);
        ck_assert_msg(strncmp(out, hdr, strlen(hdr)) == 0, "%.300s", out);
        ck_assert_ptr_nonnull(strstr(out, "\ngpu,h100-sxm,\"NVIDIA H100 SXM5 80GB\","
                                          "989400000000000,85899345920,3350000000000,700,,,,,,"
                                          ",,,,,,\n"));
        ck_assert_ptr_nonnull(strstr(out, "\nlink,nvlink4,"));
        ck_assert_ptr_nonnull(strstr(out, ",,,,,nvlink,450000000000,370000000000,"));
        ck_assert_ptr_null(strstr(out, "\n\n"));
        for (line = out; (line = strchr(line, '\n')) != NULL; line++)
            rows++;
        /* header + 136 GPUs + 33 links + 81 models + 53 formats (README) */
        ck_assert_uint_eq(rows, 1 + 136 + 33 + 81 + 53);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(cli_hw_show_table_prints_sources_and_origins)
{
    const char *argv[] = {"--db", MIN_DIR, "hw", "show", "h100", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "h100-sxm"));
    ck_assert_ptr_nonnull(strstr(out, "memory bandwidth"));
    ck_assert_ptr_nonnull(strstr(out, MIN_DIR "/gpus/h100-sxm.yaml:25:3"));
    ck_assert_ptr_nonnull(strstr(out, "NVIDIA H100 datasheet"));
    ck_assert_ptr_nonnull(strstr(out, "bf16"));
    free(out);
    free(err);
}
END_TEST

START_TEST(cli_hw_measured_beside_datasheet)
{
    char dir[64];
    const char *argv[] = {"--db", MIN_DIR, "--db", dir, "hw", "show", "h100", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/calib.yaml",
                                   "id: h100\nmeasured:\n  source: probe run 3\n"
                                   "  memory_bandwidth: 2.9TB/s\n"),
                     0);
    ck_assert_int_eq(gp_test_cli(argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "measured vs datasheet"));
    ck_assert_ptr_nonnull(strstr(out, "probe run 3"));
    /* 2.9 / 3.35 = 86.6% -> "87%". */
    ck_assert_ptr_nonnull(strstr(out, "(87%)"));
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* Count the whole ids of kind k in a "known" list: every token before
 * "..." must be an id of that kind; *more gets N of "... and N more". */
static size_t known_ids(const gp_db *db, gp_kind k, const char *list, size_t *more)
{
    char buf[2048], *tok, *save = NULL;
    size_t n = 0;
    const char *cut = strstr(list, "... and ");
    *more = 0;
    ck_assert_uint_lt(strlen(list), sizeof buf);
    strcpy(buf, list);
    if (cut != NULL) {
        *more = (size_t)strtoul(cut + 8, NULL, 10);
        buf[cut - list] = '\0';
    }
    for (tok = strtok_r(buf, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
        const void *hit = k == GP_KIND_GPU    ? (const void *)gp_db_find_gpu(db, tok)
                          : k == GP_KIND_LINK ? (const void *)gp_db_find_link(db, tok)
                                              : (const void *)gp_db_find_model(db, tok);
        ck_assert_msg(hit != NULL, "'%s' in '%s' is not a whole id", tok, list);
        n++;
    }
    return n;
}

/* hw show: KIND: restricts the lookup and the list of known ids to that
 * kind; a cut list ends "... and N more", N = the kind's count minus the
 * ids listed; a name two GPUs share gets --gpu's "could be" message. */
START_TEST(cli_hw_show_unknown_and_ambiguous)
{
    const gp_db *db = gp_test_db();
    const char *link[] = {"hw", "show", "link:nosuch", NULL};
    const char *any[] = {"hw", "show", "nosuch", NULL};
    char dir[64], *out = NULL, *err = NULL, buf[400];
    const char *twin[] = {"--db", dir, "hw", "show", "NVIDIA H100 SXM5 80GB", NULL};
    const char *p;
    size_t listed, more;
    ck_assert_int_eq(gp_test_cli(link, &out, &err), 2);
    ck_assert_msg(strstr(err, "unknown link 'nosuch' (known: ") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "known gpu") == NULL && strstr(err, "a100-sxm") == NULL, "%s", err);
    p = strstr(err, "(known: ") + 8;
    ck_assert_ptr_nonnull(strchr(p, ')'));
    snprintf(buf, sizeof buf, "%.*s", (int)(strchr(p, ')') - p), p);
    listed = known_ids(db, GP_KIND_LINK, buf, &more);
    ck_assert_uint_eq(listed + more, gp_db_count(db, GP_KIND_LINK));
    free(out);
    free(err);
    /* Every kind's ids: the GPUs do not fit in their share, so the list
     * says how many are left out, and those listed are whole ids. */
    ck_assert_int_eq(gp_test_cli(any, &out, &err), 2);
    p = strstr(err, "(known gpu: ");
    ck_assert_msg(p != NULL, "%s", err);
    p += 12;
    ck_assert_ptr_nonnull(strstr(p, "; link: "));
    snprintf(buf, sizeof buf, "%.*s", (int)(strstr(p, "; link: ") - p), p);
    ck_assert_msg(strstr(buf, " more: gpuplan hw list gpus") != NULL, "%s", buf);
    *strstr(buf, " more: gpuplan hw list gpus") = '\0';
    listed = known_ids(db, GP_KIND_GPU, buf, &more);
    ck_assert_uint_gt(more, 0);
    ck_assert_uint_eq(listed + more, gp_db_count(db, GP_KIND_GPU));
    free(out);
    free(err);
    /* An overlay names h200 "NVIDIA H100 SXM5 80GB": its words are
     * h100-sxm's too, so the name is ambiguous, as roofline --gpu says. */
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/h200.yaml", "id: h200\nname: NVIDIA H100 SXM5 80GB\n"),
                     0);
    ck_assert_int_eq(gp_test_cli(twin, &out, &err), 2);
    ck_assert_msg(strstr(err, "gpu 'NVIDIA H100 SXM5 80GB' could be 'h100-sxm' or 'h200'") != NULL,
                  "%s", err);
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* gp_db_known: whole ids, and a tail that counts the rest. */
START_TEST(known_ids_cut_whole)
{
    const gp_db *db = gp_test_db();
    char small[80], big[8192];
    size_t n = gp_db_count(db, GP_KIND_GPU), k;
    k = gp_db_known(db, GP_KIND_GPU, big, sizeof big);
    ck_assert_uint_eq(k, n);
    ck_assert_ptr_null(strstr(big, "more"));
    k = gp_db_known(db, GP_KIND_GPU, small, sizeof small);
    ck_assert_uint_lt(k, n);
    ck_assert_uint_lt(strlen(small), sizeof small);
    {
        size_t more;
        ck_assert_uint_eq(known_ids(db, GP_KIND_GPU, small, &more), k);
        ck_assert_uint_eq(k + more, n);
    }
    ck_assert_uint_eq(gp_db_known(NULL, GP_KIND_GPU, small, sizeof small), 0);
    ck_assert_str_eq(small, "");
    ck_assert_uint_eq(gp_db_known(db, GP_KIND__COUNT, small, sizeof small), 0);
}
END_TEST

START_TEST(cli_hw_errors_exit_2)
{
    const char *unknown[] = {"--db", MIN_DIR, "hw", "show", "h900", NULL};
    const char *nosub[] = {"hw", NULL};
    const char *badsub[] = {"hw", "frob", NULL};
    const char *badkind[] = {"hw", "list", "cpus", NULL};
    const char *badopt[] = {"hw", "list", "--frob", NULL};
    const char *noid[] = {"hw", "show", NULL};
    const char *missing[] = {"--db", "/nonexistent/gpuplan-db", "hw", "list", NULL};
    const char *help[] = {"hw", "--help", NULL};
    char *out = NULL, *err = NULL;
    char dir[64];
    const char *badov[] = {"--db", MIN_DIR, "--db", dir, "hw", "list", NULL};
    const char *envov[] = {"hw", "show", "envgpu", NULL};
    char envs[128];
    const char *env[] = {envs, NULL};

    ck_assert_int_eq(gp_test_cli(unknown, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'h900'"));
    ck_assert_ptr_nonnull(strstr(err, "h100-sxm")); /* lists the known ids */
    free(out);
    free(err);
    ck_assert_int_eq(gp_test_cli(nosub, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--help"));
    free(err);
    ck_assert_int_eq(gp_test_cli(badsub, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'frob'"));
    free(err);
    ck_assert_int_eq(gp_test_cli(badkind, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "'cpus'"));
    free(err);
    ck_assert_int_eq(gp_test_cli(badopt, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--frob"));
    free(err);
    ck_assert_int_eq(gp_test_cli(noid, NULL, &err), 2);
    free(err);
    ck_assert_int_eq(gp_test_cli(missing, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/gpuplan-db"));
    free(err);
    ck_assert_int_eq(gp_test_cli(help, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "hw show [KIND:]ID"));
    free(out);

    /* A bad overlay: exit 2, file:line:col and the field on stderr. */
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "links/x.yaml", "id: nvlink4\nbandwidth: fast\n"), 0);
    ck_assert_int_eq(gp_test_cli(badov, NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "links/x.yaml:2:12: "));
    ck_assert_ptr_nonnull(strstr(err, "bandwidth"));
    free(err);
    gp_test_rmtree(dir);

    /* $GPUPLAN_DB adds overlays (colon-separated). */
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "gpus/e.yaml",
                                   "id: envgpu\nname: Env GPU\nsources: {s: \"env test\"}\n"
                                   "src: s\nvendor: AMD\narchitecture: CDNA 3\nsm_count: 304\n"
                                   "compute: {fp16: {tensor: 1307.4TFLOPS}}\n"
                                   "memory: {capacity: 192GiB, bandwidth: 5.3TB/s}\n"
                                   "host_link: pcie5-x16\npower: 750W\n"
                                   "efficiency: {memory: 0.8, compute: 0.6}\n"),
                     0);
    snprintf(envs, sizeof envs, "GPUPLAN_DB=%s:%s", MIN_DIR, dir);
    ck_assert_int_eq(gp_test_cli_env(envov, env, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "Env GPU"));
    free(out);
    free(err);
    gp_test_rmtree(dir);
}
END_TEST

/* "--db DIR/" (a shell's completion adds the slash): the origins and the
 * messages named "DIR//gpus/x.yaml:2:1". */
START_TEST(overlay_dir_trailing_slash_names_files_once)
{
    char d[4096], slashed[4200], want[4300], buf[1024];
    const char *dirs[1];
    gp_db *db = NULL;
    gp_err e;
    ck_assert_int_eq(gp_test_tmpdir(d, sizeof d), 0);
    ck_assert_int_eq(gp_test_write(d, "links/x.yaml",
                                   "id: pcie4-x16\nachievable: {value: 24GB/s, src: x}\n"
                                   "sources: {x: \"mine\"}\n"),
                     0);
    snprintf(slashed, sizeof slashed, "%s//", d);
    dirs[0] = slashed;
    gp_err_clear(&e);
    ck_assert_msg(gp_db_open(&db, 0, dirs, 1, &e) == GP_OK, "%s", gp_err_format(&e, buf, sizeof buf));
    snprintf(want, sizeof want, "%s/links/x.yaml:2:1", d);
    ck_assert_str_eq(gp_db_find_link(db, "pcie4-x16")->bw_achievable.origin, want);
    gp_db_free(db);
    ck_assert_int_eq(gp_test_write(d, "links/x.yaml", "id: pcie4-x16\nachievable: 24GB/s\n"), 0);
    ck_assert_int_eq(gp_db_open(&db, 0, dirs, 1, &e), GP_ESCHEMA);
    ck_assert_ptr_null(db);
    snprintf(want, sizeof want, "%s/links/x.yaml", d);
    ck_assert_str_eq(e.where, want);
    gp_test_rmtree(d);
}
END_TEST

Suite *gp_test_suite_db(void)
{
    Suite *s = suite_create("db");
    TCase *tc = tcase_create("load");
    TCase *tb = tcase_create("bad");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, overlay_dir_trailing_slash_names_files_once);
    tcase_add_test(tc, fixture_loads_with_si_figures);
    tcase_add_test(tc, overclocked_measurement_loads_and_plans_at_the_ceiling);
    tcase_add_test(tc, measured_bounds_hold_at_their_edges);
    tcase_add_test(tc, lookups_by_alias_case_insensitive);
    tcase_add_test(tc, lookups_by_words);
    tcase_add_test(tc, lookups_remarks_never_pick_a_sibling);
    tcase_add_test(tc, builtin_loads_and_every_figure_is_sourced);
    tcase_add_test(tc, open_text_loads_one_file);
    tcase_add_test(tc, sources_lists_and_citation_forms);
    tcase_add_test(tc, api_misuse_is_refused);
    tcase_add_test(tc, accessor_names_and_null_safety);
    tcase_add_test(tc, overlay_overrides_field_by_field_with_provenance);
    tcase_add_test(tc, overlay_adds_entries_and_measured_block);
    tcase_add_test(tc, overlay_file_patches_entry_twice);
    tcase_add_test(tc, later_overlay_wins);
    tcase_add_test(tc, overlay_conflict_is_named_at_the_overlay);
    tcase_add_test(tc, kv_heads_divide_the_merged_heads);
    tcase_add_test(tc, overlay_file_patches_entry_from_same_dir);
    tcase_add_test(tc, non_yaml_files_are_ignored);
    tcase_add_loop_test(tb, bad_input_is_refused_with_place_and_field, 0,
                        (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(tb, deep_nesting_and_huge_scalar_are_refused);
    tcase_add_test(tb, io_errors_name_the_path);
    tcase_add_test(tcli, cli_hw_show_json);
    tcase_add_test(tcli, cli_hw_show_links_models_formats);
    tcase_add_test(tcli, cli_hw_list);
    tcase_add_test(tcli, cli_hw_show_table_prints_sources_and_origins);
    tcase_add_test(tcli, cli_hw_measured_beside_datasheet);
    tcase_add_test(tcli, cli_hw_errors_exit_2);
    tcase_add_test(tcli, cli_hw_show_unknown_and_ambiguous);
    tcase_add_test(tc, known_ids_cut_whole);
    tcase_set_timeout(tcli, 30);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tb);
    suite_add_tcase(s, tcli);
    return s;
}
