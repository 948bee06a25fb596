// gemm probe: dense GEMM throughput through cuBLASLt, per precision the GPU
// supports, on square and LLM-shaped problems.  Layout "TN" (A transposed),
// which every precision accepts, including fp8 and int8.  FLOP = 2 m n k.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "probe.h"

#define CKB(expr)                                                                          \
    do {                                                                                   \
        cublasStatus_t gp__s = (expr);                                                     \
        if (gp__s != CUBLAS_STATUS_SUCCESS)                                                \
            gp_probe_fail(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                          #expr + " failed: " + cublasLtGetStatusName(gp__s));             \
    } while (0)

namespace {

enum elt { E_F64, E_F32, E_F16, E_BF16, E_FP8, E_I8, E_I32 };

size_t elt_size(elt e)
{
    switch (e) {
    case E_F64:
        return 8;
    case E_F32:
    case E_I32:
        return 4;
    case E_F16:
    case E_BF16:
        return 2;
    default:
        return 1;
    }
}

struct gcfg {
    const char *prec, *pipe, *acc;
    elt ab, c;
    cudaDataType_t ab_t, c_t, scale_t;
    cublasComputeType_t comp;
    int min_cc;      // 10 * major + minor
    double tol;      // |C - exact| <= tol * sum |a b|
};

// Values: multiples of 1/128 in [-1, 1) (exact in fp16, bf16 and tf32),
// multiples of 1/8 for fp8 e4m3, integers in [-8, 8] for int8.
__host__ __device__ inline float gval(size_t i, uint32_t seed, int kind)
{
    uint32_t x = (uint32_t)i * 2654435761U + seed;
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    if (kind == 1)
        return (float)((int)(x % 16U) - 8) / 8.0f;
    if (kind == 2)
        return (float)((int)(x % 17U) - 8);
    return (float)((int)(x & 0xffU) - 128) / 128.0f;
}

template <class T> __device__ inline T conv(float f);
template <> __device__ inline double conv<double>(float f) { return (double)f; }
template <> __device__ inline float conv<float>(float f) { return f; }
template <> __device__ inline __half conv<__half>(float f) { return __float2half_rn(f); }
template <> __device__ inline __nv_bfloat16 conv<__nv_bfloat16>(float f)
{
    return __float2bfloat16_rn(f);
}
template <> __device__ inline __nv_fp8_e4m3 conv<__nv_fp8_e4m3>(float f)
{
    return __nv_fp8_e4m3(f);
}
template <> __device__ inline int8_t conv<int8_t>(float f) { return (int8_t)f; }

template <class T> __global__ void fill(T *p, size_t n, uint32_t seed, int kind)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = conv<T>(gval(i, seed, kind));
}

void fill_dev(void *p, elt e, size_t n, uint32_t seed, int kind)
{
    const int th = 256, bl = 1024;
    switch (e) {
    case E_F64:
        fill<double><<<bl, th>>>((double *)p, n, seed, kind);
        break;
    case E_F32:
        fill<float><<<bl, th>>>((float *)p, n, seed, kind);
        break;
    case E_F16:
        fill<__half><<<bl, th>>>((__half *)p, n, seed, kind);
        break;
    case E_BF16:
        fill<__nv_bfloat16><<<bl, th>>>((__nv_bfloat16 *)p, n, seed, kind);
        break;
    case E_FP8:
        fill<__nv_fp8_e4m3><<<bl, th>>>((__nv_fp8_e4m3 *)p, n, seed, kind);
        break;
    case E_I8:
        fill<int8_t><<<bl, th>>>((int8_t *)p, n, seed, kind);
        break;
    default:
        gp_probe_fail("gemm: no fill for this element type");
    }
    CK_LAUNCH();
}

double read_elt(const void *dev, elt e, size_t idx)
{
    unsigned char b[8];
    size_t sz = elt_size(e);
    CK(cudaMemcpy(b, (const unsigned char *)dev + idx * sz, sz, cudaMemcpyDeviceToHost));
    switch (e) {
    case E_F64: {
        double v;
        memcpy(&v, b, 8);
        return v;
    }
    case E_F32: {
        float v;
        memcpy(&v, b, 4);
        return v;
    }
    case E_I32: {
        int32_t v;
        memcpy(&v, b, 4);
        return v;
    }
    case E_F16: {
        __half v;
        memcpy(&v, b, 2);
        return (double)__half2float(v);
    }
    case E_BF16: {
        __nv_bfloat16 v;
        memcpy(&v, b, 2);
        return (double)__bfloat162float(v);
    }
    default:
        gp_probe_fail("gemm: unexpected output type");
    }
}

struct shape {
    const char *label;
    long m, n, k;
};

struct dbuf {
    void *p = nullptr;
    ~dbuf() { if (p) cudaFree(p); }
};

} // namespace

void gp_probe_gemm(const probe_opts &o, const probe_dev &d, std::string &out)
{
    const int cc = d.major * 10 + d.minor;
    const bool fp64_tensor = d.minor == 0 && (d.major == 8 || d.major == 9 || d.major == 10);
    static const gcfg cfgs[] = {
        {"fp64", "", "fp32", E_F64, E_F64, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 80, 1e-10},
        {"fp32", "cuda", "fp32", E_F32, E_F32, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 80, 1e-5},
        {"tf32", "tensor", "fp32", E_F32, E_F32, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 80, 1e-4},
        {"fp16", "tensor", "fp32", E_F16, E_F16, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 80, 2e-3},
        {"fp16", "tensor", "fp16", E_F16, E_F16, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, 80, 3e-2},
        {"bf16", "tensor", "fp32", E_BF16, E_BF16, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 80, 1e-2},
        {"fp8", "tensor", "fp32", E_FP8, E_BF16, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 89, 1e-2},
        {"int8", "tensor", "fp32", E_I8, E_I32, CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 80, 0.0},
    };
    std::vector<shape> shapes;
    if (o.quick)
        shapes = {{"square-4096", 4096, 4096, 4096}, {"square-8192", 8192, 8192, 8192},
                  {"llm-mlp-up", 4096, 11008, 4096}};
    else
        shapes = {{"square-4096", 4096, 4096, 4096},    {"square-8192", 8192, 8192, 8192},
                  {"square-16384", 16384, 16384, 16384}, {"llm-qkv", 4096, 12288, 4096},
                  {"llm-mlp-up", 4096, 11008, 4096},     {"llm-mlp-down", 4096, 4096, 11008}};
    const double budget_s = o.quick ? 3.0 : 12.0; // per shape, to skip hopeless sizes

    cublasLtHandle_t lt;
    CKB(cublasLtCreate(&lt));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const size_t ws_bytes = 64u << 20;
    dbuf ws;
    CK(cudaMalloc(&ws.p, ws_bytes));
    try {
        for (const gcfg &g : cfgs) {
            if (cc < g.min_cc) {
                gp_probe_note_skip(std::string("gemm ") + g.prec + ": needs sm_" +
                                   std::to_string(g.min_cc) + " or newer");
                continue;
            }
            // A cuBLASLt refusal or a failed result check skips this precision
            // only; a CUDA error ends the probe.
            try {
            const char *pipe = g.pipe[0] ? g.pipe : (fp64_tensor ? "tensor" : "cuda");
            double slow_one = 0; // time of one GEMM at the previous shape
            for (const shape &sh : shapes) {
                const size_t m = (size_t)sh.m, n = (size_t)sh.n, k = (size_t)sh.k;
                const double flop = 2.0 * (double)m * (double)n * (double)k;
                // Predict from the previous shape and skip what cannot finish in budget.
                if (slow_one > 0) {
                    double prev = 2.0 * 4096.0 * 4096.0 * 4096.0;
                    double est = slow_one * flop / prev * (o.trials + 2);
                    if (est > budget_s) {
                        if (o.verbose)
                            fprintf(stderr, "gpuplan-probe: gemm %s %s: skipped (~%.0f s)\n",
                                    g.prec, sh.label, est);
                        continue;
                    }
                }
                size_t bytes = (m * k + k * n) * elt_size(g.ab) + m * n * elt_size(g.c);
                size_t fr = 0, tot = 0;
                CK(cudaMemGetInfo(&fr, &tot));
                if ((double)bytes > 0.8 * (double)fr)
                    continue;
                dbuf A, B, C;
                CK(cudaMalloc(&A.p, m * k * elt_size(g.ab)));
                CK(cudaMalloc(&B.p, k * n * elt_size(g.ab)));
                CK(cudaMalloc(&C.p, m * n * elt_size(g.c)));
                int kind = g.ab == E_FP8 ? 1 : g.ab == E_I8 ? 2 : 0;
                fill_dev(A.p, g.ab, m * k, 0x1234u, kind);
                fill_dev(B.p, g.ab, k * n, 0xabcdu, kind);
                CK(cudaMemset(C.p, 0, m * n * elt_size(g.c)));
                CK(cudaDeviceSynchronize());

                cublasLtMatmulDesc_t op = nullptr;
                cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
                cublasLtMatmulPreference_t pref = nullptr;
                auto cleanup = [&]() {
                    if (pref) cublasLtMatmulPreferenceDestroy(pref);
                    if (lc) cublasLtMatrixLayoutDestroy(lc);
                    if (lb) cublasLtMatrixLayoutDestroy(lb);
                    if (la) cublasLtMatrixLayoutDestroy(la);
                    if (op) cublasLtMatmulDescDestroy(op);
                };
                try {
                    CKB(cublasLtMatmulDescCreate(&op, g.comp, g.scale_t));
                    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
                    CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
                    CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
                    CKB(cublasLtMatrixLayoutCreate(&la, g.ab_t, k, m, (int64_t)k));
                    CKB(cublasLtMatrixLayoutCreate(&lb, g.ab_t, k, n, (int64_t)k));
                    CKB(cublasLtMatrixLayoutCreate(&lc, g.c_t, m, n, (int64_t)m));
                    CKB(cublasLtMatmulPreferenceCreate(&pref));
                    uint64_t wsb = ws_bytes;
                    CKB(cublasLtMatmulPreferenceSetAttribute(
                        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb, sizeof wsb));
                    cublasLtMatmulHeuristicResult_t heur[4];
                    int got = 0;
                    cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref,
                                                                       4, heur, &got);
                    if (hs == CUBLAS_STATUS_NOT_SUPPORTED || (hs == CUBLAS_STATUS_SUCCESS && got == 0)) {
                        gp_probe_note_skip(std::string("gemm ") + g.prec + " acc " + g.acc +
                                           ": cuBLASLt has no kernel for it on sm_" +
                                           std::to_string(d.major) + std::to_string(d.minor));
                        cleanup();
                        break; // no other shape will work either
                    }
                    CKB(hs);
                    // Scalars in the scale type.
                    double a64 = 1, b64 = 0;
                    float a32 = 1, b32 = 0;
                    __half a16 = __float2half(1.0f), b16 = __float2half(0.0f);
                    int32_t ai = 1, bi = 0;
                    const void *alpha = g.scale_t == CUDA_R_64F   ? (const void *)&a64
                                        : g.scale_t == CUDA_R_16F ? (const void *)&a16
                                        : g.scale_t == CUDA_R_32I ? (const void *)&ai
                                                                  : (const void *)&a32;
                    const void *beta = g.scale_t == CUDA_R_64F   ? (const void *)&b64
                                       : g.scale_t == CUDA_R_16F ? (const void *)&b16
                                       : g.scale_t == CUDA_R_32I ? (const void *)&bi
                                                                 : (const void *)&b32;
                    const cublasLtMatmulAlgo_t *algo = &heur[0].algo;
                    auto run = [&]() {
                        CKB(cublasLtMatmul(lt, op, alpha, A.p, la, B.p, lb, beta, C.p, lc, C.p, lc,
                                           algo, ws.p, ws_bytes, s));
                    };
                    int batch = gp_probe_pick_batch(run, s, o.target_s, 200);
                    {
                        std::vector<double> one = gp_probe_time(run, s, 1, 1, 0, false);
                        slow_one = one[0] * (2.0 * 4096.0 * 4096.0 * 4096.0) / flop;
                        if (one[0] * batch * (o.trials + 2) > 4 * budget_s) {
                            cleanup();
                            continue;
                        }
                    }
                    std::vector<double> t =
                        gp_probe_time(run, s, batch, o.trials, o.quick ? batch : 3 * batch, true);
                    // Verify outside the timed region: 8 entries against exact sums.
                    CK(cudaStreamSynchronize(s));
                    bool ok = true;
                    double worst = 0;
                    for (int v = 0; v < 8; v++) {
                        size_t i = (size_t)gp_probe_pattern((size_t)v, 7u) % m;
                        size_t j = (size_t)gp_probe_pattern((size_t)v, 9u) % n;
                        double exact = 0, mag = 0;
                        for (size_t kk = 0; kk < k; kk++) {
                            double a = gval(i * k + kk, 0x1234u, kind);
                            double b = gval(j * k + kk, 0xabcdu, kind);
                            exact += a * b;
                            mag += std::fabs(a * b);
                        }
                        double got_v = read_elt(C.p, g.c, j * m + i);
                        double err = std::fabs(got_v - exact);
                        double lim = g.tol * mag + (g.tol > 0 ? 1e-6 : 0.0);
                        if (mag > 0 && err / mag > worst)
                            worst = err / mag;
                        if (!(err <= lim))
                            ok = false;
                    }
                    if (!ok)
                        gp_probe_fail(std::string("gemm ") + g.prec + " acc " + g.acc + " " +
                                      sh.label + ": result check failed (relative error " +
                                      gp_ynum(worst) + ")");
                    probe_stats st = gp_probe_stats(t);
                    out += std::string("  - {precision: ") + g.prec + ", pipeline: " + pipe +
                           ", accum: " + g.acc + ", label: " + sh.label +
                           ", m: " + std::to_string(sh.m) + ", n: " + std::to_string(sh.n) +
                           ", k: " + std::to_string(sh.k) + ", flop: " + std::to_string((long long)flop) +
                           ", batch: " + std::to_string(batch) + ", verified: true, t_s: " +
                           gp_ylist(t) + ", stats: " + gp_ystats(st, "median_flop_per_s", flop) +
                           "}\n";
                    if (o.verbose)
                        fprintf(stderr, "gpuplan-probe: gemm %-4s %-6s acc %-4s %-13s %8.1f TFLOP/s (cv %.3f)\n",
                                g.prec, pipe, g.acc, sh.label, flop / st.median / 1e12, st.cv);
                } catch (...) {
                    cleanup();
                    throw;
                }
                cleanup();
            }
            } catch (const probe_error &e) {
                if (e.code != cudaSuccess)
                    throw;
                gp_probe_note_skip(std::string("gemm ") + g.prec + " acc " + g.acc + ": " +
                                   e.what());
            }
        }
    } catch (...) {
        cudaStreamDestroy(s);
        cublasLtDestroy(lt);
        throw;
    }
    CK(cudaStreamDestroy(s));
    CKB(cublasLtDestroy(lt));
}
