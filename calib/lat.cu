// latency probe: one thread chases pointers through a random cyclic
// permutation of 128-byte lines (each line visited once per lap), so every
// load depends on the previous one and hardware prefetch cannot help.  The
// working set sweeps from 4 KiB to 1 GiB; plateaus give L1, L2 and DRAM
// load-to-use latency in SM cycles (clock64) and ns (%globaltimer).  Loads
// are ld.global.ca (cached in L1 where the architecture allows), i.e. the
// latency a program sees.
//
// Time: a point is (trials + 1) kernels of (warm-up + timed) dependent loads,
// warm-up = min(lines, loads).  Loads: 100 000 up to the L2 size, 50 000
// beyond (quick: 50 000 / 20 000).  On an H200 (~20 ns L1, ~200 ns L2,
// ~700 ns DRAM with TLB misses) the 19 sizes 4 KiB .. 1 GiB take ~0.5 s
// (L1) + ~3.5 s (L2) + ~5.5 s (5 sizes past L2 at ~1.1 s each) = ~10 s;
// quick (x4 steps, 7 trials) ~1.5 s.  Budget (main.cu) 25 s, quick 10 s:
// the sweep stops, with a note, before a size predicted not to fit.
#include <cstdio>
#include <string>
#include <vector>

#include "probe.h"

namespace {

__device__ __forceinline__ uint32_t ld_ca(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

__global__ void k_scatter(uint32_t *chase, const uint32_t *nxt, size_t lines, uint32_t sw)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < lines; i += stride)
        chase[i * sw] = nxt[i] * sw;
}

// res: [0] cycles, [1] ns, [2] final word index.
__global__ void k_chase(const uint32_t *chase, long warm, long loads,
                        unsigned long long *res)
{
    uint32_t j = 0;
    for (long i = 0; i < warm; i++)
        j = ld_ca(chase + j);
    unsigned long long g0, g1;
    long long c0 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    for (long i = 0; i < loads; i++)
        j = ld_ca(chase + j);
    long long c1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    res[0] = (unsigned long long)(c1 - c0);
    res[1] = g1 - g0;
    res[2] = j;
}

} // namespace

chase_buf::~chase_buf()
{
    if (dev != nullptr)
        cudaFree(dev);
}

void gp_probe_chase_build(chase_buf &c, size_t ws_bytes, size_t stride_bytes, uint64_t seed)
{
    c.stride_words = (uint32_t)(stride_bytes / 4);
    c.lines = ws_bytes / stride_bytes;
    if (c.lines < 2)
        gp_probe_fail("latency: working set smaller than two lines");
    // A random visiting order (Sattolo's shuffle); linking each line to the next
    // in that order makes one cycle through all lines.
    c.nxt.resize(c.lines);
    std::vector<uint32_t> perm(c.lines);
    for (size_t i = 0; i < c.lines; i++)
        perm[i] = (uint32_t)i;
    uint64_t x = seed | 1;
    for (size_t i = c.lines - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t j = (size_t)(x % i); // j < i
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    // perm is a cyclic order: line perm[i] is followed by perm[i + 1].
    for (size_t i = 0; i < c.lines; i++)
        c.nxt[perm[i]] = perm[(i + 1) % c.lines];
    CK(cudaMalloc(&c.dev, c.lines * stride_bytes));
    CK(cudaMemset(c.dev, 0, c.lines * stride_bytes));
    uint32_t *dn = nullptr;
    CK(cudaMalloc(&dn, c.lines * 4));
    cudaError_t rc = cudaMemcpy(dn, c.nxt.data(), c.lines * 4, cudaMemcpyHostToDevice);
    if (rc == cudaSuccess) {
        k_scatter<<<256, 256>>>(c.dev, dn, c.lines, c.stride_words);
        rc = cudaGetLastError();
    }
    if (rc == cudaSuccess)
        rc = cudaDeviceSynchronize();
    cudaFree(dn);
    CK(rc);
}

void gp_probe_chase_time(const chase_buf &c, long warm, long loads, int trials,
                         std::vector<double> &ns, std::vector<double> &cycles)
{
    unsigned long long *res = nullptr, h[3];
    CK(cudaMalloc(&res, sizeof h));
    // The expected final position: walk the host copy of the cycle.
    uint32_t want = 0;
    for (long i = 0; i < warm + loads; i++)
        want = c.nxt[want];
    try {
        for (int t = 0; t < trials + 1; t++) { // the first run is a warm-up
            k_chase<<<1, 1>>>(c.dev, warm, loads, res);
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h, res, sizeof h, cudaMemcpyDeviceToHost));
            if (h[2] != (unsigned long long)want * c.stride_words)
                gp_probe_fail("latency: pointer chase ended at the wrong line");
            if (t == 0)
                continue;
            ns.push_back((double)h[1] / (double)loads);
            cycles.push_back((double)h[0] / (double)loads);
        }
    } catch (...) {
        cudaFree(res);
        throw;
    }
    CK(cudaFree(res));
}

void gp_probe_latency(const probe_opts &o, const probe_dev &d, gpw_doc *doc)
{
    const size_t stride = 128;
    const double step = o.quick ? 4.0 : 2.0;
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    double prev_ns = 0; // per load at the previous size
    for (double wsd = 4096; wsd <= 1073741824.0 + 1; wsd *= step) {
        size_t ws = (size_t)wsd;
        if ((double)ws * 1.1 > 0.8 * (double)fr)
            break;
        const bool past_l2 = ws > d.l2_bytes;
        const long loads = past_l2 ? (o.quick ? 20000 : 50000) : (o.quick ? 50000 : 100000);
        const size_t lines = ws / stride;
        const long warm = (long)(lines < (size_t)loads ? lines : (size_t)loads);
        // Predict with 3x the previous size's latency (the next cache level).
        double est = 3.0 * (prev_ns > 0 ? prev_ns : 100.0) * 1e-9 * (double)(warm + loads) *
                     (o.trials + 1) + 0.05 + (double)ws / 2e9;
        if (est > gp_probe_left(o)) {
            gp_probe_note_skip("latency: sweep stopped before " + std::to_string(ws >> 10) +
                               " KiB: ~" + gp_probe_fmt(est) + " s would exceed the time budget");
            break;
        }
        chase_buf c;
        gp_probe_chase_build(c, ws, stride, 0x9e3779b97f4a7c15ULL ^ ws);
        std::vector<double> ns, cyc;
        gp_probe_chase_time(c, warm, loads, o.trials, ns, cyc);
        probe_stats sn = gp_probe_stats(ns), sc = gp_probe_stats(cyc);
        prev_ns = sn.median;
        gpw_latency(doc, (double)ws, (double)stride, loads, ns.data(), cyc.data(), ns.size());
        if (o.verbose)
            fprintf(stderr, "gpuplan-probe: latency %10zu B  %7.1f ns  %7.1f cycles\n", ws,
                    sn.median, sc.median);
    }
}
