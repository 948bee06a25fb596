// gpuplan-probe: shared declarations of the sub-probes (private to calib/).
//
// Every CUDA/cuBLASLt call goes through CK/CKB: a failure throws probe_error,
// which the driver (main.cu) catches per probe, records under `skipped:` and
// carries on (or stops when the context is no longer usable).  Timings are
// CUDA events around a batch of operations after a warm-up; each probe adds
// its points to the measurement file through the host-only writer
// (writer.h, docs/calibration.md).  Each probe runs under a time budget
// (probe_opts::budget_s, set by main.cu) and drops the sizes that would not
// fit, saying so under `skipped:`, so the whole run stays bounded.
#ifndef GP_CALIB_PROBE_H
#define GP_CALIB_PROBE_H

#include <cstddef>
#include <cstring>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <dlfcn.h>

#include "writer.h"

#define GP_PROBE_VERSION "0.2.0"

struct probe_error : std::runtime_error {
    cudaError_t code;
    probe_error(const std::string &m, cudaError_t c) : std::runtime_error(m), code(c) {}
};

[[noreturn]] void gp_probe_fail_cuda(cudaError_t rc, const char *expr, const char *file, int line);
[[noreturn]] void gp_probe_fail(const std::string &msg);

#define CK(expr)                                                                   \
    do {                                                                           \
        cudaError_t gp__rc = (expr);                                               \
        if (gp__rc != cudaSuccess)                                                 \
            gp_probe_fail_cuda(gp__rc, #expr, __FILE__, __LINE__);                 \
    } while (0)

// Kernel launches: check the launch, not the (asynchronous) execution.
#define CK_LAUNCH() CK(cudaGetLastError())

// Options shared by all probes.
struct probe_opts {
    int device = 0;
    int quick = 0;
    int trials = 15;          // >= 7
    double target_s = 0.02;   // aim for a batch (trial) of at least this long
    int verbose = 0;
    double t_start = 0;       // gp_probe_now() when the current probe started
    double budget_s = 1e9;    // seconds the current probe may take
};

// Monotonic clock, seconds.
double gp_probe_now();
// Seconds left of the current probe's budget (negative when over).
double gp_probe_left(const probe_opts &o);

// The device being probed, filled by main.cu.
struct probe_dev {
    int index = 0, major = 0, minor = 0, sms = 0, gpus = 1;
    double clock_hz = 0, mem_clock_hz = 0;
    size_t mem_bytes = 0, l2_bytes = 0;
    std::string name, pci_bus_id;
};

// A number for messages ("%.3g").
std::string gp_probe_fmt(double v);

// Statistics of a trial list (min, median, p95, CV), for the console summary
// and the budget estimates; the file's `stats:` maps come from the writer.
typedef gpw_stats probe_stats;
probe_stats gp_probe_stats(const std::vector<double> &v);

// Times `trials` batches of `batch` calls of op() on stream s after `warmup`
// untimed calls; returns seconds per op per trial.  With gate != 0 each batch
// is queued behind a spin kernel that holds the stream until the host has
// enqueued the whole batch, so enqueue cost stays out of the timing
// (nvbandwidth / p2pBandwidthLatencyTest style).
template <class F>
std::vector<double> gp_probe_time(F &&op, cudaStream_t s, int batch, int trials, int warmup,
                                  bool gate);

// Chooses a batch so one trial lasts >= target seconds, from two timed calls
// after one untimed; *one (when not NULL) gets the seconds per call.
template <class F>
int gp_probe_pick_batch(F &&op, cudaStream_t s, double target, int max_batch,
                        double *one = nullptr);

// Records "probe: what was skipped and why" for the file's `skipped:` list
// (main.cu), for parts of a probe that fail or are cut while the rest
// carries on.
void gp_probe_note_skip(const std::string &msg);

// Most operations queued behind the spin gate in one batch: stays well below
// the driver's per-stream launch queue, so enqueueing never blocks on it.
#define GP_PROBE_MAX_BATCH 256

// Spin gate (main.cu): blocks stream s until gp_probe_gate_open().
void gp_probe_gate_close(cudaStream_t s);
void gp_probe_gate_open();

// Probe entry points: add their points to doc.
void gp_probe_gemm(const probe_opts &o, const probe_dev &d, gpw_doc *doc);
void gp_probe_memory(const probe_opts &o, const probe_dev &d, gpw_doc *doc);
void gp_probe_latency(const probe_opts &o, const probe_dev &d, gpw_doc *doc);
void gp_probe_transfer(const probe_opts &o, const probe_dev &d, gpw_doc *doc);
void gp_probe_peer(const probe_opts &o, const probe_dev &d, gpw_doc *doc);
void gp_probe_allreduce(const probe_opts &o, const probe_dev &d, gpw_doc *doc);

// cuBLASLt is loaded at run time (gemm.cu: dlopen of libcublasLt.so.<major>,
// $GPUPLAN_CUBLASLT first), so a machine without it still runs every other
// probe.  Returns cublasLtGetVersion(), or 0 with the reason in *why.
long gp_probe_cublaslt_version(std::string *why);

// PCIe link as the driver reports it (NVML via dlopen, else Linux sysfs).
struct probe_pcie {
    int gen = 0, width = 0, max_gen = 0, max_width = 0;
    std::string source;   // "nvml", "sysfs" or ""
    std::string driver;   // NVML driver version
};
probe_pcie gp_probe_pcie_info(const std::string &bus_id);
// Same, read while a large pinned host-to-device copy keeps the link busy
// (idle links may drop to a lower generation to save power).
probe_pcie gp_probe_pcie_under_load(const probe_dev &d);

// Pointer chase (lat.cu): one line per `stride` bytes, linked in one random
// cycle (Sattolo), built in the memory of the current device.
struct chase_buf {
    uint32_t *dev = nullptr;        // device array, working-set bytes
    std::vector<uint32_t> nxt;      // host copy of the successor of each line
    size_t lines = 0;
    uint32_t stride_words = 32;
    chase_buf() = default;
    chase_buf(const chase_buf &) = delete;
    chase_buf &operator=(const chase_buf &) = delete;
    ~chase_buf();
};
void gp_probe_chase_build(chase_buf &c, size_t ws_bytes, size_t stride_bytes, uint64_t seed);
// Runs `trials` single-thread chases of `loads` dependent loads (after `warm`
// untimed ones) on the current device; appends ns and cycles per load, and
// checks the final position against the host's walk of the cycle.
void gp_probe_chase_time(const chase_buf &c, long warm, long loads, int trials,
                         std::vector<double> &ns, std::vector<double> &cycles);

// Kernels shared between translation units.
__global__ void gp_probe_noop_kernel(int *p);
__global__ void gp_probe_fill_u32(uint32_t *p, size_t n, uint32_t seed);
uint32_t gp_probe_pattern(size_t i, uint32_t seed); // host twin of the fill kernel

// ---- template bodies ---------------------------------------------------------------------

template <class F>
std::vector<double> gp_probe_time(F &&op, cudaStream_t s, int batch, int trials, int warmup,
                                  bool gate)
{
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    std::vector<double> out;
    CK(cudaEventCreate(&e0));
    cudaError_t rc1 = cudaEventCreate(&e1);
    if (rc1 != cudaSuccess) {
        cudaEventDestroy(e0);
        CK(rc1);
    }
    try {
        for (int i = 0; i < warmup; i++)
            op();
        CK(cudaStreamSynchronize(s));
        for (int t = 0; t < trials; t++) {
            if (gate)
                gp_probe_gate_close(s);
            CK(cudaEventRecord(e0, s));
            for (int i = 0; i < batch; i++)
                op();
            CK(cudaEventRecord(e1, s));
            if (gate)
                gp_probe_gate_open();
            CK(cudaEventSynchronize(e1));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            out.push_back((double)ms * 1e-3 / batch);
        }
    } catch (...) {
        if (gate)
            gp_probe_gate_open();
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        throw;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return out;
}

template <class F>
int gp_probe_pick_batch(F &&op, cudaStream_t s, double target, int max_batch, double *one_out)
{
    std::vector<double> t = gp_probe_time(op, s, 1, 2, 1, false);
    double one = gp_probe_stats(t).median;
    if (one_out != nullptr)
        *one_out = one;
    if (max_batch > GP_PROBE_MAX_BATCH)
        max_batch = GP_PROBE_MAX_BATCH;
    if (max_batch < 1)
        max_batch = 1;
    if (!(one > 0))
        return max_batch;
    double b = target / one;
    if (b < 1)
        return 1;
    if (b >= max_batch)
        return max_batch;
    return (int)b + 1;
}

// A function from a dlopen'ed library (cuBLASLt, NVML, NCCL): dlsym's void *
// converted to the function-pointer type T; nullptr when the symbol is missing.
template <class T> T gp_probe_sym(void *h, const char *name)
{
    void *p = dlsym(h, name);
    T f;
    static_assert(sizeof f == sizeof p, "function pointer size");
    memcpy(&f, &p, sizeof f);
    return f;
}

#endif // GP_CALIB_PROBE_H
