// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Symbol lookup for spe-decode report (symbols.h). Each file named by a
 * PERF_RECORD_MMAP2 is opened once with libelf; its function symbols
 * (.symtab, else .dynsym) are sorted by address. A PC maps to a file
 * offset through its mapping (pc - start + pgoff), then to the file's
 * virtual address through the PT_LOAD segment holding that offset.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif

#include "symbols.h"

struct sym {
	uint64_t addr, size;
	char *name;
};

struct seg {
	uint64_t off, filesz, vaddr;
};

struct elf_file {
	char *path;		/* as named in perf.data */
	const char *base;	/* its base name */
	int ok;
	struct sym *sym;
	size_t n_sym;
	struct seg *seg;
	size_t n_seg;
};

struct symtab {
	const struct perf_data *pd;
	struct elf_file *file;
	size_t n_file;
	struct elf_file **map_file;	/* per pd->mmap[i] */
};

#ifdef HAVE_LIBELF
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * A file a perf.data names, opened only if it is a regular file: a FIFO or
 * a device named by a crafted MMAP2 record must not block, feed libelf
 * without end, or see an open at all (opening a watchdog arms it, a tape
 * rewinds). stat() before the open; fstat() after it, in case the name
 * changed in between.
 */
static int open_regular(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void load_elf(struct elf_file *f, const char *symfs)
{
	char p[4096];
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t i, n_ph, cap = 0;
	int fd = -1, pass;

	if (symfs) {
		if (snprintf(p, sizeof(p), "%s/%s", symfs, f->path) < (int)sizeof(p))
			fd = open_regular(p);
		/* also DIR/basename */
		if (fd < 0 && snprintf(p, sizeof(p), "%s/%s", symfs, f->base) < (int)sizeof(p))
			fd = open_regular(p);
	}
	if (fd < 0)
		fd = open_regular(f->path);
	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &n_ph)) {
		if (e)
			elf_end(e);
		close(fd);
		return;
	}
	f->seg = calloc(n_ph ? n_ph : 1, sizeof(*f->seg));
	for (i = 0; f->seg && i < n_ph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			f->seg[f->n_seg].off = ph.p_offset;
			f->seg[f->n_seg].filesz = ph.p_filesz;
			f->seg[f->n_seg].vaddr = ph.p_vaddr;
			f->n_seg++;
		}
	}
	/* .symtab when present (static and unstripped binaries), else .dynsym */
	for (pass = 0; pass < 2 && !f->n_sym; pass++) {
		scn = NULL;
		while ((scn = elf_nextscn(e, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *d;
			size_t k, n;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) || !sh.sh_entsize)
				continue;
			d = elf_getdata(scn, NULL);
			/* the entries the data holds, whatever the header claims */
			n = d ? d->d_size / sh.sh_entsize : 0;
			for (k = 0; d && k < n; k++) {
				GElf_Sym s;
				const char *name;
				struct sym *ns;

				if (!gelf_getsym(d, (int)k, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
				    !s.st_value)
					continue;
				name = elf_strptr(e, sh.sh_link, s.st_name);
				if (!name || !*name)
					continue;
				if (f->n_sym == cap) {
					cap = cap ? 2 * cap : 256;
					ns = realloc(f->sym, cap * sizeof(*ns));
					if (!ns)
						break;
					f->sym = ns;
				}
				f->sym[f->n_sym].addr = s.st_value & ~1ull;
				f->sym[f->n_sym].size = s.st_size;
				f->sym[f->n_sym].name = strdup(name);
				f->n_sym++;
			}
		}
	}
	qsort(f->sym, f->n_sym, sizeof(*f->sym), sym_cmp);
	f->ok = 1;
	elf_end(e);
	close(fd);
}
#endif

struct symtab *sym_open(const struct perf_data *pd, const char *symfs)
{
	struct symtab *st = calloc(1, sizeof(*st));
	size_t i, j;

	if (!st)
		return NULL;
	st->pd = pd;
	st->file = calloc(pd->n_mmap ? pd->n_mmap : 1, sizeof(*st->file));
	st->map_file = calloc(pd->n_mmap ? pd->n_mmap : 1, sizeof(*st->map_file));
	if (!st->file || !st->map_file) {
		sym_close(st);
		return NULL;
	}
#ifdef HAVE_LIBELF
	elf_version(EV_CURRENT);
#endif
	for (i = 0; i < pd->n_mmap; i++) {
		const char *name = pd->mmap[i].filename;

		for (j = 0; j < st->n_file && strcmp(st->file[j].path, name); j++)
			;
		if (j == st->n_file) {
			struct elf_file *f = &st->file[st->n_file++];
			const char *slash = strrchr(name, '/');

			f->path = strdup(name);
			f->base = f->path ? (slash ? f->path + (slash - name) + 1 : f->path) : "";
#ifdef HAVE_LIBELF
			if (f->path && name[0] == '/')
				load_elf(f, symfs);
#else
			(void)symfs;
#endif
		}
		st->map_file[i] = &st->file[j];
	}
	return st;
}

void sym_close(struct symtab *st)
{
	size_t i, k;

	if (!st)
		return;
	for (i = 0; i < st->n_file; i++) {
		for (k = 0; k < st->file[i].n_sym; k++)
			free(st->file[i].sym[k].name);
		free(st->file[i].sym);
		free(st->file[i].seg);
		free(st->file[i].path);
	}
	free(st->file);
	free(st->map_file);
	free(st);
}

const char *sym_lookup(struct symtab *st, int32_t pid, uint64_t pc, const char **dso)
{
	const struct perf_data *pd = st->pd;
	size_t i, lo, hi;

	*dso = NULL;
	/* the newest mapping of this process (or of pid -1: the kernel's) holding pc */
	for (i = pd->n_mmap; i-- > 0;) {
		const struct pd_mmap *m = &pd->mmap[i];
		const struct elf_file *f;
		uint64_t off, va = 0;
		size_t k;
		int found = 0;

		if ((m->pid != pid && m->pid != -1) || pc < m->addr || pc - m->addr >= m->len)
			continue;
		f = st->map_file[i];
		*dso = f->base;
		if (!f->ok || !f->n_sym)
			return NULL;
		off = pc - m->addr + m->pgoff;
		for (k = 0; k < f->n_seg; k++)
			if (off >= f->seg[k].off && off < f->seg[k].off + f->seg[k].filesz) {
				va = off - f->seg[k].off + f->seg[k].vaddr;
				found = 1;
				break;
			}
		if (!found)
			return NULL;
		/* the last symbol at or below va */
		lo = 0;
		hi = f->n_sym;
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;

			if (f->sym[mid].addr <= va)
				lo = mid;
			else
				hi = mid;
		}
		if (f->sym[lo].addr > va ||
		    (f->sym[lo].size && va >= f->sym[lo].addr + f->sym[lo].size))
			return NULL;
		return f->sym[lo].name;
	}
	return NULL;
}
