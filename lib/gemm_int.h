/* Private to the library (not installed): the GEMM tile model the training
 * step model (train.c, docs/models/training.md 9.1) and the prefill
 * (infer.c, docs/models/inference.md 5.4) share. */
#ifndef GP_GEMM_INT_H
#define GP_GEMM_INT_H

#include <math.h>

/* The output tile a GEMM kernel gives each thread block, m x n (CUTLASS's
 * and cuBLAS's large Hopper/Ampere tiles: 256 x 128). */
#define GP_GEMM_TILE_M 256.0
#define GP_GEMM_TILE_N 128.0

/* Wave-quantisation efficiency of a GEMM whose output is m x n (batch of
 * them), tiled tm x tn over `sms` SMs: tiles / (waves x SMs).  1 when the
 * SM count is unknown.  MODEL: NVIDIA Matrix Multiplication Background
 * User's Guide, "Wave quantization". */
static inline double gp__wave_eff(double m, double n, double batch, double sms, double tm,
                                  double tn)
{
    double tiles, waves;
    if (!(sms > 0.0) || !(tm > 0.0) || !(tn > 0.0))
        return 1.0;
    tiles = ceil(m / tm) * ceil(n / tn) * batch;
    waves = ceil(tiles / sms);
    return waves > 0.0 ? tiles / (waves * sms) : 1.0;
}

/* Split-K: a GEMM whose output tiles leave SMs idle can split its inner
 * dimension k into s slices, s x the tiles, each writing fp32 partial sums
 * that a second kernel adds (CUTLASS's "parallel split-K", the mode its
 * maintainers recommend for weight-gradient kernels, NVIDIA/cutlass
 * discussion #396; cuBLAS's heuristics pick split-K or stream-K for such
 * shapes, Osama et al. 2023, arXiv:2301.03598).  MODEL: at most
 * GP_GEMM_SPLITK_MAX slices of at least GP_GEMM_SPLITK_MIN_K each (four
 * 64-deep k-tiles); the library takes the fastest s. */
#define GP_GEMM_SPLITK_MAX 16.0
#define GP_GEMM_SPLITK_MIN_K 256.0

/* Time of `batch` GEMMs (out m x n, inner k) on their roofline (Williams et
 * al. 2009) at `peak` FLOP/s and `bw` bytes/s, with wave quantisation over
 * `sms` SMs (tile tm x tn) and the best split-K s >= 1.  `in` is the bytes
 * the inputs take (all of the batch), e the output's element bytes:
 *   max(2mnk b / (peak x wave(s b tiles)), (in + c m n b) / bw)
 *   + (s > 1: (4s + e) m n b / bw, the reduction)
 * c = e for s = 1, 4s for the fp32 partials; *split (may be NULL) gets s. */
static inline double gp__gemm_time(double m, double n, double k, double batch, double peak,
                                   double bw, double in, double e, double sms, double tm,
                                   double tn, double *split)
{
    double best = 0.0, sb = 1.0, s, floor_t;
    /* No split can beat max(FLOP / peak, in / bw) plus the least reduction,
     * (8 + e) m n b / bw: when the unsplit time is within that, stop. */
    floor_t = 2.0 * m * n * k * batch / peak;
    if (in / bw > floor_t)
        floor_t = in / bw;
    for (s = 1.0; s <= GP_GEMM_SPLITK_MAX; s += 1.0) {
        double w, tf, tb, t;
        if (s > 1.0 && (!(sms > 0.0) || k / s < GP_GEMM_SPLITK_MIN_K ||
                        floor_t + (4.0 * s + e) * m * n * batch / bw >= best))
            break;
        w = gp__wave_eff(m, n, batch * s, sms, tm, tn);
        tf = 2.0 * m * n * k * batch / (peak * w);
        tb = (in + (s > 1.0 ? 4.0 * s : e) * m * n * batch) / bw;
        t = (tf > tb ? tf : tb) + (s > 1.0 ? (4.0 * s + e) * m * n * batch / bw : 0.0);
        if (s == 1.0 || t < best) {
            best = t;
            sb = s;
        }
    }
    if (split != NULL)
        *split = sb;
    return best;
}

#endif /* GP_GEMM_INT_H */
