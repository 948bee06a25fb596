// gpuplan-probe: measure a GPU and write one YAML measurement file
// (docs/calibration.md).  Sub-probes: gemm, memory, latency, transfer, peer,
// allreduce.  Every CUDA call is checked; a GPU this binary has no kernel image
// for is reported as an unsupported architecture with the remedy, never a crash.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <chrono>
#include <exception>
#include <new>

#include <dlfcn.h>
#include <getopt.h>
#include <unistd.h>

#include "probe.h"

// ---- errors -------------------------------------------------------------------------------

void gp_probe_fail_cuda(cudaError_t rc, const char *expr, const char *file, int line)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s:%d: %s failed: %s (%s)", file, line, expr,
             cudaGetErrorString(rc), cudaGetErrorName(rc));
    throw probe_error(buf, rc);
}

void gp_probe_fail(const std::string &msg)
{
    throw probe_error(msg, cudaSuccess);
}

// ---- statistics, clock, messages --------------------------------------------------------

probe_stats gp_probe_stats(const std::vector<double> &v)
{
    probe_stats s;
    memset(&s, 0, sizeof s);
    if (!v.empty())
        (void)gpw_stats_of(v.data(), v.size(), &s);
    return s;
}

double gp_probe_now()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double gp_probe_left(const probe_opts &o)
{
    return o.budget_s - (gp_probe_now() - o.t_start);
}

std::string gp_probe_fmt(double v)
{
    char b[40];
    snprintf(b, sizeof b, "%.3g", v);
    return b;
}

// ---- shared kernels -------------------------------------------------------------------------

__global__ void gp_probe_noop_kernel(int *p)
{
    if (p != nullptr && threadIdx.x == 0 && blockIdx.x == 0)
        *p = 42;
}

__host__ __device__ static inline uint32_t mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

uint32_t gp_probe_pattern(size_t i, uint32_t seed)
{
    return mix32((uint32_t)i * 2654435761U + seed);
}

__global__ void gp_probe_fill_u32(uint32_t *p, size_t n, uint32_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = mix32((uint32_t)i * 2654435761U + seed);
}

// ---- the spin gate --------------------------------------------------------------------------

static volatile int *g_gate_host = nullptr;

// Spins until the host flag opens or ~2 s pass (never hangs the stream).
__global__ void gate_kernel(volatile int *flag)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (;;) {
        if (*flag != 0)
            break;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > 2000000000ULL)
            break;
    }
}

void gp_probe_gate_close(cudaStream_t s)
{
    if (g_gate_host == nullptr) {
        void *p = nullptr;
        CK(cudaHostAlloc(&p, 64, cudaHostAllocMapped | cudaHostAllocPortable));
        g_gate_host = (volatile int *)p;
    }
    *g_gate_host = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    void *dp = nullptr;
    CK(cudaHostGetDevicePointer(&dp, (void *)g_gate_host, 0));
    gate_kernel<<<1, 1, 0, s>>>((volatile int *)dp);
    CK_LAUNCH();
}

void gp_probe_gate_open()
{
    if (g_gate_host != nullptr) {
        std::atomic_thread_fence(std::memory_order_seq_cst);
        *g_gate_host = 1;
        std::atomic_thread_fence(std::memory_order_seq_cst);
    }
}

// The measurement file being built (main() owns it).
static gpw_doc *g_doc = nullptr;

void gp_probe_note_skip(const std::string &msg)
{
    fprintf(stderr, "gpuplan-probe: %s\n", msg.c_str());
    gpw_skip(g_doc, msg.c_str());
}

// ---- probes table -------------------------------------------------------------------------

// Time budgets, seconds (full, --quick): each probe drops the sizes that
// would not fit (with a `skipped:` note), so the whole run is bounded.  The
// expected times on an H200 are in each probe's source; on one GPU the run
// is ~75 s expected, at most ~150 s (quick: ~15 s, at most ~45 s), plus
// ~5 s of start-up (CUDA context, NVML, cuBLASLt).
struct probe_entry {
    const char *name;
    const char *what;
    void (*fn)(const probe_opts &, const probe_dev &, gpw_doc *);
    double budget_s, budget_quick_s;
};

static const probe_entry k_probes[] = {
    {"gemm", "cuBLASLt GEMM per precision (bf16 fp16 fp8 int8 tf32 fp16acc fp32 fp64), "
             "square and LLM-shaped sizes",
     gp_probe_gemm, 60, 16},
    {"memory", "device memory read/write/copy/triad kernels (16 B loads, working set >> "
               "L2, read+write bytes counted), cudaMemcpy D2D, L2 read",
     gp_probe_memory, 20, 6},
    {"latency", "pointer chase over a random permutation, working set 4 KiB..1 GiB "
                "(cycles and ns per load)",
     gp_probe_latency, 25, 8},
    {"transfer", "host<->device cudaMemcpy, pinned and pageable, 4 KiB..1 GiB; PCIe "
                 "gen/width from the driver",
     gp_probe_transfer, 40, 10},
    {"peer", "GPU-to-GPU copy (uni/bidirectional) and latency (needs >= 2 GPUs)",
     gp_probe_peer, 30, 10},
    {"allreduce", "NCCL AllReduce sweep via dlopen (needs >= 2 GPUs and libnccl)",
     gp_probe_allreduce, 30, 10},
};
static const size_t k_nprobes = sizeof k_probes / sizeof k_probes[0];

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuplan-probe [--quick] [--only PROBES] [--device N] [--trials N] [-o FILE]\n"
            "       gpuplan-probe --list\n\n"
            "Measures one GPU and writes a YAML measurement file for 'gpuplan calib import'.\n\n"
            "  -o, --output FILE  where to write (default gpuplan-calib.yaml); written atomically\n"
            "  --only LIST        comma-separated probes (see --list); default: all\n"
            "  --quick            fewer sizes and trials (under a minute)\n"
            "  --device N         CUDA device index (default 0)\n"
            "  --trials N         timed trials per point (default 15, quick 7; at least 7)\n"
            "  --list             list the probes and exit\n"
            "  -v, --verbose      progress on stderr\n");
}

// ---- device identity ------------------------------------------------------------------------

#if defined(__has_include)
#if __has_include("gp_archs.h")
#include "gp_archs.h" // written by calib/build.sh
#endif
#endif
#ifndef GP_PROBE_ARCHS
#define GP_PROBE_ARCHS "sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 + PTX compute_120"
#endif
static const char *k_archs = GP_PROBE_ARCHS;

static int unsupported_arch(const probe_dev &d, cudaError_t rc)
{
    fprintf(stderr,
            "gpuplan-probe: unsupported architecture: '%s' is sm_%d%d (compute capability %d.%d), "
            "and this gpuplan-probe holds kernels for %s only (%s).\n"
            "  remedy: rebuild the probe with a CUDA toolkit that supports sm_%d%d, e.g.\n"
            "    GPUPLAN_CUDA_ARCHS=\"%d%d\" make calib\n"
            "  (the same mismatch as \"requires device capability (9, 0) but your GPU has "
            "capability (12, 0)\": a cubin runs only on its own major architecture; only PTX "
            "JIT-compiles forward)\n",
            d.name.c_str(), d.major, d.minor, d.major, d.minor, k_archs, cudaGetErrorString(rc),
            d.major, d.minor, d.major, d.minor);
    return 3;
}

static std::string now_iso()
{
    char b[40];
    time_t t = time(nullptr);
    struct tm tmv;
    gmtime_r(&t, &tmv);
    strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    return b;
}

// Writes the file as it stands; pending = probes wanted but not finished.
static int write_now(const std::string &path, const std::vector<std::string> &pending)
{
    std::vector<const char *> p;
    for (const std::string &x : pending)
        p.push_back(x.c_str());
    char *text = gpw_render(g_doc, p.data(), p.size());
    if (text == nullptr) {
        fprintf(stderr, "gpuplan-probe: out of memory composing %s\n", path.c_str());
        return -1;
    }
    char err[600];
    int rc = gpw_write_atomic(path.c_str(), text, err, sizeof err);
    free(text);
    if (rc != 0)
        fprintf(stderr, "gpuplan-probe: %s\n", err);
    return rc;
}

static bool no_image(cudaError_t rc)
{
    return rc == cudaErrorNoKernelImageForDevice || rc == cudaErrorInvalidDeviceFunction ||
           rc == cudaErrorUnsupportedPtxVersion || rc == cudaErrorInvalidPtx ||
           rc == cudaErrorJitCompilerNotFound;
}

int main(int argc, char **argv)
{
    probe_opts o;
    std::string out_path = "gpuplan-calib.yaml", only;
    int list = 0, trials_set = 0;
    static const struct option longopts[] = {
        {"output", required_argument, nullptr, 'o'}, {"only", required_argument, nullptr, 'O'},
        {"quick", no_argument, nullptr, 'q'},        {"device", required_argument, nullptr, 'd'},
        {"trials", required_argument, nullptr, 't'}, {"list", no_argument, nullptr, 'l'},
        {"verbose", no_argument, nullptr, 'v'},      {"help", no_argument, nullptr, 'h'},
        {nullptr, 0, nullptr, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "o:vh", longopts, nullptr)) != -1) {
        char *end = nullptr;
        switch (c) {
        case 'o':
            out_path = optarg;
            break;
        case 'O':
            only = optarg;
            break;
        case 'q':
            o.quick = 1;
            break;
        case 'd':
            o.device = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end != '\0' || o.device < 0) {
                fprintf(stderr, "gpuplan-probe: option '--device' needs an index >= 0, got '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 't':
            o.trials = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end != '\0' || o.trials < 7 || o.trials > 1000) {
                fprintf(stderr, "gpuplan-probe: option '--trials' needs 7..1000, got '%s'\n",
                        optarg);
                return 2;
            }
            trials_set = 1;
            break;
        case 'l':
            list = 1;
            break;
        case 'v':
            o.verbose = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpuplan-probe: unexpected argument '%s'; try --help\n", argv[optind]);
        return 2;
    }
    if (list) {
        for (size_t i = 0; i < k_nprobes; i++)
            printf("%-10s %s\n", k_probes[i].name, k_probes[i].what);
        return 0;
    }
    std::vector<bool> want(k_nprobes, only.empty());
    if (!only.empty()) {
        size_t pos = 0;
        while (pos <= only.size()) {
            size_t comma = only.find(',', pos);
            std::string name = only.substr(pos, comma == std::string::npos ? std::string::npos
                                                                            : comma - pos);
            size_t i;
            for (i = 0; i < k_nprobes; i++)
                if (name == k_probes[i].name)
                    break;
            if (i == k_nprobes) {
                fprintf(stderr,
                        "gpuplan-probe: option '--only': unknown probe '%s' (known: gemm memory "
                        "latency transfer peer allreduce)\n",
                        name.c_str());
                return 2;
            }
            want[i] = true;
            if (comma == std::string::npos)
                break;
            pos = comma + 1;
        }
    }
    if (o.quick) {
        if (!trials_set)
            o.trials = 7;
        o.target_s = 0.005;
    }

    // ---- device identity and the architecture check ---------------------------------------
    probe_dev d;
    int ndev = 0, drv = 0, rt = 0;
    cudaError_t rc = cudaGetDeviceCount(&ndev);
    if (rc != cudaSuccess || ndev == 0) {
        void *drv_lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (drv_lib == nullptr) {
            fprintf(stderr, "gpuplan-probe: no usable CUDA GPU: no NVIDIA driver on this machine "
                            "(libcuda.so.1 cannot be loaded)\n");
            return 3;
        }
        dlclose(drv_lib);
        fprintf(stderr, "gpuplan-probe: no usable CUDA GPU: %s\n",
                rc != cudaSuccess ? cudaGetErrorString(rc) : "no device found");
        if (rc == cudaErrorInsufficientDriver)
            fprintf(stderr, "  remedy: install an NVIDIA driver that supports CUDA %d.%d or "
                            "newer, or rebuild with an older toolkit\n",
                    CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10);
        return 3;
    }
    if (o.device >= ndev) {
        fprintf(stderr, "gpuplan-probe: option '--device': index %d, but %d GPU(s) visible\n",
                o.device, ndev);
        return 2;
    }
    int bus_bits = 0, ecc = -1;
    try {
        cudaDeviceProp p;
        CK(cudaSetDevice(o.device));
        CK(cudaGetDeviceProperties(&p, o.device));
        CK(cudaDriverGetVersion(&drv));
        CK(cudaRuntimeGetVersion(&rt));
        // CUDA 13 removed cudaDeviceProp::clockRate/memoryClockRate; the
        // attributes are informational, so a refusal leaves them 0.
        int khz = 0, mkhz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, o.device) != cudaSuccess)
            khz = 0;
        if (cudaDeviceGetAttribute(&mkhz, cudaDevAttrMemoryClockRate, o.device) != cudaSuccess)
            mkhz = 0;
        (void)cudaGetLastError();
        char bus[64] = "";
        if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, o.device) != cudaSuccess)
            bus[0] = '\0';
        (void)cudaGetLastError();
        d.index = o.device;
        d.major = p.major;
        d.minor = p.minor;
        d.sms = p.multiProcessorCount;
        d.gpus = ndev;
        d.clock_hz = khz * 1e3;
        d.mem_clock_hz = mkhz * 1e3;
        d.mem_bytes = p.totalGlobalMem;
        d.l2_bytes = (size_t)p.l2CacheSize;
        d.name = p.name;
        d.pci_bus_id = bus;
        for (char &ch : d.pci_bus_id)
            ch = (char)tolower((unsigned char)ch);
        bus_bits = p.memoryBusWidth;
        ecc = p.ECCEnabled ? 1 : 0;

        cudaFuncAttributes fa;
        rc = cudaFuncGetAttributes(&fa, gp_probe_noop_kernel);
        if (no_image(rc))
            return unsupported_arch(d, rc);
        CK(rc);
        gp_probe_noop_kernel<<<1, 1>>>(nullptr);
        rc = cudaGetLastError();
        if (no_image(rc))
            return unsupported_arch(d, rc);
        CK(rc);
        CK(cudaDeviceSynchronize());
    } catch (const probe_error &e) {
        fprintf(stderr, "gpuplan-probe: cannot use device %d: %s\n", o.device, e.what());
        return 3;
    }
    fprintf(stderr, "gpuplan-probe: %s (sm_%d%d, %d SMs, %.1f GiB, L2 %.0f MiB), driver %d, "
                    "runtime %d\n",
            d.name.c_str(), d.major, d.minor, d.sms, (double)d.mem_bytes / 1073741824.0,
            (double)d.l2_bytes / 1048576.0, drv, rt);
    probe_pcie pcie = gp_probe_pcie_under_load(d);
    std::string lt_why;
    long lt_ver = gp_probe_cublaslt_version(&lt_why);

    g_doc = gpw_new();
    if (g_doc == nullptr) {
        fprintf(stderr, "gpuplan-probe: out of memory\n");
        return 1;
    }
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    const std::string tool = std::string("gpuplan-probe ") + GP_PROBE_VERSION;
    const std::string date = now_iso();
    gpw_set_header(g_doc, tool.c_str(), date.c_str(), host, o.quick, o.trials, only.c_str());
    const std::string toolkit = std::to_string(CUDART_VERSION);
    gpw_device dv;
    memset(&dv, 0, sizeof dv);
    dv.name = d.name.c_str();
    dv.pci_bus_id = d.pci_bus_id.c_str();
    dv.nvml_driver = pcie.driver.c_str();
    dv.cuda_toolkit = toolkit.c_str();
    dv.pcie_source = pcie.source.c_str();
    dv.index = d.index;
    dv.cc_major = d.major;
    dv.cc_minor = d.minor;
    dv.sm_count = d.sms;
    dv.gpus = d.gpus;
    dv.memory_bus_bits = bus_bits;
    dv.ecc = ecc;
    dv.driver_version = drv;
    dv.runtime_version = rt;
    dv.cublaslt_version = lt_ver;
    dv.clock_sm_hz = d.clock_hz;
    dv.clock_mem_hz = d.mem_clock_hz;
    dv.memory_bytes = (double)d.mem_bytes;
    dv.l2_bytes = (double)d.l2_bytes;
    dv.pcie_gen = pcie.gen;
    dv.pcie_width = pcie.width;
    dv.pcie_max_gen = pcie.max_gen;
    dv.pcie_max_width = pcie.max_width;
    gpw_set_device(g_doc, &dv);
    if (pcie.gen > 0 && pcie.max_gen > 0 &&
        (pcie.gen < pcie.max_gen || pcie.width < pcie.max_width)) {
        std::string w = "PCIe link runs at gen " + std::to_string(pcie.gen) + " x" +
                        std::to_string(pcie.width) + " below its maximum gen " +
                        std::to_string(pcie.max_gen) + " x" + std::to_string(pcie.max_width) +
                        " (down-trained link, or power saving at idle)";
        gpw_warning(g_doc, w.c_str());
    }

    // The probes, one after the other; the file is rewritten (atomically)
    // after each, listing those not yet finished, so a crash or a kill keeps
    // what finished.
    std::vector<size_t> todo;
    for (size_t i = 0; i < k_nprobes; i++)
        if (want[i])
            todo.push_back(i);
    auto pending_from = [&](size_t pos) {
        std::vector<std::string> v;
        for (size_t j = pos; j < todo.size(); j++)
            v.push_back(k_probes[todo[j]].name);
        return v;
    };
    if (write_now(out_path, pending_from(0)) != 0)
        return 1;
    std::vector<std::string> summary;
    bool dead = false, arch_bad = false;
    const double t_run = gp_probe_now();
    for (size_t pos = 0; pos < todo.size(); pos++) {
        const probe_entry &pe = k_probes[todo[pos]];
        if (dead) {
            std::string m = std::string(pe.name) + ": not run, the CUDA context failed earlier";
            gpw_skip(g_doc, m.c_str());
            summary.push_back(std::string(pe.name) + ": not run (CUDA context lost)");
            continue;
        }
        fprintf(stderr, "gpuplan-probe: %s ... (budget %.0f s)\n", pe.name,
                o.quick ? pe.budget_quick_s : pe.budget_s);
        probe_opts po = o;
        po.t_start = gp_probe_now();
        po.budget_s = o.quick ? pe.budget_quick_s : pe.budget_s;
        size_t before = 0;
        for (int sec = 0; sec < GPW__SECTIONS; sec++)
            before += gpw_count(g_doc, sec);
        std::string failure;
        try {
            CK(cudaSetDevice(o.device));
            pe.fn(po, d, g_doc);
        } catch (const probe_error &e) {
            failure = e.what();
            if (no_image(e.code)) {
                (void)unsupported_arch(d, e.code);
                arch_bad = true;
                dead = true;
            }
            // A sticky error (illegal address, launch failure) poisons the context.
            (void)cudaGetLastError(); // clears a non-sticky error
            if (cudaDeviceSynchronize() != cudaSuccess)
                dead = true;
        } catch (const std::bad_alloc &) {
            failure = "out of host memory";
        } catch (const std::exception &e) {
            failure = std::string("unexpected error: ") + e.what();
        }
        size_t after = 0;
        for (int sec = 0; sec < GPW__SECTIONS; sec++)
            after += gpw_count(g_doc, sec);
        const double took = gp_probe_now() - po.t_start;
        if (!failure.empty()) {
            std::string m = std::string(pe.name) + ": " + failure;
            fprintf(stderr, "gpuplan-probe: %s\n", m.c_str());
            gpw_skip(g_doc, m.c_str());
        }
        char line[300];
        snprintf(line, sizeof line, "%-9s %3zu points  %6.1f s%s%s", pe.name, after - before, took,
                 failure.empty() ? "" : "  FAILED: ", failure.empty() ? "" : failure.c_str());
        summary.push_back(line);
        if (write_now(out_path, pending_from(pos + 1)) != 0)
            return 1;
    }
    fprintf(stderr, "gpuplan-probe: summary (%.1f s of probes):\n", gp_probe_now() - t_run);
    for (const std::string &l : summary)
        fprintf(stderr, "  %s\n", l.c_str());
    if (lt_ver == 0)
        fprintf(stderr, "  (cuBLASLt: %s)\n", lt_why.c_str());
    fprintf(stderr, "gpuplan-probe: wrote %s (%s, sm_%d%d)\n", out_path.c_str(), d.name.c_str(),
            d.major, d.minor);
    gpw_free(g_doc);
    g_doc = nullptr;
    return arch_bad ? 3 : 0;
}
