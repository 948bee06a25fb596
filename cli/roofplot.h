/* Private to the gpuplan CLI: roofline charts drawn by gnuplot (the library
 * does no I/O; plotting lives here). */
#ifndef GP_CLI_ROOFPLOT_H
#define GP_CLI_ROOFPLOT_H

#include "cli.h"

/* A checked plot request. */
typedef struct gp_cli_plot {
    const char *path;     /* target file (.png or .svg)                   */
    int svg;              /* 1: SVG, 0: PNG                               */
    int width, height;    /* pixels                                       */
    char gnuplot[4096];   /* gnuplot's path, found on $PATH               */
} gp_cli_plot;

/* Check the target's extension (.png/.svg, any case), parse `size` ("WxH",
 * 16..10000 each; NULL = 800x600) and find gnuplot on $PATH.  On error prints
 * a message naming the option and returns 2; else 0. */
int gp_cli_plot_prepare(const gp_cli *cli, const char *path, const char *size,
                        gp_cli_plot *out);

/* Draw the roofline of GPU g with every precision's roof (dense, fp32
 * accumulate; the selected configuration drawn thick), the memory roofs of
 * r (device, L2, host and peer links where known) and r's kernel as a
 * labelled point.  Writes a temporary file beside the target and renames it
 * into place, so no half-written chart is left.  Returns 0, or prints the
 * problem and returns 1 (gnuplot failed) or 2 (cannot write there). */
int gp_cli_plot_write(const gp_cli *cli, const gp_cli_plot *pl, const gp_gpu *g,
                      const gp_roofline *r, const char *label);

#endif /* GP_CLI_ROOFPLOT_H */
