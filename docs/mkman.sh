#!/bin/sh
# Generate the gpuplan(1) man page from the program's own --help texts, so
# options have one source (each command's usage text) for --help and man.
# Usage: sh docs/mkman.sh build/gpuplan VERSION > build/gpuplan.1
set -eu
gp=$1
ver=${2:-0}
esc() { sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/"; }
cat <<EOF2
.TH GPUPLAN 1 "" "gpuplan $ver" "User Commands"
.SH NAME
gpuplan \- plan GPU work as a ledger of compute, bandwidth and movement
.SH SYNOPSIS
.B gpuplan
[\fB\-\-db\fR \fIDIR\fR]... [\fB\-\-json\fR|\fB\-\-csv\fR] \fICOMMAND\fR [\fIOPTIONS\fR]
.SH DESCRIPTION
gpuplan answers, before anyone rents or buys a GPU, how many GPU-days a training run takes, what
tokens/s a (quantised) model can reach, and whether adding cards helps. Every answer is a ledger of
three accounts \(em compute, memory bandwidth and movement \(em with each account's time, the one
that binds, and by how much; in two figures: the datasheet ceiling and the expected (achievable)
figure.
.SH OVERVIEW
.nf
EOF2
"$gp" --help | esc
echo ".fi"
for cmd in $("$gp" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
    echo ".SH COMMAND: $cmd"
    echo ".nf"
    "$gp" "$cmd" --help 2>&1 | esc
    echo ".fi"
    # A subcommand whose options have a help text of their own, named in
    # the command's ('gpuplan hw import-model --help' for its options).
    for sub in $("$gp" "$cmd" --help 2>&1 |
                 sed -n "s/.*'gpuplan $cmd \([a-z][a-z-]*\) --help'.*/\1/p"); do
        echo ".SS $cmd $sub"
        echo ".nf"
        "$gp" "$cmd" "$sub" --help 2>&1 | esc
        echo ".fi"
    done
done
cat <<'EOF2'
.SH EXIT STATUS
0 on success; 2 for a usage error or bad data (the message names the option or file:line:col);
1 for an internal failure.
.SH ENVIRONMENT
.TP
.B GPUPLAN_DB
colon-separated overlay database directories, loaded after the default directory and before the
\fB\-\-db\fR options (later ones win: \fB\-\-db\fR overrides them); without \fB\-\-db\fR,
\fBcalib import\fR and \fBhw import-model\fR write to the first.
.TP
.BR XDG_CONFIG_HOME ", " HOME
the default overlay directory, \fI${XDG_CONFIG_HOME:-~/.config}/gpuplan\fR, loaded first when it
exists.
.TP
.B SOURCE_DATE_EPOCH
the date \fBhw import-model\fR writes into the entry's citation (else today's, UTC).
.TP
.B PATH
where \fBgnuplot\fR (\fB\-\-plot\fR) and \fBgpuplan-probe\fR (\fBcalib run\fR) are looked up.
.SH FILES
The shipped database is compiled in; a copy of its YAML is installed under
\fIPREFIX/share/gpuplan/hwdb\fR. Calibration overlays are written to the first \fB\-\-db\fR
directory, else \fB$GPUPLAN_DB\fR, else \fI${XDG_CONFIG_HOME:-~/.config}/gpuplan\fR.
.SH SEE ALSO
The documentation in docs/: hwdb.md, units.md, models/*.md, calibration.md, bad-input.md.
EOF2
