#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Extract a kernel's BTF from its boot Image.

    btf-from-image.py IMAGE OUT

A kernel built with CONFIG_DEBUG_INFO_BTF carries its BTF (what
/sys/kernel/btf/vmlinux serves) as one blob in the Image: a struct
btf_header (magic 0xeB9F, version 1, hdr_len 24) followed by the type and
string sections (Documentation/bpf/btf.rst, "BTF Type and String
Encoding"). This finds the blob whose header is consistent (types at 0,
strings right after them, a string section that starts and ends with
NUL, all inside the file), the largest if several, and writes it as a
raw BTF file that `bpftool btf dump file OUT format c` reads: vmlinux.h
for the selftests' BPF program, without booting the kernel or shipping
its vmlinux. A gzip-compressed Image is decompressed first. Exit status
1, with a message, when the Image has no BTF.
"""
import gzip
import struct
import sys

BTF_MAGIC = 0xEB9F
HDR = struct.Struct("<HBBIIIII")  # magic version flags hdr_len type_off type_len str_off str_len


def find_btf(data):
    key = struct.pack("<HBBI", BTF_MAGIC, 1, 0, HDR.size)
    best = None
    i = data.find(key)
    while i >= 0:
        if i + HDR.size <= len(data):
            _, _, _, hdr_len, type_off, type_len, str_off, str_len = HDR.unpack_from(data, i)
            total = hdr_len + str_off + str_len
            strs = i + hdr_len + str_off
            if (type_off == 0 and str_off == type_len and str_len > 0 and
                    i + total <= len(data) and data[strs] == 0 and data[i + total - 1] == 0):
                if best is None or total > best[1]:
                    best = (i, total)
        i = data.find(key, i + 1)
    return best


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: btf-from-image.py IMAGE OUT\n")
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    found = find_btf(data)
    if not found:
        sys.stderr.write(f"btf-from-image: no BTF in {argv[1]} (a kernel without CONFIG_DEBUG_INFO_BTF?)\n")
        return 1
    start, total = found
    with open(argv[2], "wb") as f:
        f.write(data[start:start + total])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
