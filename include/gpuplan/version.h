/* gpuplan version numbers (public).  ABI: the soname's major tracks
 * incompatible changes to public structs and signatures. */
#ifndef GP_VERSION_H
#define GP_VERSION_H

#define GP_VERSION_MAJOR 0
#define GP_VERSION_MINOR 1
#define GP_VERSION_PATCH 0
#define GP_VERSION_HEX                                                          \
    ((GP_VERSION_MAJOR << 16) | (GP_VERSION_MINOR << 8) | GP_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0"; static storage. */
const char *gp_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* GP_VERSION_H */
