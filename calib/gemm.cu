// gemm probe: dense GEMM throughput through cuBLASLt, per precision the GPU
// supports, on square and LLM-shaped problems.  Layout "TN" (A transposed,
// B not, column-major, every leading dimension a multiple of 16), which every
// precision accepts, including fp8 (which requires TN on sm_89/sm_90) and
// int8 (IMMA).  FLOP = 2 m n k.
//
// cuBLASLt is loaded with dlopen (libcublasLt.so.<major of the headers>), so
// the probe binary needs no cuBLAS at link or load time: without it, this
// probe alone is skipped with the reason.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dlfcn.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "probe.h"

#if defined(__has_include)
#if __has_include(<cublasLt.h>)
#include <cublasLt.h>
#define GP_HAVE_CUBLASLT 1
#endif
#endif
#ifndef GP_HAVE_CUBLASLT
#define GP_HAVE_CUBLASLT 0
#endif

#if GP_HAVE_CUBLASLT

#define GP_STR2(x) #x
#define GP_STR(x) GP_STR2(x)

namespace {

// The cuBLASLt entry points, typed from the headers.
struct lt_api {
    void *h = nullptr;
    decltype(&cublasLtGetVersion) get_version = nullptr;
    decltype(&cublasLtGetStatusName) status_name = nullptr;
    decltype(&cublasLtCreate) create = nullptr;
    decltype(&cublasLtDestroy) destroy = nullptr;
    decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
    decltype(&cublasLtMatmulDescDestroy) desc_destroy = nullptr;
    decltype(&cublasLtMatmulDescSetAttribute) desc_set = nullptr;
    decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
    decltype(&cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
    decltype(&cublasLtMatmulPreferenceCreate) pref_create = nullptr;
    decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy = nullptr;
    decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
    decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
    decltype(&cublasLtMatmul) matmul = nullptr;
};
lt_api g_lt;
bool g_lt_tried = false;
std::string g_lt_why;

template <class T> bool lt_sym(void *h, const char *name, T &f)
{
    f = gp_probe_sym<T>(h, name);
    return f != nullptr;
}

// Tries one candidate; on failure returns false with the reason in why.
bool lt_try(const std::string &name, std::string &why)
{
    void *h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
        const char *e = dlerror();
        why = e ? e : name + ": cannot be loaded";
        return false;
    }
    lt_api a;
    a.h = h;
    bool ok = lt_sym(h, "cublasLtGetVersion", a.get_version) &&
              lt_sym(h, "cublasLtGetStatusName", a.status_name) &&
              lt_sym(h, "cublasLtCreate", a.create) && lt_sym(h, "cublasLtDestroy", a.destroy) &&
              lt_sym(h, "cublasLtMatmulDescCreate", a.desc_create) &&
              lt_sym(h, "cublasLtMatmulDescDestroy", a.desc_destroy) &&
              lt_sym(h, "cublasLtMatmulDescSetAttribute", a.desc_set) &&
              lt_sym(h, "cublasLtMatrixLayoutCreate", a.layout_create) &&
              lt_sym(h, "cublasLtMatrixLayoutDestroy", a.layout_destroy) &&
              lt_sym(h, "cublasLtMatmulPreferenceCreate", a.pref_create) &&
              lt_sym(h, "cublasLtMatmulPreferenceDestroy", a.pref_destroy) &&
              lt_sym(h, "cublasLtMatmulPreferenceSetAttribute", a.pref_set) &&
              lt_sym(h, "cublasLtMatmulAlgoGetHeuristic", a.heuristic) &&
              lt_sym(h, "cublasLtMatmul", a.matmul);
    if (!ok) {
        why = name + ": lacks a cuBLASLt function";
        dlclose(h);
        return false;
    }
    // Structures (the heuristic result) are laid out as in the headers this
    // probe was built with: insist on the same major version.
    size_t v = a.get_version();
    if (v / 10000 != (size_t)CUBLAS_VER_MAJOR) {
        why = name + ": version " + std::to_string(v) + ", but the probe was built against "
              "major version " GP_STR(CUBLAS_VER_MAJOR);
        dlclose(h);
        return false;
    }
    g_lt = a;
    return true;
}

bool lt_load()
{
    if (g_lt_tried)
        return g_lt.h != nullptr;
    g_lt_tried = true;
    const std::string so = "libcublasLt.so." GP_STR(CUBLAS_VER_MAJOR);
    std::vector<std::string> names;
    const char *env = getenv("GPUPLAN_CUBLASLT");
    if (env != nullptr && env[0] != '\0')
        names.push_back(env);
    names.push_back(so); // LD_LIBRARY_PATH, the binary's run path, ld.so.cache
    const char *home = getenv("CUDA_HOME");
    if (home != nullptr && home[0] != '\0')
        names.push_back(std::string(home) + "/lib64/" + so);
    names.push_back("/usr/local/cuda/lib64/" + so);
    names.push_back("libcublasLt.so");
    std::string tried;
    for (const std::string &n : names) {
        std::string why;
        if (lt_try(n, why))
            return true;
        tried += (tried.empty() ? "" : "; ") + why;
    }
    g_lt_why = "cuBLASLt not usable (" + tried + "); set GPUPLAN_CUBLASLT=/path/to/" + so +
               " or add its folder to LD_LIBRARY_PATH";
    return false;
}

} // namespace

long gp_probe_cublaslt_version(std::string *why)
{
    if (!lt_load()) {
        if (why)
            *why = g_lt_why;
        return 0;
    }
    return (long)g_lt.get_version();
}

#define CKB(expr)                                                                          \
    do {                                                                                   \
        cublasStatus_t gp__s = (expr);                                                     \
        if (gp__s != CUBLAS_STATUS_SUCCESS)                                                \
            gp_probe_fail(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                          #expr + " failed: " + g_lt.status_name(gp__s));                  \
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

// The matmul descriptors of one problem; destroyed in any case.
struct lt_problem {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    ~lt_problem()
    {
        if (pref) g_lt.pref_destroy(pref);
        if (lc) g_lt.layout_destroy(lc);
        if (lb) g_lt.layout_destroy(lb);
        if (la) g_lt.layout_destroy(la);
        if (op) g_lt.desc_destroy(op);
    }
};

// Thrown (as a probe_error with cudaSuccess) when cuBLASLt has no kernel for
// a precision: the precision is skipped, the others go on.
const char *const k_no_kernel = "cuBLASLt has no kernel for it";

} // namespace

// Time per point (H200, full mode: 15 trials, 20 ms batches, 3 warm-up
// batches): about 18 x max(20 ms, one GEMM) + 5 GEMMs + ~0.1 s set-up, i.e.
// 0.45 s for every tensor-core shape except square-16384 fp64/fp32 (one GEMM
// ~0.15 s at ~60 TFLOP/s: ~3.5 s each).  Eight precisions x six shapes:
// ~30 s expected.  The budget (main.cu: 60 s, quick 20 s) is shared out
// precision by precision (what is left / precisions left, so bf16, fp16 and
// fp8, which run first, are never starved by fp64); a shape whose predicted
// cost exceeds its precision's share is skipped with a note.
void gp_probe_gemm(const probe_opts &o, const probe_dev &d, gpw_doc *doc)
{
    std::string why;
    if (gp_probe_cublaslt_version(&why) == 0)
        gp_probe_fail(why);
    const int cc = d.major * 10 + d.minor;
    const bool fp64_tensor = d.minor == 0 && (d.major == 8 || d.major == 9 || d.major == 10);
    // Order: what planning needs most first (bf16, fp16, fp8), slow fp64/fp32 last.
    static const gcfg cfgs[] = {
        {"bf16", "tensor", "fp32", E_BF16, E_BF16, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 80, 1e-2},
        {"fp16", "tensor", "fp32", E_F16, E_F16, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 80, 2e-3},
        {"fp8", "tensor", "fp32", E_FP8, E_BF16, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 89, 1e-2},
        {"int8", "tensor", "fp32", E_I8, E_I32, CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 80, 0.0},
        {"tf32", "tensor", "fp32", E_F32, E_F32, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 80, 1e-4},
        {"fp16", "tensor", "fp16", E_F16, E_F16, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, 80, 3e-2},
        {"fp32", "cuda", "fp32", E_F32, E_F32, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 80, 1e-5},
        {"fp64", "", "fp32", E_F64, E_F64, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 80, 1e-10},
    };
    const size_t ncfg = sizeof cfgs / sizeof cfgs[0];
    std::vector<shape> shapes;
    if (o.quick)
        shapes = {{"square-4096", 4096, 4096, 4096}, {"llm-mlp-up", 4096, 11008, 4096},
                  {"square-8192", 8192, 8192, 8192}};
    else
        shapes = {{"square-4096", 4096, 4096, 4096},   {"llm-mlp-up", 4096, 11008, 4096},
                  {"llm-mlp-down", 4096, 4096, 11008}, {"llm-qkv", 4096, 12288, 4096},
                  {"square-8192", 8192, 8192, 8192},   {"square-16384", 16384, 16384, 16384}};
    const int warm_batches = o.quick ? 1 : 3;

    cublasLtHandle_t lt = nullptr;
    CKB(g_lt.create(&lt));
    cudaStream_t s = nullptr;
    cudaError_t src = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (src != cudaSuccess) {
        g_lt.destroy(lt);
        CK(src);
    }
    // 64 MiB: cuBLAS asks for >= 32 MiB on Hopper; larger lets split-K and
    // stream-K kernels run.
    const size_t ws_bytes = 64u << 20;
    dbuf ws;
    try {
        CK(cudaMalloc(&ws.p, ws_bytes));
        for (size_t ci = 0; ci < ncfg; ci++) {
            const gcfg &g = cfgs[ci];
            const std::string tag = std::string("gemm ") + g.prec + " acc " + g.acc;
            if (cc < g.min_cc) {
                gp_probe_note_skip(tag + ": needs sm_" + std::to_string(g.min_cc) +
                                   " or newer");
                continue;
            }
            // This precision's share of what is left of the budget.
            const double share = gp_probe_left(o) / (double)(ncfg - ci);
            const double t_cfg = gp_probe_now();
            // A cuBLASLt refusal or a failed result check skips this precision
            // only; a CUDA error ends the probe.
            try {
            const char *pipe = g.pipe[0] ? g.pipe : (fp64_tensor ? "tensor" : "cuda");
            double rate = 0; // FLOP/s seen at the previous shape
            for (size_t si = 0; si < shapes.size(); si++) {
                const shape &sh = shapes[si];
                const size_t m = (size_t)sh.m, n = (size_t)sh.n, k = (size_t)sh.k;
                const double flop = 2.0 * (double)m * (double)n * (double)k;
                const double used = gp_probe_now() - t_cfg;
                // Predict this shape's cost from the previous one; the first
                // shape of a precision always runs (unless the budget is gone).
                if (rate > 0) {
                    double one = flop / rate;
                    double est = 0.1 + (one > o.target_s ? one : o.target_s) *
                                           (o.trials + warm_batches) + 4 * one;
                    if (used + est > share) {
                        gp_probe_note_skip(tag + " " + sh.label + ": skipped, ~" +
                                           gp_probe_fmt(est) + " s would exceed this "
                                           "precision's share of the time budget");
                        continue;
                    }
                } else if (gp_probe_left(o) <= 0) {
                    gp_probe_note_skip(tag + ": skipped, the gemm time budget is spent");
                    break;
                }
                size_t bytes = (m * k + k * n) * elt_size(g.ab) + m * n * elt_size(g.c);
                size_t fr = 0, tot = 0;
                CK(cudaMemGetInfo(&fr, &tot));
                if ((double)bytes > 0.8 * (double)fr) {
                    gp_probe_note_skip(tag + " " + sh.label + ": skipped, needs " +
                                       std::to_string(bytes >> 20) + " MiB, " +
                                       std::to_string(fr >> 20) + " MiB free");
                    continue;
                }
                dbuf A, B, C;
                CK(cudaMalloc(&A.p, m * k * elt_size(g.ab)));
                CK(cudaMalloc(&B.p, k * n * elt_size(g.ab)));
                CK(cudaMalloc(&C.p, m * n * elt_size(g.c)));
                int kind = g.ab == E_FP8 ? 1 : g.ab == E_I8 ? 2 : 0;
                fill_dev(A.p, g.ab, m * k, 0x1234u, kind);
                fill_dev(B.p, g.ab, k * n, 0xabcdu, kind);
                CK(cudaMemset(C.p, 0, m * n * elt_size(g.c)));
                CK(cudaDeviceSynchronize());

                lt_problem pr;
                CKB(g_lt.desc_create(&pr.op, g.comp, g.scale_t));
                cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
                CKB(g_lt.desc_set(pr.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
                CKB(g_lt.desc_set(pr.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
                if (g.ab == E_FP8) {
                    // fp8: scale pointers left NULL (= 1.0); fast accumulation,
                    // the setting inference engines use on Hopper (no periodic
                    // promotion; the result check below still holds).
                    int8_t fast = 1;
                    CKB(g_lt.desc_set(pr.op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
                }
                // Column-major: A stored k x m (op T), B k x n (op N), C m x n.
                CKB(g_lt.layout_create(&pr.la, g.ab_t, k, m, (int64_t)k));
                CKB(g_lt.layout_create(&pr.lb, g.ab_t, k, n, (int64_t)k));
                CKB(g_lt.layout_create(&pr.lc, g.c_t, m, n, (int64_t)m));
                CKB(g_lt.pref_create(&pr.pref));
                uint64_t wsb = ws_bytes;
                CKB(g_lt.pref_set(pr.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb,
                                  sizeof wsb));
                cublasLtMatmulHeuristicResult_t heur[8];
                memset(heur, 0, sizeof heur);
                int got = 0;
                cublasStatus_t hs = g_lt.heuristic(lt, pr.op, pr.la, pr.lb, pr.lc, pr.lc,
                                                   pr.pref, 8, heur, &got);
                if (hs == CUBLAS_STATUS_NOT_SUPPORTED || (hs == CUBLAS_STATUS_SUCCESS && got == 0))
                    gp_probe_fail(std::string(k_no_kernel) + " on sm_" + std::to_string(d.major) +
                                  std::to_string(d.minor) + " (heuristic: " +
                                  g_lt.status_name(hs) + ", " + std::to_string(got) +
                                  " algorithms)");
                CKB(hs);
                // Scalars in the scale type (host pointer mode, the default).
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
                    CKB(g_lt.matmul(lt, pr.op, alpha, A.p, pr.la, B.p, pr.lb, beta, C.p, pr.lc,
                                    C.p, pr.lc, algo, ws.p, ws_bytes, s));
                };
                double one = 0;
                int batch = gp_probe_pick_batch(run, s, o.target_s, 200, &one);
                if (one > 0)
                    rate = flop / one;
                {
                    double est = one * batch * (o.trials + warm_batches);
                    double now_used = gp_probe_now() - t_cfg;
                    if (now_used + est > share && si > 0) {
                        gp_probe_note_skip(tag + " " + sh.label + ": skipped, ~" +
                                           gp_probe_fmt(est) + " s would exceed this "
                                           "precision's share of the time budget");
                        continue;
                    }
                }
                std::vector<double> t =
                    gp_probe_time(run, s, batch, o.trials, warm_batches * batch, true);
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
                    gp_probe_fail(std::string(sh.label) + ": result check failed (relative error " +
                                  gp_probe_fmt(worst) + ")");
                gpw_gemm(doc, g.prec, pipe, g.acc, sh.label, sh.m, sh.n, sh.k, batch, t.data(),
                         t.size());
                if (o.verbose) {
                    probe_stats st = gp_probe_stats(t);
                    fprintf(stderr, "gpuplan-probe: gemm %-4s %-6s acc %-4s %-13s %8.1f TFLOP/s (cv %.3f)\n",
                            g.prec, pipe, g.acc, sh.label, flop / st.median / 1e12, st.cv);
                }
            }
            } catch (const probe_error &e) {
                if (e.code != cudaSuccess)
                    throw;
                gp_probe_note_skip(tag + ": " + e.what());
            }
        }
    } catch (...) {
        cudaStreamDestroy(s);
        g_lt.destroy(lt);
        throw;
    }
    CK(cudaStreamDestroy(s));
    CKB(g_lt.destroy(lt));
}

#else // !GP_HAVE_CUBLASLT

long gp_probe_cublaslt_version(std::string *why)
{
    if (why)
        *why = "built without cuBLASLt headers (cublasLt.h not found by nvcc)";
    return 0;
}

void gp_probe_gemm(const probe_opts &, const probe_dev &, gpw_doc *)
{
    std::string why;
    gp_probe_cublaslt_version(&why);
    gp_probe_fail(why);
}

#endif // GP_HAVE_CUBLASLT
