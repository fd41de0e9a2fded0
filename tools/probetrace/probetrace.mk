# probetrace: the in-guest collector (CO-RE BPF + libbpf skeleton), a static
# binary for the initramfs.  Included by the top-level Makefile, which
# provides BUILD, GUEST, BIN, OBJ, Q, msg, DEPS_STAMP, CC, ALL_CFLAGS, CPPFLAGS.
#
#   vmlinux.h   from the BTF of the kernel we boot ($(GUEST)/vmlinux)
#   .bpf.o      clang -target bpf, CO-RE relocations against that BTF
#   .skel.h     bpftool gen skeleton, included by probetrace.c
#
# BPF_CLANG, BPFTOOL and LLVM_STRIP may be overridden on the command line.

BPF_CLANG  ?= clang
BPFTOOL    ?= bpftool
LLVM_STRIP ?= llvm-strip

PROBETRACE    := $(BIN)/probetrace
PT_OBJ        := $(OBJ)/probetrace
PT_VMLINUX_H  := $(BUILD)/vmlinux.h
PT_BPF_OBJ    := $(PT_OBJ)/probetrace.bpf.o
PT_SKEL       := $(PT_OBJ)/probetrace.skel.h
PT_SRCS       := $(wildcard tools/probetrace/*.c)
PT_OBJS       := $(patsubst tools/probetrace/%.c,$(PT_OBJ)/%.o,$(PT_SRCS))
# The event stream's one reader and the JSON helpers, shared with bootprobe.
PT_COMMON_OBJS := $(patsubst tools/%.c,$(OBJ)/%.o,$(addprefix tools/common/,\
		  events.c jsonio.c util.c traceline.c kmsg.c fsat.c text.c))
PT_BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall \
		 -Wno-unused-function -I$(BUILD) -Ibpf
PT_LIBS       := -lbpf -lelf -lz -ljson-c
# The binary stream's decoder and the record formatter it shares with the
# collector: linked into bootprobe too (bootprobe run decodes the port).
PT_STREAM_SRCS := $(addprefix tools/probetrace/,frame.c record.c ksyms.c)
PT_STREAM_OBJS := $(patsubst tools/probetrace/%.c,$(PT_OBJ)/%.o,$(PT_STREAM_SRCS))

.PHONY: probetrace
probetrace: $(PROBETRACE)

# The guest kernel's types; build-hash changes only with a new kernel build.
$(PT_VMLINUX_H): $(GUEST)/build-hash | $(DEPS_STAMP)
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(@D) && \
		$(BPFTOOL) btf dump file $(GUEST)/vmlinux format c >$@.tmp && \
		mv $@.tmp $@

# Every bpf/NAME.bpf.c (probetrace, and the attachcost benchmark in the
# guest): -MMD, so that a change in a shared header or vmlinux.h rebuilds it.
$(PT_OBJ)/%.bpf.o: bpf/%.bpf.c $(PT_VMLINUX_H) | $(DEPS_STAMP)
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
$(PT_OBJ)/%.o: tools/probetrace/%.c | $(DEPS_STAMP)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D) && \
		$(CC) $(CPPFLAGS) -Ibpf -I$(PT_OBJ) $(ALL_CFLAGS) -c $< -o $@

# Static: the initramfs has no shared libbpf, libelf or json-c.
$(PROBETRACE): $(PT_OBJS) $(PT_COMMON_OBJS) | $(DEPS_STAMP)
	$(call msg,LINK,$@)
	$(Q)test -e "$$($(CC) -print-file-name=libjson-c.a)" || \
		{ echo "probetrace: libjson-c.a not found (install libjson-c-dev)" >&2; exit 1; }
	$(Q)mkdir -p $(@D) && $(CC) $(ALL_CFLAGS) -static $(PT_OBJS) $(PT_COMMON_OBJS) -o $@ $(PT_LIBS)
