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

#include <dlfcn.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cublasLt.h>

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

// ---- statistics and YAML --------------------------------------------------------------------

probe_stats gp_probe_stats(std::vector<double> v)
{
    probe_stats s;
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    auto q = [&](double p) {
        double h = (double)(n - 1) * p;
        size_t lo = (size_t)h;
        size_t hi = lo + 1 < n ? lo + 1 : lo;
        return v[lo] + (h - (double)lo) * (v[hi] - v[lo]);
    };
    s.min = v.front();
    s.max = v.back();
    s.median = q(0.5);
    s.p95 = q(0.95);
    double sum = 0;
    for (double x : v)
        sum += x;
    s.mean = sum / (double)n;
    if (n > 1 && s.mean != 0) {
        double ss = 0;
        for (double x : v)
            ss += (x - s.mean) * (x - s.mean);
        s.cv = std::sqrt(ss / (double)(n - 1)) / std::fabs(s.mean);
    }
    return s;
}

std::string gp_yq(const std::string &s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if ((unsigned char)c >= 0x20 && c != 0x7f) {
            o += c;
        }
    }
    return o + "\"";
}

std::string gp_ynum(double v)
{
    char b[40];
    snprintf(b, sizeof b, "%.9g", v);
    return b;
}

std::string gp_ylist(const std::vector<double> &v)
{
    std::string o = "[";
    for (size_t i = 0; i < v.size(); i++) {
        if (i)
            o += ", ";
        o += gp_ynum(v[i]);
    }
    return o + "]";
}

std::string gp_ystats(const probe_stats &st, const char *rate_key, double work)
{
    std::string o = "{min_s: " + gp_ynum(st.min) + ", median_s: " + gp_ynum(st.median) +
                    ", p95_s: " + gp_ynum(st.p95) + ", cv: " + gp_ynum(st.cv);
    if (rate_key != nullptr && st.median > 0)
        o += std::string(", ") + rate_key + ": " + gp_ynum(work / st.median);
    return o + "}";
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

static std::vector<std::string> g_notes;

void gp_probe_note_skip(const std::string &msg)
{
    fprintf(stderr, "gpuplan-probe: %s\n", msg.c_str());
    g_notes.push_back(msg);
}

// ---- probes table -------------------------------------------------------------------------

struct probe_entry {
    const char *name;
    const char *section;
    const char *what;
    void (*fn)(const probe_opts &, const probe_dev &, std::string &);
};

static const probe_entry k_probes[] = {
    {"gemm", "gemm", "cuBLASLt GEMM per precision (fp64 fp32 tf32 fp16 fp16acc bf16 fp8 int8), "
                     "square and LLM-shaped sizes",
     gp_probe_gemm},
    {"memory", "memory", "device memory read/write/copy/triad kernels (16 B loads, working set >> "
                         "L2, read+write bytes counted), cudaMemcpy D2D, L2 read",
     gp_probe_memory},
    {"latency", "latency", "pointer chase over a random permutation, working set 4 KiB..1 GiB "
                           "(cycles and ns per load)",
     gp_probe_latency},
    {"transfer", "transfer", "host<->device cudaMemcpy, pinned and pageable, 4 KiB..1 GiB; PCIe "
                             "gen/width from the driver",
     gp_probe_transfer},
    {"peer", "peer", "GPU-to-GPU copy (uni/bidirectional) and latency (needs >= 2 GPUs)",
     gp_probe_peer},
    {"allreduce", "allreduce", "NCCL AllReduce sweep via dlopen (needs >= 2 GPUs and libnccl)",
     gp_probe_allreduce},
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
            "  --quick            fewer sizes and trials (about a minute)\n"
            "  --device N         CUDA device index (default 0)\n"
            "  --trials N         timed trials per point (default 15, quick 7; at least 7)\n"
            "  --list             list the probes and exit\n"
            "  -v, --verbose      progress on stderr\n");
}

// ---- device identity ------------------------------------------------------------------------

static const char *k_archs = "sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 + PTX compute_120";

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

// Write text to path atomically: temp file in the same directory, fsync, rename.
static int write_atomic(const std::string &path, const std::string &text)
{
    std::string dir = ".";
    size_t slash = path.rfind('/');
    if (slash != std::string::npos)
        dir = slash == 0 ? "/" : path.substr(0, slash);
    std::string tmpl = path + ".tmp.XXXXXX";
    std::vector<char> tmp(tmpl.begin(), tmpl.end());
    tmp.push_back('\0');
    int fd = mkstemp(tmp.data());
    if (fd < 0) {
        fprintf(stderr, "gpuplan-probe: cannot create %s: %s\n", tmp.data(), strerror(errno));
        return -1;
    }
    size_t off = 0;
    while (off < text.size()) {
        ssize_t w = write(fd, text.data() + off, text.size() - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "gpuplan-probe: write %s: %s\n", tmp.data(), strerror(errno));
            close(fd);
            unlink(tmp.data());
            return -1;
        }
        off += (size_t)w;
    }
    if (fchmod(fd, 0644) != 0 || fsync(fd) != 0 || close(fd) != 0) {
        fprintf(stderr, "gpuplan-probe: finishing %s: %s\n", tmp.data(), strerror(errno));
        unlink(tmp.data());
        return -1;
    }
    if (rename(tmp.data(), path.c_str()) != 0) {
        fprintf(stderr, "gpuplan-probe: rename to %s: %s\n", path.c_str(), strerror(errno));
        unlink(tmp.data());
        return -1;
    }
    int dfd = open(dir.c_str(), O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
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
    try {
        cudaDeviceProp p;
        CK(cudaSetDevice(o.device));
        CK(cudaGetDeviceProperties(&p, o.device));
        CK(cudaDriverGetVersion(&drv));
        CK(cudaRuntimeGetVersion(&rt));
        int khz = 0, mkhz = 0;
        // CUDA 13 removed cudaDeviceProp::clockRate/memoryClockRate.
        CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, o.device));
        CK(cudaDeviceGetAttribute(&mkhz, cudaDevAttrMemoryClockRate, o.device));
        char bus[64] = "";
        CK(cudaDeviceGetPCIBusId(bus, (int)sizeof bus, o.device));
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

        cudaFuncAttributes fa;
        rc = cudaFuncGetAttributes(&fa, gp_probe_noop_kernel);
        if (rc == cudaErrorNoKernelImageForDevice || rc == cudaErrorInvalidDeviceFunction ||
            rc == cudaErrorUnsupportedPtxVersion || rc == cudaErrorInvalidPtx ||
            rc == cudaErrorJitCompilerNotFound)
            return unsupported_arch(d, rc);
        CK(rc);
        gp_probe_noop_kernel<<<1, 1>>>(nullptr);
        rc = cudaGetLastError();
        if (rc == cudaErrorNoKernelImageForDevice || rc == cudaErrorUnsupportedPtxVersion)
            return unsupported_arch(d, rc);
        CK(rc);
        CK(cudaDeviceSynchronize());
    } catch (const probe_error &e) {
        fprintf(stderr, "gpuplan-probe: cannot use device %d: %s\n", o.device, e.what());
        return 3;
    }
    probe_pcie pcie = gp_probe_pcie_under_load(d);

    char host[64] = "";
    gethostname(host, sizeof host - 1);
    std::string y;
    y += "# gpuplan-probe measurement file (docs/calibration.md).  Times are seconds per\n"
         "# operation, one entry per trial (a trial = a batch of operations between CUDA events).\n";
    y += "format: gpuplan-calib/1\n";
    y += "tool: " + gp_yq(std::string("gpuplan-probe ") + GP_PROBE_VERSION) + "\n";
    y += "date: " + gp_yq(now_iso()) + "\n";
    y += "host: " + gp_yq(host) + "\n";
    y += "options: {quick: " + std::string(o.quick ? "true" : "false") +
         ", trials: " + std::to_string(o.trials) + ", only: " + gp_yq(only.empty() ? "all" : only) +
         "}\n";
    y += "conventions: {memory_bytes: \"DRAM traffic: bytes read + bytes written per pass\", "
         "memcpy_d2d_bytes: \"2 x bytes copied (read + write)\", transfer_bytes: \"bytes "
         "copied, one direction\", peer_bidir_bytes: \"bytes copied in both directions summed\", "
         "allreduce_bytes: \"message size S per rank; busbw = 2(n-1)/n * S / t\"}\n";
    y += "device:\n";
    y += "  index: " + std::to_string(d.index) + "\n";
    y += "  name: " + gp_yq(d.name) + "\n";
    y += "  compute_capability: " + gp_yq(std::to_string(d.major) + "." + std::to_string(d.minor)) + "\n";
    y += "  sm_count: " + std::to_string(d.sms) + "\n";
    y += "  gpus: " + std::to_string(d.gpus) + "\n";
    y += "  clock_sm_hz: " + gp_ynum(d.clock_hz) + "\n";
    y += "  clock_mem_hz: " + gp_ynum(d.mem_clock_hz) + "\n";
    {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, o.device) == cudaSuccess) {
            y += "  memory_bus_bits: " + std::to_string(p.memoryBusWidth) + "\n";
            y += "  ecc: " + std::string(p.ECCEnabled ? "true" : "false") + "\n";
        }
    }
    y += "  memory_bytes: " + std::to_string(d.mem_bytes) + "\n";
    y += "  l2_bytes: " + std::to_string(d.l2_bytes) + "\n";
    y += "  driver_version: " + std::to_string(drv) + "\n";
    y += "  runtime_version: " + std::to_string(rt) + "\n";
    y += "  cuda_toolkit: " + gp_yq(std::to_string(CUDART_VERSION)) + "\n";
    y += "  cublaslt_version: " + std::to_string((long)cublasLtGetVersion()) + "\n";
    if (!pcie.driver.empty())
        y += "  nvml_driver_version: " + gp_yq(pcie.driver) + "\n";
    y += "  pci_bus_id: " + gp_yq(d.pci_bus_id) + "\n";
    y += "  pcie: {gen: " + std::to_string(pcie.gen) + ", width: " + std::to_string(pcie.width) +
         ", max_gen: " + std::to_string(pcie.max_gen) + ", max_width: " +
         std::to_string(pcie.max_width) + ", source: " + gp_yq(pcie.source.empty() ? "unknown"
                                                                                   : pcie.source) +
         "}\n";
    std::vector<std::string> warnings;
    if (pcie.gen > 0 && pcie.max_gen > 0 &&
        (pcie.gen < pcie.max_gen || pcie.width < pcie.max_width))
        warnings.push_back("PCIe link runs at gen " + std::to_string(pcie.gen) + " x" +
                           std::to_string(pcie.width) + " below its maximum gen " +
                           std::to_string(pcie.max_gen) + " x" + std::to_string(pcie.max_width) +
                           " (down-trained link, or power saving at idle)");
    std::vector<std::string> skipped;
    bool dead = false;
    for (size_t i = 0; i < k_nprobes; i++) {
        if (!want[i])
            continue;
        if (dead) {
            skipped.push_back(std::string(k_probes[i].name) + ": not run, the CUDA context "
                                                              "failed earlier");
            continue;
        }
        if (o.verbose)
            fprintf(stderr, "gpuplan-probe: %s ...\n", k_probes[i].name);
        std::string part;
        try {
            CK(cudaSetDevice(o.device));
            k_probes[i].fn(o, d, part);
            if (!part.empty())
                y += std::string(k_probes[i].section) + ":\n" + part;
        } catch (const probe_error &e) {
            std::string msg = std::string(k_probes[i].name) + ": " + e.what();
            fprintf(stderr, "gpuplan-probe: %s\n", msg.c_str());
            if (e.code == cudaErrorNoKernelImageForDevice)
                return unsupported_arch(d, e.code);
            skipped.push_back(msg);
            // A sticky error (illegal address, launch failure) poisons the context.
            (void)cudaGetLastError(); // clears a non-sticky error
            if (cudaDeviceSynchronize() != cudaSuccess)
                dead = true;
            if (!part.empty())
                y += std::string(k_probes[i].section) + ":\n" + part;
        } catch (const std::bad_alloc &) {
            skipped.push_back(std::string(k_probes[i].name) + ": out of host memory");
        }
    }
    skipped.insert(skipped.begin(), g_notes.begin(), g_notes.end());
    if (!warnings.empty()) {
        y += "warnings:\n";
        for (auto &w : warnings)
            y += "  - " + gp_yq(w) + "\n";
    }
    if (!skipped.empty()) {
        y += "skipped:\n";
        for (auto &s : skipped)
            y += "  - " + gp_yq(s) + "\n";
    }
    y += "complete: true\n";
    if (write_atomic(out_path, y) != 0)
        return 1;
    fprintf(stderr, "gpuplan-probe: wrote %s (%s, sm_%d%d)%s\n", out_path.c_str(), d.name.c_str(),
            d.major, d.minor, skipped.empty() ? "" : "; some probes were skipped, see 'skipped:'");
    return 0;
}
