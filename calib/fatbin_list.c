/* fatbin_list: list the cubins (--list-elf) or PTX (--list-ptx) inside the
 * .nv_fatbin section of an ELF64 executable, one line per entry, in the style
 * of `cuobjdump --list-elf`:  "ELF file    1: NAME.1.sm_90.cubin".
 *
 * Used by calib/build.sh only when cuobjdump is not installed (some toolkit
 * installs ship nvcc without it).  The fat-binary container layout is not
 * documented by NVIDIA; this reads the widely described one: a container
 * header {u32 magic 0xBA55ED50, u16 version 1, u16 header size 16, u64 size}
 * followed by entries {u16 kind (1 PTX, 2 ELF), u16, u32 header size,
 * u64 payload size, u32, u32, u16 minor, u16 major, u32 arch (e.g. 90), ...}.
 * Exit status 1 when the file is not ELF64, has no fat binary, or an entry
 * runs past the section. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rd(const unsigned char *p, int n)
{
    uint64_t v = 0;
    int i;
    for (i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

int main(int argc, char **argv)
{
    FILE *f;
    unsigned char *buf;
    long len;
    uint64_t shoff, i, off, end;
    unsigned shentsize, shnum, shstrndx;
    const unsigned char *sh, *strsec;
    int want_ptx, found = 0, nfile = 0;
    const char *base;

    if (argc != 3 || (strcmp(argv[1], "--list-elf") != 0 && strcmp(argv[1], "--list-ptx") != 0)) {
        fprintf(stderr, "usage: fatbin_list --list-elf|--list-ptx FILE\n");
        return 2;
    }
    want_ptx = strcmp(argv[1], "--list-ptx") == 0;
    f = fopen(argv[2], "rb");
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 64 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "fatbin_list: cannot read %s\n", argv[2]);
        return 1;
    }
    buf = malloc((size_t)len);
    if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "fatbin_list: cannot read %s\n", argv[2]);
        return 1;
    }
    fclose(f);
    if (memcmp(buf, "\177ELF", 4) != 0 || buf[4] != 2 || buf[5] != 1) {
        fprintf(stderr, "fatbin_list: %s is not a little-endian ELF64 file\n", argv[2]);
        return 1;
    }
    shoff = rd(buf + 0x28, 8);
    shentsize = (unsigned)rd(buf + 0x3a, 2);
    shnum = (unsigned)rd(buf + 0x3c, 2);
    shstrndx = (unsigned)rd(buf + 0x3e, 2);
    if (shentsize < 64 || shstrndx >= shnum || shoff + (uint64_t)shnum * shentsize > (uint64_t)len) {
        fprintf(stderr, "fatbin_list: bad section table\n");
        return 1;
    }
    strsec = buf + shoff + (uint64_t)shstrndx * shentsize;
    base = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];
    for (i = 0; i < shnum; i++) {
        uint64_t name, soff, ssize;
        sh = buf + shoff + i * shentsize;
        name = rd(sh, 4);
        if (rd(strsec + 0x18, 8) + name >= (uint64_t)len)
            continue;
        if (strcmp((const char *)buf + rd(strsec + 0x18, 8) + name, ".nv_fatbin") != 0)
            continue;
        soff = rd(sh + 0x18, 8);
        ssize = rd(sh + 0x20, 8);
        if (soff + ssize > (uint64_t)len) {
            fprintf(stderr, "fatbin_list: .nv_fatbin runs past the file\n");
            return 1;
        }
        found = 1;
        off = soff;
        end = soff + ssize;
        while (off + 16 <= end) {
            uint64_t csize, e, cend;
            if (rd(buf + off, 4) != 0xBA55ED50u || rd(buf + off + 4, 2) != 1 ||
                rd(buf + off + 6, 2) != 16) {
                off += 8; /* containers are 8-byte aligned; skip padding */
                continue;
            }
            csize = rd(buf + off + 8, 8);
            cend = off + 16 + csize;
            if (cend > end) {
                fprintf(stderr, "fatbin_list: fat binary container runs past the section\n");
                return 1;
            }
            for (e = off + 16; e + 0x24 <= cend;) {
                unsigned kind = (unsigned)rd(buf + e, 2);
                uint64_t hsize = rd(buf + e + 4, 4), psize = rd(buf + e + 8, 8);
                unsigned arch = (unsigned)rd(buf + e + 0x1c, 4);
                if (hsize < 0x24 || e + hsize + psize > cend) {
                    fprintf(stderr, "fatbin_list: bad fat binary entry\n");
                    return 1;
                }
                if (kind == 2 && !want_ptx) {
                    nfile++;
                    printf("ELF file %4d: %s.%d.sm_%u.cubin\n", nfile, base, nfile, arch);
                } else if (kind == 1 && want_ptx) {
                    nfile++;
                    printf("PTX file %4d: %s.%d.sm_%u.ptx\n", nfile, base, nfile, arch);
                }
                e += hsize + psize;
            }
            off = cend;
        }
    }
    free(buf);
    if (!found) {
        fprintf(stderr, "fatbin_list: %s has no .nv_fatbin section\n", argv[2]);
        return 1;
    }
    return 0;
}
