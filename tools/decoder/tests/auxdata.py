#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The AUX data of a perf.data file, read here and not by spe-decode's C
reader: the tests and the benchmark compare the decoder with it.

    auxdata.py PERF.DATA PREFIX            each AUX area into PREFIX.IDX.aux
    auxdata.py --joined PERF.DATA OUT [MiB] every area joined in file order,
                                            repeated to MiB MiB if given

PERF.DATA may be - (standard input). The layout is perf's
perf.data-file-format.txt: the data section's offset and size at bytes 40
and 48 of the header; a PERF_RECORD_AUXTRACE (type 71) is followed by its
size (the record's first 8 bytes after the header) bytes of AUX data, in
the AUX area of its idx (bytes 32-35).
"""
import struct
import sys


def pieces(pd):
    """(idx, data) of each PERF_RECORD_AUXTRACE of a perf.data image, in file order."""
    data_off, data_size = struct.unpack_from("<QQ", pd, 40)
    pos, end = data_off, data_off + data_size
    while pos < end:
        typ, _misc, size = struct.unpack_from("<IHH", pd, pos)
        if typ == 71:
            n, _off, _ref, idx = struct.unpack_from("<QQQI", pd, pos + 8)
            yield idx, pd[pos + size:pos + size + n]
            pos += n
        pos += size


def areas(pd):
    """{idx: bytes}: each AUX area's pieces joined."""
    out = {}
    for idx, data in pieces(pd):
        out.setdefault(idx, bytearray()).extend(data)
    return out


def joined(pd):
    """Every piece's data, in file order."""
    return b"".join(data for _idx, data in pieces(pd))


def main(argv):
    join = argv[:1] == ["--joined"]
    if join:
        argv = argv[1:]
    if len(argv) < 2:
        sys.exit(__doc__)
    src = sys.stdin.buffer if argv[0] == "-" else open(argv[0], "rb")
    pd = src.read()
    if not join:
        for idx, data in areas(pd).items():
            with open("%s.%d.aux" % (argv[1], idx), "wb") as f:
                f.write(data)
        return
    aux = joined(pd)
    reps = 1
    if len(argv) > 2 and aux:
        reps = -(-(int(argv[2]) << 20) // len(aux))
    with open(argv[1], "wb") as f:
        for _ in range(reps):
            f.write(aux)


if __name__ == "__main__":
    main(sys.argv[1:])
