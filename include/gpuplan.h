/* gpuplan: GPU capacity planning as a ledger of compute, bandwidth and
 * movement.  Umbrella header: include this, link -lgpuplan (see gpuplan.pc).
 *
 * Rules every public function keeps (each header says where one differs):
 *   - values are SI (bytes, bytes/s per direction, FLOP/s, seconds);
 *   - a status (gp_status, 0 = GP_OK) comes back, and the caller's gp_err,
 *     which may be NULL, says where and why; NULL pointer arguments are
 *     GP_EINVAL, never a crash (status.h);
 *   - what a function allocates the caller frees with its pair (gp_db_free,
 *     gp_calib_free, free() where a comment says malloc'd); result structs
 *     are the caller's, and their strings point into the gp_db or to static
 *     storage;
 *   - no global mutable state: calls on different objects may run in
 *     different threads at once (make check-threads), and a gp_db is never
 *     written after gp_db_open returns (every accessor takes it const);
 *   - numbers are read and written with '.' as the decimal point, whatever
 *     locale the host program set. */
#ifndef GP_GPUPLAN_H
#define GP_GPUPLAN_H

#include "gpuplan/version.h"
#include "gpuplan/status.h"
#include "gpuplan/units.h"
#include "gpuplan/ledger.h"
#include "gpuplan/db.h"
#include "gpuplan/roofline.h"
#include "gpuplan/comm.h"
#include "gpuplan/scale.h"
#include "gpuplan/infer.h"
#include "gpuplan/train.h"
#include "gpuplan/calib.h"

#endif /* GP_GPUPLAN_H */
