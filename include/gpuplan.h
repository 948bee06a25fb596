/* gpuplan: GPU capacity planning as a ledger of compute, bandwidth and
 * movement.  Umbrella header: include this, link -lgpuplan (see gpuplan.pc). */
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
