/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Symbols for spe-decode report: the ELF files a perf.data names in its
 * MMAP2 records, read with libelf (elfutils) when the build has it
 * (HAVE_LIBELF); without it every PC stays unresolved.
 */
#ifndef SPE_SYMBOLS_H
#define SPE_SYMBOLS_H

#include <stdint.h>

#include "perf_data.h"

struct symtab;

/* symfs: a directory the file names are looked up under first (or NULL). */
struct symtab *sym_open(const struct perf_data *pd, const char *symfs);
void sym_close(struct symtab *st);

/*
 * Name of the function holding pc in process pid: "sym" or "dso!sym"
 * style is up to the caller; returns the symbol name (or NULL) and sets
 * *dso to the mapped file's base name (or NULL when pc is in no mapping).
 */
const char *sym_lookup(struct symtab *st, int32_t pid, uint64_t pc, const char **dso);

#endif /* SPE_SYMBOLS_H */
