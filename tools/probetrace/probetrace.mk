# probetrace: the in-guest collector (CO-RE BPF + libbpf skeleton), a static
# binary for the lab's initramfs (PT_STATIC=0: dynamic, as debian/ ships it).
# Included by the top-level Makefile, which provides BUILD, GUEST, BIN, OBJ,
# Q, msg, DEPS, CC, ALL_CFLAGS, CPPFLAGS.
#
#   vmlinux.h   in the tree, bpf/vmlinux/ARCH/vmlinux.h, dumped from the lab
#               kernel's BTF ($(GUEST)/vmlinux), as bcc's libbpf-tools keep
#               one per architecture: CO-RE relocates against the running
#               kernel's BTF, so building needs no kernel.  The lab kernel's
#               because it is the kernel the collector is made for, and it
#               has the types of its own kthread tracepoints
#               (kernel-patches/0003; the tp_btf programs take their
#               arguments by BPF_PROG and build without them today).
#               make vmlinux-h-check dumps it again from the lab kernel and
#               compares; make vmlinux-h-update rewrites it.
#   .bpf.o      clang -target bpf, CO-RE relocations against that BTF
#   .skel.h     bpftool gen skeleton, included by probetrace.c
#
# BPF_CLANG, BPFTOOL and LLVM_STRIP may be overridden on the command line.

BPF_CLANG  ?= clang
BPFTOOL    ?= bpftool
LLVM_STRIP ?= llvm-strip

PROBETRACE    := $(BIN)/probetrace
PT_OBJ        := $(OBJ)/probetrace
PT_ARCH       := x86_64
PT_VMLINUX_H  := bpf/vmlinux/$(PT_ARCH)/vmlinux.h
PT_BPF_OBJ    := $(PT_OBJ)/probetrace.bpf.o
PT_SKEL       := $(PT_OBJ)/probetrace.skel.h
PT_SRCS       := $(wildcard tools/probetrace/*.c)
PT_OBJS       := $(patsubst tools/probetrace/%.c,$(PT_OBJ)/%.o,$(PT_SRCS))
# The event stream's one reader and the JSON helpers, shared with bootprobe.
PT_COMMON_OBJS := $(patsubst tools/%.c,$(OBJ)/%.o,$(addprefix tools/common/,\
		  events.c jsonio.c util.c traceline.c kmsg.c fsat.c text.c))
# The BTF line info names the source by path: relative to the tree, so that
# the same sources give the same bytes wherever the tree is (the package's
# build, the image key).
PT_BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall \
		 -Wno-unused-function -I$(dir $(PT_VMLINUX_H)) -Ibpf -fdebug-prefix-map=$(CURDIR)=.
PT_LIBS       := -lbpf -lelf -lz -ljson-c
# The binary stream's decoder and the record formatter it shares with the
# collector: linked into bootprobe too (bootprobe run decodes the port).
PT_STREAM_SRCS := $(addprefix tools/probetrace/,frame.c record.c ksyms.c)
PT_STREAM_OBJS := $(patsubst tools/probetrace/%.c,$(PT_OBJ)/%.o,$(PT_STREAM_SRCS))

.PHONY: probetrace
probetrace: $(PROBETRACE)

# The lab kernel's types, dumped again and compared with the tree's copy
# (needs the kernel build); vmlinux-h-update replaces the copy.
PT_VMLINUX_NEW := $(BUILD)/vmlinux-$(PT_ARCH).h
$(PT_VMLINUX_NEW): $(GUEST)/build-hash | $(DEPS)/build
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(@D) && \
		$(BPFTOOL) btf dump file $(GUEST)/vmlinux format c >$@.tmp && \
		mv $@.tmp $@
.PHONY: vmlinux-h-check vmlinux-h-update
# Compared as types, not bytes: two builds of one kernel order their BTF
# differently (tools/vmlinux-h-same.sh).
vmlinux-h-check: $(PT_VMLINUX_NEW)
	$(Q)tools/vmlinux-h-same.sh $< $(PT_VMLINUX_H) || \
		{ echo "$(PT_VMLINUX_H) differs from the lab kernel's BTF (make vmlinux-h-update)" >&2; exit 1; }
	@echo "$(PT_VMLINUX_H): the lab kernel's BTF ($$(cat $(GUEST)/kernel.release))"
vmlinux-h-update: $(PT_VMLINUX_NEW)
	$(Q)tools/vmlinux-h-same.sh $< $(PT_VMLINUX_H) || \
		{ cp $< $(PT_VMLINUX_H).tmp && mv $(PT_VMLINUX_H).tmp $(PT_VMLINUX_H); }

# Every bpf/NAME.bpf.c (probetrace, and the attachcost benchmark in the
# guest): -MMD, so that a change in a shared header or vmlinux.h rebuilds it.
$(PT_OBJ)/%.bpf.o: bpf/%.bpf.c $(PT_VMLINUX_H) | $(DEPS)/build
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D) && \
		$(BPF_CLANG) $(PT_BPF_CFLAGS) -MMD -MP -MT $@ -MF $(@:.o=.d) \
			-c $< -o $@.tmp && \
		$(LLVM_STRIP) -g $@.tmp && mv $@.tmp $@

$(PT_OBJ)/%.skel.h: $(PT_OBJ)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* >$@.tmp && mv $@.tmp $@

# Only the collector's main file includes the skeleton: the others (the
# stream decoder bootprobe links among them) build without the kernel.
$(PT_OBJ)/probetrace.o: $(PT_SKEL)

# More specific than the top-level $(OBJ)/%.o rule (shorter stem): wins.
$(PT_OBJ)/%.o: tools/probetrace/%.c | $(DEPS)/build
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D) && \
		$(CC) $(CPPFLAGS) -Ibpf -I$(PT_OBJ) $(ALL_CFLAGS) -c $< -o $@

# Static for the lab's busybox initramfs, which has no shared libbpf, libelf
# or json-c.  PT_STATIC=0 links it dynamically, as the Debian package ships
# it (debian/rules): initramfs-tools' copy_exec copies its libraries.
PT_STATIC ?= 1
$(PROBETRACE): $(PT_OBJS) $(PT_COMMON_OBJS) | $(DEPS)/build
	$(call msg,LINK,$@)
ifeq ($(PT_STATIC),1)
	$(Q)test -e "$$($(CC) -print-file-name=libjson-c.a)" || \
		{ echo "probetrace: libjson-c.a not found (install libjson-c-dev)" >&2; exit 1; }
endif
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) $(LDFLAGS) $(if $(filter 1,$(PT_STATIC)),-static) \
		$(PT_OBJS) $(PT_COMMON_OBJS) -o $@ $(PT_LIBS)
