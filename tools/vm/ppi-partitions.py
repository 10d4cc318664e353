#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Give a QEMU virt DTB GICv3 PPI partitions and one SPE node per partition.

usage: ppi-partitions.py IN.dtb OUT.dtb GROUPS

GROUPS: the partitions, separated by spaces, each a comma-separated list
of CPU numbers (e.g. "0 1": CPU 0 and CPU 1 apart; "0,1": one partition
of both). The virt machine describes SPE with one node whose PPI names
every CPU (its GIC takes 3-cell interrupt specifiers, which cannot say
otherwise). This rewrites the DTB QEMU dumped (-M virt,dumpdtb=FILE) the
way the GICv3 binding (interrupt-controller/arm,gic-v3.yaml) describes a
heterogeneous system: #interrupt-cells 4 (the 4th cell a phandle of a
ppi-partitions subnode, 0 for every interrupt that is not a partitioned
PPI), a ppi-partitions node with one interrupt-partition-N per group
(affinity: its CPUs' phandles), and one SPE node per partition, each with
PMBIRQ's PPI in that partition. Everything else, the PCIe interrupt-map
included, gets the 4th cell 0. Needs dtc (device-tree-compiler).
"""
import re
import subprocess
import sys

SPE_COMPAT = '"arm,statistical-profiling-extension-v1"'
PHANDLE_BASE = 0x9000


def die(msg):
    sys.exit("ppi-partitions.py: " + msg)


def cells(text):
    return [int(c, 0) for c in text.split()]


def fmt(cs):
    return "<" + " ".join("0x%x" % c for c in cs) + ">"


def node_blocks(lines):
    """(start, end, name) of every node: its '{' line and its '};' line."""
    stack, out = [], []
    for i, line in enumerate(lines):
        if line.rstrip().endswith("{"):
            stack.append((i, line.strip()[:-1].strip()))
        elif line.strip() == "};":
            start, name = stack.pop()
            out.append((start, i, name))
    return out


def prop(lines, start, end, name):
    """The value text of property @name directly in the node, or None."""
    depth = 0
    for line in lines[start + 1:end]:
        s = line.strip()
        if s.endswith("{"):
            depth += 1
        elif s == "};":
            depth -= 1
        elif depth == 0 and s.startswith(name + " = "):
            return s[len(name) + 3:].rstrip(";")
    return None


def main():
    if len(sys.argv) != 4:
        die("usage: ppi-partitions.py IN.dtb OUT.dtb GROUPS")
    src, dst, spec = sys.argv[1:]
    try:
        groups = [[int(c) for c in g.split(",")] for g in spec.split()]
    except ValueError:
        die("GROUPS must be CPU numbers: %r" % spec)
    if not groups:
        die("no partition in %r" % spec)
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", src],
                         check=True, capture_output=True, text=True).stdout
    lines = dts.split("\n")
    blocks = node_blocks(lines)

    gic = [b for b in blocks
           if prop(lines, b[0], b[1], "compatible") == '"arm,gic-v3"']
    if len(gic) != 1:
        die("not one arm,gic-v3 node (boot with gic-version=3)")
    gstart, gend, _ = gic[0]
    gic_ph = cells(prop(lines, gstart, gend, "phandle").strip("<>"))[0]
    gic_ac = cells(prop(lines, gstart, gend, "#address-cells").strip("<>"))[0]
    if prop(lines, gstart, gend, "#interrupt-cells") != "<0x03>":
        die("the GIC does not take 3-cell specifiers")

    cpu_ph = {}
    for start, end, name in blocks:
        m = re.fullmatch(r"cpu@([0-9a-f]+)", name)
        if m:
            ph = prop(lines, start, end, "phandle")
            if ph is None:
                die("%s has no phandle" % name)
            cpu_ph[int(m.group(1), 16)] = cells(ph.strip("<>"))[0]
    for g in groups:
        for c in g:
            if c not in cpu_ph:
                die("no cpu@%x in the DTB" % c)

    spe = [b for b in blocks if prop(lines, b[0], b[1], "compatible") == SPE_COMPAT]
    if len(spe) != 1:
        die("not one SPE node (a CPU with FEAT_SPE is needed)")

    out = []
    for i, line in enumerate(lines):
        s = line.strip()
        indent = line[:len(line) - len(line.lstrip())]
        if s.startswith("interrupts = <"):
            cs = cells(s[len("interrupts = <"):-2])
            if len(cs) % 3:
                die("interrupts of %d cells: %s" % (len(cs), s))
            cs = [x for k in range(0, len(cs), 3) for x in cs[k:k + 3] + [0]]
            line = indent + "interrupts = " + fmt(cs) + ";"
        elif s.startswith("interrupt-map = <"):
            cs = cells(s[len("interrupt-map = <"):-2])
            # PCI: 3 address cells and 1 interrupt cell of the child, the
            # GIC's phandle, its address cells, then its specifier
            n = 3 + 1 + 1 + gic_ac + 3
            if len(cs) % n or any(cs[k + 4] != gic_ph for k in range(0, len(cs), n)):
                die("an interrupt-map this script does not know: %s" % s[:80])
            cs = [x for k in range(0, len(cs), n) for x in cs[k:k + n] + [0]]
            line = indent + "interrupt-map = " + fmt(cs) + ";"
        if gstart < i < gend and s == "#interrupt-cells = <0x03>;":
            line = indent + "#interrupt-cells = <0x04>;"
            out.append(line)
            out.append(indent + "ppi-partitions {")
            for n, g in enumerate(groups):
                out.append(indent + "\tinterrupt-partition-%d {" % n)
                out.append(indent + "\t\tphandle = <0x%x>;" % (PHANDLE_BASE + n))
                out.append(indent + "\t\taffinity = " +
                           fmt([cpu_ph[c] for c in g]) + ";")
                out.append(indent + "\t};")
            out.append(indent + "};")
            continue
        out.append(line)

    # One SPE node per partition, PMBIRQ's PPI in it
    lines = out
    start, end, name = [b for b in node_blocks(lines)
                        if prop(lines, b[0], b[1], "compatible") == SPE_COMPAT][0]
    node = lines[start:end + 1]
    nodes = []
    for n in range(len(groups)):
        for line in node:
            s = line.strip()
            indent = line[:len(line) - len(line.lstrip())]
            if line is node[0]:
                line = indent + (name if n == 0 else "%s-%d" % (name, n)) + " {"
            elif s.startswith("interrupts = <"):
                cs = cells(s[len("interrupts = <"):-2])
                if len(cs) != 4 or cs[0] != 1:
                    die("the SPE interrupt is not one PPI: %s" % s)
                cs[3] = PHANDLE_BASE + n
                line = indent + "interrupts = " + fmt(cs) + ";"
            nodes.append(line)
    lines = lines[:start] + nodes + lines[end + 1:]

    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dst, "-"],
                   input="\n".join(lines), check=True, text=True)


if __name__ == "__main__":
    main()
