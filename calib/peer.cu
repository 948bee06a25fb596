// peer and allreduce probes (need >= 2 GPUs).
//
// peer: cudaMemcpyPeerAsync from the probed GPU to the next one (copy engine),
// unidirectional (bytes = bytes copied) and bidirectional (both directions at
// once; bytes = the sum), 4 KiB .. 1 GiB; latency = a one-thread pointer chase
// in the peer's memory (nvbandwidth style) when P2P access is possible, else a
// 4-byte copy.
//
// allreduce: NCCL loaded with dlopen (no build dependency), one communicator
// over all visible GPUs in this process (ncclCommInitAll), float32 sum,
// 8 B .. 1 GiB.  Timed with the host clock around a batch after syncing every
// stream (nccl-tests style); algbw = S / t, busbw = 2(n-1)/n S / t.
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <string>
#include <vector>

#include "probe.h"

namespace {

struct dbuf {
    void *p = nullptr;
    int dev = 0;
    ~dbuf()
    {
        if (p) {
            int cur = 0;
            cudaGetDevice(&cur);
            cudaSetDevice(dev);
            cudaFree(p);
            cudaSetDevice(cur);
        }
    }
};

void alloc_on(dbuf &b, int dev, size_t bytes)
{
    b.dev = dev;
    CK(cudaSetDevice(dev));
    CK(cudaMalloc(&b.p, bytes));
}

__global__ void k_fill_f32(float *p, size_t n, float v)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = v;
}

} // namespace

// Time (>= 2 GPUs, NVLink ~400 GB/s): 19 sizes x 2 modes x ~0.35 s + the
// latency chase ~0.5 s: ~14 s.  Budget (main.cu) 30 s, quick 10 s; sizes
// that would start past it are skipped with a note.
void gp_probe_peer(const probe_opts &o, const probe_dev &d, gpw_doc *doc)
{
    if (d.gpus < 2)
        gp_probe_fail("skipped: needs >= 2 GPUs; " + std::to_string(d.gpus) + " visible");
    const int d0 = d.index, d1 = (d.index + 1) % d.gpus;
    int a01 = 0, a10 = 0;
    CK(cudaDeviceCanAccessPeer(&a01, d0, d1));
    CK(cudaDeviceCanAccessPeer(&a10, d1, d0));
    const bool p2p = a01 && a10;
    if (p2p) {
        cudaError_t rc;
        CK(cudaSetDevice(d0));
        rc = cudaDeviceEnablePeerAccess(d1, 0);
        if (rc != cudaSuccess && rc != cudaErrorPeerAccessAlreadyEnabled)
            CK(rc);
        CK(cudaSetDevice(d1));
        rc = cudaDeviceEnablePeerAccess(d0, 0);
        if (rc != cudaSuccess && rc != cudaErrorPeerAccessAlreadyEnabled)
            CK(rc);
        (void)cudaGetLastError();
    }
    size_t maxb = o.quick ? (256u << 20) : (1u << 30);
    size_t f0 = 0, f1 = 0, tot = 0;
    CK(cudaSetDevice(d0));
    CK(cudaMemGetInfo(&f0, &tot));
    CK(cudaSetDevice(d1));
    CK(cudaMemGetInfo(&f1, &tot));
    while ((maxb * 3 > f0 || maxb * 3 > f1) && maxb > (16u << 20))
        maxb /= 2;
    dbuf src0, dst0, src1, dst1;
    alloc_on(src0, d0, maxb);
    alloc_on(dst0, d0, maxb);
    alloc_on(src1, d1, maxb);
    alloc_on(dst1, d1, maxb);
    CK(cudaSetDevice(d0));
    gp_probe_fill_u32<<<1024, 256>>>((uint32_t *)src0.p, maxb / 4, 1u);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(d1));
    gp_probe_fill_u32<<<1024, 256>>>((uint32_t *)src1.p, maxb / 4, 2u);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());

    cudaStream_t s0 = nullptr, s1 = nullptr;
    cudaEvent_t ea = nullptr, eb = nullptr;
    CK(cudaSetDevice(d1));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&eb, cudaEventDisableTiming));
    CK(cudaSetDevice(d0));
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&ea, cudaEventDisableTiming));
    const size_t step = o.quick ? 4 : 2;
    auto check = [&](const dbuf &dst, uint32_t seed, size_t bytes, const char *what) {
        for (int v = 0; v < 8; v++) {
            size_t w = (size_t)gp_probe_pattern((size_t)v, 21u) % (bytes / 4);
            uint32_t got = 0;
            CK(cudaMemcpy(&got, (uint32_t *)dst.p + w, 4, cudaMemcpyDeviceToHost));
            if (got != gp_probe_pattern(w, seed))
                gp_probe_fail(std::string("peer ") + what + ": wrong data at word " +
                              std::to_string(w));
        }
    };
    try {
        bool over = false;
        for (int mode = 0; mode < 2 && !over; mode++) { // 0 uni, 1 bidir
            for (size_t bytes = 4096; bytes <= maxb; bytes *= step) {
                if (gp_probe_left(o) <= 1.0) {
                    gp_probe_note_skip(std::string("peer: time budget spent at ") +
                                       (mode ? "bidir " : "uni ") + std::to_string(bytes) +
                                       " B; the rest skipped");
                    over = true;
                    break;
                }
                auto op = [&]() {
                    if (mode == 0) {
                        CK(cudaMemcpyPeerAsync(dst1.p, d1, src0.p, d0, bytes, s0));
                        return;
                    }
                    CK(cudaEventRecord(ea, s0));
                    CK(cudaMemcpyPeerAsync(dst1.p, d1, src0.p, d0, bytes, s0));
                    CK(cudaSetDevice(d1));
                    CK(cudaStreamWaitEvent(s1, ea, 0));
                    CK(cudaMemcpyPeerAsync(dst0.p, d0, src1.p, d1, bytes, s1));
                    CK(cudaEventRecord(eb, s1));
                    CK(cudaSetDevice(d0));
                    CK(cudaStreamWaitEvent(s0, eb, 0));
                };
                CK(cudaSetDevice(d0));
                int batch = gp_probe_pick_batch(op, s0, o.target_s, mode ? 64 : 256);
                std::vector<double> t = gp_probe_time(op, s0, batch, o.trials, batch, true);
                CK(cudaStreamSynchronize(s0));
                CK(cudaStreamSynchronize(s1));
                check(dst1, 1u, bytes, "d0->d1");
                if (mode == 1)
                    check(dst0, 2u, bytes, "d1->d0");
                double b = mode == 1 ? 2.0 * (double)bytes : (double)bytes;
                gpw_peer(doc, mode ? "bidir" : "uni", d0, d1, p2p, b, batch, nullptr, t.data(),
                         t.size());
                if (o.verbose) {
                    probe_stats st = gp_probe_stats(t);
                    fprintf(stderr, "gpuplan-probe: peer %-5s %11zu B %8.2f GB/s\n",
                            mode ? "bidir" : "uni", bytes, b / st.median / 1e9);
                }
            }
        }
        // Latency.
        CK(cudaSetDevice(d0));
        std::vector<double> lat;
        std::string note;
        if (p2p) {
            chase_buf c;
            CK(cudaSetDevice(d1));
            gp_probe_chase_build(c, 2u << 20, 128, 0x51u);
            CK(cudaSetDevice(d0));
            std::vector<double> cyc;
            gp_probe_chase_time(c, 1000, 20000, o.trials, lat, cyc);
            for (double &v : lat)
                v *= 1e-9;
            note = "pointer chase by GPU " + std::to_string(d0) + " in GPU " + std::to_string(d1) +
                   "'s memory, 2 MiB, 128 B stride; seconds per load";
        } else {
            auto op = [&]() { CK(cudaMemcpyPeerAsync(dst1.p, d1, src0.p, d0, 4, s0)); };
            lat = gp_probe_time(op, s0, 100, o.trials, 100, true);
            note = "4-byte cudaMemcpyPeerAsync (no P2P access: staged through the host)";
        }
        gpw_peer(doc, "latency", d0, d1, p2p, 4, 1, note.c_str(), lat.data(), lat.size());
    } catch (...) {
        cudaSetDevice(d0);
        cudaStreamDestroy(s0);
        cudaEventDestroy(ea);
        cudaSetDevice(d1);
        cudaStreamDestroy(s1);
        cudaEventDestroy(eb);
        cudaSetDevice(d0);
        throw;
    }
    CK(cudaSetDevice(d1));
    CK(cudaStreamDestroy(s1));
    CK(cudaEventDestroy(eb));
    CK(cudaSetDevice(d0));
    CK(cudaStreamDestroy(s0));
    CK(cudaEventDestroy(ea));
}

// ---- NCCL --------------------------------------------------------------------------------

namespace {
typedef void *nccl_comm;
typedef int (*nccl_init_all_fn)(nccl_comm *, int, const int *);
typedef int (*nccl_allreduce_fn)(const void *, void *, size_t, int, int, nccl_comm,
                                 cudaStream_t);
typedef int (*nccl_void_fn)(void);
typedef int (*nccl_destroy_fn)(nccl_comm);
typedef const char *(*nccl_err_fn)(int);
typedef int (*nccl_version_fn)(int *);
const int k_nccl_float32 = 7, k_nccl_sum = 0;
} // namespace

// Time (>= 2 GPUs): 28 sizes 8 B .. 1 GiB, each ~16 host-timed batches of
// >= 20 ms: ~10 s.  Budget (main.cu) 30 s, quick 10 s.
void gp_probe_allreduce(const probe_opts &o, const probe_dev &d, gpw_doc *doc)
{
    if (d.gpus < 2)
        gp_probe_fail("skipped: needs >= 2 GPUs; " + std::to_string(d.gpus) + " visible");
    // The overlay stores this sweep as the link's ring figure, so ask NCCL
    // for the ring (on NVSwitch H100/H200 its default is NVLS, ~480 vs ~370
    // GB/s busbw); a user's own NCCL_ALGO is kept and noted.  NCCL reads the
    // variable when the library initialises, hence before dlopen.
    {
        const char *algo = getenv("NCCL_ALGO");
        if (algo == nullptr || algo[0] == '\0') {
            setenv("NCCL_ALGO", "Ring", 1);
        } else if (strcasecmp(algo, "Ring") != 0) {
            std::string w = std::string("allreduce: NCCL_ALGO=") + algo +
                            " was set by the caller; the sweep is not a ring figure and "
                            "should not be imported as the link's bandwidth";
            gpw_warning(doc, w.c_str());
        }
    }
    void *h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr)
        h = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr)
        gp_probe_fail("NCCL not found (dlopen libnccl.so.2 failed); install NCCL to measure "
                      "AllReduce");
    auto init_all = gp_probe_sym<nccl_init_all_fn>(h, "ncclCommInitAll");
    auto allreduce = gp_probe_sym<nccl_allreduce_fn>(h, "ncclAllReduce");
    auto gstart = gp_probe_sym<nccl_void_fn>(h, "ncclGroupStart");
    auto gend = gp_probe_sym<nccl_void_fn>(h, "ncclGroupEnd");
    auto destroy = gp_probe_sym<nccl_destroy_fn>(h, "ncclCommDestroy");
    auto errstr = gp_probe_sym<nccl_err_fn>(h, "ncclGetErrorString");
    auto version = gp_probe_sym<nccl_version_fn>(h, "ncclGetVersion");
    if (!init_all || !allreduce || !gstart || !gend || !destroy || !errstr) {
        dlclose(h);
        gp_probe_fail("NCCL library lacks ncclCommInitAll/ncclAllReduce");
    }
    auto ckn = [&](int rc, const char *what) {
        if (rc != 0)
            gp_probe_fail(std::string("NCCL ") + what + " failed: " + errstr(rc));
    };
    const int n = d.gpus > 16 ? 16 : d.gpus;
    std::vector<int> devs(n);
    for (int i = 0; i < n; i++)
        devs[i] = i;
    std::vector<nccl_comm> comms(n, nullptr);
    std::vector<cudaStream_t> st(n, nullptr);
    std::vector<dbuf> sb(n), rb(n);
    int ver = 0;
    if (version)
        version(&ver);
    // Quick steps by 4 from 8 B (8 * 4^k): 128 MiB is the first size at or
    // past the 64 MiB bandwidth regime import needs (GP_CALIB_BW_MIN_BYTES).
    size_t maxb = o.quick ? (128u << 20) : (1u << 30);
    for (int i = 0; i < n; i++) {
        size_t fr = 0, tot = 0;
        CK(cudaSetDevice(i));
        CK(cudaMemGetInfo(&fr, &tot));
        while (maxb * 3 > fr && maxb > (1u << 20))
            maxb /= 2;
    }
    bool comms_ok = false;
    try {
        ckn(init_all(comms.data(), n, devs.data()), "ncclCommInitAll");
        comms_ok = true;
        for (int i = 0; i < n; i++) {
            alloc_on(sb[i], i, maxb);
            alloc_on(rb[i], i, maxb);
            CK(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
            k_fill_f32<<<1024, 256, 0, st[i]>>>((float *)sb[i].p, maxb / 4, (float)(i + 1));
            CK_LAUNCH();
            CK(cudaStreamSynchronize(st[i]));
        }
        const float want = (float)n * (float)(n + 1) / 2.0f; // sum of 1..n, exact
        const size_t step = o.quick ? 4 : 2;
        for (size_t bytes = 8; bytes <= maxb; bytes *= step) {
            if (gp_probe_left(o) <= 1.0) {
                gp_probe_note_skip("allreduce: time budget spent at " + std::to_string(bytes) +
                                   " B; larger sizes skipped");
                break;
            }
            size_t count = bytes / 4;
            auto iter = [&]() {
                ckn(gstart(), "ncclGroupStart");
                for (int i = 0; i < n; i++)
                    ckn(allreduce(sb[i].p, rb[i].p, count, k_nccl_float32, k_nccl_sum, comms[i],
                                  st[i]),
                        "ncclAllReduce");
                ckn(gend(), "ncclGroupEnd");
            };
            auto sync = [&]() {
                for (int i = 0; i < n; i++) {
                    CK(cudaSetDevice(i));
                    CK(cudaStreamSynchronize(st[i]));
                }
            };
            auto timed = [&](int iters) {
                auto t0 = std::chrono::steady_clock::now();
                for (int k = 0; k < iters; k++)
                    iter();
                sync();
                std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
                return dt.count() / iters;
            };
            for (int w = 0; w < 5; w++)
                iter();
            sync();
            double one = timed(1);
            int batch = one > 0 ? (int)(o.target_s / one) + 1 : 1;
            if (batch > 1000)
                batch = 1000;
            std::vector<double> t;
            for (int k = 0; k < o.trials; k++)
                t.push_back(timed(batch));
            for (int i = 0; i < n; i += (n > 1 ? n - 1 : 1)) {
                float got = 0;
                CK(cudaSetDevice(i));
                CK(cudaMemcpy(&got, (float *)rb[i].p + (count - 1), 4, cudaMemcpyDeviceToHost));
                if (got != want)
                    gp_probe_fail("allreduce: wrong sum on GPU " + std::to_string(i));
            }
            gpw_allreduce(doc, n, (double)bytes, "float32", batch, ver, t.data(), t.size());
            probe_stats s = gp_probe_stats(t);
            double algbw = (double)bytes / s.median;
            double busbw = algbw * 2.0 * (n - 1) / n;
            if (o.verbose)
                fprintf(stderr, "gpuplan-probe: allreduce %11zu B algbw %8.2f busbw %8.2f GB/s\n",
                        bytes, algbw / 1e9, busbw / 1e9);
        }
    } catch (...) {
        for (int i = 0; i < n; i++) {
            cudaSetDevice(i);
            if (st[i])
                cudaStreamDestroy(st[i]);
            if (comms_ok && comms[i])
                destroy(comms[i]);
        }
        cudaSetDevice(d.index);
        throw;
    }
    for (int i = 0; i < n; i++) {
        CK(cudaSetDevice(i));
        CK(cudaStreamDestroy(st[i]));
        destroy(comms[i]);
    }
    CK(cudaSetDevice(d.index));
    // The library stays loaded: NCCL keeps helper threads until exit.
}
