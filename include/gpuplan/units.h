/* Parse and format physical quantities; everything inside gpuplan is SI.
 *
 * Parsed values are SI doubles: bytes, bytes/s (per direction), FLOP/s,
 * plain counts, seconds, fractions in [0,1], hertz, watts.  Decimal prefixes
 * (k/K, M, G, T, P) are powers of 1000; binary prefixes (Ki, Mi, Gi, Ti) are
 * powers of 1024.  In rates a lower-case `b` means bits ("400Gb/s" = 50e9
 * bytes/s), an upper-case `B` bytes.  Counts take K/M/B/T (B = billion).
 * Every parser rejects empty input, trailing garbage, NaN, inf, overflow and
 * negative values, filling `e` with a message that quotes the input. */
#ifndef GP_UNITS_H
#define GP_UNITS_H

#include <stddef.h>

#include "gpuplan/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gp_qty {
    GP_Q_NUMBER,     /* plain number, no suffix ("0.5", "1e3")              */
    GP_Q_BYTES,      /* 14GB, 13GiB, 512MiB, 4096, 4096B                    */
    GP_Q_RATE,       /* bytes/s: 25GB/s, 1TB/s, 400Gb/s, 1.5TiB/s           */
    GP_Q_FLOPS,      /* FLOP/s: 989.4TFLOPS, 660TOPS, 1.2PFLOP/s, 5e12      */
    GP_Q_FLOP,       /* FLOP count: 3.15e23, 3.15e23FLOP, 1.2PFLOP          */
    GP_Q_COUNT,      /* 7B, 300B, 1.5T, 175e9, 4K (=4000), 32k (=32000)     */
    GP_Q_DURATION,   /* seconds: 2s, 350ms, 20us, 5ns, 3min, 1.5h, 21d      */
    GP_Q_FRACTION,   /* 45% or 0.45, must lie in [0,1]                      */
    GP_Q_FREQUENCY,  /* Hz: 1410MHz, 1.98GHz                                */
    GP_Q_POWER,      /* W: 700W, 1kW                                        */
    GP_Q_TOKEN_RATE, /* formatting only: tok/s                              */
    GP_Q__COUNT
} gp_qty;

/* Parse `s` as a quantity of kind `kind` into *out (SI).  `what` names the
 * option or field for the message (may be NULL).  Returns GP_OK, or
 * GP_EINVAL / GP_ERANGE with e filled. */
int gp_parse_qty(const char *s, gp_qty kind, const char *what, double *out,
                 gp_err *e);

/* Convenience wrappers for gp_parse_qty. */
int gp_parse_bytes(const char *s, double *out, gp_err *e);
int gp_parse_rate(const char *s, double *out, gp_err *e);
int gp_parse_flops(const char *s, double *out, gp_err *e);
int gp_parse_count(const char *s, double *out, gp_err *e);
int gp_parse_duration(const char *s, double *out, gp_err *e);
int gp_parse_fraction(const char *s, double *out, gp_err *e);

/* Parse a positive integer (counts such as GPUs: "8", "1K" = 1000) that fits
 * in a long and is >= min.  Rejects fractions ("2.5"). */
int gp_parse_int(const char *s, long min, const char *what, long *out,
                 gp_err *e);

/* Format v (SI) of kind `kind` with a readable prefix and `digits` decimals
 * into buf of size n ("72.0 tok/s", "14.0 GB", "0.84 s", "989.4 TFLOP/s",
 * "25.0 GB/s").  Bytes use decimal GB unless `kind` is GP_Q_BYTES and
 * `binary` is set (GiB).  Non-finite values format as "n/a".  Returns buf. */
char *gp_format_qty(double v, gp_qty kind, int digits, int binary, char *buf,
                    size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GP_UNITS_H */
