// memory probe: device-memory bandwidth with SM kernels (16-byte loads and
// stores, grid-stride loops unrolled so each thread has four independent
// loads in flight) over arrays much larger than L2 (16 x L2 within
// [1 GiB, 2 GiB]), plus the copy engine's cudaMemcpy D2D and an L2-resident
// read.  Index arithmetic is size_t throughout (2 GiB = 2^27 uint4).
//
// Time (H200, 1 GiB arrays at ~4.3 TB/s: 0.25 ms a pass): each kernel is 16
// batches of >= 20 ms plus a few passes, ~0.35 s; 5 kernels x 4 grid sizes +
// memcpy = ~7.5 s (quick: 2 grid sizes, 5 ms batches, ~0.6 s).  Budget
// (main.cu) 20 s, quick 8 s: kernels that would start past it are skipped.
//
// Convention: `bytes` is DRAM traffic per pass, reads + writes:
//   read N, write N, copy 2N, triad 3N (two reads, one write), memcpy-d2d 2N,
//   l2-read reps x working set (reads only).
#include <cstdio>
#include <string>
#include <vector>

#include "probe.h"

namespace {

__global__ void k_iota(uint32_t *p, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = (uint32_t)i;
}

__global__ void k_constf(float *p, size_t n, float v)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = v;
}

#define SUM4(v) ((v).x + (v).y + (v).z + (v).w)

// Sum of every 32-bit word read, per thread (wrapping), so nothing is dead code
// and the host can check that every element was read `reps` times.
__global__ void k_read(const uint4 *__restrict__ a, size_t n4, int reps, uint32_t *out)
{
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    uint32_t acc = 0;
    for (int r = 0; r < reps; r++) {
        size_t i = tid;
        for (; i + 3 * stride < n4; i += 4 * stride) {
            uint4 v0 = __ldcg(a + i);
            uint4 v1 = __ldcg(a + i + stride);
            uint4 v2 = __ldcg(a + i + 2 * stride);
            uint4 v3 = __ldcg(a + i + 3 * stride);
            acc += SUM4(v0) + SUM4(v1) + SUM4(v2) + SUM4(v3);
        }
        for (; i < n4; i += stride) {
            uint4 v = __ldcg(a + i);
            acc += SUM4(v);
        }
    }
    out[tid] = acc;
}

__global__ void k_write(uint4 *__restrict__ b, size_t n4, uint32_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        uint32_t base = seed + 4u * (uint32_t)i;
        b[i] = make_uint4(base, base + 1u, base + 2u, base + 3u);
    }
}

__global__ void k_copy(const uint4 *__restrict__ a, uint4 *__restrict__ b, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        uint4 v0 = a[i], v1 = a[i + stride], v2 = a[i + 2 * stride], v3 = a[i + 3 * stride];
        b[i] = v0;
        b[i + stride] = v1;
        b[i + 2 * stride] = v2;
        b[i + 3 * stride] = v3;
    }
    for (; i < n4; i += stride)
        b[i] = a[i];
}

__device__ __forceinline__ float4 triad4(float4 x, float4 y, float s)
{
    return make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
}

__global__ void k_triad(float4 *__restrict__ a, const float4 *__restrict__ b,
                        const float4 *__restrict__ c, float s, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 1 * stride < n4; i += 2 * stride) {
        float4 x0 = b[i], y0 = c[i], x1 = b[i + stride], y1 = c[i + stride];
        a[i] = triad4(x0, y0, s);
        a[i + stride] = triad4(x1, y1, s);
    }
    for (; i < n4; i += stride)
        a[i] = triad4(b[i], c[i], s);
}

struct dbuf {
    void *p = nullptr;
    ~dbuf() { if (p) cudaFree(p); }
};

uint32_t u32_at(const void *dev, size_t idx)
{
    uint32_t v = 0;
    CK(cudaMemcpy(&v, (const uint32_t *)dev + idx, 4, cudaMemcpyDeviceToHost));
    return v;
}

float f32_at(const void *dev, size_t idx)
{
    float v = 0;
    CK(cudaMemcpy(&v, (const float *)dev + idx, 4, cudaMemcpyDeviceToHost));
    return v;
}

} // namespace

void gp_probe_memory(const probe_opts &o, const probe_dev &d, gpw_doc *doc)
{
    const int threads = 256;
    std::vector<int> mult = o.quick ? std::vector<int>{8, 64} : std::vector<int>{4, 8, 16, 64};
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    // Each array: 16 x L2, within [1 GiB, 2 GiB]; four arrays within 80 % of
    // the free memory (halved until they fit, on small GPUs).
    const size_t gib = (size_t)1 << 30;
    size_t arr = d.l2_bytes * 16;
    if (arr < gib)
        arr = gib;
    if (arr > 2 * gib)
        arr = 2 * gib;
    while ((double)arr * 4 > 0.8 * (double)fr && arr > (16u << 20))
        arr /= 2;
    const size_t n4 = arr / 16, nw = n4 * 4;
    arr = n4 * 16;
    if (arr < 4 * d.l2_bytes)
        gp_probe_note_skip("memory: arrays of " + std::to_string(arr >> 20) +
                           " MiB are under 4 x L2; DRAM figures include cache hits");

    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    dbuf A, B, C, R, T;
    try {
        CK(cudaMalloc(&A.p, arr));
        CK(cudaMalloc(&B.p, arr));
        CK(cudaMalloc(&C.p, arr));
        CK(cudaMalloc(&T.p, arr));
        const size_t max_threads = (size_t)d.sms * 64 * threads;
        CK(cudaMalloc(&R.p, max_threads * 4));
        k_iota<<<1024, 256>>>((uint32_t *)A.p, nw);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());

        // Runs one kernel's measurement unless the budget is spent; returns
        // false when it was skipped.
        bool over = false;
        auto time_op = [&](const char *kernel, const std::string &cfg, auto &&op,
                           std::vector<double> &t, int &batch) {
            if (over || gp_probe_left(o) <= 0) {
                if (!over)
                    gp_probe_note_skip(std::string("memory: time budget spent at ") + kernel +
                                       " " + cfg + "; the rest skipped");
                over = true;
                return false;
            }
            batch = gp_probe_pick_batch(op, s, o.target_s, 256);
            t = gp_probe_time(op, s, batch, o.trials, batch, true);
            CK(cudaStreamSynchronize(s));
            return true;
        };
        auto emit = [&](const char *kernel, double bytes, double wset, const std::string &cfg,
                        int batch, const std::vector<double> &t) {
            gpw_memory(doc, kernel, bytes, wset, cfg.c_str(), batch, t.data(), t.size());
            if (o.verbose) {
                probe_stats st = gp_probe_stats(t);
                fprintf(stderr, "gpuplan-probe: memory %-10s %-10s %8.1f GB/s (cv %.3f)\n", kernel,
                        cfg.c_str(), bytes / st.median / 1e9, st.cv);
            }
        };
        auto sum_out = [&](size_t nthreads) {
            std::vector<uint32_t> h(nthreads);
            CK(cudaMemcpy(h.data(), R.p, nthreads * 4, cudaMemcpyDeviceToHost));
            uint32_t sum = 0;
            for (uint32_t v : h)
                sum += v;
            return sum;
        };

        for (int mlt : mult) {
            const int blocks = d.sms * mlt;
            const size_t nthreads = (size_t)blocks * threads;
            const std::string cfg = std::to_string(blocks) + "x" + std::to_string(threads);
            std::vector<double> t;
            int batch = 1;

            // read: N bytes; every word summed once per pass.
            {
                auto op = [&]() {
                    k_read<<<blocks, threads, 0, s>>>((const uint4 *)A.p, n4, 1, (uint32_t *)R.p);
                    CK_LAUNCH();
                };
                if (time_op("read", cfg, op, t, batch)) {
                    unsigned long long nn = nw;
                    uint32_t want = (uint32_t)(nn * (nn - 1) / 2); // sum of 0..N-1 mod 2^32
                    if (sum_out(nthreads) != want)
                        gp_probe_fail("memory read: checksum mismatch");
                    emit("read", (double)arr, (double)arr, cfg, batch, t);
                }
            }
            // write: N bytes.
            {
                auto op = [&]() {
                    k_write<<<blocks, threads, 0, s>>>((uint4 *)B.p, n4, 17u);
                    CK_LAUNCH();
                };
                if (time_op("write", cfg, op, t, batch)) {
                    for (int v = 0; v < 16; v++) {
                        size_t w = (size_t)gp_probe_pattern((size_t)v, 3u) % nw;
                        if (u32_at(B.p, w) != 17u + (uint32_t)w)
                            gp_probe_fail("memory write: wrong value at word " + std::to_string(w));
                    }
                    emit("write", (double)arr, (double)arr, cfg, batch, t);
                }
            }
            // copy: read N + write N.
            {
                auto op = [&]() {
                    k_copy<<<blocks, threads, 0, s>>>((const uint4 *)A.p, (uint4 *)B.p, n4);
                    CK_LAUNCH();
                };
                if (time_op("copy", cfg, op, t, batch)) {
                    for (int v = 0; v < 16; v++) {
                        size_t w = (size_t)gp_probe_pattern((size_t)v, 5u) % nw;
                        if (u32_at(B.p, w) != (uint32_t)w)
                            gp_probe_fail("memory copy: wrong value at word " + std::to_string(w));
                    }
                    emit("copy", 2.0 * (double)arr, 2.0 * (double)arr, cfg, batch, t);
                }
            }
            // triad: a = b + s c, reads 2N + writes N.
            {
                k_constf<<<1024, 256, 0, s>>>((float *)B.p, nw, 1.0f);
                CK_LAUNCH();
                k_constf<<<1024, 256, 0, s>>>((float *)C.p, nw, 2.0f);
                CK_LAUNCH();
                auto op = [&]() {
                    k_triad<<<blocks, threads, 0, s>>>((float4 *)T.p, (const float4 *)B.p,
                                                       (const float4 *)C.p, 3.0f, n4);
                    CK_LAUNCH();
                };
                if (time_op("triad", cfg, op, t, batch)) {
                    for (int v = 0; v < 16; v++) {
                        size_t w = (size_t)gp_probe_pattern((size_t)v, 11u) % nw;
                        if (f32_at(T.p, w) != 7.0f)
                            gp_probe_fail("memory triad: wrong value at word " + std::to_string(w));
                    }
                    emit("triad", 3.0 * (double)arr, 3.0 * (double)arr, cfg, batch, t);
                }
            }
            // L2-resident read: half the L2, repeated so a kernel lasts long enough.
            if (d.l2_bytes >= (2u << 20)) {
                size_t ws = d.l2_bytes / 2 / 16 * 16;
                size_t ws4 = ws / 16;
                int reps = (int)((256u << 20) / ws) | 1; // odd
                auto op = [&]() {
                    k_read<<<blocks, threads, 0, s>>>((const uint4 *)A.p, ws4, reps,
                                                      (uint32_t *)R.p);
                    CK_LAUNCH();
                };
                if (time_op("l2-read", cfg, op, t, batch)) {
                    unsigned long long nn = ws4 * 4;
                    uint32_t want = (uint32_t)((unsigned long long)reps * (nn * (nn - 1) / 2));
                    if (sum_out(nthreads) != want)
                        gp_probe_fail("memory l2-read: checksum mismatch");
                    emit("l2-read", (double)reps * (double)ws, (double)ws, cfg, batch, t);
                }
            }
        }
        // Copy engine: cudaMemcpy D2D, counted as read + write (2N).
        {
            CK(cudaMemsetAsync(B.p, 0, arr, s));
            auto op = [&]() { CK(cudaMemcpyAsync(B.p, A.p, arr, cudaMemcpyDeviceToDevice, s)); };
            std::vector<double> t;
            int batch = 1;
            if (time_op("memcpy-d2d", "copy engine", op, t, batch)) {
                for (int v = 0; v < 16; v++) {
                    size_t w = (size_t)gp_probe_pattern((size_t)v, 13u) % nw;
                    if (u32_at(B.p, w) != (uint32_t)w)
                        gp_probe_fail("memcpy d2d: wrong value at word " + std::to_string(w));
                }
                emit("memcpy-d2d", 2.0 * (double)arr, 2.0 * (double)arr, "copy engine", batch, t);
            }
        }
    } catch (...) {
        cudaStreamDestroy(s);
        throw;
    }
    CK(cudaStreamDestroy(s));
}
