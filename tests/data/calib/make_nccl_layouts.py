#!/usr/bin/env python3
"""Writes the nccl-tests / rccl-tests layout fixtures (run from this directory).

No GPU printed these: each file is what all_reduce_perf prints for one set of
options, rebuilt line by line from the printf format strings of the tool's
source (cited at each writer below; Python's % operator formats as C's printf
for these conversions), with times from a stated ring model so that
tests/check_calibimport.c can work the expected values out by hand:

    t(S) = alpha + 2(n-1)/n * S / beta      (us, S in bytes, beta in B/us)

and algbw = S / t, busbw = algbw * 2(n-1)/n computed from the unrounded time,
as nccl-tests' BenchTime does (it prints the time and the rates separately
rounded).  Each trial multiplies the model time by a stated factor.

Sources (the search index used for this work; commits where it gave them):
  NV  NVIDIA/nccl-tests src/common.cu, src/util.cu, src/common.h at commit
      0fdb00a3f4339efc1176771a9c97db5438bd3f7f (NCCL_TESTS_VERSION "2.19.1")
  NO  NVIDIA/nccl-tests src/common.cu at d2d40cc8249378efa4d7e2c949528c15eeb7d8e7
      (older output, printed from run() and BenchTime) and src/all_reduce.cu at
      03a204a1f38aaea17f1a777885bb2d9600ba7eff (busbw under NCCL_ALGO=NVLS)
  RO  ROCm/rccl-tests src/common.cu at c0eac93f34ca22af47702ec764890e2da4f99258
  RN  ROCm/rccl-tests src/common.cu and src/common.h, the 2026 version with
      run_cycles and -A (index file ids 56923846000 and 63125856133; the index
      did not report their commit)
"""
import math

MiB, GiB = 1024**2, 1024**3


def getFloatStr(value, width):
    """NV util.cu getFloatStr: the width-bounded number of the newer tables."""
    power, val = 0, 1
    while value >= val:
        power += 1
        val *= 10
    if power < width - 2:
        return "%*.2f" % (width, value)
    if power < width - 1:
        return "%*.1f" % (width, value)
    if power < width + 1:
        return "%*.0f" % (width, value)
    if width >= 7:
        return "%*.1e" % (width, value)
    return "%*.0e" % (width, value)


def old_time(t):
    """NO/RO BenchTime: the time string of the older tables."""
    if t >= 10000.0:
        return "%7.0f" % t
    if t >= 100.0:
        return "%7.1f" % t
    return "%7.2f" % t


def model(alpha, beta_gbs, n, size):
    """Ring time in us; busbw factor 2(n-1)/n (all_reduce.cu AllReduceGetBw)."""
    return alpha + 2.0 * (n - 1) / n * size / (beta_gbs * 1e3)


def rates(size, t_us, factor):
    algbw = size / 1.0e9 / (t_us * 1e-6)
    return algbw, algbw * factor


def preamble(size, count, typ="float", op="sum", root=-1):
    # NV util.cu writeBenchmarkLinePreamble / NO TimeTest: rootName "%6i"
    return "%12li  %12li  %8s  %6s  %6s" % (size, count, typ, op, "%6i" % root)


def new_body(t, algbw, busbw, wrong=0):
    # NV util.cu writeBenchmarkLineBody
    return "  %7s  %6s  %6s  %6g" % (getFloatStr(t, 7), getFloatStr(algbw, 6),
                                     getFloatStr(busbw, 6), wrong)


def old_body(t, algbw, busbw, wrong=0):
    # NO / RO BenchTime
    return "  %7s  %6.2f  %6.2f  %5g" % (old_time(t), algbw, busbw, wrong)


def per_iter(imin, imax, ip99, cv):
    # NV util.cu writePerIterReport
    return "  %7s  %7s  %7s  %7s" % (getFloatStr(imin, 7), getFloatStr(imax, 7),
                                      getFloatStr(ip99, 7), getFloatStr(cv, 7))


def new_header(timestr="time", ts=False, per_it=False):
    # NV util.cu writeResultHeader
    lbl, pad, fmt = ("timestamp", 19, "%Y-%m-%d %H:%M:%S") if ts else ("", 0, "")
    out = ["#"]
    if per_it:
        out.append("# %10s  %12s  %8s  %6s  %6s              out-of-place (+ per-iteration)"
                   "                                in-place (+ per-iteration)" % ("", "", "", "", ""))
        f = ("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s"
             "  %6s  %7s  %7s  %7s  %7s %*s")
        out.append(f % ("size", "count", "type", "redop", "root", timestr, "algbw", "busbw",
                        "#wrong", "i_min", "i_max", "i_p99", "i_cv%", timestr, "algbw", "busbw",
                        "#wrong", "i_min", "i_max", "i_p99", "i_cv%", pad, lbl))
        out.append(f % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
                        "(us)", "(us)", "(%)", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)",
                        "(us)", "(%)", pad, fmt))
    else:
        out.append("# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
                   "in-place          " % ("", "", "", "", ""))
        f = "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s"
        out.append(f % ("size", "count", "type", "redop", "root", timestr, "algbw", "busbw",
                        "#wrong", timestr, "algbw", "busbw", "#wrong", pad, lbl))
        out.append(f % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
                        "(GB/s)", "(GB/s)", "", pad, fmt))
    return out


def old_header(timestr="time"):
    # NO run() (and RO run() with out-of-place enabled)
    return ["#",
            "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place"
            "          " % ("", "", "", "", ""),
            "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s"
            % ("size", "count", "type", "redop", "root", timestr, "algbw", "busbw", "#wrong",
               timestr, "algbw", "busbw", "#wrong"),
            "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s"
            % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
               "(GB/s)", "(GB/s)", "")]


def new_device_report(threads, gpus, lo, hi, step, host, pid, buses, name, per_it=False,
                      nranks_lines=None, groups=None, pids=None, libver=22707):
    # NV util.cu writeDeviceReport
    out = ["# nccl-tests version %s nccl-headers=%d nccl-library=%d" % ("2.19.1", libver, libver),
           "# Collective test starting: %s" % "all_reduce_perf",
           "# nThread %d nGpus %d minBytes %ld maxBytes %ld step: %ld(%s) warmup iters: %d iters: "
           "%d agg iters: %d validation: %d graph: %d unalign: %d"
           % (threads, gpus, lo, hi, step, "factor", 1, 20, 1, 1, 0, 0)]
    if per_it:
        out.append("# Per-Iteration Report: CUDA event timing; i_* uses max over process rows ")
    out += ["#", "# Using devices"]
    n = nranks_lines if nranks_lines is not None else threads * gpus
    for r in range(n):
        # cudaDev = localRank*nThreads*nGpus + i: one process a host, or (with
        # nranks_lines) one process a rank whose localRank is its rank
        dev = r if nranks_lines is not None else r % (threads * gpus)
        out.append("#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s"
                   % (r, groups[r] if groups else 0, pids[r] if pids else pid, host, dev, 0,
                      buses[dev], 0, name))
    return out


def new_footer(bw):
    # NV util.cu writeResultFooter, finalizeFooter, writeErrors (no error: "\n")
    return ["# %-20s : %d %s" % ("Out of bounds values", 0, "OK"),
            "# %-20s : %g %s" % ("Avg bus bandwidth", bw, ""),
            "#", "# Collective test concluded: %s" % "all_reduce_perf", "#", ""]


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


H100 = "NVIDIA H100 80GB HBM3"
H100_BUS = [0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb]   # a DGX H100's GPU buses
FACTOR8 = 2.0 * 7 / 8


def h100_cycles_timestamps():
    """NV: all_reduce_perf -b 1M -e 256M -f 16 -t 2 -g 4 -N 2 -S 1 -J ar.json
    (one process, two threads of four GPUs: 8 ranks); alpha 30 us, beta 360 GB/s.
    Trial factors (out-of-place, in-place): cycle 1 (1.000, 1.004), cycle 2
    (0.998, 1.010).  Timestamps one second a row from 2025-06-02 14:03:11."""
    out = ["# Writing JSON output to ar.json"]            # NV util.cu jsonOutputInit
    out += new_device_report(2, 4, 1 * MiB, 256 * MiB, 16, "dgx-h100-07", 48213, H100_BUS, H100)
    out += new_header(ts=True)
    sizes = [1 * MiB, 16 * MiB, 256 * MiB]
    fac = [(1.000, 1.004), (0.998, 1.010)]
    bws, sec = [], 11
    for cyc in range(2):                                   # NV TimeTest: do { ... } while (--repeat)
        for s in sizes:
            line = preamble(s, s // 4)
            for h in range(2):
                t = model(30.0, 360.0, 8, s) * fac[cyc][h]
                a, b = rates(s, t, FACTOR8)
                bws.append(b)
                line += new_body(t, a, b)
            line += "%21s" % ("2025-06-02 14:03:%02d" % sec)  # NV util.cu writeTimestamp
            sec += 1
            out.append(line)
    out += new_footer(sum(bws) / len(bws))
    write("h100-nccl-tests-cycles-timestamps.txt", out)


def h100_per_iteration():
    """NV: all_reduce_perf -b 64M -e 1G -f 4 -g 8 -I 1; alpha 30 us, beta 360 GB/s.
    Trial factors (1.000, 1.003).  Per-iteration columns: i_min 0.985 t, i_max
    1.031 t, i_p99 = i_max (20 iterations: percentileIndex(20, 99) = 19, the
    maximum), i_cv% 0.84 out-of-place, 0.79 in-place."""
    out = new_device_report(1, 8, 64 * MiB, 1 * GiB, 4, "dgx-h100-07", 48213, H100_BUS, H100,
                            per_it=True)
    out += new_header(per_it=True)
    bws = []
    for s in [64 * MiB, 256 * MiB, 1 * GiB]:
        line = preamble(s, s // 4)
        for h, (f, cv) in enumerate([(1.000, 0.84), (1.003, 0.79)]):
            t = model(30.0, 360.0, 8, s) * f
            a, b = rates(s, t, FACTOR8)
            bws.append(b)
            line += new_body(t, a, b) + per_iter(0.985 * t, 1.031 * t, 1.031 * t, cv)
        out.append(line)
    out += new_footer(sum(bws) / len(bws))
    write("h100-nccl-tests-per-iteration.txt", out)


MI300X = "AMD Instinct MI300X"
MI300X_BUS = ["0000:0c:00.0", "0000:22:00.0", "0000:38:00.0", "0000:5c:00.0",
              "0000:9f:00.0", "0000:af:00.0", "0000:bf:00.0", "0000:df:00.0"]


def mi300x_inplace_cycles():
    """RO: all_reduce_perf -b 64M -e 1G -f 4 -g 8 -O 0 -s 2 (in-place only, two
    stress cycles); alpha 40 us, beta 310 GB/s; cycle factors 1.000 and 1.006."""
    out = ["# nThread %d nGpus %d minBytes %ld maxBytes %ld step: %ld(%s) warmup iters: %d "
           "iters: %d agg iters: %d validation: %d graph: %d"
           % (1, 8, 64 * MiB, 1 * GiB, 4, "factor", 5, 20, 1, 1, 0),
           "#", "rccl-tests: Version %s" % "develop:7ba3a9e", "# Using devices"]
    for r in range(8):
        out.append("#   Rank %2d Pid %6d on %10s device %2d [%s] %s"
                   % (r, 91077, "mi300x-n01", r, MI300X_BUS[r], MI300X))
    out += ["#",
            "# %10s  %12s  %8s  %6s  %6s           in-place          " % ("", "", "", "", ""),
            "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s"
            % ("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong"),
            "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s"
            % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "")]
    bws = []
    for cyc, f in enumerate([1.000, 1.006]):
        if cyc > 0:
            out.append("# Testing %lu cycle." % (cyc + 1))   # RO TimeTest
        for s in [64 * MiB, 256 * MiB, 1 * GiB]:
            t = model(40.0, 310.0, 8, s) * f
            a, b = rates(s, t, FACTOR8)
            bws.append(b)
            out.append(preamble(s, s // 4) + old_body(t, a, b))
    out += ["# Errors with asterisks indicate errors that have exceeded the maximum threshold.",
            "# Out of bounds values : %d %s" % (0, "OK"),
            "# Avg bus bandwidth    : %g %s" % (sum(bws) / len(bws), ""), "#", ""]
    write("mi300x-rccl-tests-inplace-cycles.txt", out)


# ---- refused layouts (tests/data/bad) ----------------------------------------------------------

def bad_cputime():
    """NV: all_reduce_perf -b 1M -e 256M -f 16 -g 8 -C 1: the time columns hold
    the launch time (9-10 us, the host's), the rates the completion time's
    (alpha 30 us, beta 360 GB/s)."""
    out = ["# synthetic (tests/data/calib/make_nccl_layouts.py): nccl-tests 2.19.1 -C 1"]
    out += new_device_report(1, 8, 1 * MiB, 256 * MiB, 16, "dgx-h100-07", 48213, H100_BUS, H100)
    out += new_header(timestr="cputime")
    bws = []
    for s, cpu in [(1 * MiB, (9.41, 9.37)), (16 * MiB, (9.52, 9.46)), (256 * MiB, (9.60, 9.58))]:
        line = preamble(s, s // 4)
        for h in range(2):
            t = model(30.0, 360.0, 8, s)
            a, b = rates(s, t, FACTOR8)
            bws.append(b)
            line += new_body(cpu[h], a, b)
        out.append(line)
    out += new_footer(sum(bws) / len(bws))
    write("../bad/nccl-cputime.txt", out)


def bad_timeout():
    """NV: all_reduce_perf -b 1M -e 1G -f 4 -g 8 -T 5 stuck at 256 MiB: the row's
    preamble is printed before the timing, then testStreamSynchronize prints
    "%s: Test timeout (%ds) %s:%d" on the same line and every TESTCHECK on
    the way out its " .. %s pid %d: Test failure %s:%d" (common.h).  The line
    numbers after the file names are illustrative; the reader does not read them."""
    out = ["# synthetic (tests/data/calib/make_nccl_layouts.py): nccl-tests 2.19.1 -T 5, timed out"]
    out += new_device_report(1, 8, 1 * MiB, 1 * GiB, 4, "dgx-h100-07", 48213, H100_BUS, H100)
    out += new_header()
    for s in [1 * MiB, 4 * MiB, 16 * MiB, 64 * MiB]:
        line = preamble(s, s // 4)
        for h in range(2):
            t = model(30.0, 360.0, 8, s)
            a, b = rates(s, t, FACTOR8)
            line += new_body(t, a, b)
        out.append(line)
    out.append(preamble(256 * MiB, 64 * MiB) + "%s: Test timeout (%ds) %s:%d"
               % ("dgx-h100-07", 5, "common.cu", 372))
    for f, ln in [("common.cu", 510), ("common.cu", 640), ("all_reduce.cu", 98),
                  ("common.cu", 682), ("common.cu", 1187), ("common.cu", 1002)]:
        out.append(" .. %s pid %d: Test failure %s:%d" % ("dgx-h100-07", 48213, f, ln))
    write("../bad/nccl-timeout.txt", out)


def bad_failure():
    """NV: all_reduce_perf -b 1M -e 1G -f 4 -g 8 whose communicators fail to
    initialise: initComms' NCCLCHECK prints "%s: Test NCCL failure %s:%d '%s / %s'"
    (common.h, NCCL >= 2.13), then the TESTCHECKs; no table.  Line numbers
    illustrative."""
    out = ["# synthetic (tests/data/calib/make_nccl_layouts.py): nccl-tests 2.19.1, NCCL init failed"]
    out += new_device_report(1, 8, 1 * MiB, 1 * GiB, 4, "dgx-h100-07", 48213, H100_BUS, H100)
    out.append("%s: Test NCCL failure %s:%d '%s / %s'"
               % ("dgx-h100-07", "common.cu", 241,
                  "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
                  "Cuda failure 'out of memory'"))
    for f, ln in [("common.cu", 1129), ("common.cu", 1002)]:
        out.append(" .. %s pid %d: Test failure %s:%d" % ("dgx-h100-07", 48213, f, ln))
    write("../bad/nccl-test-failure.txt", out)


def bad_json():
    """NV util.cu: the -J FILE.json results of all_reduce_perf -b 1M -e 16M -f 16
    -g 4 -J ar.json: one JSON object on one line (jsonStartObject ... no newline),
    doubles "%lf", bools as the strings "true"/"false", '/' escaped; without MPI
    'devices' holds the first rank only (parseRankInfo of the first line)."""
    def jd(v):
        return "%lf" % v
    res = []
    bws = []
    for s in [1 * MiB, 16 * MiB]:
        halves = []
        for key in ["out_of_place", "in_place"]:
            t = model(30.0, 360.0, 4, s)
            a, b = rates(s, t, 1.5)
            bws.append(b)
            halves.append('"%s":{"time":%s,"alg_bw":%s,"bus_bw":%s,"nwrong":%s}'
                          % (key, jd(t), jd(a), jd(b), jd(0.0)))
        res.append('{"size":%d,"count":%d,"type":"float","redop":"sum","root":"    -1",%s,'
                   '"actual_iterations":20,"experiment_name":""}' % (s, s // 4, ",".join(halves)))
    text = ('{"version":2,"start_time":"2025-06-02 14:10:02","args":["./build\\/all_reduce_perf",'
            '"-b","1M","-e","16M","-f","16","-g","4","-J","ar.json"],"env":["HOME=\\/root",'
            '"NCCL_DEBUG=WARN"],"nccl_version":22707,"config":{"nthreads":1,"ngpus":4,'
            '"minimum_bytes":1048576,"maximum_bytes":16777216,"step_factor":16,"warmup_iters":1,'
            '"iterations":20,"aggregated_iterations":1,"validation":1,"graph":0,'
            '"blocking_collectives":"false","per_iter_timing":"false","parallel_init":"false",'
            '"devices":[{"rank":0,"group":0,"pid":48213,"hostname":"dgx-h100-07","device":0,'
            '"device_hex":"0000:18:00","device_info":"NVIDIA H100 80GB HBM3"}]},"results":[%s],'
            '"out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":{"bandwidth":%s,'
            '"okay":"unchecked"},"errors":[""],"end_time":"2025-06-02 14:10:04"}'
            % (",".join(res), jd(sum(bws) / len(bws))))
    with open("../bad/nccl-json-output.json", "w") as f:
        f.write(text)


def bad_csv():
    """RN Reporter::writeFile (csv, built without MPI) for all_reduce_perf -b 1M
    -e 16M -f 16 -g 8 -X ar.csv -Z csv: the header, then one line per
    BenchTime (out-of-place, in-place); common.h makeValueKeyPair: numbers by
    std::to_string ("%f" for doubles), strings in double quotes."""
    out = ["numCycle,collective,gpus,size,type,redop,inplace,time,algbw,busbw,#wrong"]
    for s in [1 * MiB, 16 * MiB]:
        for inplace in (0, 1):
            t = model(40.0, 310.0, 8, s)
            a, b = rates(s, t, FACTOR8)
            out.append(",".join(["0", '"AllReduce"', "8", str(s), '"float"', '"sum"', str(inplace),
                                 "%f" % t, "%f" % a, "%f" % b, '"0"']))
    write("../bad/rccl-csv-output.csv", out)


def bad_nvls_factor():
    """NO common.cu output with NO all_reduce.cu (03a204a) AllReduceGetBw, which
    under NCCL_ALGO=NVLS (exported, so not in the log) prints busbw = algbw
    (n-1)/(n+1) = 7/9 on 8 ranks; -b 64M -e 1G -f 4 -g 8; t = 25 us + S / 410 GB/s."""
    out = ["# synthetic (tests/data/calib/make_nccl_layouts.py): nccl-tests, NCCL_ALGO=NVLS exported",
           "# nThread %d nGpus %d minBytes %ld maxBytes %ld step: %ld(%s) warmup iters: %d iters: "
           "%d agg iters: %d validation: %d graph: %d" % (1, 8, 64 * MiB, GiB, 4, "factor", 5, 20,
                                                         1, 1, 0),
           "#", "# Using devices"]
    for r in range(8):
        out.append("#  Rank %2d Group %2d Pid %6d on %10s device %2d [0x%02x] %s"
                   % (r, 0, 48213, "dgx-h100-07", r, H100_BUS[r], H100))
    out += old_header()
    bws = []
    for s in [64 * MiB, 256 * MiB, 1 * GiB]:
        line = preamble(s, s // 4)
        for h in range(2):
            t = 25.0 + s / 410e3
            a, b = rates(s, t, 7.0 / 9.0)
            bws.append(b)
            line += old_body(t, a, b)
        out.append(line)
    out += ["# Out of bounds values : %d %s" % (0, "OK"),
            "# Avg bus bandwidth    : %g %s" % (sum(bws) / len(bws), ""), "#", ""]
    write("../bad/nccl-nvls-busbw.txt", out)


def bad_split_groups():
    """NV, MPI build, mpirun -np 8 all_reduce_perf -b 1M -e 256M -f 16 -g 1 with
    NCCL_TESTS_SPLIT_MASK=0x1: color = proc & 1, the 'Group' of each rank line;
    two communicators of 4 ranks each ran at once, busbw counts 4 ranks."""
    out = ["# synthetic (tests/data/calib/make_nccl_layouts.py): nccl-tests 2.19.1, NCCL_TESTS_SPLIT_MASK=0x1"]
    out += new_device_report(1, 1, 1 * MiB, 256 * MiB, 16, "dgx-h100-07", 0, H100_BUS, H100,
                             nranks_lines=8, groups=[r & 1 for r in range(8)],
                             pids=[50110 + r for r in range(8)])
    out += new_header()
    bws = []
    for s in [1 * MiB, 16 * MiB, 256 * MiB]:
        line = preamble(s, s // 4)
        for h in range(2):
            t = model(30.0, 360.0, 4, s)
            a, b = rates(s, t, 1.5)
            bws.append(b)
            line += new_body(t, a, b)
        out.append(line)
    out += new_footer(sum(bws) / len(bws))
    write("../bad/nccl-split-groups.txt", out)


def bad_no_mpi():
    """NV built without MPI=1 and started as mpirun -np 2 all_reduce_perf -b 1M
    -e 16M -f 16 -g 1: two independent one-rank runs (each its own 'Rank 0' on
    device 0, localRank 0), their lines interleaved by mpirun; busbw 0 (2(1-1)/1)."""
    logs = []
    for pid in (61001, 61002):
        out = new_device_report(1, 1, 1 * MiB, 16 * MiB, 16, "dgx-h100-07", pid, H100_BUS, H100)
        out += new_header()
        bws = []
        for s in [1 * MiB, 16 * MiB]:
            line = preamble(s, s // 4)
            for h in range(2):
                t = 4.0 + s / 900e3       # a local copy: 1 rank moves nothing over a link
                a, b = rates(s, t, 0.0)
                bws.append(b)
                line += new_body(t, a, b)
            out.append(line)
        out += new_footer(sum(bws) / len(bws))
        logs.append(out)
    merged = []
    for a, b in zip(logs[0], logs[1]):
        merged += [a, b]
    write("../bad/nccl-no-mpi-mpirun.txt", ["# synthetic (tests/data/calib/make_nccl_layouts.py): "
                                            "nccl-tests without MPI=1 under mpirun -np 2"] + merged)


if __name__ == "__main__":
    h100_cycles_timestamps()
    h100_per_iteration()
    mi300x_inplace_cycles()
    bad_cputime()
    bad_timeout()
    bad_failure()
    bad_json()
    bad_csv()
    bad_nvls_factor()
    bad_split_groups()
    bad_no_mpi()
