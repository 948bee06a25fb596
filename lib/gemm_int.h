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

#endif /* GP_GEMM_INT_H */
