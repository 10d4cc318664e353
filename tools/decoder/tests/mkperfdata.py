#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Write small synthetic perf.data files for spe-decode's tests.

    mkperfdata.py KIND OUT

The layout follows perf's perf.data-file-format.txt (PERFILE2 header,
attribute section, data section) and the perf_event ABI record layouts;
the SPE records inside are hand-written bytes (spec 004 Table D18-1).
KIND:
  good       two CPUs; COMM, ITRACE_START, PERF_RECORD_AUX with TRUNCATED on
             cpu 1; cpu 0's AUX data in two AUXTRACE pieces that split a
             record (a wrapped ring); a Context packet naming a known thread
  badmagic   the good file with its magic changed
  trunc      the good file cut inside the data section
  truncaux   an AUXTRACE record whose data runs past the end of the data
  pipe       a pipe-mode header
  sym        (sym OUT ELF SEG_VADDR SEG_OFFSET FUNC_ADDR) samples in a function
             of an ELF file mapped by MMAP2, and a line shared by two CPUs
"""
import struct
import sys

SAMPLE_TID, SAMPLE_TIME, SAMPLE_CPU, SAMPLE_IDENTIFIER = 1 << 1, 1 << 2, 1 << 7, 1 << 16
SAMPLE_TYPE = SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_IDENTIFIER
SAMPLE_ID_ALL = 1 << 18


def sample_id(pid, tid, cpu, time=1000):
    # {pid, tid} {time} {cpu, res} {identifier}, in perf_event.h order
    return struct.pack("<IIQIIQ", pid, tid, time, cpu, 0, 7)


def rec(rtype, body, misc=0):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def comm(pid, tid, name, cpu):
    n = name.encode() + b"\0"
    n += b"\0" * (-len(n) % 8)
    return rec(3, struct.pack("<II", pid, tid) + n + sample_id(pid, tid, cpu))


def itrace_start(pid, tid, cpu):
    return rec(12, struct.pack("<II", pid, tid) + sample_id(pid, tid, cpu))


def aux(offset, size, flags, cpu, pid=-1, tid=-1):
    return rec(11, struct.pack("<QQQ", offset, size, flags) +
               sample_id(pid & 0xffffffff, tid & 0xffffffff, cpu))


def auxtrace(data, offset, idx, cpu, tid=-1, extra=0):
    # header (its size excludes the data), size, offset, reference, idx, tid,
    # cpu, reserved; as perf does, the data is padded to 8 bytes and size
    # counts the padding (zero bytes: SPE Padding packets)
    data += b"\0" * (-len(data) % 8)
    body = struct.pack("<QQQIiiI", len(data) + extra, offset, 0, idx, tid, cpu, 0)
    return rec(71, body) + data


def spe_load(pc, ctx=None, ts=None, va=None, store=0, lat=42):
    """A load (or store) record: PC (0xB0), Context (0x64), Operation Type
    load/store (0x49 0x00/0x01), Events (0x52), total latency (0x98), data
    VA (0xB2) when given, then Timestamp (0x71) or End (0x01)."""
    b = bytes([0xB0]) + struct.pack("<Q", pc | (1 << 63))
    if ctx is not None:
        b += bytes([0x64]) + struct.pack("<I", ctx)
    b += bytes([0x49, store, 0x52]) + struct.pack("<H", 0x16)
    b += bytes([0x98]) + struct.pack("<H", lat)
    if va is not None:
        b += bytes([0xB2]) + struct.pack("<Q", va)
    if ts is None:
        return b + bytes([0x01])
    return b + bytes([0x71]) + struct.pack("<Q", ts)


def build(aux_extra=0):
    attr = bytearray(136)  # perf_event_attr, PERF_ATTR_SIZE_VER8
    struct.pack_into("<IIQQQQQ", attr, 0, 0x2a, len(attr), 0, 1, SAMPLE_TYPE, 0,
                     SAMPLE_ID_ALL)
    ids = struct.pack("<Q", 7)
    cpu0 = spe_load(0xaaaa0000, ctx=None, ts=5) + spe_load(0xaaaa0004, ctx=202) + \
        b"\0\0" + spe_load(0xaaaa0008, ts=6)
    cpu1 = spe_load(0xbbbb0000) + spe_load(0xbbbb0004)
    cut = 24  # inside the second record of cpu 0 (8-byte multiple): a wrap splits it
    data = b"".join([
        comm(101, 101, "first", 0),
        comm(200, 202, "second", 1),
        itrace_start(101, 101, 0),
        itrace_start(200, 202, 1),
        aux(0, cut, 0, 0),
        auxtrace(cpu0[:cut], 0, 0, 0),
        aux(0, len(cpu1), 0x1, 1),  # TRUNCATED
        auxtrace(cpu1, 0, 1, 1),
        aux(cut, len(cpu0) - cut, 0x4, 0),  # PARTIAL
        auxtrace(cpu0[cut:], cut, 0, 0, extra=aux_extra),
    ])
    hdr_size, attr_size = 104, len(attr) + 16
    attr_off = hdr_size
    ids_off = attr_off + attr_size
    data_off = ids_off + len(ids)
    fattr = bytes(attr) + struct.pack("<QQ", ids_off, len(ids))
    hdr = struct.pack("<8sQQQQQQQQ", b"PERFILE2", hdr_size, attr_size, attr_off, attr_size,
                      data_off, len(data), 0, 0) + b"\0" * 32
    return hdr + fattr + ids + data, data_off


def mmap2(pid, addr, length, pgoff, name, cpu):
    # pid, tid, addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, name
    n = name.encode() + b"\0"
    n += b"\0" * (-len(n) % 8)
    return rec(10, struct.pack("<IIQQQIIQQII", pid, pid, addr, length, pgoff, 0, 0, 0, 0, 5, 2) +
               n + sample_id(pid, pid, cpu))


def build_sym(elf, seg_vaddr, seg_off, func):
    """Samples in function func of ELF file elf (a PT_LOAD at seg_vaddr,
    file offset seg_off), and one 64-byte line stored to from cpu 0 and
    loaded from cpu 1 (a false-sharing candidate)."""
    attr = bytearray(136)
    struct.pack_into("<IIQQQQQ", attr, 0, 0x2a, len(attr), 0, 1, SAMPLE_TYPE, 0,
                     SAMPLE_ID_ALL)
    base, pgoff = seg_vaddr & ~0xfff, seg_off & ~0xfff
    cpu0 = b"".join(spe_load(func + 4 * i, lat=10 + i) for i in range(3))
    cpu0 += spe_load(func, va=0x1000040, store=1)
    cpu0 += spe_load(func + 12, va=0x2000000)  # a line only loaded from: no candidate
    cpu1 = spe_load(func + 8, va=0x1000078, lat=100) + spe_load(0x10, lat=1)
    cpu1 += spe_load(func + 12, va=0x2000008)
    data = b"".join([
        comm(300, 300, "symtest", 0),
        mmap2(300, base, 0x100000, pgoff, elf, 0),
        itrace_start(300, 300, 0),
        itrace_start(300, 300, 1),
        auxtrace(cpu0, 0, 0, 0),
        auxtrace(cpu1, 0, 1, 1),
    ])
    hdr_size, attr_size = 104, len(attr) + 16
    ids = struct.pack("<Q", 7)
    ids_off = hdr_size + attr_size
    data_off = ids_off + len(ids)
    fattr = bytes(attr) + struct.pack("<QQ", ids_off, len(ids))
    hdr = struct.pack("<8sQQQQQQQQ", b"PERFILE2", hdr_size, attr_size, hdr_size, attr_size,
                      data_off, len(data), 0, 0) + b"\0" * 32
    return hdr + fattr + ids + data


def main():
    kind, out = sys.argv[1], sys.argv[2]
    if kind == "sym":
        # sym OUT ELF SEG_VADDR SEG_OFFSET FUNC_ADDR
        v = [int(x, 0) for x in sys.argv[4:7]]
        with open(out, "wb") as fh:
            fh.write(build_sym(sys.argv[3], *v))
        return
    # truncaux: the last AUXTRACE record claims 4 KiB more data than follows
    f, data_off = build(4096 if kind == "truncaux" else 0)
    if kind == "badmagic":
        f = b"PERFILE1" + f[8:]
    elif kind == "trunc":
        f = f[:data_off + 100]
    elif kind == "truncaux":
        pass
    elif kind == "pipe":
        f = struct.pack("<8sQ", b"PERFILE2", 16)
    elif kind != "good":
        sys.exit("unknown kind " + kind)
    with open(out, "wb") as fh:
        fh.write(f)


if __name__ == "__main__":
    main()
