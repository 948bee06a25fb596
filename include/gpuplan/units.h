/* Parse and format physical quantities; everything inside gpuplan is SI.
 *
 * Parsed values are SI doubles: bytes, bytes/s (per direction), FLOP/s,
 * plain counts, seconds, fractions in [0,1], hertz, watts.  Decimal prefixes
 * (k/K, M, G, T, P) are powers of 1000; binary prefixes (Ki, Mi, Gi, Ti) are
 * powers of 1024.  In rates a lower-case `b` means bits ("400Gb/s" = 50e9
 * bytes/s), an upper-case `B` bytes; sizes take bytes only.  Counts take
 * k/K/M/B/T (B = billion) and Ki/Mi/Gi/Ti ("4Ki" = 4096).
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
 * GP_EINVAL / GP_ERANGE with e filled.
 *
 * Grammar (docs/units.md): [ws] number [' ' or tab ...] [unit] [ws], where
 * number is a plain decimal ("14", ".5", "1e3", optional '+'; no hex, inf,
 * nan) and unit comes from the kind's table ("14GB" and "14 GB" both parse;
 * no unit means the SI base unit, e.g. bytes or seconds).  Zero is accepted;
 * callers that need a positive value check it.
 *
 * Errors: GP_EINVAL for syntax (empty, no number, unknown unit, trailing
 * garbage, hex, NaN/inf); GP_ERANGE for negative values, overflow or
 * underflow of a double, and fractions outside [0, 1].  On error *out is left
 * untouched, e->where = what, and e->msg quotes the input without repeating
 * `what` (gp_err_format prints "--bytes: '14XB' is not a size: unknown unit
 * 'XB' (use B, kB, ...)").  e and out may be NULL (out NULL: validation
 * only); a NULL s is GP_EINVAL as an empty one is.  Pure; no allocation;
 * thread-safe.  The decimal point is '.' whatever the locale a host program
 * set (setlocale): "3,35GB" is GP_EINVAL under a German locale too. */
int gp_parse_qty(const char *s, gp_qty kind, const char *what, double *out,
                 gp_err *e);

/* Convenience wrappers for gp_parse_qty (NULL arguments as there). */
int gp_parse_bytes(const char *s, double *out, gp_err *e);
int gp_parse_rate(const char *s, double *out, gp_err *e);
int gp_parse_flops(const char *s, double *out, gp_err *e);
int gp_parse_count(const char *s, double *out, gp_err *e);
int gp_parse_duration(const char *s, double *out, gp_err *e);
int gp_parse_fraction(const char *s, double *out, gp_err *e);

/* Parse an integer (counts such as GPUs: "8", "1K" = 1000, "4Ki" = 4096;
 * suffixes as for GP_Q_COUNT) that fits in a long and is >= min.  Digits
 * only before the suffix: rejects fractions and exponents ("2.5", "1.5K",
 * "1e3") and hex.  A leading '-' is allowed (then min decides).  Returns
 * GP_OK, GP_EINVAL (syntax) or GP_ERANGE (overflow of long, below min) with e
 * filled as for gp_parse_qty; *out untouched on error.  NULL s, what, out
 * and e as for gp_parse_qty. */
int gp_parse_int(const char *s, long min, const char *what, long *out,
                 gp_err *e);

/* Format v (SI) of kind `kind` with a readable prefix and `digits` decimals
 * into buf of size n ("72.0 tok/s", "14.0 GB", "0.84 s", "989.4 TFLOP/s",
 * "25.0 GB/s").  Bytes use decimal GB unless `kind` is GP_Q_BYTES and
 * `binary` is set (GiB).  Non-finite values format as "n/a".  Returns buf.
 *
 * The prefix is the largest that keeps the printed number >= 1 (a value
 * that would print as 1000.0 moves up a rung).  Durations use ns, us, ms
 * (below 0.1 s), s (below 60 s), min, h, d (from 1 day: "20.8 d"; from
 * 10^4 days scientific: "1.16e25 d"); counts use K, M, B, T then
 * scientific ("2.50e15"); FLOP counts use up to PFLOP then scientific
 * ("3.15e23 FLOP"); every other ladder past its last prefix goes
 * scientific in the base unit ("2.00e299 B", never a 300-digit number);
 * fractions print as percent ("45.0%");
 * GP_Q_NUMBER prints plainly or in scientific form outside [1e-4, 1e15).
 * digits is clamped to [0, 15].  For finite values the parser accepts
 * (non-negative; fractions <= 1) the output parses back with gp_parse_qty of
 * the same kind, to within the printed precision, with a '.' for a decimal
 * point whatever the locale.  Never writes more than n bytes (truncates,
 * always terminated when n > 0); buf NULL or n 0 writes nothing. */
char *gp_format_qty(double v, gp_qty kind, int digits, int binary, char *buf,
                    size_t n);

/* The fewest decimals, from `digits` up to 6, at which "%.*f" prints v and
 * a threshold t differently, so a figure said to be below or above t never
 * reads as t itself: 49.94 against 50 gets 1 ("49.9 (below 50.0)"), 0.72032
 * against 0.72 gets 4 from 3 ("0.7203").  6 when they still print alike.
 * digits is clamped to [0, 15] first, as for gp_format_qty. */
int gp_format_apart_digits(double v, double t, int digits);

#ifdef __cplusplus
}
#endif
#endif /* GP_UNITS_H */
