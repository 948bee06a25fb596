/* gpuplan-probe's measurement-file writer: statistics of a trial list and the
 * YAML text of docs/calibration.md (`format: gpuplan-calib/1`), plus the
 * atomic file write.  Host-only C11 with no CUDA, so that both the probe
 * (calib/build.sh links it into gpuplan-probe) and the test suite
 * (tests/check_probewriter.c feeds it fake measurements and reads the result
 * back with gp_calib_read_text) compile the same code: a change on one side
 * of the schema that the other side does not follow fails `make check`
 * without a GPU.
 *
 * A document collects points per section; gpw_render() can be called at any
 * time (the probe writes the file after every sub-probe, so a crash or a
 * kill keeps what finished).  Points whose trials are not all finite and
 * positive, or whose names the reader would refuse, are dropped and recorded
 * under `skipped:` instead of making the whole file unreadable. */
#ifndef GP_PROBE_WRITER_H
#define GP_PROBE_WRITER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPW_FORMAT "gpuplan-calib/1"

/* Longest strings the reader stores (include/gpuplan/calib.h buffer sizes
 * minus the NUL); longer values are cut.  tests/check_probewriter.c checks
 * these against the reader's structs. */
#define GPW_MAX_NAME 127  /* device.name          */
#define GPW_MAX_CC 15     /* device.compute_capability */
#define GPW_MAX_BUS 31    /* device.pci_bus_id    */
#define GPW_MAX_NVML 31   /* device.nvml_driver_version */
#define GPW_MAX_TOOL 63   /* tool                 */
#define GPW_MAX_DATE 39   /* date                 */
#define GPW_MAX_HOST 63   /* host                 */
#define GPW_MAX_LABEL 63  /* a point's label      */

/* Statistics of n >= 1 samples: min, max, mean, median and p95 by linear
 * interpolation between order statistics (position (n-1) p, as GSL's
 * gsl_stats_quantile_from_sorted_data), cv = sample sd / mean (0 for n = 1).
 * Returns 0, or -1 when n == 0, x is NULL, a sample is not finite or
 * (n > 65536) too many, or out of memory. */
typedef struct gpw_stats {
    size_t n;
    double min, median, p95, max, mean, cv;
} gpw_stats;
int gpw_stats_of(const double *x, size_t n, gpw_stats *out);

/* Device identity (all optional except name).  Strings may be NULL. */
typedef struct gpw_device {
    const char *name;          /* "NVIDIA H200"                                */
    const char *pci_bus_id;    /* "0000:18:00.0"                               */
    const char *nvml_driver;   /* NVML driver version; NULL/"" = omitted        */
    const char *cuda_toolkit;  /* CUDART_VERSION the probe was built with       */
    const char *pcie_source;   /* "nvml", "sysfs"; NULL/"" = "unknown"          */
    int index, cc_major, cc_minor, sm_count, gpus;
    int memory_bus_bits;       /* <= 0: omitted                                 */
    int ecc;                   /* 1, 0, or -1 = omitted                         */
    int driver_version, runtime_version;
    long cublaslt_version;     /* 0 = cuBLASLt not loaded                       */
    double clock_sm_hz, clock_mem_hz, memory_bytes, l2_bytes;
    int pcie_gen, pcie_width, pcie_max_gen, pcie_max_width; /* 0 = unknown      */
} gpw_device;

enum { GPW_GEMM, GPW_MEMORY, GPW_LATENCY, GPW_TRANSFER, GPW_PEER, GPW_ALLREDUCE, GPW__SECTIONS };

typedef struct gpw_doc gpw_doc;

/* A new, empty document; NULL when out of memory.  gpw_free(NULL) is a no-op. */
gpw_doc *gpw_new(void);
void gpw_free(gpw_doc *d);

/* Header fields.  `only` is the --only list ("all" when NULL or ""). */
void gpw_set_header(gpw_doc *d, const char *tool, const char *date, const char *host, int quick,
                    int trials, const char *only);
void gpw_set_device(gpw_doc *d, const gpw_device *dev);

/* Points.  Each returns 0 when the point was added, -1 when it was dropped
 * (bad trials or a name the reader refuses; a `skipped:` entry says why).
 * t[0..nt-1] are seconds per operation, one per trial; batch >= 1 is the
 * number of operations per trial.
 *   gemm: precision fp64|fp32|tf32|fp16|bf16|fp8|int8, pipeline cuda|tensor,
 *         accum fp32|fp16; flop = 2 m n k is written for the reader to check.
 *   memory: kernel read|write|copy|triad|memcpy-d2d|l2-read, bytes = DRAM
 *         traffic per pass (reads + writes).
 *   latency: ns and cycles per load, one each per trial.
 *   transfer: direction h2d|d2h, memory pinned|pageable, bytes one way.
 *   peer: mode uni|bidir|latency; bidir bytes = both directions summed.
 *   allreduce: gpus >= 2, bytes = message size S per rank. */
int gpw_gemm(gpw_doc *d, const char *prec, const char *pipe, const char *acc, const char *label,
             long m, long n, long k, int batch, const double *t, size_t nt);
int gpw_memory(gpw_doc *d, const char *kernel, double bytes, double working_set,
               const char *config, int batch, const double *t, size_t nt);
int gpw_latency(gpw_doc *d, double working_set, double stride, long loads, const double *ns,
                const double *cycles, size_t nt);
int gpw_transfer(gpw_doc *d, const char *dir, const char *mem, double bytes, int batch,
                 const double *t, size_t nt);
int gpw_peer(gpw_doc *d, const char *mode, int src, int dst, int p2p, double bytes, int batch,
             const char *note, const double *t, size_t nt);
int gpw_allreduce(gpw_doc *d, int gpus, double bytes, const char *dtype, int batch,
                  int nccl_version, const double *t, size_t nt);

/* Free-text entries of `warnings:` and `skipped:`. */
void gpw_warning(gpw_doc *d, const char *msg);
void gpw_skip(gpw_doc *d, const char *msg);

/* Points added to a section so far (GPW_GEMM ...). */
size_t gpw_count(const gpw_doc *d, int section);

/* The whole file as malloc'd text (caller frees), ending with
 * `complete: true`.  `pending` lists probes that have not finished yet: each
 * becomes a `skipped:` entry saying it did not finish, and options.finished
 * is false.  NULL when out of memory. */
char *gpw_render(const gpw_doc *d, const char *const *pending, size_t npending);

/* Write text to path atomically: a temp file in the same directory, fsync,
 * rename, directory fsync.  Returns 0, or -1 with a message in err. */
int gpw_write_atomic(const char *path, const char *text, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif /* GP_PROBE_WRITER_H */
