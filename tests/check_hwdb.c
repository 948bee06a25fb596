/* The shipped database (hwdb/): every entry loads and validates, every
 * figure carries a source and an origin, cross-references resolve, and key
 * figures match the datasheets.
 *
 * Expected values are written out by hand from the datasheets and papers
 * (/work/shared/reference/gpu_specs.md, published_measurements.md), converted
 * to SI in the comments -- never copied from the program's output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GIB 1073741824.0 /* 2^30 */
#define MIB 1048576.0    /* 2^20 */

/* A figure that is present (v > 0) must carry its citation and origin. */
static void fig_sourced(const gp_fig *f, const char *id, const char *field)
{
    if (f->v == 0)
        return;
    ck_assert_msg(isfinite(f->v) && f->v > 0, "%s: %s = %g", id, field, f->v);
    ck_assert_msg(f->src != NULL && f->src[0] != '\0', "%s: %s has no source", id, field);
    ck_assert_msg(f->origin != NULL && f->origin[0] != '\0', "%s: %s has no origin", id, field);
}

static void fraction_ok(const gp_fig *f, const char *id, const char *field)
{
    ck_assert_msg(f->v > 0 && f->v <= 1.0, "%s: %s = %g not in (0, 1]", id, field, f->v);
    fig_sourced(f, id, field);
}

/* ---- every entry ---------------------------------------------------------------- */

START_TEST(every_gpu_loads_with_sourced_figures)
{
    const gp_db *db = gp_test_db();
    size_t n = gp_db_count(db, GP_KIND_GPU);
    ck_assert_uint_ge(n, 24);
    for (size_t i = 0; i < n; i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        const char *id = g->id;
        int any_peak = 0;
        ck_assert_ptr_nonnull(g->name);
        ck_assert_ptr_nonnull(g->vendor);
        ck_assert_ptr_nonnull(g->architecture);
        if (strcmp(g->vendor, "NVIDIA") == 0)
            ck_assert_msg(g->compute_capability != NULL, "%s: no compute capability", id);
        ck_assert_msg(g->sm_count.v >= 1, "%s: sm_count", id);
        fig_sourced(&g->sm_count, id, "sm_count");
        fig_sourced(&g->clock_base, id, "clock_base");
        fig_sourced(&g->clock_boost, id, "clock_boost");
        for (int p = 0; p < GP_PREC__COUNT; p++) {
            for (int q = 0; q < GP_PIPE__COUNT; q++) {
                fig_sourced(&g->peak[p][q], id, "compute");
                if (g->peak[p][q].v > 0)
                    any_peak = 1;
            }
            fig_sourced(&g->peak_fp16acc[p], id, "tensor_fp16acc");
            /* fp16-accumulate is the faster mode where it is listed. */
            if (g->peak_fp16acc[p].v > 0)
                ck_assert_msg(g->peak_fp16acc[p].v >= g->peak[p][GP_PIPE_TENSOR].v,
                              "%s: %s fp16acc below fp32acc", id,
                              gp_precision_name((gp_precision)p));
        }
        ck_assert_msg(any_peak, "%s: no compute figure", id);
        fig_sourced(&g->sparsity, id, "sparsity");
        ck_assert_msg(g->mem_capacity.v > 0 && g->mem_bw.v > 0 && g->tdp.v > 0,
                      "%s: required figure missing", id);
        fig_sourced(&g->mem_capacity, id, "memory.capacity");
        fig_sourced(&g->mem_usable, id, "memory.usable");
        fig_sourced(&g->mem_bw, id, "memory.bandwidth");
        fig_sourced(&g->l2_size, id, "cache.l2_size");
        fig_sourced(&g->l2_bw, id, "cache.l2_bandwidth");
        fig_sourced(&g->lat_l1, id, "latency.l1");
        fig_sourced(&g->lat_l2, id, "latency.l2");
        fig_sourced(&g->lat_dram, id, "latency.dram");
        fig_sourced(&g->tdp, id, "power");
        fig_sourced(&g->price, id, "price");
        fig_sourced(&g->rent, id, "rent");
        /* usable memory can exceed the binary label by a little (H100 NVL,
         * H200 expose more than the marketed GB) but never by 10 %. */
        if (g->mem_usable.v > 0)
            ck_assert_msg(g->mem_usable.v < 1.1 * g->mem_capacity.v, "%s: usable", id);
        fraction_ok(&g->eff_mem, id, "efficiency.memory");
        fraction_ok(&g->eff_compute, id, "efficiency.compute");
        fraction_ok(&g->eff_mfu, id, "efficiency.mfu");
        /* links named by a GPU exist */
        ck_assert_msg(g->host_link && gp_db_find_link(db, g->host_link), "%s: host_link %s", id,
                      g->host_link ? g->host_link : "(null)");
        if (g->scale_up_link)
            ck_assert_msg(gp_db_find_link(db, g->scale_up_link) != NULL, "%s: scale_up_link %s",
                          id, g->scale_up_link);
        if (g->wide_link)
            ck_assert_msg(gp_db_find_link(db, g->wide_link) != NULL, "%s: wide_link %s", id,
                          g->wide_link);
        /* every id and alias finds this entry */
        ck_assert_ptr_eq(gp_db_find_gpu(db, id), g);
        for (size_t a = 0; a < g->n_aliases; a++)
            ck_assert_ptr_eq(gp_db_find_gpu(db, g->aliases[a]), g);
    }
}
END_TEST

START_TEST(every_link_loads_with_sourced_figures)
{
    const gp_db *db = gp_test_db();
    size_t n = gp_db_count(db, GP_KIND_LINK);
    ck_assert_uint_ge(n, 22);
    for (size_t i = 0; i < n; i++) {
        const gp_link *l = gp_db_link_at(db, i);
        const char *id = l->id;
        ck_assert_ptr_nonnull(l->name);
        ck_assert_msg(l->bw.v > 0 && l->bw_achievable.v > 0 && l->latency.v > 0,
                      "%s: required figure missing", id);
        fig_sourced(&l->bw, id, "bandwidth");
        fig_sourced(&l->bw_achievable, id, "achievable");
        fig_sourced(&l->latency, id, "latency");
        fig_sourced(&l->max_gpus, id, "max_gpus");
        ck_assert_msg(l->bw_achievable.v <= l->bw.v, "%s: achievable above peak", id);
        /* alpha between 100 ns and 1 ms */
        ck_assert_msg(l->latency.v > 1e-7 && l->latency.v < 1e-3, "%s: latency", id);
        ck_assert_ptr_eq(gp_db_find_link(db, id), l);
        for (size_t a = 0; a < l->n_aliases; a++)
            ck_assert_ptr_eq(gp_db_find_link(db, l->aliases[a]), l);
    }
}
END_TEST

START_TEST(every_model_loads_with_sourced_figures)
{
    const gp_db *db = gp_test_db();
    size_t n = gp_db_count(db, GP_KIND_MODEL);
    ck_assert_uint_ge(n, 14);
    for (size_t i = 0; i < n; i++) {
        const gp_model *m = gp_db_model_at(db, i);
        const char *id = m->id;
        const gp_fig *req[] = {&m->params, &m->layers, &m->hidden, &m->heads,
                               &m->vocab,  &m->context, &m->ffn_hidden};
        const gp_fig *opt[] = {&m->params_active, &m->kv_heads,       &m->head_dim,
                               &m->experts,       &m->experts_active, &m->shared_experts,
                               &m->expert_ffn_hidden, &m->dense_layers, &m->kv_dim,
                               &m->qk_head_dim, &m->train_seq, &m->linear_layers,
                               &m->linear_state};
        for (size_t k = 0; k < sizeof req / sizeof req[0]; k++) {
            ck_assert_msg(req[k]->v > 0, "%s: required shape figure %zu missing", id, k);
            fig_sourced(req[k], id, "shape");
        }
        for (size_t k = 0; k < sizeof opt / sizeof opt[0]; k++)
            fig_sourced(opt[k], id, "shape");
        if (m->params_active.v > 0)
            ck_assert_msg(m->params_active.v <= m->params.v, "%s: active > total", id);
        if (m->kv_heads.v > 0)
            ck_assert_msg(fmod(m->heads.v, m->kv_heads.v) == 0, "%s: heads %% kv_heads", id);
        if (m->train_seq.v > 0)
            ck_assert_msg(m->train_seq.v <= m->context.v, "%s: train_seq > context", id);
        ck_assert_msg(gp_model_kv_elems_per_layer(m) > 0, "%s: kv elems", id);
        ck_assert_ptr_eq(gp_db_find_model(db, id), m);
        for (size_t a = 0; a < m->n_aliases; a++)
            ck_assert_ptr_eq(gp_db_find_model(db, m->aliases[a]), m);
    }
}
END_TEST

START_TEST(every_format_loads_with_sourced_figures)
{
    const gp_db *db = gp_test_db();
    size_t n = gp_db_count(db, GP_KIND_FORMAT);
    ck_assert_uint_ge(n, 20);
    for (size_t i = 0; i < n; i++) {
        const gp_format *f = gp_db_format_at(db, i);
        ck_assert_ptr_nonnull(f->name);
        /* 1.5625 (IQ1_S) to 32 (fp32) */
        ck_assert_msg(f->bits.v >= 1.5 && f->bits.v <= 32, "%s: bits %g", f->id, f->bits.v);
        fig_sourced(&f->bits, f->id, "bits");
        fig_sourced(&f->group, f->id, "group");
        ck_assert_msg((int)f->compute >= 0 && f->compute < GP_PREC__COUNT, "%s: compute", f->id);
        ck_assert_ptr_eq(gp_db_find_format(db, f->id), f);
        for (size_t a = 0; a < f->n_aliases; a++)
            ck_assert_ptr_eq(gp_db_find_format(db, f->aliases[a]), f);
    }
}
END_TEST

/* ---- datasheet spot checks ------------------------------------------------------- */

START_TEST(h100_sxm_matches_datasheet)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "h100-sxm");
    ck_assert_ptr_nonnull(g);
    /* H100 whitepaper SXM5: BF16 dense 989.4 TFLOPS = 989.4e12 FLOP/s; the
     * datasheet's 1,979* is the 2:4 sparse figure = 2 x 989.4 = 1978.8e12.
     * FP8 1978.9 TFLOPS; FP32 (CUDA cores) 66.9 TFLOPS. Datasheet HBM3
     * 3.35 TB/s = 3.35e12 B/s; 80 GB label = 80 x 2^30 B; 700 W. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 989.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1978.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1978.9e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 66.9e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 3.35e12, 1e-9);
    GP_ASSERT_REL(g->mem_capacity.v, 80 * GIB, 1e-12);
    GP_ASSERT_REL(g->tdp.v, 700, 1e-12);
    /* Hopper publishes no INT4 tensor rate. */
    ck_assert(gp_gpu_peak(g, GP_INT4, GP_PIPE_TENSOR, GP_ACC_FP32, 0) == 0);
    ck_assert_str_eq(g->scale_up_link, "nvlink4");
    /* MAMF BF16 794.5 / 989.4 = 0.803 */
    GP_ASSERT_REL(g->eff_compute.v, 794.5 / 989.4, 0.01);
    /* H100-class MFU 0.40 (Llama 3 405B: 38-43 %; MPT-70B 42.6 %) */
    GP_ASSERT_REL(g->eff_mfu.v, 0.40, 1e-9);
}
END_TEST

/* GeForce RTX cards (Turing and later) have no PCIe peer-to-peer on the
 * stock driver (nccl#1127, RTX 3090; nccl-tests#117 and autodl_2080ti, RTX
 * 2080 Ti: topo -p2p 'NS'), so every path between two of them that is not
 * an NVLink bridge must be host-staged (p2p false): the scale-up link, and
 * where that is a bridge of max_gpus, what a wider node takes instead (its
 * wide_link, else the host link).  Professional cards (RTX A6000, L40, RTX
 * 6000 Ada) keep P2P over PCIe. */
START_TEST(geforce_rtx_peers_staged_through_host)
{
    const gp_db *db = gp_test_db();
    size_t i, n = gp_db_count(db, GP_KIND_GPU), seen = 0;
    for (i = 0; i < n; i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        const gp_link *up, *wide;
        if (g->name == NULL || strstr(g->name, "GeForce RTX") == NULL)
            continue;
        seen++;
        ck_assert_msg(g->scale_up_link != NULL, "%s: no scale_up_link (peers would take the "
                                                "host link, which has P2P)", g->id);
        up = gp_db_find_link(db, g->scale_up_link);
        ck_assert_ptr_nonnull(up);
        if (up->kind == GP_LINK_NVLINK_BRIDGE) {
            ck_assert_msg(up->max_gpus.v == 2, "%s", g->id);
            wide = gp_db_find_link(db, g->wide_link != NULL ? g->wide_link : g->host_link);
            ck_assert_ptr_nonnull(wide);
            ck_assert_msg(wide->p2p == 0, "%s: beyond the bridge, %s allows P2P", g->id,
                          wide->id);
        } else {
            ck_assert_msg(up->p2p == 0, "%s: scale_up_link %s allows P2P", g->id, up->id);
            ck_assert_ptr_null(g->wide_link);
        }
        /* the staged path's line rate is the card's own host link's */
        ck_assert_msg(gp_db_find_link(db, g->host_link)->bw.v ==
                          gp_db_find_link(db, up->kind == GP_LINK_NVLINK_BRIDGE ? g->wide_link
                                                                               : g->scale_up_link)
                              ->bw.v,
                      "%s: staged peak differs from the host link's", g->id);
    }
    ck_assert_uint_ge(seen, 30);
    /* a professional GA102 behind the same bridge keeps PCIe P2P beyond it */
    ck_assert_ptr_null(gp_db_find_gpu(db, "rtx-a6000")->wide_link);
    ck_assert_int_eq(gp_db_find_link(db, gp_db_find_gpu(db, "rtx-a6000")->host_link)->p2p, 1);
}
END_TEST

START_TEST(rtx4090_matches_whitepaper)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "rtx-4090");
    const gp_link *host;
    ck_assert_ptr_nonnull(g);
    /* Ada whitepaper Appendix A: FP32 82.6 TFLOPS; 1008 GB/s = 1.008e12 B/s;
     * FP16 Tensor with FP32 accumulate 165.2 dense, with FP16 accumulate 330.3
     * dense (GeForce halves FP32 accumulate); BF16 165.2; FP8 with FP32
     * accumulate 330.3 (v2.02 correction); INT8 660.6 TOPS; 24 GB = 24 x 2^30 B;
     * nvidia-smi 24564 MiB = 24564 x 2^20 B; 450 W. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP32, GP_PIPE_CUDA, GP_ACC_FP32, 0), 82.6e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 1008e9, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 330.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 165.2e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 330.3e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_INT8, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 660.6e12, 1e-9);
    GP_ASSERT_REL(g->mem_capacity.v, 24 * GIB, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, 24564 * MIB, 1e-12);
    GP_ASSERT_REL(g->tdp.v, 450, 1e-12);
    GP_ASSERT_REL(g->price.v, 1599, 1e-12);
    /* GeForce: no NVLink, GPU-to-GPU staged through host memory (the
     * scale-up path, ~13 GB/s per direction), while copies from host
     * memory use plain PCIe 4.0 x16 (nvbandwidth CE on an RTX 4090:
     * 23.9-27.1 GB/s; the link's achievable figure is 25 GB/s). */
    ck_assert_ptr_nonnull(g->scale_up_link);
    host = gp_db_find_link(db, g->scale_up_link);
    ck_assert_ptr_nonnull(host);
    ck_assert_int_eq(host->p2p, 0);
    host = gp_db_find_link(db, g->host_link);
    ck_assert_ptr_nonnull(host);
    ck_assert_str_eq(host->id, "pcie4-x16");
    GP_ASSERT_REL(host->bw_achievable.v, 25e9, 1e-12);
}
END_TEST

START_TEST(a100_sxm_80gb_matches_datasheet)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g = gp_db_find_gpu(db, "a100-sxm-80gb");
    double mfu_7b, mfu_70b;
    ck_assert_ptr_nonnull(g);
    /* A100 datasheet: BF16 Tensor 312 TFLOPS dense (624 sparse); TF32 156;
     * FP64 Tensor 19.5; HBM2e 2,039 GB/s; 80 GB = 80 x 2^30 B; nvidia-smi
     * 81920 MiB = 80 x 2^30 B; 400 W; L2 40 MiB. */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 312e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 624e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_TF32, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 156e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP64, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 19.5e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 2039e9, 1e-9);
    GP_ASSERT_REL(g->mem_capacity.v, 80 * GIB, 1e-12);
    GP_ASSERT_REL(g->mem_usable.v, 81920 * MIB, 1e-12);
    GP_ASSERT_REL(g->l2_size.v, 40 * MIB, 1e-12);
    GP_ASSERT_REL(g->tdp.v, 400, 1e-12);
    /* RRZE triad 1794 / 2039 = 0.880; MAMF 271.2 / 312 = 0.869 */
    GP_ASSERT_REL(g->eff_mem.v, 1794.0 / 2039.0, 0.01);
    GP_ASSERT_REL(g->eff_compute.v, 271.2 / 312.0, 0.01);
    /* MFU from GPU-hours on the PaLM count, (6N + 12 s q L) D / (312e12 x
     * 3600 x hours): LLaMA-7B (s 2048) 6 x 6.7e9 + 12 x 2048 x 4096 x 32 =
     * 4.3421e10 x 1e12 / (312e12 x 3600 x 82432) = 0.4690; Llama 2 70B (s 4096)
     * 6 x 68.98e9 + 12 x 4096 x 8192 x 80 = 4.4609e11 x 2e12 / (312e12 x 3600
     * x 1720320) = 0.4617; the database takes the median of seven such rows,
     * 0.47 (hwdb/gpus/a100-sxm-80gb.yaml). */
    mfu_7b = (6 * 6.7e9 + 12.0 * 2048 * 4096 * 32) * 1e12 / (312e12 * 3600 * 82432);
    mfu_70b = (6 * 68.98e9 + 12.0 * 4096 * 8192 * 80) * 2e12 / (312e12 * 3600 * 1720320);
    GP_ASSERT_REL(mfu_7b, 0.4690, 1e-3);
    GP_ASSERT_REL(mfu_70b, 0.4617, 1e-3);
    GP_ASSERT_REL(g->eff_mfu.v, (mfu_7b + mfu_70b) / 2, 0.02);
    ck_assert_str_eq(g->scale_up_link, "nvlink3");
    ck_assert_str_eq(g->host_link, "pcie4-x16");
}
END_TEST

START_TEST(other_gpus_spot_checks)
{
    const gp_db *db = gp_test_db();
    const gp_gpu *g;
    /* H200: 141 GB HBM3e at 4.8 TB/s, 989.5 dense BF16 (1,979* / 2) */
    g = gp_db_find_gpu(db, "h200");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(g->mem_bw.v, 4.8e12, 1e-9);
    GP_ASSERT_REL(g->mem_usable.v, 143771 * MIB, 1e-12);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 989.5e12, 1e-9);
    /* CUDA-core (non-tensor) FP16/BF16: the same GH100 die and clocks as the
     * H100 SXM5, whose whitepaper lists 133.8 TFLOPS (= 2 x FP32 66.9), so an
     * elementwise bf16 kernel is not charged against the Tensor Core roof.
     * H100 PCIe: whitepaper 102.4 (= 2 x 51.2); L40S: Ada FP16 non-tensor
     * 1:1 with FP32, 91.6 (gpu_specs.yaml, TechPowerUp). */
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 133.8e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 133.8e12, 1e-9);
    g = gp_db_find_gpu(db, "h100-pcie");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 102.4e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 756.5e12, 1e-9);
    g = gp_db_find_gpu(db, "l40s");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_CUDA, GP_ACC_FP32, 0), 91.6e12, 1e-9);
    /* B200: 4.5 PF sparse BF16 -> 2250 TFLOPS dense; FP4 9000 dense; 7.7 TB/s */
    g = gp_db_find_gpu(db, "b200");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 2250e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP4, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 9000e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 7.7e12, 1e-9);
    /* RTX 3090: BF16 71 dense (FP32 acc), FP16 acc 142; 936 GB/s */
    g = gp_db_find_gpu(db, "3090");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0), 142e12, 1e-9);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 71e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 936e9, 1e-9);
    /* L40S: FP32 accumulate not halved, 362.05 TFLOPS; 864 GB/s; 350 W */
    g = gp_db_find_gpu(db, "l40s");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 362.05e12, 1e-9);
    GP_ASSERT_REL(g->tdp.v, 350, 1e-12);
    /* L4: 242* FP16 -> 121 dense; 300 GB/s; 72 W */
    g = gp_db_find_gpu(db, "l4");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 121e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 300e9, 1e-9);
    GP_ASSERT_REL(g->tdp.v, 72, 1e-12);
    /* A10: 125 dense BF16, 600 GB/s, 150 W */
    g = gp_db_find_gpu(db, "a10");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 125e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 600e9, 1e-9);
    /* RTX A6000: 84 SMs x 1.8 GHz x 1024 FLOP/clk = 154.8e12; 768 GB/s */
    g = gp_db_find_gpu(db, "rtx-a6000");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0),
                  84 * 1.8e9 * 1024, 1e-3);
    GP_ASSERT_REL(g->mem_bw.v, 768e9, 1e-9);
    /* RTX 6000 Ada: 1,457 TFLOPS FP8 sparse -> 728.5 dense; 960 GB/s */
    g = gp_db_find_gpu(db, "rtx-6000-ada");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP8, GP_PIPE_TENSOR, GP_ACC_FP32, 1), 1457e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 960e9, 1e-9);
    /* RTX 4080: 76 SMs x 2.505 GHz x 1024 = 194.9e12 FP16 with FP16 acc */
    g = gp_db_find_gpu(db, "rtx-4080");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_FP16, GP_PIPE_TENSOR, GP_ACC_FP16, 0),
                  76 * 2.505e9 * 1024, 1e-3);
    GP_ASSERT_REL(g->mem_bw.v, 716.8e9, 1e-9);
    /* RTX 5090: BF16 209.5 dense, 1792 GB/s, FP4 1676 dense */
    g = gp_db_find_gpu(db, "5090");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 209.5e12, 1e-9);
    GP_ASSERT_REL(g->mem_bw.v, 1792e9, 1e-9);
    /* MI300X: 1307.4 TFLOPS FP16/BF16 dense, 5.3 TB/s, 192 GiB, 750 W */
    g = gp_db_find_gpu(db, "mi300x");
    ck_assert_ptr_nonnull(g);
    GP_ASSERT_REL(gp_gpu_peak(g, GP_BF16, GP_PIPE_TENSOR, GP_ACC_FP32, 0), 1307.4e12, 1e-9);
    GP_ASSERT_REL(g->mem_capacity.v, 192 * GIB, 1e-12);
    ck_assert_ptr_null(g->compute_capability);
}
END_TEST

START_TEST(gpu_aliases_resolve)
{
    const gp_db *db = gp_test_db();
    ck_assert_ptr_eq(gp_db_find_gpu(db, "4090"), gp_db_find_gpu(db, "rtx-4090"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "RTX4090"), gp_db_find_gpu(db, "rtx-4090"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "a100"), gp_db_find_gpu(db, "a100-sxm-80gb"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "a100-80gb"), gp_db_find_gpu(db, "a100-sxm-80gb"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "H100"), gp_db_find_gpu(db, "h100-sxm"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "h100-sxm5"), gp_db_find_gpu(db, "h100-sxm"));
    ck_assert_ptr_eq(gp_db_find_gpu(db, "h200-sxm"), gp_db_find_gpu(db, "h200"));
    ck_assert_ptr_nonnull(gp_db_find_gpu(db, "h100"));
    ck_assert_ptr_null(gp_db_find_gpu(db, "h1000"));
}
END_TEST

START_TEST(links_spot_checks)
{
    const gp_db *db = gp_test_db();
    const gp_link *l;
    /* PCIe 4.0 x16: 16 GT/s x 16 lanes x 128/130 / 8 = 31.5 GB/s per
     * direction; ~25 GB/s achieved (nvbandwidth#42: 25.13 GB/s). */
    l = gp_db_find_link(db, "pcie4-x16");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 31.5e9, 1e-9);
    GP_ASSERT_REL(l->bw_achievable.v, 25e9, 1e-9);
    GP_ASSERT_REL(gp_link_expected_bw(l), 25e9, 1e-9);
    ck_assert_int_eq(l->p2p, 1);
    ck_assert_ptr_eq(gp_db_find_link(db, "pcie4"), l);
    ck_assert_ptr_eq(gp_db_find_link(db, "pcie-gen4"), l);
    /* PCIe 5.0 x16: 63.0 GB/s per direction */
    GP_ASSERT_REL(gp_db_find_link(db, "pcie5-x16")->bw.v, 63e9, 1e-9);
    /* NVLink 3: 12 links x 25 GB/s = 300e9; NCCL ring ~230e9 */
    l = gp_db_find_link(db, "nvlink3");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 12 * 25e9, 1e-9);
    GP_ASSERT_REL(l->bw_achievable.v, 230e9, 1e-9);
    ck_assert_int_eq(l->switched, 1);
    /* NVLink 4: 18 x 25 GB/s = 450e9; ~370e9 achieved */
    l = gp_db_find_link(db, "nvlink4");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 18 * 25e9, 1e-9);
    GP_ASSERT_REL(l->bw_achievable.v, 370e9, 1e-9);
    /* NVLink 5: 18 x 50 GB/s = 900e9 */
    GP_ASSERT_REL(gp_db_find_link(db, "nvlink5")->bw.v, 18 * 50e9, 1e-9);
    /* GA102 bridge: 4 x 14.0625 GB/s = 56.25e9, exactly two GPUs */
    l = gp_db_find_link(db, "nvlink-bridge-ga102");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 4 * 14.0625e9, 1e-12);
    GP_ASSERT_REL(l->max_gpus.v, 2, 1e-12);
    ck_assert_int_eq(l->switched, 0);
    /* H100 bridge: 600 GB/s both directions = 300e9 per direction */
    GP_ASSERT_REL(gp_db_find_link(db, "nvlink-bridge-h100")->bw.v, 300e9, 1e-9);
    /* host-staged PCIe: no P2P, achievable well below the line rate */
    l = gp_db_find_link(db, "pcie4-x16-host");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->p2p, 0);
    ck_assert(l->bw_achievable.v < 0.5 * l->bw.v);
    ck_assert_int_eq(gp_db_find_link(db, "pcie5-x16-host")->p2p, 0);
    /* PCIe 3.0 x16 staged through host memory (GeForce Turing): peak
     * 16 lanes x 8 GT/s x 128/130 / 8 = 15.75 GB/s per direction; achievable
     * as pcie4-x16-host's, half the bidirectional P2P=Disabled copy rate of
     * 2 RTX 2080 Ti (6.10 GB/s both ways): 6.10 / 2 = 3.05 GB/s; latency
     * 15 us (P2P=Disabled 13.95-14.76 us). */
    l = gp_db_find_link(db, "pcie3-x16-host");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->p2p, 0);
    ck_assert_int_eq(l->switched, 0);
    GP_ASSERT_REL(l->bw.v, 15.75e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 6.10e9 / 2.0, 1e-12);
    GP_ASSERT_REL(l->latency.v, 15e-6, 1e-12);
    ck_assert_ptr_eq(gp_db_find_link(db, "pcie3-host"), l);
    /* InfiniBand: 200 / 400 / 800 Gb/s = 25 / 50 / 100 GB/s; NDR 46-48 GB/s */
    GP_ASSERT_REL(gp_db_find_link(db, "ib-hdr")->bw.v, 25e9, 1e-9);
    l = gp_db_find_link(db, "ib-ndr");
    ck_assert_ptr_nonnull(l);
    GP_ASSERT_REL(l->bw.v, 50e9, 1e-9);
    ck_assert(l->bw_achievable.v >= 46e9 && l->bw_achievable.v <= 48e9);
    GP_ASSERT_REL(gp_db_find_link(db, "ib-xdr")->bw.v, 100e9, 1e-9);
    GP_ASSERT_REL(gp_db_find_link(db, "roce-400")->bw.v, 50e9, 1e-9);
    GP_ASSERT_REL(gp_db_find_link(db, "eth-100")->bw.v, 12.5e9, 1e-9);
    /* MI300X xGMI: 7 links x 64 GB/s = 448e9 per direction */
    GP_ASSERT_REL(gp_db_find_link(db, "xgmi-mi300x")->bw.v, 7 * 64e9, 1e-9);
    ck_assert(gp_db_find_link(db, "nvlink4")->latency.v <
              gp_db_find_link(db, "pcie4-x16")->latency.v);
}
END_TEST

/* Scale-out fabrics of rented instances.  Figures per NIC, per direction;
 * Gb/s / 8 = GB/s (SI).
 * GCP A3 Mega (a3-megagpu-8g, GPUDirect-TCPXO): 1,800 Gbps a VM over 8 GPU
 *   NICs + 1 host NIC = 200 Gb/s a NIC (Google's 200 Gbps A3 IPU) = 25e9
 *   B/s.  Achievable: dstack, 2 x 8 H100, all_gather_perf 8 GiB busbw
 *   188.54 GB/s, a ring through the node's 8 NICs: 188.54 / 8 = 23.5675 ->
 *   23.6e9.  alpha: nccl-tests AllReduce of 16-256 B on 2 nodes, 123 us =
 *   14 NVLink hops x 2 us + 2 network hops: (123 - 28) / 2 = 47.5e-6 s.
 *   One NIC a GPU: nics_per_gpu 1 -> 8 for 8 GPUs.
 * GCP A3 High (a3-highgpu-8g, GPUDirect-TCPX): 1,000 Gbps over 4 GPU NICs
 *   + 1 host NIC = 200 Gb/s = 25e9.  Achievable: Google's sample, 2 x 8,
 *   ring forced, 8 GiB AllReduce busbw 89.54 GB/s through 4 NICs a node:
 *   89.54 / 4 = 22.385 -> 22.4e9.  alpha: the 2 MiB ring AllReduce, 1645.1
 *   us over 30 steps, less 2 x 15/16 x 2097152 B / (4 x 22.4e9) = 43.886 us:
 *   (1645.1 - 43.886) / 30 = 53.37 us -> 53e-6.  nics_per_gpu 0.5 -> 4.
 * GCP A3 Ultra / A4 (8 x 400 Gb/s ConnectX-7 RoCE, one a GPU), AWS p6-b200
 *   (3.2 Tbps / 8 GPUs = 400 Gb/s a GPU) and Azure ND H100 v5 (8 x 400 Gb/s
 *   NDR, one a GPU) are aliases of roce-400, efa-p5 and ib-ndr: 50e9. */
START_TEST(links_cloud_fabrics)
{
    const gp_db *db = gp_test_db();
    const gp_link *nv4 = gp_db_find_link(db, "nvlink4");
    const gp_link *l = gp_db_find_link(db, "gcp-a3-mega");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->scope, GP_SCOPE_SCALE_OUT);
    ck_assert_int_eq(l->kind, GP_LINK_ETHERNET);
    GP_ASSERT_REL(l->bw.v, 1800e9 / 9 / 8, 1e-12);
    GP_ASSERT_REL(l->bw.v, 25e9, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 188.54e9 / 8, 2e-3);
    GP_ASSERT_REL(l->bw_achievable.v, 23.6e9, 1e-12);
    GP_ASSERT_REL(l->latency.v, (123e-6 - 14 * 2e-6) / 2, 1e-12);
    GP_ASSERT_REL(l->nics_per_gpu.v, 1, 1e-12);
    ck_assert_int_eq(gp_topo_default_nics(nv4, l, 8), 8);
    ck_assert_ptr_nonnull(strstr(l->bw.src, "Networking and GPU machines"));
    ck_assert_ptr_nonnull(strstr(l->bw_achievable.src, "188.54"));
    ck_assert_ptr_eq(gp_db_find_link(db, "tcpxo"), l);
    ck_assert_ptr_eq(gp_db_find_link(db, "a3-megagpu-8g"), l);
    ck_assert_ptr_eq(gp_db_find_link(db, "GCP A3 Mega, GPUDirect-TCPXO"), l);

    l = gp_db_find_link(db, "gcp-a3-high");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->scope, GP_SCOPE_SCALE_OUT);
    GP_ASSERT_REL(l->bw.v, 1000e9 / 5 / 8, 1e-12);
    GP_ASSERT_REL(l->bw_achievable.v, 89.54e9 / 4, 1e-3);
    GP_ASSERT_REL(l->bw_achievable.v, 22.4e9, 1e-12);
    GP_ASSERT_REL(l->latency.v, (1645.1e-6 - 2 * 15.0 / 16.0 * 2097152 / (4 * 22.4e9)) / 30,
                  1e-2);
    GP_ASSERT_REL(l->latency.v, 53e-6, 1e-12);
    GP_ASSERT_REL(l->nics_per_gpu.v, 0.5, 1e-12);
    ck_assert_int_eq(gp_topo_default_nics(nv4, l, 8), 4);
    ck_assert_ptr_eq(gp_db_find_link(db, "tcpx"), l);

    l = gp_db_find_link(db, "roce-400");
    ck_assert_ptr_eq(gp_db_find_link(db, "gcp-a4"), l);
    ck_assert_ptr_eq(gp_db_find_link(db, "gcp-a3-ultra"), l);
    GP_ASSERT_REL(l->bw.v, 3200e9 / 8 / 8, 1e-12);
    ck_assert_int_eq(gp_topo_default_nics(nv4, l, 8), 8);
    l = gp_db_find_link(db, "efa-p5");
    ck_assert_ptr_eq(gp_db_find_link(db, "efa-p6-b200"), l);
    GP_ASSERT_REL(l->bw.v, 3200e9 / 8 / 8, 1e-12);
    l = gp_db_find_link(db, "ib-ndr");
    ck_assert_ptr_eq(gp_db_find_link(db, "azure-nd-h100-v5"), l);
    GP_ASSERT_REL(l->bw.v, 3200e9 / 8 / 8, 1e-12);
}
END_TEST

START_TEST(models_spot_checks)
{
    const gp_db *db = gp_test_db();
    const gp_model *m;
    /* Llama-2-7B: 32 layers, 32 heads of 128, MHA -> K+V per token per layer
     * = 2 x 32 x 128 = 8192 elements; 6.74e9 parameters. */
    m = gp_db_find_model(db, "llama-2-7b");
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_eq(gp_db_find_model(db, "llama2-7b"), m);
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(m), 2 * 32 * 128, 1e-12);
    GP_ASSERT_REL(m->params.v, 6.74e9, 1e-3);
    GP_ASSERT_REL(m->layers.v, 32, 1e-12);
    GP_ASSERT_REL(m->context.v, 4096, 1e-12);
    /* Llama-2-70B GQA: 2 x 8 x 128 = 2048 */
    m = gp_db_find_model(db, "llama-2-70b");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(m), 2 * 8 * 128, 1e-12);
    GP_ASSERT_REL(m->params.v, 68.98e9, 1e-3);
    /* Llama 3.1 405B: 405.85e9 params, 126 layers, 16384 hidden */
    m = gp_db_find_model(db, "llama-3.1-405b");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->params.v, 405.85e9, 1e-4);
    GP_ASSERT_REL(m->layers.v, 126, 1e-12);
    /* Mixtral: 8 experts, 2 active; ~46.7e9 total, ~12.9e9 active */
    m = gp_db_find_model(db, "mixtral-8x7b");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->experts.v, 8, 1e-12);
    GP_ASSERT_REL(m->experts_active.v, 2, 1e-12);
    GP_ASSERT_REL(m->params.v, 46.7e9, 1e-3);
    GP_ASSERT_REL(m->params_active.v, 12.88e9, 1e-3);
    /* DeepSeek-V3: MLA latent 512 + RoPE key 64 = 576 cached elements per
     * token per layer; 671B total / 37B active; 256 routed + 1 shared, 8
     * active, expert FFN 2048, 3 dense layers. */
    m = gp_db_find_model(db, "deepseek-v3");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(m), 512 + 64, 1e-12);
    GP_ASSERT_REL(m->params.v, 671e9, 1e-9);
    GP_ASSERT_REL(m->params_active.v, 37e9, 1e-9);
    GP_ASSERT_REL(m->experts.v, 256, 1e-12);
    GP_ASSERT_REL(m->shared_experts.v, 1, 1e-12);
    GP_ASSERT_REL(m->experts_active.v, 8, 1e-12);
    GP_ASSERT_REL(m->expert_ffn_hidden.v, 2048, 1e-12);
    GP_ASSERT_REL(m->dense_layers.v, 3, 1e-12);
    ck_assert_str_eq(m->attention, "mla");
    /* GPT-3: 96 layers x 12288, 174.6e9 params, alias gpt3 */
    m = gp_db_find_model(db, "gpt3");
    ck_assert_ptr_nonnull(m);
    GP_ASSERT_REL(m->params.v, 174.6e9, 1e-9);
    GP_ASSERT_REL(m->hidden.v, 12288, 1e-12);
    /* LLaMA 1: 7B and 65B with a 2048 context */
    GP_ASSERT_REL(gp_db_find_model(db, "llama-7b")->context.v, 2048, 1e-12);
    GP_ASSERT_REL(gp_db_find_model(db, "llama-65b")->params.v, 65.2e9, 2e-3);
    /* Qwen2.5-7B: 28 heads, 4 KV heads of 128 -> 2 x 4 x 128 = 1024 */
    GP_ASSERT_REL(gp_model_kv_elems_per_layer(gp_db_find_model(db, "qwen2.5-7b")), 1024, 1e-12);
}
END_TEST

START_TEST(formats_spot_checks)
{
    const gp_db *db = gp_test_db();
    const gp_format *f;
    /* Q4_0: 32 x 4 bits + fp16 scale = 144 bits / 32 = 4.5 */
    f = gp_db_find_format(db, "q4_0");
    ck_assert_ptr_nonnull(f);
    GP_ASSERT_REL(f->bits.v, (32 * 4 + 16) / 32.0, 1e-12);
    GP_ASSERT_REL(f->group.v, 32, 1e-12);
    ck_assert_int_eq(f->compute, GP_FP16);
    ck_assert_int_eq(f->kind, GP_FMT_QUANT);
    /* Q8_0: (32 x 8 + 16) / 32 = 8.5; Q4_1: (32 x 4 + 2 x 16) / 32 = 5.0 */
    GP_ASSERT_REL(gp_db_find_format(db, "q8_0")->bits.v, 8.5, 1e-12);
    GP_ASSERT_REL(gp_db_find_format(db, "q4_1")->bits.v, 5.0, 1e-12);
    /* Q4_K_M from Llama-2-7B's 3.80 GiB file, the Q6_K output matrix (32000 x
     * 4096 at 6.5625 bits) taken out: (3.80 x 2^30 x 8 - 860,160,000) /
     * 6,607,343,616 = 4.8100 */
    GP_ASSERT_REL(gp_db_find_format(db, "q4_k_m")->bits.v,
                  (3.80 * GIB * 8 - 32000.0 * 4096 * 6.5625) / (6738415616.0 - 32000.0 * 4096),
                  1e-4);
    /* Q6_K: 210 bytes per 256 = 6.5625 */
    GP_ASSERT_REL(gp_db_find_format(db, "q6_k")->bits.v, 210 * 8 / 256.0, 1e-12);
    /* AWQ / GPTQ g128: 4 + 16/128 + 4/128 = 4.15625 */
    GP_ASSERT_REL(gp_db_find_format(db, "awq-int4-g128")->bits.v, 4 + 20 / 128.0, 1e-12);
    GP_ASSERT_REL(gp_db_find_format(db, "gptq-int4-g128")->bits.v, 4 + 20 / 128.0, 1e-12);
    /* NF4: 4 + 32/64 = 4.5; with double quant 4 + 8/64 + 32/(64 x 256) = 4.127 */
    GP_ASSERT_REL(gp_db_find_format(db, "nf4")->bits.v, 4.5, 1e-12);
    GP_ASSERT_REL(gp_db_find_format(db, "nf4-dq")->bits.v, 4 + 8 / 64.0 + 32 / (64 * 256.0),
                  1e-3);
    /* MXFP4: 4 + 8/32 = 4.25 */
    GP_ASSERT_REL(gp_db_find_format(db, "mxfp4")->bits.v, 4.25, 1e-12);
    /* fp8 alias -> E4M3, 8 bits, fp8 math; bf16 16 bits */
    f = gp_db_find_format(db, "fp8");
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->id, "fp8-e4m3");
    GP_ASSERT_REL(f->bits.v, 8, 1e-12);
    ck_assert_int_eq(f->compute, GP_FP8);
    GP_ASSERT_REL(gp_db_find_format(db, "bf16")->bits.v, 16, 1e-12);
    ck_assert_int_eq(gp_db_find_format(db, "fp16")->kind, GP_FMT_FLOAT);
    ck_assert_int_eq(gp_db_find_format(db, "int8")->kind, GP_FMT_INT);
}
END_TEST

/* ---- through the CLI ------------------------------------------------------------- */

START_TEST(cli_shows_every_shipped_entry)
{
    const gp_db *db = gp_test_db();
    for (int k = 0; k < GP_KIND__COUNT; k++) {
        size_t n = gp_db_count(db, (gp_kind)k);
        for (size_t i = 0; i < n; i++) {
            const char *id = k == GP_KIND_GPU    ? gp_db_gpu_at(db, i)->id
                             : k == GP_KIND_LINK ? gp_db_link_at(db, i)->id
                             : k == GP_KIND_MODEL ? gp_db_model_at(db, i)->id
                                                  : gp_db_format_at(db, i)->id;
            const char *argv[] = {"hw", "show", id, NULL};
            char *out = NULL, *err = NULL;
            int rc = gp_test_cli(argv, &out, &err);
            ck_assert_msg(rc == 0, "hw show %s: exit %d: %s", id, rc, err ? err : "");
            ck_assert_msg(out && strstr(out, id), "hw show %s: id not printed", id);
            free(out);
            free(err);
        }
    }
}
END_TEST

/* An id two kinds share (a model imported as 'h100'): hw show finds the
 * GPU first and says how to reach the model; KIND: reaches it. */
START_TEST(cli_show_notes_an_id_of_two_kinds)
{
    char dir[256];
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(gp_test_tmpdir(dir, sizeof dir), 0);
    ck_assert_int_eq(gp_test_write(dir, "models/h100.yaml",
                                   "id: h100\nname: a model named like a GPU\nsrc: t\n"
                                   "sources:\n  t: \"test entry\"\nparams: 7B\nlayers: 32\n"
                                   "hidden: 4096\nheads: 32\nffn_hidden: 11008\nvocab: 32000\n"
                                   "context: 4096\n"),
                     0);
    {
        const char *a[] = {"--db", dir, "hw", "show", "h100", NULL};
        const char *m[] = {"--db", dir, "hw", "show", "model:h100", NULL};
        const char *plain[] = {"hw", "show", "h100", NULL};
        ck_assert_int_eq(gp_test_cli(a, &out, &err), 0);
        ck_assert_msg(strstr(out, "H100") != NULL, "%s", out);
        ck_assert_msg(strstr(err, "note: 'h100' names a model too: 'gpuplan hw show "
                                  "model:h100' shows it") != NULL,
                      "%s", err);
        free(out);
        free(err);
        ck_assert_int_eq(gp_test_cli(m, &out, &err), 0);
        ck_assert_msg(strstr(out, "a model named like a GPU") != NULL, "%s", out);
        ck_assert_ptr_null(strstr(err, "names a"));
        free(out);
        free(err);
        ck_assert_int_eq(gp_test_cli(plain, &out, &err), 0);
        ck_assert_ptr_null(strstr(err, "names a"));
        free(out);
        free(err);
    }
}
END_TEST

/* Elementwise kernels run on CUDA cores, so every GPU with fp16 Tensor
 * Cores needs its CUDA-core fp16 rate too (else the roofline charges them
 * to the Tensor Core roof).  Ada and GA102 run FP16 non-tensor at the FP32
 * rate (Ada / GA102 whitepapers: RTX 4090 82.6 = 82.6), Hopper at twice it
 * (H100 whitepaper: 133.8 vs 66.9): L4 30.3, RTX 6000 Ada 91.1, A10 31.2,
 * H100 NVL 2 x 60 = 120 TFLOPS.  B200 and MI300X publish no such figure
 * (gpu_specs.yaml marks them unverified) and are the only exceptions, with
 * their siblings B300, GB200, GB300, MI325X, MI355X and MI250X, MI250,
 * MI210 (the MI250X's GCD) and MI100 (no figure published either). */
START_TEST(fp16_cuda_core_rates)
{
    const gp_db *db = gp_test_db();
    size_t i;
    static const struct { const char *id; double fp16_cuda; } want[] = {
        {"l4", 30.3e12}, {"rtx-6000-ada", 91.1e12}, {"a10", 31.2e12}, {"h100-nvl", 120e12}};
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        const gp_gpu *g = gp_db_find_gpu(db, want[i].id);
        ck_assert_ptr_nonnull(g);
        GP_ASSERT_REL(g->peak[GP_FP16][GP_PIPE_CUDA].v, want[i].fp16_cuda, 1e-12);
        ck_assert_ptr_nonnull(g->peak[GP_FP16][GP_PIPE_CUDA].src);
    }
    for (i = 0; i < gp_db_count(db, GP_KIND_GPU); i++) {
        const gp_gpu *g = gp_db_gpu_at(db, i);
        if (strcmp(g->id, "b200") == 0 || strcmp(g->id, "mi300x") == 0 ||
            strcmp(g->id, "b300") == 0 || strcmp(g->id, "mi325x") == 0 ||
            strcmp(g->id, "gb200") == 0 || strcmp(g->id, "mi355x") == 0 ||
            strcmp(g->id, "gb300") == 0 || strcmp(g->id, "mi250") == 0 ||
            strcmp(g->id, "mi250x") == 0 || strcmp(g->id, "mi210") == 0 ||
            strcmp(g->id, "mi100") == 0)
            continue;
        if (g->peak[GP_FP16][GP_PIPE_TENSOR].v > 0)
            ck_assert_msg(g->peak[GP_FP16][GP_PIPE_CUDA].v > 0, "%s has no CUDA-core fp16 rate",
                          g->id);
    }
}
END_TEST

Suite *gp_test_suite_hwdb(void)
{
    Suite *s = suite_create("hwdb");
    TCase *tc = tcase_create("entries");
    TCase *ts = tcase_create("spot");
    TCase *tcli = tcase_create("cli");
    tcase_add_test(tc, every_gpu_loads_with_sourced_figures);
    tcase_add_test(tc, fp16_cuda_core_rates);
    tcase_add_test(tc, every_link_loads_with_sourced_figures);
    tcase_add_test(tc, every_model_loads_with_sourced_figures);
    tcase_add_test(tc, every_format_loads_with_sourced_figures);
    tcase_add_test(ts, h100_sxm_matches_datasheet);
    tcase_add_test(ts, rtx4090_matches_whitepaper);
    tcase_add_test(ts, geforce_rtx_peers_staged_through_host);
    tcase_add_test(ts, a100_sxm_80gb_matches_datasheet);
    tcase_add_test(ts, other_gpus_spot_checks);
    tcase_add_test(ts, gpu_aliases_resolve);
    tcase_add_test(ts, links_spot_checks);
    tcase_add_test(ts, links_cloud_fabrics);
    tcase_add_test(ts, models_spot_checks);
    tcase_add_test(ts, formats_spot_checks);
    tcase_add_test(tcli, cli_shows_every_shipped_entry);
    tcase_add_test(tcli, cli_show_notes_an_id_of_two_kinds);
    tcase_set_timeout(tcli, 60);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, ts);
    suite_add_tcase(s, tcli);
    return s;
}
