/* Library version string. */
#include "gpuplan/version.h"

#define GP__STR2(x) #x
#define GP__STR(x) GP__STR2(x)

const char *gp_version_string(void)
{
    return GP__STR(GP_VERSION_MAJOR) "." GP__STR(GP_VERSION_MINOR) "." GP__STR(
        GP_VERSION_PATCH);
}
