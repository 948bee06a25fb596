/* Tesla V100 (SXM2 / PCIe, 32 / 16 GB), H800 SXM5 and their scale-up links
 * (nvlink2, nvlink4-h800) in the shipped database, and the two published
 * training runs they were added for: GPT-3 on V100 and DeepSeek-V3 on H800.
 *
 * Expected values are written out by hand from the datasheets and papers
 * cited in hwdb/sources.yaml (nv_v100_ds, nv_volta_wp, nv_h800_ds,
 * deepseek_v3_paper, patterson_2021), converted to SI in the comments --
 * never copied from the program's output. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

START_TEST(v100_sxm2_32gb_matches_datasheet)
{
    static const gp_test_card card = {"v100-sxm2-32gb",
                                      80, 1.53e9, 0, 32 * GIB,
                                      32510 * MIB, 300, 6 * MIB, 0,
                                      "nvlink2"};
    const gp_gpu *g = gp_test_card_check(&card);
    /* V100 datasheet r5, SXM2 column: tensor 125 TFLOPS = 125e12 FLOP/s
     * (FP16 multiply, FP32 accumulate); single 15.7e12; double 7.8e12;
     * HBM2 900 GB/s = 900e9 B/s; 32 GB = 32 x 2^30 B; 300 W. Volta
     * whitepaper: 80 SMs, boost 1530 MHz = 1.53e9 Hz, L2 6,144 KB = 6 MiB.
     * CUDA-core FP16 = 2 x 15.7 = 31.4e12 (half2). nvidia-smi total
     * 32510 MiB = 32510 x 2^20 B. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 125e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 15.7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 7.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 2 * 15.7e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 900e9, 1e-9);
    ck_assert_str_eq(g->architecture, "Volta");
    ck_assert_str_eq(g->compute_capability, "7.0");
    /* Volta lacks BF16, TF32, FP8 and INT8/INT4 Tensor Core modes and 2:4
     * sparsity: the database says so by leaving them out (0 = not given). */
    ck_assert(g->peak[GP_BF16][GP_PIPE_TENSOR].v == 0 && g->peak[GP_BF16][GP_PIPE_CUDA].v == 0);
    ck_assert(g->peak[GP_TF32][GP_PIPE_TENSOR].v == 0);
    ck_assert(g->peak[GP_FP8][GP_PIPE_TENSOR].v == 0);
    ck_assert(g->peak[GP_INT8][GP_PIPE_TENSOR].v == 0);
    ck_assert(g->sparsity.v == 0);
    ck_assert_str_eq(g->host_link, "pcie3-x16");
    /* MFU: GPT-3 on V100, 3.14e23 FLOP / (10,000 GPUs x 14.8 d x 86,400 s)
     * = 24.56e12 FLOP/s per GPU; / 125e12 = 0.196 -> 0.20. */
    GP_ASSERT_REL(g->eff_mfu.v, 3.14e23 / (10000 * 14.8 * 86400.0) / 125e12, 0.02);
}
END_TEST

START_TEST(v100_variants)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g;
    /* SXM2 16 GB: same peaks, 16 x 2^30 B, nvidia-smi 16160 MiB */
    g = gp_db_find_gpu(db, "v100-sxm2-16gb");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 125e12, 1e-9);
    GP_ASSERT_REL(g->mem_capacity.v, 16 * GIB, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, 16160 * MIB, 1e-12);
    ck_assert_str_eq(g->scale_up_link, "nvlink2");
    /* PCIe 32 GB: datasheet PCIe column tensor 112, single 14, double 7,
     * 250 W; boost 1380 MHz; CUDA-core FP16 2 x 14 = 28e12; no NVLink. */
    g = gp_db_find_gpu(db, "v100-pcie-32gb");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 112e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 14e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 7e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 28e12, 1e-9);
    GP_ASSERT_REL(g->tdp.v, 250, 1e-12);
    GP_ASSERT_REL(g->clock_boost.v, 1.38e9, 1e-12);
    GP_ASSERT_REL(g->mem_capacity.v, 32 * GIB, 1e-12);
    ck_assert_ptr_null(g->scale_up_link);
    ck_assert(g->peak[GP_BF16][GP_PIPE_TENSOR].v == 0);
    /* PCIe 16 GB */
    g = gp_db_find_gpu(db, "v100-pcie-16gb");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->mem_capacity.v, 16 * GIB, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, 16160 * MIB, 1e-12);
    GP_ASSERT_REL(g->mem_bw.v, 900e9, 1e-9);
}
END_TEST

START_TEST(h800_matches_datasheet)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "h800");
    const gp_gpu *h100 = gp_db_find_gpu(db, "h100-sxm");
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(h100);
    /* H800 datasheet: the H100 SXM's tensor peaks -- BF16 1,979* sparse =
     * 2 x 989.4e12 dense; FP8 1978.9e12 dense; FP32 66.9e12 -- 80 GB HBM3
     * at 3.35 TB/s = 3.35e12 B/s, 700 W; FP64 cut to 1 TFLOPS = 1e12.
     * DeepSeek-V3 report: 132 SMs. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 989.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1978.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1978.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 66.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_CUDA, GP_ACC_FP32, 0), 1e12, 1e-9);
    ck_assert(g->peak[GP_FP64][GP_PIPE_TENSOR].v == 0);
    GP_ASSERT_REL(g->mem_bw.v, 3.35e12, 1e-9);
    GP_ASSERT_REL(g->mem_capacity.v, 80 * GIB, 1e-12);
    GP_ASSERT_REL(g->tdp.v, 700, 1e-12);
    GP_ASSERT_REL(g->sm_count.v, 132, 1e-12);
    /* Same die and clocks as the H100 SXM: tensor peaks and efficiencies equal. */
    for (int p = 0; p < GP_PREC__COUNT; p++)
        if (p != GP_FP64)
            GP_ASSERT_REL(g->peak[p][GP_PIPE_TENSOR].v + 1, h100->peak[p][GP_PIPE_TENSOR].v + 1,
                          1e-12);
    GP_ASSERT_REL(g->eff_compute.v, h100->eff_compute.v, 1e-12);
    GP_ASSERT_REL(g->eff_mfu.v, 0.40, 1e-12);
    ck_assert_str_eq(g->scale_up_link, "nvlink4-h800");
    ck_assert_str_eq(g->host_link, "pcie5-x16");
}
END_TEST

START_TEST(new_links)
{
    const gp_db *db = gp_test_db();
    const gp_link *l;
    /* NVLink 2: 6 links x 25 GB/s = 150e9 per direction; achievable by the
     * NVLink 4 ratio 370/450: 150 x 370/450 = 123.3 -> 123e9; DGX-2 joins
     * 16 GPUs through NVSwitch. */
    l = gp_db_find_link(db, "nvlink2");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 6 * 25e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 123e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 150e9 * 370.0 / 450.0, 0.01);
    GP_ASSERT_REL(l->max_gpus.v, 16, 1e-12);
    ck_assert_int_eq(l->kind, GP_LINK_NVLINK);
    ck_assert_int_eq(l->switched, 1);
    ck_assert(l->bw_nvls.v == 0);
    /* H800 NVLink: 400 GB/s both directions = 200e9 per direction (8 x
     * 25 GB/s); DeepSeek-V3 3.2.2: 160 GB/s; 8 GPUs per node. */
    l = gp_db_find_link(db, "nvlink4-h800");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 8 * 25e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 160e9, 1e-12);
    GP_ASSERT_REL(l->max_gpus.v, 8, 1e-12);
    ck_assert_int_eq(l->switched, 1);
    ck_assert(l->bw.v < gp_db_find_link(db, "nvlink4")->bw.v);
    ck_assert_ptr_eq(gp_db_find_link(db, "nvlink-h800"), l);
    ck_assert_ptr_eq(gp_db_find_link(db, "nvlink-v100"), gp_db_find_link(db, "nvlink2"));
}
END_TEST

START_TEST(aliases_resolve)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *v = gp_db_find_gpu(db, "v100-sxm2-32gb");
    ck_assert_ptr_nonnull(v);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "v100"), v);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "V100"), v);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "v100-sxm2"), v);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "v100-32gb"), v);
    ck_assert_ptr_eq(gp_db_find_gpu(db, "v100-16gb"), gp_db_find_gpu(db, "v100-sxm2-16gb"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "v100-pcie"), gp_db_find_gpu(db, "v100-pcie-32gb"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "h800-sxm"), gp_db_find_gpu(db, "h800"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "H800"), gp_db_find_gpu(db, "h800"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "v1000"));
}
END_TEST

/* nvidia-smi / NVML device names find the new entries (calib import). */
START_TEST(device_names_match)
{
    static const gp_test_name want[] = {
        {"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"}, {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
        {"Tesla V100-PCIE-32GB", "v100-pcie-32gb"}, {"Tesla V100-PCIE-16GB", "v100-pcie-16gb"},
        {"NVIDIA H800", "h800"}};
    gp_test_names_resolve(want, sizeof want / sizeof want[0], 1);
}
END_TEST

/* ---- through the CLI ------------------------------------------------------------- */

START_TEST(cli_hw_list_has_new_entries)
{
    const char *argv[] = {"hw", "list", "--json", NULL};
    static const char *want[] = {"v100-sxm2-32gb", "v100-sxm2-16gb", "v100-pcie-32gb",
                                 "v100-pcie-16gb", "h800",           "nvlink2",
                                 "nvlink4-h800"};
    json_t *j = gp_test_cli_json(argv);
    json_t *items = json_object_get(j, "items");
    size_t i, k;
    ck_assert_ptr_nonnull(items);
    for (k = 0; k < sizeof want / sizeof want[0]; k++) {
        int found = 0;
        for (i = 0; i < json_array_size(items); i++) {
            const char *id = json_string_value(json_object_get(json_array_get(items, i), "id"));
            if (id && strcmp(id, want[k]) == 0)
                found = 1;
        }
        ck_assert_msg(found, "hw list lacks %s", want[k]);
    }
    json_decref(j);
}
END_TEST

START_TEST(cli_train_gpt3_on_v100)
{
    /* GPT-3 175B on V100: no bf16, so the default precision falls back to
     * fp16 mixed (tensor 125e12). 6 N D = 6 x 174.6e9 x 300e9 = 3.1428e23 FLOP.
     * V100 MFU 0.20, quoted on the PaLM count (6N + 12 s q L per token) at
     * selective recompute, the default: s 2048, q 12288, L 96:
     *   12 s q L = 28,991,029,248;  6N = 1,047,600,000,000
     *   MFU on 6ND = 0.20 x 1.0476e12 / 1,076,591,029,248 = 0.194614
     *   GPU-seconds = 3.1428e23 / (125e12 x 0.194614) = 1.29191e10 s
     *   = 149,527 GPU-days; on 1024 GPUs 146.02 wall days; 3,588,637 GPU-hours.
     * (Patterson et al.: 10,000 V100 x 14.8 d = 148,000 GPU-days for 3.14e23
     * FLOP: +1.0 %.) */
    const char *argv[] = {"train", "--gpu", "v100", "--model", "gpt-3-175b", "--tokens", "300B",
                          "--gpus", "1024", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    ck_assert_str_eq(json_string_value(json_object_get(j, "precision")), "fp16");
    ck_assert_str_eq(json_string_value(json_object_get(j, "gpu")), "v100-sxm2-32gb");
    GP_ASSERT_REL(gp_test_jnum(j, "total_flop"), 3.1428e23, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "peak_flop_per_s"), 125e12, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu_reference"), 0.20, 1e-12);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu"), 0.20 * 1.0476e12 / 1076591029248.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu"), 0.194614, 1e-5);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_days"),
                  3.1428e23 / (125e12 * gp_test_jnum(j, "mfu")) / 86400.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_days"), 149526.5, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "wall_days"), 149526.5 / 1024.0, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_hours"), 3588636.8, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_days"), 148000.0, 0.02);
    json_decref(j);
}
END_TEST

START_TEST(cli_train_deepseek_v3_on_h800)
{
    /* DeepSeek-V3 on 2048 H800: 6 x 37e9 active x 14.8e12 tokens =
     * 3.2856e24 FLOP; default bf16 989.4e12 at the H100-class MFU 0.40 (PaLM
     * count). The default sequence is the model's pre-training length, 4096
     * (train_seq; its context is 163,840). Attention core per token (MLA:
     * 128 heads x (192 + 128)/2 = 20,480 wide): A = 4 x 4096 x 20480 x 61 =
     * 20,468,203,520; 3A = 61,404,610,560 against 6N = 222,000,000,000:
     *   MFU on 6ND = 0.40 x 2.22e11 / 283,404,610,560 = 0.313333
     *   GPU-hours = 3.2856e24 / (989.4e12 x 0.313333 x 3600) = 2,943,976 h.
     * The paper reports 2,664K H800 GPU-hours for pre-training (in FP8):
     * +10.5 %; the default MFU is not fitted to this row. */
    const char *argv[] = {"train", "--gpu", "h800", "--model", "deepseek-v3", "--tokens",
                          "14.8T", "--gpus", "2048", "--json", NULL};
    const char *f8[] = {"train", "--gpu", "h800", "--model", "deepseek-v3", "--tokens",
                        "14.8T", "--gpus", "2048", "--precision", "fp8", "--json", NULL};
    json_t *j = gp_test_cli_json(argv);
    ck_assert_str_eq(json_string_value(json_object_get(j, "precision")), "bf16");
    GP_ASSERT_REL(gp_test_jnum(j, "seq"), 4096.0, 0);
    GP_ASSERT_REL(gp_test_jnum(j, "total_flop"), 6 * 37e9 * 14.8e12, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu"), 0.40 * 2.22e11 / 283404610560.0, 1e-9);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_hours"), 2943976.0, 1e-6);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_hours"), 2.664e6, 0.15);
    json_decref(j);
    /* FP8 (the paper's precision) speeds up only the GEMM share of the bf16
     * step: HFU_ref = 0.40 x 303,872,814,080 / 283,404,610,560 = 0.428889;
     * with the H800's efficiency.compute 0.80, gs = 0.536111; an FP8 GEMM
     * reaches 0.882649 of BF16's share of its peak (H100 MAMF: (1402.6/1978.9)
     * / (794.5/989.4); the H800 has no FP8 figure of its own), so the GEMMs
     * take 989.4/1978.9 / 0.882649 = 0.566448 as long: step x (0.536111 x
     * 0.566448 + 1 - 0.536111) = 0.767568 -> 2,943,975.75 x 0.767568 =
     * 2,259,701 h (-15 %; at the BF16 efficiency it was 2,154,788). */
    j = gp_test_cli_json(f8);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_hours"), 2259701.0, 1e-5);
    GP_ASSERT_REL(gp_test_jnum(j, "mfu_precision_scale"), 1.0 / 0.767568, 1e-5);
    GP_ASSERT_REL(gp_test_jnum(j, "gpu_hours"), 2.664e6, 0.25);
    json_decref(j);
}
END_TEST

START_TEST(cli_v100_refuses_bf16_and_tf32)
{
    static const char *prec[] = {"bf16", "tf32", "fp8"};
    for (size_t i = 0; i < 3; i++) {
        const char *argv[] = {"train",   "--gpu",  "v100",    "--params",    "7B",
                              "--tokens", "1T",    "--gpus",  "8",           "--precision",
                              prec[i],   NULL};
        char *out = NULL, *err = NULL;
        int rc = gp_test_cli(argv, &out, &err);
        ck_assert_int_eq(rc, 2);
        ck_assert_msg(err && strstr(err, "--precision") && strstr(err, prec[i]),
                      "stderr: %s", err ? err : "");
        free(out);
        free(err);
    }
}
END_TEST

Suite *gp_test_suite_newgpus(void)
{
    Suite *s = suite_create("newgpus");
    TCase *tc = tcase_create("db");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, v100_sxm2_32gb_matches_datasheet);
    tcase_add_test(tc, v100_variants);
    tcase_add_test(tc, h800_matches_datasheet);
    tcase_add_test(tc, new_links);
    tcase_add_test(tc, aliases_resolve);
    tcase_add_test(tc, device_names_match);
    tcase_add_test(tcli, cli_hw_list_has_new_entries);
    tcase_add_test(tcli, cli_train_gpt3_on_v100);
    tcase_add_test(tcli, cli_train_deepseek_v3_on_h800);
    tcase_add_test(tcli, cli_v100_refuses_bf16_and_tf32);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tcli);
    return s;
}
