/* Private to libgpuplan (not installed): numbers as data, in the "C" form
 * whatever the host program's locale (lib/units.c). */
#ifndef GP_UNITS_INT_H
#define GP_UNITS_INT_H

#include <stddef.h>

/* strtod as the "C" locale reads: '.' is the decimal point and nothing else
 * is, whatever setlocale(LC_NUMERIC, ...) the host program made (a German
 * locale's strtod stops at the '.' of "3.35" and reads "3,35" whole).  The
 * same endptr and errno (ERANGE) contract as strtod.  No allocation; safe
 * from several threads (each reads its own locale's decimal point). */
double gp__strtod(const char *s, char **endp);

/* Rewrite the current locale's decimal point in buf (a number printf just
 * wrote) as '.', the first one only; buf stays terminated and never grows.
 * Returns buf.  A no-op in the "C" locale and for a NULL buf. */
char *gp__c_radix(char *buf);

#endif /* GP_UNITS_INT_H */
