# bootprobe: boot-time driver probe latency and killed-probe diagnosis.
#
#   make            the host CLI build/bin/bootprobe, the collector build/bin/probetrace and
#                   their man pages (build/man/), as any user; names a missing package
#   make guests     the lab kernel, its initramfs and the Debian guest images
#   make deps       install every package (deps-build, -guest, -image, -run, -test, -fleet,
#                   -package: a set)
#   make bench      the default benchmark (the 2014 story, time-scaled), report in results/latest
#   make bench-real the real drivers: mptsas (SAS1068) and virtio-scsi, sync vs async_probe=1
#   make bench-debian Debian's stock kernel, initramfs and systemd: sync vs async probing
#   make bench-kernels Debian 12's 6.1, Debian 13's 6.12 and 7.x on one machine, compared
#   make bench-collector the collector's start-up and overhead on each kernel
#   make debian-image the Debian guest images, one per release (cached outside the repo)
#   make deb        the Debian packages bootprobe and bootprobe-collector, in build/deb/
#   make check      every test: unit, patch style, guest boots, fleet (Slurm, GNU parallel);
#                   ends "N passed, N failed"; check and bench build and install what they need
#   make check-sanitize  unit and host tests on tools built with ASan and UBSan
#   make V=1        show the commands
.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDARY:

# SANITIZE=1: the host tools and tests under ASan and UBSan, any report fatal,
# built in build/sanitize so that their objects never mix with the others.
ifeq ($(SANITIZE),1)
BUILD    := build/sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
		  -fno-sanitize-recover=all
endif
BUILD    ?= build
GUEST    := $(BUILD)/guest
BIN      := $(BUILD)/bin
OBJ      := $(BUILD)/obj
CACHE    ?= $(or $(BOOTPROBE_CACHE),$(XDG_CACHE_HOME),$(HOME)/.cache)/bootprobe
export BOOTPROBE_CACHE := $(if $(BOOTPROBE_CACHE),$(BOOTPROBE_CACHE),$(CACHE))

CC       ?= gcc
# CFLAGS is the user's (make CFLAGS=-O0); ALL_CFLAGS adds what the build
# needs whatever CFLAGS says: warnings, the C dialect, header dependencies.
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -Wall -Wextra -Wno-unused-parameter -std=gnu11 -MMD -MP $(SANITIZE_FLAGS) $(CFLAGS)
CPPFLAGS += -Itools/common -I$(OBJ)
JSON_LIBS := -ljson-c

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-9s %s\n' '$(1)' '$(2)';
endif

# One stamp per package set of tools/deps.sh, once the set was there.
DEPS := $(BUILD)/.deps

.PHONY: FORCE all deps kernel guest debian-image check check-unit check-sanitize check-patches \
	check-style check-fleet host-tools clean bench bench-2014 bench-real bench-debian \
	bench-kernels bench-async bench-collector help guests check-build man
.DEFAULT_GOAL := all

# The in-guest collector (CO-RE BPF, libbpf skeleton, static binary): included
# before the first rule that names $(PROBETRACE), which it defines.
include tools/probetrace/probetrace.mk

# The tools, nothing that needs a kernel build or root.
all: $(BIN)/bootprobe $(PROBETRACE) man

# Every guest make check and make bench boot.
guests: guest debian-image

help:
	@sed -n '2,18p' Makefile | sed 's/^# \{0,1\}//'

# ---- packages -------------------------------------------------------------
# tools/deps.sh's sets, each wanted by the targets that use it: build (the
# tools), guest (the lab kernel and initramfs), image (the Debian images),
# run (QEMU, gnuplot), test, fleet, package (make deb, lintian).  The build
# set is only checked, a missing package named in one line, unless a goal
# promises a fresh machine everything (check, bench, a guest): then, as
# root, every set it needs is installed; as another user the packages are
# named.
DEPS_SETS := build guest image run test fleet package
DEPS_INSTALL_GOALS := check check-build check-fleet check-patches bench bench-% guest guests \
	kernel debian-image image-%
DEPS_BUILD_ACTION := $(if $(filter $(DEPS_INSTALL_GOALS),$(MAKECMDGOALS)),install,check)

deps:
	$(Q)tools/deps.sh install all
$(addprefix deps-,$(DEPS_SETS)): deps-%:
	$(Q)tools/deps.sh install $*
.PHONY: $(addprefix deps-,$(DEPS_SETS))
$(DEPS)/build: tools/deps.sh
	$(Q)tools/deps.sh $(DEPS_BUILD_ACTION) build
	$(Q)mkdir -p $(@D) && touch $@
$(addprefix $(DEPS)/,$(filter-out build,$(DEPS_SETS))): $(DEPS)/%: tools/deps.sh
	$(Q)tools/deps.sh install $*
	$(Q)mkdir -p $(@D) && touch $@

# ---- host tools (C) --------------------------------------------------------
# bootprobe by concern: run/ boots the guest, analysis/ reads and analyses
# runs, report/ writes reports; main.c and the command table on top.
BP_DIRS     := tools/bootprobe tools/bootprobe/run tools/bootprobe/analysis tools/bootprobe/report \
	       tools/bootprobe/results
BP_INCLUDES := $(addprefix -I,$(BP_DIRS)) -Itools/probetrace
COMMON_SRCS := $(wildcard tools/common/*.c)
RUNNER_SRCS := $(filter-out tools/bootprobe/main.c,$(wildcard $(addsuffix /*.c,$(BP_DIRS))))
COMMON_OBJS := $(patsubst tools/%.c,$(OBJ)/%.o,$(COMMON_SRCS))
RUNNER_OBJS := $(patsubst tools/%.c,$(OBJ)/%.o,$(RUNNER_SRCS))

$(OBJ)/bootprobe/%.o: CPPFLAGS += $(BP_INCLUDES)
# The what-if calibration table is built into the program (.incbin).
$(OBJ)/bootprobe/analysis/whatif_cal.o $(OBJ)/fuzz/bootprobe/analysis/whatif_cal.o: \
	results/whatif-calibration.csv
$(OBJ)/%.o: tools/%.c | $(DEPS)/build
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D) && $(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(BIN)/bootprobe: $(OBJ)/bootprobe/main.o $(RUNNER_OBJS) $(COMMON_OBJS) $(PT_STREAM_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) $(LDFLAGS) $^ -o $@ $(JSON_LIBS) -lm

# ---- man pages ----------------------------------------------------------------
# Made from each program's --help (tools/man/mkman.sh): the two never disagree.
MAN := $(BUILD)/man
$(MAN)/man1/bootprobe.1: $(BIN)/bootprobe tools/man/mkman.sh
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D) && tools/man/mkman.sh bootprobe $< >$@
$(MAN)/man8/probetrace.8: $(PROBETRACE) tools/man/mkman.sh
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D) && tools/man/mkman.sh probetrace $< >$@
$(MAN)/man1/bootprobe-gather.1: tools/gather/bootprobe-gather tools/man/mkman.sh
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D) && tools/man/mkman.sh bootprobe-gather $< >$@
MAN_PAGES := $(MAN)/man1/bootprobe.1 $(MAN)/man8/probetrace.8 $(MAN)/man1/bootprobe-gather.1
man: $(MAN_PAGES)

# ---- guest: kernel, test module, initramfs --------------------------------
# build-kernel.sh hashes its inputs and rebuilds only when they change; it
# rewrites build-hash only for a new build, so dependents rebuild only then.
$(GUEST)/build-hash: FORCE | $(DEPS)/build $(DEPS)/guest
	$(Q)tools/build-kernel.sh $(GUEST)
kernel: $(GUEST)/build-hash
FORCE:

SLOWPROBE_DIR := $(GUEST)/slowprobe
$(SLOWPROBE_DIR)/slowprobe.ko: kernel-patches/slowprobe/slowprobe.c kernel-patches/slowprobe/Kbuild $(GUEST)/build-hash
	$(call msg,MODULE,$@)
	$(Q)mkdir -p $(@D) && cp kernel-patches/slowprobe/slowprobe.c kernel-patches/slowprobe/Kbuild $(@D)/
	$(Q)$(MAKE) -s -C $$(cat $(GUEST)/kernel-dir)/obj ARCH=x86_64 M=$(abspath $(@D)) modules

# A synthetic signal storm for the collector's per-event cost (bootprobe.storm=N).
STORM := $(BIN)/storm
$(STORM): $(OBJ)/guest/storm.o
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -static $^ -o $@

# One clock for records, printk and the boot-time trace? (bootprobe.clockcheck=N)
CLOCKCHECK := $(BIN)/clockcheck
$(CLOCKCHECK): $(OBJ)/guest/clockcheck.o $(OBJ)/common/kmsg.o $(OBJ)/common/traceline.o
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -static $^ -o $@

# What each kind of BPF attach point costs per event (bootprobe.attachcost=N):
# bpf/attachcost.bpf.c, built like the collector's, static like it.
ATTACHCOST := $(BIN)/attachcost
$(OBJ)/guest/attachcost.o: tools/guest/attachcost.c $(PT_OBJ)/attachcost.skel.h | $(DEPS)/build
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D) && $(CC) $(CPPFLAGS) -I$(PT_OBJ) $(ALL_CFLAGS) -c $< -o $@
$(ATTACHCOST): $(OBJ)/guest/attachcost.o
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -static $^ -o $@ $(PT_LIBS)

GUEST_EXTRAS := $(SLOWPROBE_DIR)/slowprobe.ko $(PROBETRACE) $(STORM) $(ATTACHCOST) \
		$(CLOCKCHECK)

$(GUEST)/initramfs.cpio: tools/mkinitramfs.sh tools/guest/init $(GUEST)/build-hash $(GUEST_EXTRAS)
	$(Q)tools/mkinitramfs.sh $(GUEST) $@ $(GUEST_EXTRAS)

# Kernel arguments the guest needs on every boot (the collector's boot-time
# tracing); bootprobe run reads them from next to the initramfs.  Made from
# the booted kernel's BTF, read from its vmlinux: nothing is loaded on the host.
$(GUEST)/boot-args: $(PROBETRACE) $(GUEST)/build-hash
	$(call msg,BOOTARGS,$@)
	$(Q)$(PROBETRACE) --boot-args --btf $(GUEST)/vmlinux >$@

guest: $(GUEST)/initramfs.cpio $(GUEST)/boot-args

# ---- Debian packages ----------------------------------------------------------
# bootprobe and bootprobe-collector, from debian/ by dpkg-buildpackage -b in a
# copy of the tree (tools/debian/mkdeb.sh), into build/deb/.  Remade when a
# program, a man page or a file that goes into a package changes (the tree's
# own build of the programs stands for their sources).  The unit tests
# debian/rules runs are make check-unit's: nocheck here, where a failing one
# would stop the images a check boots instead of counting as one failure.
DEB_DIR     := $(BUILD)/deb
DEB_VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
DEBIAN_DEB  := $(DEB_DIR)/bootprobe-collector_$(DEB_VERSION)_amd64.deb
DEB_INPUTS  := $(BIN)/bootprobe $(PROBETRACE) $(MAN_PAGES) tools/gather/bootprobe-gather \
	       $(wildcard debian/* debian/source/*) \
	       $(wildcard tools/debian/collector/* tools/debian/collector/*/* tools/completion/*) README.md $(wildcard docs/*.md) \
	       tools/debian/mkdeb.sh Makefile tools/probetrace/probetrace.mk
$(DEBIAN_DEB): $(DEB_INPUTS) | $(DEPS)/build $(DEPS)/package
	$(call msg,DEB,$(DEB_DIR))
	$(Q)DEB_BUILD_OPTIONS="nocheck $(DEB_BUILD_OPTIONS)" tools/debian/mkdeb.sh $(DEB_DIR) >/dev/null
deb: $(DEBIAN_DEB)
.PHONY: deb

# ---- the real-world guests: Debian's kernels, initramfs-tools or dracut, systemd ---
# The collector's package (above), installed into a root of each Debian
# release made by mmdebstrap (tools/debian/releases.sh); tools/debian/ caches
# the roots and images outside the repo, each under its own key of the
# release's package versions and the collector package's bytes.  Debian 12's
# image is build/debian, every other release's build/RELEASE; each has its
# own boot-args, made from its kernel's BTF.
DEBIAN     := $(BUILD)/debian
# The images make builds and make check boots (sid changes daily: by hand,
# make image-debian-sid).  debian-13-dracut is Debian 13 with its initrd
# made by dracut (tests/guest/54-debian-dracut.sh): a base root of its own
# (dracut replaces initramfs-tools); from a cold cache 54 s for the root and
# 27 s for the image here.
DEBIAN_IMAGES := debian-12 debian-13 debian-13-bpo debian-13-dracut
debian_dir = $(if $(filter debian debian-12,$(1)),$(DEBIAN),$(BUILD)/$(1))

# The script decides from its cache key whether anything is rebuilt.
$(addprefix image-,$(DEBIAN_IMAGES) debian-sid): image-%: $(DEBIAN_DEB) $(PROBETRACE) | $(DEPS)/image
	$(Q)tools/debian/mkimage.sh $* $(call debian_dir,$*) $(DEBIAN_DEB) $(PROBETRACE)
debian-image: $(addprefix image-,$(DEBIAN_IMAGES))
.PHONY: $(addprefix image-,$(DEBIAN_IMAGES) debian-sid)

# ---- fuzzing (libFuzzer, clang) ------------------------------------------------
# The readers of untrusted input (a results folder travels between machines):
# the event stream and console, boot.json, manifest.json, scenario files.
# Every host source is built once, instrumented, and linked into each target.
FUZZ_SRCS := $(COMMON_SRCS) $(RUNNER_SRCS) $(PT_STREAM_SRCS)
FUZZ_OBJS := $(patsubst tools/%.c,$(OBJ)/fuzz/%.o,$(FUZZ_SRCS))
FUZZ_SECONDS ?= 30
FUZZ_BINS := $(BIN)/fuzz/fuzz_events $(BIN)/fuzz/fuzz_bootjson $(BIN)/fuzz/fuzz_manifest \
	     $(BIN)/fuzz/fuzz_scenario $(BIN)/fuzz/fuzz_frames $(BIN)/fuzz/fuzz_console
# Any UBSan report is a crash libFuzzer keeps, not a line in its log.
FUZZ_CFLAGS := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	       -Itools/common $(BP_INCLUDES) -Ibpf

$(OBJ)/fuzz/%.o: tools/%.c | $(DEPS)/build $(DEPS)/test
	$(call msg,FUZZ-CC,$<)
	$(Q)mkdir -p $(@D) && clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(BIN)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS) | $(DEPS)/build $(DEPS)/test
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D) && clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ $(JSON_LIBS) -lm

# Each target runs FUZZ_SECONDS from the seeds in tests/data (corpus kept in build/).
fuzz: $(FUZZ_BINS)
	$(Q)tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BINS)
.PHONY: fuzz

# ---- tests -----------------------------------------------------------------
TEST_SRCS := $(wildcard tests/unit/*.c)
TEST_BINS := $(patsubst tests/unit/%.c,$(BIN)/tests/%,$(TEST_SRCS))

$(OBJ)/tests/%.o: tests/unit/%.c | $(DEPS)/build
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D) && $(CC) $(CPPFLAGS) $(BP_INCLUDES) -Ibpf $(ALL_CFLAGS) -c $< -o $@

# The collector's attachments in binary output (its own objects, no BPF).
$(BIN)/tests/test_attach: $(PT_OBJ)/attach.o $(PT_OBJ)/output.o
$(BIN)/tests/%: $(OBJ)/tests/%.o $(RUNNER_OBJS) $(COMMON_OBJS) $(PT_STREAM_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) $^ -o $@ $(JSON_LIBS) -lm

# What make check boots and runs, with every package set (tests/check.sh
# makes it, timed, then runs the stages).
check-build: all guests build-chroot $(TEST_BINS) $(FUZZ_BINS) | $(addprefix $(DEPS)/,$(DEPS_SETS))
check:
	$(Q)tests/check.sh

# With SANITIZE=1: the unit tests built in build/sanitize, run from there.
check-unit: $(TEST_BINS)
	$(Q)BUILD=$(BUILD) tests/run.sh unit

# The host tool and the unit tests, nothing for the guest (the sanitize stage
# builds these with SANITIZE=1).
host-tools: $(BIN)/bootprobe $(TEST_BINS)

# Unit and host tests on tools built with ASan and UBSan (tests/sanitize.sh).
check-sanitize:
	$(Q)tests/run.sh sanitize

check-style: | $(DEPS)/test
	$(Q)tests/run.sh style

# A sharded run on a local single-node Slurm cluster and on GNU parallel.
check-fleet: $(BIN)/bootprobe guest | $(DEPS)/run $(DEPS)/fleet
	$(Q)tests/run.sh fleet

# A Debian 12 root with only the build packages, cached, for
# tests/host/makefile-chroot.sh (which skips without it): mmdebstrap, 2-4 min.
build-chroot: | $(DEPS)/image
	$(Q)tools/build-chroot.sh >/dev/null
.PHONY: build-chroot

# Each patch of the series must build on its own.
check-patches: $(GUEST)/build-hash
	$(Q)tools/check-patches.sh

# ---- benchmark ---------------------------------------------------------------
# The default matrix (about ten minutes under TCG), the same at 2014's real
# times (30 s udev timeout, a minute of probe; about an hour, not in CI), and
# the real drivers (mptsas on QEMU's SAS1068, virtio-scsi with 32 disks).
bench: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/run.sh bench/scenarios/default.conf

bench-2014: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/run.sh bench/scenarios/default.conf 2014 -- --time-scale 1 --boots 1 --timeout 1200

bench-debian: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/run.sh bench/scenarios/debian.conf

# The same q35 machine with Debian 12's 6.1, Debian 13's 6.12 and the
# trixie-backports 7.x: which drivers got slower with the new kernel.
bench-kernels: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/run.sh bench/scenarios/kernels.conf

# The what-if model's calibration (docs/whatif.md): the lab's fleet and the
# Debian images sync, driver-async and module-async, 20 boots a mode; the
# error kept in results/whatif-calibration.csv when the CIs are narrow enough.
bench-async: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/async-calibration.sh both

# The collector's start-up and overhead on each kernel: every Debian image N
# boots with and N without it (bench/collector-kernels.sh; BOOTS=N, default 5).
bench-collector: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/collector-kernels.sh $(or $(BOOTS),5)

bench-real: $(BIN)/bootprobe guests | $(DEPS)/run
	$(Q)bench/run.sh bench/scenarios/mptsas.conf
	$(Q)bench/run.sh bench/scenarios/virtio-scsi.conf

clean:
	rm -rf $(BUILD)

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

