// transfer probe: host<->device cudaMemcpyAsync (copy engines), pinned and
// pageable host memory, both directions, 4 KiB .. 1 GiB.  Bytes are the bytes
// copied in one direction.  Pinned copies are gated behind a spin kernel so
// enqueue cost is excluded; pageable copies cannot be (the driver stages them
// through its own pinned buffer and the call blocks), so they are timed with
// events alone.  The PCIe generation and width come from the driver (NVML,
// loaded with dlopen; else Linux sysfs) so a down-trained link is reported.
//
// Time (H200 on PCIe 5.0 x16, ~55 GB/s pinned, pageable perhaps 10-25 GB/s
// in a VM): sizes 4 KiB .. 1 GiB x2 (19 per series); a point is ~16 batches
// of >= 20 ms (small sizes: 256-copy batches, less), the 1 GiB pinned point
// ~0.7 s, pageable ~2 s.  Pinned series ~5 s each, pageable ~7 s each, plus
// ~2 s of host fills and pinning: ~25 s.  Quick (to 256 MiB x4, 7 trials,
// 5 ms batches): ~4 s.  Budget (main.cu) 40 s, quick 12 s, shared out
// series by series (pinned first); a size predicted not to fit ends its
// series with a note.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "probe.h"

namespace {

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_handle_fn)(const char *, void **);
typedef int (*nvml_uint_fn)(void *, unsigned int *);
typedef int (*nvml_str_fn)(char *, unsigned int);

struct nvml_lib {
    void *h = nullptr;
    nvml_void_fn init = nullptr, shutdown = nullptr;
    nvml_handle_fn by_bus = nullptr;
    nvml_uint_fn gen = nullptr, width = nullptr, max_gen = nullptr, max_width = nullptr;
    nvml_str_fn driver = nullptr;
};

bool nvml_open(nvml_lib &n)
{
    n.h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (n.h == nullptr)
        return false;
    n.init = gp_probe_sym<nvml_void_fn>(n.h, "nvmlInit_v2");
    n.shutdown = gp_probe_sym<nvml_void_fn>(n.h, "nvmlShutdown");
    n.by_bus = gp_probe_sym<nvml_handle_fn>(n.h, "nvmlDeviceGetHandleByPciBusId_v2");
    n.gen = gp_probe_sym<nvml_uint_fn>(n.h, "nvmlDeviceGetCurrPcieLinkGeneration");
    n.width = gp_probe_sym<nvml_uint_fn>(n.h, "nvmlDeviceGetCurrPcieLinkWidth");
    n.max_gen = gp_probe_sym<nvml_uint_fn>(n.h, "nvmlDeviceGetMaxPcieLinkGeneration");
    n.max_width = gp_probe_sym<nvml_uint_fn>(n.h, "nvmlDeviceGetMaxPcieLinkWidth");
    n.driver = gp_probe_sym<nvml_str_fn>(n.h, "nvmlSystemGetDriverVersion");
    if (!n.init || !n.shutdown || !n.by_bus || !n.gen || !n.width || n.init() != 0) {
        dlclose(n.h);
        n.h = nullptr;
        return false;
    }
    return true;
}

int sysfs_int(const std::string &path, bool speed)
{
    std::ifstream f(path);
    double v = 0;
    if (!(f >> v))
        return 0;
    if (!speed)
        return (int)v;
    // GT/s per lane -> PCIe generation.
    if (v >= 60)
        return 6;
    if (v >= 30)
        return 5;
    if (v >= 15)
        return 4;
    if (v >= 7.5)
        return 3;
    if (v >= 4.5)
        return 2;
    return v > 0 ? 1 : 0;
}

struct dbuf {
    void *p = nullptr;
    ~dbuf() { if (p) cudaFree(p); }
};

struct hbuf {
    void *p = nullptr;
    bool pinned = false;
    ~hbuf()
    {
        if (p == nullptr)
            return;
        if (pinned)
            cudaFreeHost(p);
        else
            free(p);
    }
};

} // namespace

// Reads the link through an open NVML (when have_nvml), else sysfs.
static probe_pcie read_link(const nvml_lib &n, bool have_nvml, const std::string &bus_id)
{
    probe_pcie r;
    if (have_nvml) {
        void *dev = nullptr;
        unsigned int v = 0;
        char drv[96] = "";
        if (n.driver && n.driver(drv, sizeof drv) == 0)
            r.driver = drv;
        if (n.by_bus(bus_id.c_str(), &dev) == 0) {
            if (n.gen(dev, &v) == 0)
                r.gen = (int)v;
            if (n.width(dev, &v) == 0)
                r.width = (int)v;
            if (n.max_gen && n.max_gen(dev, &v) == 0)
                r.max_gen = (int)v;
            if (n.max_width && n.max_width(dev, &v) == 0)
                r.max_width = (int)v;
            if (r.gen > 0)
                r.source = "nvml";
        }
    }
    if (r.gen == 0) {
        std::string base = "/sys/bus/pci/devices/" + bus_id + "/";
        r.gen = sysfs_int(base + "current_link_speed", true);
        r.width = sysfs_int(base + "current_link_width", false);
        r.max_gen = sysfs_int(base + "max_link_speed", true);
        r.max_width = sysfs_int(base + "max_link_width", false);
        r.source = r.gen > 0 ? "sysfs" : "";
    }
    return r;
}

static void nvml_close(nvml_lib &n)
{
    if (n.h != nullptr) {
        n.shutdown();
        dlclose(n.h);
        n.h = nullptr;
    }
}

probe_pcie gp_probe_pcie_info(const std::string &bus_id)
{
    nvml_lib n;
    bool have = nvml_open(n);
    probe_pcie r = read_link(n, have, bus_id);
    nvml_close(n);
    return r;
}

probe_pcie gp_probe_pcie_under_load(const probe_dev &d)
{
    // NVML first (its start-up can take a while), then 32 x 64 MiB pinned
    // copies (~40 ms on PCIe 5.0) queued, and the link read while they run.
    nvml_lib n;
    bool have = nvml_open(n);
    const size_t bytes = 64u << 20;
    hbuf h;
    dbuf dv;
    cudaStream_t s = nullptr;
    bool loaded = false;
    if (cudaHostAlloc(&h.p, bytes, cudaHostAllocDefault) == cudaSuccess) {
        h.pinned = true;
        if (cudaMalloc(&dv.p, bytes) == cudaSuccess &&
            cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess) {
            loaded = true;
            for (int i = 0; i < 32 && loaded; i++)
                loaded = cudaMemcpyAsync(dv.p, h.p, bytes, cudaMemcpyHostToDevice, s) ==
                         cudaSuccess;
        }
    } else {
        h.p = nullptr;
    }
    probe_pcie r = read_link(n, have, d.pci_bus_id);
    if (s != nullptr) {
        (void)cudaStreamSynchronize(s);
        (void)cudaStreamDestroy(s);
    }
    (void)cudaGetLastError();
    nvml_close(n);
    if (!loaded)
        r.source += r.source.empty() ? "" : " (idle)";
    return r;
}

void gp_probe_transfer(const probe_opts &o, const probe_dev &d, gpw_doc *doc)
{
    (void)d;
    size_t maxb = o.quick ? (256u << 20) : ((size_t)1 << 30);
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    while (maxb * 2 > fr && maxb > (16u << 20))
        maxb /= 2;
    const size_t step = o.quick ? 4 : 2;
    const uint32_t seed = 0x5eedu;

    dbuf dv;
    CK(cudaMalloc(&dv.p, maxb));
    hbuf pin, pag;
    // Pinned host memory; fall back to smaller sizes when the OS refuses.
    while (cudaHostAlloc(&pin.p, maxb, cudaHostAllocDefault) != cudaSuccess) {
        pin.p = nullptr;
        (void)cudaGetLastError();
        maxb /= 2;
        if (maxb < (1u << 20))
            gp_probe_fail("transfer: cannot allocate pinned host memory");
    }
    pin.pinned = true;
    pag.p = malloc(maxb);
    if (pag.p == nullptr)
        gp_probe_fail("transfer: cannot allocate pageable host memory");
    auto fill = [&](void *p, size_t bytes) {
        uint32_t *w = (uint32_t *)p;
        for (size_t i = 0; i < bytes / 4; i++)
            w[i] = gp_probe_pattern(i, seed);
    };

    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    try {
        int series_left = 4;
        for (int pinned = 1; pinned >= 0; pinned--) {
            void *host = pinned ? pin.p : pag.p;
            const char *mname = pinned ? "pinned" : "pageable";
            for (int dir = 0; dir < 2; dir++, series_left--) { // 0: h2d, 1: d2h
                const char *dname = dir == 0 ? "h2d" : "d2h";
                const double share = gp_probe_left(o) / series_left;
                const double t_series = gp_probe_now();
                if (share <= 0) {
                    gp_probe_note_skip(std::string("transfer ") + dname + " " + mname +
                                       ": skipped, the time budget is spent");
                    continue;
                }
                if (dir == 1) {
                    // Device holds the pattern; clear the host side so the check means something.
                    fill(pin.p, maxb);
                    CK(cudaMemcpy(dv.p, pin.p, maxb, cudaMemcpyHostToDevice));
                    memset(host, 0, maxb);
                } else {
                    fill(host, maxb);
                    CK(cudaMemset(dv.p, 0, maxb));
                }
                double prev_one = 0;
                size_t prev_bytes = 0;
                for (size_t bytes = 4096; bytes <= maxb; bytes *= step) {
                    if (prev_one > 0) {
                        // Linear scaling of the previous size's time: an upper bound.
                        double one = prev_one * (double)bytes / (double)prev_bytes;
                        double est = (one > o.target_s ? one : o.target_s) * o.trials + 4 * one;
                        if (gp_probe_now() - t_series + est > share) {
                            gp_probe_note_skip(std::string("transfer ") + dname + " " + mname +
                                               ": series stopped before " +
                                               std::to_string(bytes >> 10) + " KiB: ~" +
                                               gp_probe_fmt(est) + " s would exceed its share "
                                               "of the time budget");
                            break;
                        }
                    }
                    auto op = [&]() {
                        if (dir == 0)
                            CK(cudaMemcpyAsync(dv.p, host, bytes, cudaMemcpyHostToDevice, s));
                        else
                            CK(cudaMemcpyAsync(host, dv.p, bytes, cudaMemcpyDeviceToHost, s));
                    };
                    double one = 0;
                    int batch = gp_probe_pick_batch(op, s, o.target_s, 256, &one);
                    int warm = one > o.target_s ? 1 : batch;
                    std::vector<double> t =
                        gp_probe_time(op, s, batch, o.trials, warm, pinned != 0);
                    CK(cudaStreamSynchronize(s));
                    prev_one = gp_probe_stats(t).median;
                    prev_bytes = bytes;
                    // Verify: 8 words of the destination.
                    for (int v = 0; v < 8; v++) {
                        size_t w = (size_t)gp_probe_pattern((size_t)v, (uint32_t)bytes) % (bytes / 4);
                        uint32_t got;
                        if (dir == 0)
                            CK(cudaMemcpy(&got, (uint32_t *)dv.p + w, 4, cudaMemcpyDeviceToHost));
                        else
                            got = ((uint32_t *)host)[w];
                        if (got != gp_probe_pattern(w, seed))
                            gp_probe_fail(std::string("transfer ") + dname + ": wrong data at word " +
                                          std::to_string(w));
                    }
                    gpw_transfer(doc, dname, mname, (double)bytes, batch, t.data(), t.size());
                    if (o.verbose)
                        fprintf(stderr, "gpuplan-probe: transfer %s %-8s %11zu B %8.2f GB/s\n",
                                dname, mname, bytes, (double)bytes / prev_one / 1e9);
                }
            }
        }
    } catch (...) {
        cudaStreamDestroy(s);
        throw;
    }
    CK(cudaStreamDestroy(s));
}
