"""The CPU slices of a Mach-O file: ['arm64'], ['x86_64'] or both for universal2.

Constants from <mach-o/loader.h> and <mach-o/fat.h>. Whatever the bytes, the answer is a list.
"""

from __future__ import annotations

FAT_MAGIC = 0xCAFEBABE
MH_MAGIC_64 = 0xFEEDFACF
CPU_TYPES = {0x01000007: "x86_64", 0x0100000C: "arm64", 7: "i386"}


def macho_archs(path):
    try:
        with open(path, "rb") as handle:
            head = handle.read(8)
            if len(head) < 8:
                return []
            if int.from_bytes(head[:4], "big") == FAT_MAGIC:
                count = int.from_bytes(head[4:8], "big")
                archs = []
                for _ in range(min(count, 16)):
                    entry = handle.read(20)  # struct fat_arch: cputype, cpusubtype, offset, size, align
                    if len(entry) < 4:
                        break
                    archs.append(CPU_TYPES.get(int.from_bytes(entry[:4], "big"), "other"))
                return archs
            if int.from_bytes(head[:4], "little") == MH_MAGIC_64:
                return [CPU_TYPES.get(int.from_bytes(head[4:8], "little"), "other")]
    except OSError:
        pass
    return []
