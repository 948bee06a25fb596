/* Parse and format physical quantities (units.h); grammar in docs/units.md.
 *
 * A quantity is  [ws] number [ws] [unit] [ws]  where number is a plain
 * decimal (digits, optional '.', optional exponent; no hex, no inf/nan) and
 * the unit is looked up in the table of the requested kind.  The numeric
 * lexeme is validated here and then converted with strtod (endptr + errno),
 * so strtod never sees a form we did not mean to accept.  '.' is the decimal
 * point whatever the host program's locale: gp__strtod reads and
 * gp__c_radix writes the "C" form (a program that called setlocale(LC_ALL,
 * "") for a German user could not load the database). */
#include "gpuplan/units.h"

#include "units_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Does [u, u+n) equal the NUL-terminated name (case-insensitively when
 * icase)? */
static int unit_eq(const char *u, size_t n, const char *name, int icase)
{
    size_t i;
    for (i = 0; i < n; i++) {
        char a = u[i], b = name[i];
        if (b == '\0')
            return 0;
        if (icase ? lower(a) != lower(b) : a != b)
            return 0;
    }
    return name[n] == '\0';
}

/* Copy s into q (size n) for a message: control bytes escaped as \xNN, more
 * than max_in input bytes cut with "...".  Bytes >= 0x80 (UTF-8) are kept. */
static void escape_text(const char *s, char *q, size_t n, size_t max_in)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0, i;
    for (i = 0; s[i] != '\0'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i >= max_in) {
            if (o + 4 < n) {
                memcpy(q + o, "...", 3);
                o += 3;
            }
            break;
        }
        if (c < 0x20 || c == 0x7f) {
            if (o + 5 >= n)
                break;
            q[o++] = '\\';
            q[o++] = 'x';
            q[o++] = hex[c >> 4];
            q[o++] = hex[c & 15];
        } else {
            if (o + 2 >= n)
                break;
            q[o++] = (char)c;
        }
    }
    q[o] = '\0';
}

static const char *const kind_noun[GP_Q__COUNT] = {
    "a number",    "a size",     "a rate",     "a FLOP/s rate",
    "a FLOP count", "a count",   "a duration", "a fraction",
    "a frequency", "a power",    "a token rate",
};

static const char *const kind_units[GP_Q__COUNT] = {
    "no unit: a plain number such as 0.5 or 1e3",
    "B, kB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB",
    "B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s (or GBps); bits: "
    "kb/s, Mb/s, Gb/s, Tb/s (or Gbps, Gbit/s)",
    "FLOPS, FLOP/s, OPS or OP/s with k, M, G, T, P, E (e.g. TFLOPS)",
    "FLOP or OP with k, M, G, T, P, E (e.g. PFLOP), or PF-days",
    "k or K (1e3), M (1e6), B (1e9), T (1e12), Ki, Mi, Gi, Ti (powers of "
    "1024)",
    "s, ms, us, ns, min, h, d",
    "% (e.g. 45%) or a plain number in [0, 1]",
    "Hz, kHz, MHz, GHz, THz",
    "W, kW, MW, GW",
    "tok/s, ktok/s, Mtok/s",
};

#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static int
qty_fail(gp_err *e, gp_status code, const char *what, const char *s,
         gp_qty kind, const char *fmt, ...)
{
    char q[96], raw[320], reason[320];
    va_list ap;
    if (e == NULL)
        return (int)code;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    escape_text(raw, reason, sizeof reason, sizeof raw);
    escape_text(s, q, sizeof q, 64);
    if (code == GP_ERANGE)
        return GP_RAISE_AT(e, code, what, 0, 0, "'%s' is out of range for %s: %s",
                           q, kind_noun[kind], reason);
    return GP_RAISE_AT(e, code, what, 0, 0, "'%s' is not %s: %s", q,
                       kind_noun[kind], reason);
}

/* ---- unit tables -------------------------------------------------------- */

/* value_SI = number * mult / div (div 0 means 1).  Sub-multiples divide by
 * an exact power of ten so that 350ms is the double nearest 0.35. */
typedef struct unit_def {
    const char *name;
    double mult;
    double div;
} unit_def;

#define KI 1024.0
#define MI (KI * KI)
#define GI (MI * KI)
#define TI (GI * KI)
#define PI_ (TI * KI)
#define EI (PI_ * KI)

/* Prefixes applied to a base unit (k and K are both 1e3). */
static const unit_def dec_prefix[] = {
    {"k", 1e3, 0.0}, {"K", 1e3, 0.0}, {"M", 1e6, 0.0}, {"G", 1e9, 0.0},
    {"T", 1e12, 0.0}, {"P", 1e15, 0.0}, {"E", 1e18, 0.0},
};
static const unit_def bin_prefix[] = {
    {"Ki", KI, 0.0}, {"Mi", MI, 0.0}, {"Gi", GI, 0.0}, {"Ti", TI, 0.0}, {"Pi", PI_, 0.0}, {"Ei", EI, 0.0},
};

/* Base units per prefixed kind.  icase: the base matches in any case (the
 * prefix never does: m would be milli). */
static const unit_def base_bytes[] = {{"B", 1.0, 0.0}};
/* Bytes are B, bits b or "bit": the common spellings Bps, bps, bit/s and
 * bits/s keep the two apart as B/s and b/s do (docs/units.md, "Bits and
 * bytes"). */
static const unit_def base_rate[] = {{"B/s", 1.0, 0.0}, {"b/s", 1.0, 8.0}, {"Bps", 1.0, 0.0},
                                     {"bps", 1.0, 8.0}, {"bit/s", 1.0, 8.0},
                                     {"bits/s", 1.0, 8.0}};
static const unit_def base_flops[] = {
    {"FLOPS", 1.0, 0.0}, {"FLOP/s", 1.0, 0.0}, {"OPS", 1.0, 0.0}, {"OP/s", 1.0, 0.0}};
static const unit_def base_flop[] = {
    {"FLOP", 1.0, 0.0},          {"FLOPS", 1.0, 0.0},         {"OP", 1.0, 0.0},
    {"OPS", 1.0, 0.0},           {"F-day", 86400.0, 0.0},     {"F-days", 86400.0, 0.0},
    {"FLOP/s-day", 86400.0, 0.0}, {"FLOP/s-days", 86400.0, 0.0}, {"FLOPS-day", 86400.0, 0.0},
    {"FLOPS-days", 86400.0, 0.0},
};
static const unit_def base_hz[] = {{"Hz", 1.0, 0.0}};
static const unit_def base_w[] = {{"W", 1.0, 0.0}};
static const unit_def base_tok[] = {{"tok/s", 1.0, 0.0}, {"tokens/s", 1.0, 0.0}};

/* Whole-unit tables for kinds without prefixes. */
static const unit_def tab_count[] = {
    {"k", 1e3, 0.0}, {"K", 1e3, 0.0}, {"M", 1e6, 0.0}, {"B", 1e9, 0.0}, {"T", 1e12, 0.0},
    {"Ki", KI, 0.0}, {"Mi", MI, 0.0}, {"Gi", GI, 0.0}, {"Ti", TI, 0.0},
};
static const unit_def tab_duration[] = {
    {"s", 1.0, 0.0},    {"ms", 1.0, 1e3},      {"us", 1.0, 1e6},
    {"\xc2\xb5s", 1.0, 1e6}, /* U+00B5 MICRO SIGN */
    {"\xce\xbcs", 1.0, 1e6}, /* U+03BC GREEK SMALL LETTER MU */
    {"ns", 1.0, 1e9},   {"min", 60.0, 0.0},    {"h", 3600.0, 0.0},
    {"d", 86400.0, 0.0},
};
static const unit_def tab_fraction[] = {{"%", 1.0, 100.0}};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

typedef struct kind_table {
    const unit_def *base; /* prefixed base units, or NULL */
    size_t nbase;
    int icase;            /* base matched case-insensitively */
    int binary;           /* binary prefixes allowed */
    const unit_def *whole; /* whole units (no prefixes), or NULL */
    size_t nwhole;
} kind_table;

static const kind_table kind_tab[GP_Q__COUNT] = {
    /* NUMBER */ {NULL, 0, 0, 0, NULL, 0},
    /* BYTES  */ {base_bytes, NELEM(base_bytes), 0, 1, NULL, 0},
    /* RATE   */ {base_rate, NELEM(base_rate), 0, 1, NULL, 0},
    /* FLOPS  */ {base_flops, NELEM(base_flops), 1, 0, NULL, 0},
    /* FLOP   */ {base_flop, NELEM(base_flop), 1, 0, NULL, 0},
    /* COUNT  */ {NULL, 0, 0, 0, tab_count, NELEM(tab_count)},
    /* DUR    */ {NULL, 0, 0, 0, tab_duration, NELEM(tab_duration)},
    /* FRAC   */ {NULL, 0, 0, 0, tab_fraction, NELEM(tab_fraction)},
    /* FREQ   */ {base_hz, NELEM(base_hz), 0, 0, NULL, 0},
    /* POWER  */ {base_w, NELEM(base_w), 0, 0, NULL, 0},
    /* TOKRATE*/ {base_tok, NELEM(base_tok), 0, 0, NULL, 0},
};

static const unit_def *find_base(const kind_table *t, const char *u, size_t n)
{
    size_t i;
    for (i = 0; i < t->nbase; i++)
        if (unit_eq(u, n, t->base[i].name, t->icase))
            return &t->base[i];
    return NULL;
}

/* Look up unit [u, u+n) for kind; 1 with *mult and *div on success. */
static int lookup_unit2(gp_qty kind, const char *u, size_t n, double *mult,
                        double *div)
{
    const kind_table *t = &kind_tab[kind];
    const unit_def *b;
    size_t i;
    for (i = 0; i < t->nwhole; i++)
        if (unit_eq(u, n, t->whole[i].name, 0)) {
            *mult = t->whole[i].mult;
            *div = t->whole[i].div;
            return 1;
        }
    if (t->base == NULL)
        return 0;
    if ((b = find_base(t, u, n)) != NULL) {
        *mult = b->mult;
        *div = b->div;
        return 1;
    }
    if (t->binary && n > 2)
        for (i = 0; i < NELEM(bin_prefix); i++)
            if (memcmp(u, bin_prefix[i].name, 2) == 0 &&
                (b = find_base(t, u + 2, n - 2)) != NULL) {
                *mult = bin_prefix[i].mult * b->mult;
                *div = b->div;
                return 1;
            }
    if (n > 1)
        for (i = 0; i < NELEM(dec_prefix); i++)
            if (u[0] == dec_prefix[i].name[0] &&
                (b = find_base(t, u + 1, n - 1)) != NULL) {
                *mult = dec_prefix[i].mult * b->mult;
                *div = b->div;
                return 1;
            }
    return 0;
}

static int lookup_unit(gp_qty kind, const char *u, size_t n, double *mult)
{
    double div;
    return lookup_unit2(kind, u, n, mult, &div);
}

/* Extra hint for a unit that is wrong in a recognisable way; NULL if none. */
static const char *unit_hint(gp_qty kind, const char *u, size_t n, char *buf,
                             size_t bn)
{
    double m;
    if (kind == GP_Q_BYTES && n >= 1 && n < 16 && u[n - 1] == 'b') {
        /* "8Gb": bits are only accepted in rates. */
        char t[16];
        memcpy(t, u, n);
        t[n - 1] = 'B';
        if (lookup_unit(GP_Q_BYTES, t, n, &m)) {
            snprintf(buf, bn, "'%.*s' is in bits (lower-case b); sizes are in "
                     "bytes: write '%.*sB'", (int)n, u, (int)(n - 1), u);
            return buf;
        }
    }
    if (kind == GP_Q_RATE && lookup_unit(GP_Q_BYTES, u, n, &m)) {
        snprintf(buf, bn, "'%.*s' is a size, not a rate: write '%.*s/s'", (int)n,
                 u, (int)n, u);
        return buf;
    }
    if (kind == GP_Q_FLOPS && lookup_unit(GP_Q_FLOP, u, n, &m)) {
        snprintf(buf, bn, "'%.*s' is a FLOP count, not a rate: write FLOPS or "
                 "FLOP/s", (int)n, u);
        return buf;
    }
    return NULL;
}

/* Length of the decimal lexeme at p: [+-] digits [. digits] [(e|E) [+-]
 * digits], at least one mantissa digit; 0 when there is none. */
static size_t lex_number(const char *p, int *mantissa_digits)
{
    const char *q = p;
    int d = 0;
    if (*q == '+' || *q == '-')
        q++;
    while (is_digit(*q)) {
        q++;
        d++;
    }
    if (*q == '.') {
        q++;
        while (is_digit(*q)) {
            q++;
            d++;
        }
    }
    *mantissa_digits = d;
    if (d == 0)
        return 0;
    if (*q == 'e' || *q == 'E') {
        const char *r = q + 1;
        if (*r == '+' || *r == '-')
            r++;
        if (is_digit(*r)) {
            while (is_digit(*r))
                r++;
            q = r;
        }
    }
    return (size_t)(q - p);
}

static int starts_icase(const char *p, const char *word)
{
    for (; *word != '\0'; p++, word++)
        if (lower(*p) != *word)
            return 0;
    return 1;
}

/* ---- the "C" decimal point ---------------------------------------------- */

/* The current locale's decimal point as printf writes it, into r (cap 8):
 * "1.5" -> ".", "1,5" -> ",".  Its length; "." when it cannot tell. */
static size_t locale_radix(char r[8])
{
    char t[32];
    size_t n;
    snprintf(t, sizeof t, "%.1f", 1.5);
    n = strlen(t);
    if (n < 3 || n - 2 > 7 || t[0] != '1' || t[n - 1] != '5') {
        r[0] = '.';
        r[1] = '\0';
        return 1;
    }
    memcpy(r, t + 1, n - 2);
    r[n - 2] = '\0';
    return n - 2;
}

/* A byte strtod may take in a C-locale number: digits, letters (hex digits,
 * x, p, inf, nan), signs, '.' and leading white space; never a decimal
 * point of another locale (',', a multibyte one). */
static int c_num_byte(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' ||
           c == '-' || c == '.' || is_space(c);
}

double gp__strtod(const char *s, char **endp)
{
    char rad[8], buf[512], *be;
    const char *p;
    size_t rn, i, dot = (size_t)-1;
    int err = errno;
    double v;
    char *e;

    v = strtod(s, &e);
    /* The "C" locale (or one like it) read it: strtod stopped at a byte
     * that is no decimal point here, and took none of another locale's. */
    for (p = s; p < e && c_num_byte(*p); p++)
        ;
    if (p == e && *e != '.') {
        if (endp != NULL)
            *endp = e;
        return v;
    }
    rn = locale_radix(rad);
    if (rn == 1 && rad[0] == '.' && p == e) {
        if (endp != NULL)
            *endp = e; /* "1.2.3": the C locale stops there too */
        return v;
    }
    /* Another decimal point: hand strtod the number with its '.' (the
     * first; a second ends it, as in the C locale) written the locale's way,
     * and map the end back. */
    for (i = 0, p = s; c_num_byte(*p) && !(*p == '.' && dot != (size_t)-1) &&
                        i + rn < sizeof buf;
         p++) {
        if (*p == '.') {
            dot = i;
            memcpy(buf + i, rad, rn);
            i += rn;
        } else {
            buf[i++] = *p;
        }
    }
    buf[i] = '\0';
    errno = err;
    v = strtod(buf, &be);
    i = (size_t)(be - buf);
    if (dot != (size_t)-1 && i > dot)
        i = i >= dot + rn ? i - (rn - 1) : dot; /* the point itself not taken */
    if (endp != NULL)
        *endp = (char *)(uintptr_t)(s + i);
    return v;
}

char *gp__c_radix(char *buf)
{
    char rad[8], *p;
    size_t rn;
    if (buf == NULL)
        return buf;
    rn = locale_radix(rad);
    if (rn == 1 && rad[0] == '.')
        return buf;
    p = strstr(buf, rad);
    if (p != NULL) {
        *p = '.';
        memmove(p + 1, p + rn, strlen(p + rn) + 1);
    }
    return buf;
}

/* ---- parsing ------------------------------------------------------------ */

int gp_parse_qty(const char *s, gp_qty kind, const char *what, double *out,
                 gp_err *e)
{
    const char *p, *end, *num, *u;
    size_t len, un;
    int digits;
    double v, mult = 1.0, div = 0.0;
    char *endp;

    if ((int)kind < 0 || kind >= GP_Q__COUNT)
        return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0,
                           "unknown quantity kind %d", (int)kind);
    if (s == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0, "missing value (expected %s)",
                           kind_noun[kind]);
    p = s;
    while (is_space(*p))
        p++;
    end = p + strlen(p);
    while (end > p && is_space(end[-1]))
        end--;
    if (p == end)
        return qty_fail(e, GP_EINVAL, what, s, kind, "the value is empty");

    num = p;
    len = lex_number(num, &digits);
    if (len == 0) {
        const char *w = (*num == '+' || *num == '-') ? num + 1 : num;
        if (starts_icase(w, "nan") || starts_icase(w, "inf"))
            return qty_fail(e, GP_EINVAL, what, s, kind,
                            "not a finite number");
        return qty_fail(e, GP_EINVAL, what, s, kind,
                        "expected a number at the start");
    }
    {
        /* "0x10": strtod would read hex; we refuse it. */
        const char *d = (*num == '+' || *num == '-') ? num + 1 : num;
        if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
            return qty_fail(e, GP_EINVAL, what, s, kind,
                            "hexadecimal numbers are not accepted");
    }
    errno = 0;
    v = gp__strtod(num, &endp);
    if (endp != num + len)
        return qty_fail(e, GP_EINVAL, what, s, kind, "malformed number");
    if (errno == ERANGE) {
        /* The literal is non-zero here (a zero never sets ERANGE). */
        if (fabs(v) > 1.0)
            return qty_fail(e, GP_ERANGE, what, s, kind,
                            "the number overflows a double");
        return qty_fail(e, GP_ERANGE, what, s, kind,
                        "the number is too small (underflows a double)");
    }

    u = num + len;
    while (u < end && (*u == ' ' || *u == '\t'))
        u++;
    un = (size_t)(end - u);
    if (un > 0) {
        if (kind == GP_Q_NUMBER)
            return qty_fail(e, GP_EINVAL, what, s, kind,
                            "unexpected '%.*s' after the number (no unit allowed)",
                            (int)un, u);
        if (!lookup_unit2(kind, u, un, &mult, &div)) {
            char hb[200];
            const char *h = unit_hint(kind, u, un, hb, sizeof hb);
            unsigned char c0 = (unsigned char)u[0];
            int wordish = (c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') ||
                          c0 == '%' || c0 >= 0x80;
            if (h != NULL)
                return qty_fail(e, GP_EINVAL, what, s, kind, "%s", h);
            if (!wordish)
                return qty_fail(e, GP_EINVAL, what, s, kind,
                                "unexpected '%.*s' after the number (units: %s)",
                                (int)un, u, kind_units[kind]);
            return qty_fail(e, GP_EINVAL, what, s, kind,
                            "unknown unit '%.*s' (use %s)", (int)un, u,
                            kind_units[kind]);
        }
    }

    if (*num == '-' && v != 0.0)
        return qty_fail(e, GP_ERANGE, what, s, kind,
                        "negative values are not allowed");
    v = fabs(v) * mult; /* fabs: "-0" is plain zero */
    if (div != 0.0)
        v /= div;
    if (!isfinite(v))
        return qty_fail(e, GP_ERANGE, what, s, kind,
                        "the value overflows a double");
    if (kind == GP_Q_FRACTION && v > 1.0) {
        /* "45" was meant as 45 %; "1.5" more likely as a typo than 1.5 %. */
        if (un == 0 && v >= 2.0)
            return qty_fail(e, GP_ERANGE, what, s, kind,
                            "a fraction must lie in [0, 1]; did you mean '%.*s%%'?",
                            (int)len, num);
        return qty_fail(e, GP_ERANGE, what, s, kind,
                        "a fraction must lie in [0, 1] (0%% to 100%%)");
    }
    if (out != NULL)
        *out = v;
    return GP_OK;
}

int gp_parse_bytes(const char *s, double *out, gp_err *e)
{
    return gp_parse_qty(s, GP_Q_BYTES, NULL, out, e);
}

int gp_parse_rate(const char *s, double *out, gp_err *e)
{
    return gp_parse_qty(s, GP_Q_RATE, NULL, out, e);
}

int gp_parse_flops(const char *s, double *out, gp_err *e)
{
    return gp_parse_qty(s, GP_Q_FLOPS, NULL, out, e);
}

int gp_parse_count(const char *s, double *out, gp_err *e)
{
    return gp_parse_qty(s, GP_Q_COUNT, NULL, out, e);
}

int gp_parse_duration(const char *s, double *out, gp_err *e)
{
    return gp_parse_qty(s, GP_Q_DURATION, NULL, out, e);
}

int gp_parse_fraction(const char *s, double *out, gp_err *e)
{
    return gp_parse_qty(s, GP_Q_FRACTION, NULL, out, e);
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int
int_fail(gp_err *e, gp_status code, const char *what, const char *s,
         const char *fmt, ...)
{
    char q[96], raw[320], reason[320];
    va_list ap;
    if (e == NULL)
        return (int)code;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    escape_text(raw, reason, sizeof reason, sizeof raw);
    escape_text(s, q, sizeof q, 64);
    if (code == GP_ERANGE)
        return GP_RAISE_AT(e, code, what, 0, 0,
                           "'%s' is out of range for an integer: %s", q, reason);
    return GP_RAISE_AT(e, code, what, 0, 0, "'%s' is not an integer: %s", q,
                       reason);
}

int gp_parse_int(const char *s, long min, const char *what, long *out,
                 gp_err *e)
{
    const char *p, *end, *u;
    unsigned long acc = 0, limit;
    int neg = 0, nd = 0;
    size_t un, i;
    double mult = 1.0;
    unsigned long m;

    if (s == NULL)
        return GP_RAISE_AT(e, GP_EINVAL, what, 0, 0,
                           "missing value (expected an integer)");
    p = s;
    while (is_space(*p))
        p++;
    end = p + strlen(p);
    while (end > p && is_space(end[-1]))
        end--;
    if (p == end)
        return int_fail(e, GP_EINVAL, what, s, "the value is empty");
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return int_fail(e, GP_EINVAL, what, s,
                        "hexadecimal numbers are not accepted");
    /* |LONG_MIN| = LONG_MAX + 1 */
    limit = neg ? (unsigned long)LONG_MAX + 1ul : (unsigned long)LONG_MAX;
    for (; p < end && is_digit(*p); p++, nd++) {
        unsigned long d = (unsigned long)(*p - '0');
        if (acc > (limit - d) / 10ul)
            return int_fail(e, GP_ERANGE, what, s, "does not fit in a long");
        acc = acc * 10ul + d;
    }
    if (nd == 0) {
        if (starts_icase(p, "nan") || starts_icase(p, "inf"))
            return int_fail(e, GP_EINVAL, what, s, "not a finite number");
        return int_fail(e, GP_EINVAL, what, s, "expected digits");
    }
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return int_fail(e, GP_EINVAL, what, s,
                        "expected a whole number (no fraction or exponent)");
    u = p;
    while (u < end && (*u == ' ' || *u == '\t'))
        u++;
    un = (size_t)(end - u);
    if (un > 0) {
        int found = 0;
        for (i = 0; i < NELEM(tab_count); i++)
            if (unit_eq(u, un, tab_count[i].name, 0)) {
                mult = tab_count[i].mult;
                found = 1;
                break;
            }
        if (!found)
            return int_fail(e, GP_EINVAL, what, s, "unknown suffix '%.*s' (use %s)",
                            (int)un, u, kind_units[GP_Q_COUNT]);
    }
    m = (unsigned long)mult; /* every count multiplier is an exact integer */
    if (m > 1ul && acc > limit / m)
        return int_fail(e, GP_ERANGE, what, s, "does not fit in a long");
    acc *= m;
    {
        long v;
        if (neg)
            v = acc == 0ul ? 0L : -(long)(acc - 1ul) - 1L;
        else
            v = (long)acc;
        if (v < min)
            return int_fail(e, GP_ERANGE, what, s, "must be at least %ld", min);
        if (out != NULL)
            *out = v;
    }
    return GP_OK;
}

/* ---- formatting --------------------------------------------------------- */

/* Would "%.*f" print x as a number >= bound?  The rounding threshold is
 * bound - 0.5e-digits; only values within a hair of it ask printf itself. */
static int printed_ge(double x, int digits, double bound)
{
    static const double half_ulp[16] = {
        0.5,   0.05,   0.005,   5e-4,   5e-5,   5e-6,   5e-7,   5e-8,
        5e-9,  5e-10,  5e-11,   5e-12,  5e-13,  5e-14,  5e-15,  5e-16,
    };
    double thr = bound - half_ulp[digits];
    if (fabs(x - thr) > 1e-9 * bound)
        return x >= thr;
    {
        char t[400];
        snprintf(t, sizeof t, "%.*f", digits, x);
        return gp__strtod(gp__c_radix(t), NULL) >= bound;
    }
}

/* "%.*e" without the '+' and leading zeros of the exponent: 3.15e23. */
static void fmt_sci(char *buf, size_t n, const char *sign, double a, int digits,
                    const char *unit)
{
    char t[64], *x, *o, *i;
    snprintf(t, sizeof t, "%.*e", digits, a);
    x = strchr(t, 'e');
    if (x != NULL) {
        o = x + 1;
        i = x + 1;
        if (*i == '+')
            i++;
        else if (*i == '-')
            *o++ = *i++;
        while (*i == '0' && i[1] != '\0')
            i++;
        memmove(o, i, strlen(i) + 1);
    }
    snprintf(buf, n, "%s%s%s%s", sign, t, unit[0] ? " " : "", unit);
}

static const char *const lad_bytes[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
static const char *const lad_ibytes[] = {"B",   "KiB", "MiB", "GiB",
                                         "TiB", "PiB", "EiB"};
static const char *const lad_rate[] = {"B/s",  "kB/s", "MB/s", "GB/s",
                                       "TB/s", "PB/s", "EB/s"};
static const char *const lad_flops[] = {"FLOP/s",  "kFLOP/s", "MFLOP/s",
                                        "GFLOP/s", "TFLOP/s", "PFLOP/s",
                                        "EFLOP/s"};
static const char *const lad_flop[] = {"FLOP",  "kFLOP", "MFLOP",
                                       "GFLOP", "TFLOP", "PFLOP"};
static const char *const lad_count[] = {"", "K", "M", "B", "T"};
static const char *const lad_hz[] = {"Hz", "kHz", "MHz", "GHz", "THz"};
static const char *const lad_w[] = {"W", "kW", "MW", "GW"};
static const char *const lad_tok[] = {"tok/s", "ktok/s", "Mtok/s", "Gtok/s"};

/* Walk a prefix ladder (step 1000 or 1024) up while the printed value would
 * reach the next step.  sci: past the last rung use scientific notation. */
static void fmt_ladder(char *buf, size_t n, const char *sign, double a,
                       int digits, const char *const *names, size_t nn,
                       double step, int sci)
{
    size_t i = 0;
    double x = a;
    while (i + 1 < nn && printed_ge(x, digits, step)) {
        x /= step;
        i++;
    }
    if (sci && printed_ge(x, digits, step)) {
        fmt_sci(buf, n, sign, a, digits, names[0]);
        return;
    }
    snprintf(buf, n, "%s%.*f%s%s", sign, digits, x, names[i][0] ? " " : "",
             names[i]);
}

static void fmt_duration(char *buf, size_t n, const char *sign, double a,
                         int digits)
{
    /* unit, seconds per unit, switch to the next unit at this many */
    static const struct {
        const char *name;
        double scale, upto;
    } lad[] = {
        {"ns", 1e-9, 1000.0}, {"us", 1e-6, 1000.0}, {"ms", 1e-3, 100.0},
        {"s", 1.0, 60.0},     {"min", 60.0, 60.0},  {"h", 3600.0, 24.0},
        {"d", 86400.0, 0.0},
    };
    size_t i;
    if (a == 0.0) {
        snprintf(buf, n, "%s%.*f s", sign, digits, 0.0);
        return;
    }
    for (i = 0; i + 1 < NELEM(lad); i++)
        if (!printed_ge(a / lad[i].scale, digits, lad[i].upto))
            break;
    /* From 10^4 days (27 years) scientific, not "171239.988 d" beside
     * "1.319e6 d": 1.16e25 d. */
    if (i + 1 == NELEM(lad) && printed_ge(a / lad[i].scale, digits, 1e4)) {
        fmt_sci(buf, n, sign, a / lad[i].scale, digits, lad[i].name);
        return;
    }
    snprintf(buf, n, "%s%.*f %s", sign, digits, a / lad[i].scale, lad[i].name);
}

char *gp_format_qty(double v, gp_qty kind, int digits, int binary, char *buf,
                    size_t n)
{
    const char *sign;
    double a;
    if (buf == NULL || n == 0)
        return buf;
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return buf;
    }
    if (digits < 0)
        digits = 0;
    if (digits > 15)
        digits = 15;
    sign = v < 0.0 ? "-" : "";
    a = fabs(v);
    switch (kind) {
    case GP_Q_BYTES:
        if (binary)
            fmt_ladder(buf, n, sign, a, digits, lad_ibytes, NELEM(lad_ibytes),
                       1024.0, 1);
        else
            fmt_ladder(buf, n, sign, a, digits, lad_bytes, NELEM(lad_bytes),
                       1000.0, 1);
        break;
    case GP_Q_RATE:
        fmt_ladder(buf, n, sign, a, digits, lad_rate, NELEM(lad_rate), 1000.0, 1);
        break;
    case GP_Q_FLOPS:
        fmt_ladder(buf, n, sign, a, digits, lad_flops, NELEM(lad_flops), 1000.0,
                   1);
        break;
    case GP_Q_FLOP:
        fmt_ladder(buf, n, sign, a, digits, lad_flop, NELEM(lad_flop), 1000.0, 1);
        break;
    case GP_Q_COUNT:
        fmt_ladder(buf, n, sign, a, digits, lad_count, NELEM(lad_count), 1000.0,
                   1);
        break;
    case GP_Q_DURATION:
        fmt_duration(buf, n, sign, a, digits);
        break;
    case GP_Q_FRACTION:
        snprintf(buf, n, "%s%.*f%%", sign, digits, a * 100.0);
        break;
    case GP_Q_FREQUENCY:
        fmt_ladder(buf, n, sign, a, digits, lad_hz, NELEM(lad_hz), 1000.0, 1);
        break;
    case GP_Q_POWER:
        fmt_ladder(buf, n, sign, a, digits, lad_w, NELEM(lad_w), 1000.0, 1);
        break;
    case GP_Q_TOKEN_RATE:
        fmt_ladder(buf, n, sign, a, digits, lad_tok, NELEM(lad_tok), 1000.0, 1);
        break;
    case GP_Q_NUMBER:
    case GP_Q__COUNT:
    default:
        if (a == 0.0 || (a >= 1e-4 && !printed_ge(a, digits, 1e15)))
            snprintf(buf, n, "%s%.*f", sign, digits, a);
        else
            fmt_sci(buf, n, sign, a, digits, "");
        break;
    }
    return gp__c_radix(buf);
}

int gp_format_apart_digits(double v, double t, int digits)
{
    char a[400], b[400];
    if (digits < 0)
        digits = 0;
    if (digits > 15)
        digits = 15;
    for (; digits < 6; digits++) {
        snprintf(a, sizeof a, "%.*f", digits, v);
        snprintf(b, sizeof b, "%.*f", digits, t);
        if (strcmp(a, b) != 0)
            break;
    }
    return digits;
}
