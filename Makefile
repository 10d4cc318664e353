# Top-level entry points. `make` builds the module: natively on arm64
# against the running kernel (KDIR= overrides), cross on any other host for
# the default supported kernel. See README.md for the rest.

ARCH_HOST := $(shell uname -m)
TOP := $(CURDIR)

ifeq ($(ARCH_HOST),aarch64)
KDIR ?= /lib/modules/$(shell uname -r)/build
endif

.PHONY: all modules modules-all check clean qemu help bench

all: modules

ifdef KDIR
modules:
	$(MAKE) -C $(KDIR) M=$(TOP) modules
else
modules:
	tools/kernels/kmake.sh $$(tools/kernels/fetch.sh --default) modules
	@echo "module: build/$$(tools/kernels/fetch.sh --default)/arm_spe_perf.ko"
endif

# Every supported kernel, W=1, any warning fails.
modules-all:
	tools/build-matrix.sh

check:
	tools/check.sh

# Emulation overhead, decoder throughput, driver data loss: one table.
bench:
	tools/bench/run-all.sh

qemu:
	tools/qemu/build.sh

# The demo: record a program under the emulated SPE with perf and show it.
.PHONY: run
run:
ifdef PCSR
	selftests/arm_pcsr/demo.sh
else
	tools/perf/run-demo.sh $(if $(PROG),--prog '$(PROG)') $(if $(ARGS),--args '$(ARGS)') $(if $(KEEP),--keep '$(KEEP)') $(if $(PRESET),--preset '$(PRESET)')
endif

# Mutants: each must fail a test suite (tools/mutants/, NAMES= a subset,
# Documentation/testing.rst "Mutants"): the decoder's, then the driver's.
.PHONY: mutants mutants-decoder
mutants:
	rc=0; tools/mutants/decoder.sh $(NAMES) || rc=1; tools/mutants/run.sh $(NAMES) || rc=1; exit $$rc

mutants-decoder:
	tools/mutants/decoder.sh $(NAMES)

# Reliability, long runs: the stress suite with --long (KERNEL= a series id,
# default the default kernel) and a long decoder fuzz (FUZZ_SECONDS=).
.PHONY: stress
stress:
	tools/stress/run-long.sh $(KERNEL)

clean:
	rm -rf build
ifdef KDIR
	$(MAKE) -C $(KDIR) M=$(TOP) clean
endif

help:
	@echo "make              build the module (cross for the default kernel on x86; KDIR= a kernel build tree)"
	@echo "make modules-all  build for every supported kernel with W=1"
	@echo "make check        install what is missing and run every test suite"
	@echo "make qemu         build the SPE-enabled QEMU"
	@echo "make bench        emulation overhead, decoder throughput, driver data loss and report speed, one table of ratios"
	@echo "make stress       long reliability runs: fuzz, stress, fault injection (KERNEL=, FUZZ_SECONDS=)"
	@echo "make mutants      decoder and driver mutants against the suites: each must be killed (NAMES=)"
	@echo "make mutants-decoder  the decoder's mutants only (a few minutes, no QEMU)"
	@echo "make run          perf record/report/script under the emulated SPE (PROG= ARGS= KEEP=perf.data PRESET=neoverse-n1)"
	@echo "make run PCSR=1   the same with PC sampling: perf record -e arm_pcsr// -C 1 (Documentation/pcsr.rst)"
	@echo "make clean        remove build/ (the cache in ~/.cache/arm-spe stays)"
