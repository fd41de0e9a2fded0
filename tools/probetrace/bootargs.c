// SPDX-License-Identifier: GPL-2.0
/*
 * probetrace --boot-args: the kernel arguments of the boot-time trace,
 * derived from one kernel's BTF.
 *
 * A kprobe event fetches a string with "+OFF(EXPR):string", the string at
 * EXPR + OFF; "+OFF(EXPR)" alone is the word at EXPR + OFF.  So a char
 * array member at OFF of the struct EXPR points to is "+OFF(EXPR)", a
 * char pointer member "+0(+OFF(EXPR))", and a struct pointer member, the
 * base of the next step, "+OFF(EXPR)".  Which of these a member is, where
 * it is, and which register carries which argument are read from BTF: a
 * member moved between kernels (net_device.name: +0 on 6.1, +304 on
 * 6.12.118, +288 on 7.3.4) gives that kernel its own arguments.
 *
 * The kprobes (what each records is described in boottrace.h):
 *   probe_entry/return   really_probe(dev, drv): driver, device, owner
 *   [f]init_module[_ret] the module-load syscalls (x86-64 wrappers)
 *   async_entry/return   async_run_entry_fn(): a probe runs async
 *   disk_add/added       device_add_disk(parent, disk): the disk's name,
 *                        its parent's and grandparent's names and drivers
 *   netdev_add/added     netdev_register_kobject(ndev) inside
 *                        register_netdevice(): the interface's name
 * A kernel without a function (no block layer, no networking) gets the
 * arguments without its events, and a note on stderr says so.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bootargs.h"

#define EXPR_MAX 160

struct bootargs {
	struct btf *btf;
	const char *path;
	char *err;
	size_t errlen;
};

static int fail(struct bootargs *ba, int errnum, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(ba->err, ba->errlen, "%s: ", ba->path);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ba->errlen)
		vsnprintf(ba->err + n, ba->errlen - n, fmt, ap);
	va_end(ap);
	return -errnum;
}

/* @id with typedefs and qualifiers (const, volatile) stripped. */
static const struct btf_type *resolved(const struct btf *btf, __u32 id, __u32 *out_id)
{
	int rid = btf__resolve_type(btf, id);

	if (rid < 0)
		return NULL;
	if (out_id)
		*out_id = rid;
	return btf__type_by_id(btf, rid);
}

static bool is_char(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = resolved(btf, id, NULL);

	return t && btf_is_int(t) && t->size == 1;
}

/*
 * The member @name of the struct or union @t, searched through anonymous
 * members (net_device's groups, unions): its byte offset from @t's start
 * and its type.  False if absent or a bit field.
 */
static bool member_find(const struct btf *btf, const struct btf_type *t,
			const char *name, long *off, __u32 *type_id)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		__u32 bits = btf_member_bit_offset(t, i);
		const struct btf_type *mt;

		if (btf_member_bitfield_size(t, i) || bits % 8)
			continue;
		if (mname && *mname) {
			if (strcmp(mname, name))
				continue;
			*off = bits / 8;
			*type_id = m->type;
			return true;
		}
		mt = resolved(btf, m->type, NULL);
		if (mt && btf_is_composite(mt) &&
		    member_find(btf, mt, name, off, type_id)) {
			*off += bits / 8;
			return true;
		}
	}
	return false;
}

/* The struct named @sname, or NULL. */
static const struct btf_type *struct_find(const struct bootargs *ba, const char *sname)
{
	int id = btf__find_by_name_kind(ba->btf, sname, BTF_KIND_STRUCT);

	return id < 0 ? NULL : btf__type_by_id(ba->btf, id);
}

/*
 * "a.b.c" in struct @sname: the offset of the last member from the start
 * of the struct (members before it are embedded, not pointers) and its
 * type.  -ENOENT with a message naming what is missing.
 */
static int field_find(struct bootargs *ba, const char *sname, const char *path,
		      long *off, __u32 *type_id)
{
	const struct btf_type *t = struct_find(ba, sname);
	char part[64];
	const char *p = path;
	long o;

	if (!t)
		return fail(ba, ENOENT, "no struct %s in its BTF", sname);
	*off = 0;
	for (;;) {
		size_t n = strcspn(p, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		if (!member_find(ba->btf, t, part, &o, type_id))
			return fail(ba, ENOENT, "struct %s has no member %s", sname, path);
		*off += o;
		if (!p[n])
			return 0;
		p += n + 1;
		t = resolved(ba->btf, *type_id, NULL);
		if (!t || !btf_is_composite(t))
			return fail(ba, EINVAL, "struct %s: %.*s is not a struct", sname,
				    (int)(p - path - 1), path);
	}
}

/* "+OFF(EXPR)" into @out. */
static void deref(char *out, const char *expr, long off)
{
	char tmp[EXPR_MAX];

	snprintf(tmp, sizeof(tmp), "+%ld(%s)", off, expr);
	snprintf(out, EXPR_MAX, "%s", tmp);
}

/*
 * @expr points to a struct @sname; *@out = the fetch of its string member
 * @path (a char array or a char pointer), or of the struct pointer
 * member @path when @want_ptr.
 */
static int fetch(struct bootargs *ba, const char *expr, const char *sname,
		 const char *path, bool want_ptr, char *out)
{
	const struct btf_type *t;
	__u32 id;
	long off = 0;
	int err = field_find(ba, sname, path, &off, &id);

	if (err)
		return err;
	t = resolved(ba->btf, id, NULL);
	if (!want_ptr && t && btf_is_array(t) && is_char(ba->btf, btf_array(t)->type)) {
		deref(out, expr, off);
		return 0;
	}
	if (t && btf_is_ptr(t) && want_ptr == !is_char(ba->btf, t->type)) {
		deref(out, expr, off);
		if (!want_ptr)
			deref(out, out, 0);
		return 0;
	}
	return fail(ba, EINVAL, "struct %s: %s is not a %s", sname, path,
		    want_ptr ? "pointer to a struct" : "string (char array or pointer)");
}

/* A struct device's name: its kobject's. */
static int dev_name(struct bootargs *ba, const char *dev, char *out)
{
	return fetch(ba, dev, "device", "kobj.name", false, out);
}

/* The name of the driver bound to device @dev. */
static int dev_driver_name(struct bootargs *ba, const char *dev, char *out)
{
	char drv[EXPR_MAX];
	int err = fetch(ba, dev, "device", "driver", true, drv);

	return err ?: fetch(ba, drv, "device_driver", "name", false, out);
}

/* x86-64's argument registers, in order. */
static const char *const arg_regs[] = { "%di", "%si", "%dx", "%cx", "%r8", "%r9" };

/* True if BTF has the function @fn (a probe-able, not only inlined, one). */
static bool has_func(const struct bootargs *ba, const char *fn)
{
	return btf__find_by_name_kind(ba->btf, fn, BTF_KIND_FUNC) >= 0;
}

/*
 * The register of @fn's argument that points to a struct @sname (found by
 * its type, not its name, which kernels rename).
 */
static int arg_reg(struct bootargs *ba, const char *fn, const char *sname, const char **reg)
{
	int id = btf__find_by_name_kind(ba->btf, fn, BTF_KIND_FUNC);
	const struct btf_type *proto, *pt, *st;
	const struct btf_param *p;
	int i;

	if (id < 0)
		return fail(ba, ENOENT, "no function %s in its BTF", fn);
	proto = btf__type_by_id(ba->btf, btf__type_by_id(ba->btf, id)->type);
	if (!proto || !btf_is_func_proto(proto))
		return fail(ba, EINVAL, "%s: no prototype in its BTF", fn);
	p = btf_params(proto);
	for (i = 0; i < btf_vlen(proto) && i < (int)(sizeof(arg_regs) / sizeof(*arg_regs));
	     i++, p++) {
		pt = resolved(ba->btf, p->type, NULL);
		if (!pt || !btf_is_ptr(pt))
			continue;
		st = resolved(ba->btf, pt->type, NULL);
		if (st && btf_is_struct(st) &&
		    !strcmp(btf__name_by_offset(ba->btf, st->name_off), sname)) {
			*reg = arg_regs[i];
			return 0;
		}
	}
	return fail(ba, ENOENT, "%s has no struct %s * argument in a register", fn, sname);
}

static void note(const struct bootargs *ba, const char *fn, const char *what)
{
	fprintf(stderr, "probetrace: %s: no function %s: %s are not traced before the collector\n",
		ba->path, fn, what);
}

/* really_probe(): driver, device and the driver's module at entry. */
static int probe_events(struct bootargs *ba, FILE *out)
{
	char drv[EXPR_MAX], dev[EXPR_MAX], owner[EXPR_MAX], owner_name[EXPR_MAX];
	const char *dreg, *vreg;
	int err = arg_reg(ba, "really_probe", "device", &vreg) ?:
		  arg_reg(ba, "really_probe", "device_driver", &dreg) ?:
		  fetch(ba, dreg, "device_driver", "name", false, drv) ?:
		  dev_name(ba, vreg, dev) ?:
		  fetch(ba, dreg, "device_driver", "owner", true, owner) ?:
		  fetch(ba, owner, "module", "name", false, owner_name);

	if (err)
		return err;
	fprintf(out, "p:bootprobe/probe_entry,really_probe,drv=%s:string,dev=%s:string,"
		"owner=%s:string;r64:bootprobe/probe_return,really_probe,ret=$retval:s32;",
		drv, dev, owner_name);
	return 0;
}

/* The module-load syscalls and async functions, by name only. */
static int plain_events(struct bootargs *ba, FILE *out)
{
	static const struct { const char *fn, *event; } plain[] = {
		{ "__x64_sys_finit_module", "finit_module" },
		{ "__x64_sys_init_module", "init_module" },
		{ "async_run_entry_fn", "async" },
	};
	size_t i;

	for (i = 0; i < sizeof(plain) / sizeof(*plain); i++) {
		const char *fn = plain[i].fn, *ev = plain[i].event;
		bool async = !strcmp(ev, "async");

		if (!has_func(ba, fn))
			return fail(ba, ENOENT, "no function %s in its BTF", fn);
		fprintf(out, "p:bootprobe/%s%s,%s;r64:bootprobe/%s%s,%s%s;", ev,
			async ? "_entry" : "", fn, ev, async ? "_return" : "_ret", fn,
			async ? "" : ",ret=$retval:s64");
	}
	return 0;
}

/*
 * device_add_disk(): the disk, its parent and grandparent with drivers.
 * A string fetch that faults on a NULL pointer on the way (a parent bound
 * to no driver) shows the next string's bytes on 6.12 and 7.x, not
 * "(fault)": the pointers themselves (drvp0, up, drvp1, read as numbers,
 * which a fault cannot shift) tell the reader which strings are real.
 */
static int disk_events(struct bootargs *ba, FILE *out)
{
	char name[EXPR_MAX], dev0[EXPR_MAX], drv0[EXPR_MAX], up[EXPR_MAX];
	char dev1[EXPR_MAX], drv1[EXPR_MAX], drvp0[EXPR_MAX], drvp1[EXPR_MAX];
	const char *preg, *dreg;
	int err;

	if (!has_func(ba, "device_add_disk")) {
		note(ba, "device_add_disk", "disks");
		return 0;
	}
	err = arg_reg(ba, "device_add_disk", "device", &preg) ?:
	      arg_reg(ba, "device_add_disk", "gendisk", &dreg) ?:
	      fetch(ba, dreg, "gendisk", "disk_name", false, name) ?:
	      dev_name(ba, preg, dev0) ?: dev_driver_name(ba, preg, drv0) ?:
	      fetch(ba, preg, "device", "driver", true, drvp0) ?:
	      fetch(ba, preg, "device", "parent", true, up) ?:
	      fetch(ba, up, "device", "driver", true, drvp1) ?:
	      dev_name(ba, up, dev1) ?: dev_driver_name(ba, up, drv1);
	if (err)
		return err;
	fprintf(out, "p:bootprobe/disk_add,device_add_disk,name=%s:string,"
		"drvp0=%s:x64,up=%s:x64,drvp1=%s:x64,"
		"dev0=%s:string,drv0=%s:string,dev1=%s:string,drv1=%s:string;"
		"r64:bootprobe/disk_added,device_add_disk,ret=$retval:s32;",
		name, drvp0, up, drvp1, dev0, drv0, dev1, drv1);
	return 0;
}

/*
 * An interface's name once register_netdevice() made one of "eth%d": at
 * netdev_register_kobject(), paired with register_netdevice()'s return.
 */
static int netdev_events(struct bootargs *ba, FILE *out)
{
	char name[EXPR_MAX];
	const char *reg;
	int err;

	if (!has_func(ba, "netdev_register_kobject") || !has_func(ba, "register_netdevice")) {
		note(ba, "netdev_register_kobject or register_netdevice", "network interfaces");
		return 0;
	}
	err = arg_reg(ba, "netdev_register_kobject", "net_device", &reg) ?:
	      fetch(ba, reg, "net_device", "name", false, name);
	if (err)
		return err;
	fprintf(out, "p:bootprobe/netdev_add,netdev_register_kobject,name=%s:string;"
		"r64:bootprobe/netdev_added,register_netdevice,ret=$retval:s32;", name);
	return 0;
}

/* The kprobe_event= list into @buf; its last ';' is dropped by the caller. */
static int kprobe_events(struct bootargs *ba, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	int err;

	if (!f)
		return fail(ba, errno, "fmemopen: %s", strerror(errno));
	err = probe_events(ba, f) ?: plain_events(ba, f) ?: disk_events(ba, f) ?:
	      netdev_events(ba, f);
	if (fclose(f) && !err)
		err = fail(ba, ENOSPC, "the kprobe events do not fit %zu bytes", len);
	return err;
}

unsigned long bootargs__trace_buf(long requested, long cpus)
{
	unsigned long per_cpu = BOOTARGS_TRACE_BUF;

	if (requested >= 0)
		return requested;
	if (cpus > 0 && per_cpu * cpus > BOOTARGS_TRACE_BUF_ALL)
		/* whole KiB: the kernel's pages round it up again */
		per_cpu = BOOTARGS_TRACE_BUF_ALL / cpus / 1024 * 1024;
	return per_cpu;
}

int bootargs__parse_size(const char *arg, long *bytes)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *arg == '-')
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		v <<= 10, end++;
	else if (*end == 'M' || *end == 'm')
		v <<= 20, end++;
	if (*end || v > (1UL << 30))
		return -EINVAL;
	*bytes = v;
	return 0;
}

/* " trace_buf_size=8M" (or K, or bytes) into @buf; "" for 0. */
static void trace_buf_arg(unsigned long bytes, char *buf, size_t len)
{
	if (!bytes)
		buf[0] = '\0';
	else if (!(bytes & ((1UL << 20) - 1)))
		snprintf(buf, len, " trace_buf_size=%luM", bytes >> 20);
	else if (!(bytes & 1023))
		snprintf(buf, len, " trace_buf_size=%luK", bytes >> 10);
	else
		snprintf(buf, len, " trace_buf_size=%lu", bytes);
}

int bootargs__kprobes(const struct btf *btf, const char *label, char *buf, size_t len,
		      char *err, size_t errlen)
{
	struct bootargs ba = { .btf = (struct btf *)btf, .path = label, .err = err,
			       .errlen = errlen };
	size_t n;
	int ret = kprobe_events(&ba, buf, len);

	if (ret)
		return ret;
	n = strlen(buf);
	if (n && buf[n - 1] == ';')
		buf[n - 1] = '\0';
	return 0;
}

int bootargs__print(FILE *out, const char *btf_path, unsigned long trace_buf,
		    char *err, size_t errlen)
{
	char tbuf[40];
	struct bootargs ba = { .path = btf_path, .err = err, .errlen = errlen };
	char kprobes[BOOTARGS_KPROBES_MAX];
	int ret;

	ba.btf = btf__parse(btf_path, NULL);
	if (!ba.btf) {
		ret = -errno;
		return fail(&ba, -ret, "no BTF read (%s): a raw BTF file or an ELF with .BTF "
			    "(a vmlinux, not a compressed vmlinuz: tools/debian/vmlinux.sh "
			    "extracts it)", strerror(-ret));
	}
	ret = bootargs__kprobes(ba.btf, btf_path, kprobes, sizeof(kprobes), err, errlen);
	btf__free(ba.btf);
	if (ret)
		return ret;
	trace_buf_arg(trace_buf, tbuf, sizeof(tbuf));
	fprintf(out, "trace_event=initcall:initcall_start,initcall:initcall_finish,"
		"kthread:kthread_create_start,kthread:kthread_create_end,"
		"signal:signal_generate,module:module_load kprobe_event=%s trace_clock=boot%s\n",
		kprobes, tbuf);
	return 0;
}

/* ---- the boot-time kprobes against this kernel's ---------------------------- */

#define KP_MAX_ARGS 16

/* One kprobe event as tracefs lists it: "p:GROUP/EVENT SYMBOL NAME=FETCH ...". */
struct kp_event {
	char group[32];
	char event[32];
	char symbol[64];
	int nargs;
	char args[KP_MAX_ARGS][EXPR_MAX];
};

/*
 * @line, one definition in tracefs's form, into @e; false if it is not
 * one (a blank or "-:" line).  The kernel makes a kprobe_event= entry
 * into this form by turning its commas into blanks
 * (setup_boot_kprobe_events()), so both sides are read here.
 */
static bool kp_event_parse(const char *line, struct kp_event *e)
{
	char copy[BOOTARGS_KPROBES_MAX], *save, *tok, *slash, *colon;

	snprintf(copy, sizeof(copy), "%s", line);
	memset(e, 0, sizeof(*e));
	tok = strtok_r(copy, " \t\n", &save);
	if (!tok || (tok[0] != 'p' && tok[0] != 'r') || !(colon = strchr(tok, ':')) ||
	    !(slash = strchr(colon, '/')))
		return false;
	snprintf(e->group, sizeof(e->group), "%.*s", (int)(slash - colon - 1), colon + 1);
	snprintf(e->event, sizeof(e->event), "%s", slash + 1);
	tok = strtok_r(NULL, " \t\n", &save);
	snprintf(e->symbol, sizeof(e->symbol), "%s", tok ? tok : "");
	while ((tok = strtok_r(NULL, " \t\n", &save)) && e->nargs < KP_MAX_ARGS)
		snprintf(e->args[e->nargs++], EXPR_MAX, "%s", tok);
	return true;
}

/* This kernel's definition of @event in the kprobe_event= list @expected. */
static bool kp_expected(const char *expected, const char *event, struct kp_event *e)
{
	char entry[BOOTARGS_KPROBES_MAX];
	const char *p = expected;

	while (*p) {
		size_t n = strcspn(p, ";");
		char *c;

		snprintf(entry, sizeof(entry), "%.*s", (int)n, p);
		for (c = entry; *c; c++)
			if (*c == ',')
				*c = ' ';
		if (kp_event_parse(entry, e) && !strcmp(e->group, BOOTARGS_GROUP) &&
		    !strcmp(e->event, event))
			return true;
		p += n + !!p[n];
	}
	return false;
}

/* Why @got, defined at boot, is not @want, this kernel's: "" if it is. */
static void kp_differ(const struct kp_event *got, const struct kp_event *want,
		      char *why, size_t len)
{
	int i;

	why[0] = '\0';
	if (strcmp(got->symbol, want->symbol)) {
		snprintf(why, len, "%s: probes %s on the command line, %s for this kernel",
			 got->event, got->symbol, want->symbol);
		return;
	}
	for (i = 0; i < got->nargs || i < want->nargs; i++) {
		const char *g = i < got->nargs ? got->args[i] : "no argument";
		const char *w = i < want->nargs ? want->args[i] : "no argument";

		if (strcmp(g, w)) {
			snprintf(why, len, "%s: %s on the command line, %s for this kernel",
				 got->event, g, w);
			return;
		}
	}
}

void bootargs__compare(const char *defined, const char *expected,
		       struct bootargs_check *chk)
{
	char line[BOOTARGS_KPROBES_MAX];
	struct kp_event got, want;
	const char *p = defined;

	memset(chk, 0, sizeof(*chk));
	while (*p) {
		size_t n = strcspn(p, "\n");
		struct bootargs_mismatch *m;
		char why[sizeof(m->why)];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + !!p[n];
		if (!kp_event_parse(line, &got) || strcmp(got.group, BOOTARGS_GROUP))
			continue;
		chk->compared++;
		if (!kp_expected(expected, got.event, &want))
			snprintf(why, sizeof(why), "%s: on the command line, not made for this "
				 "kernel", got.event);
		else
			kp_differ(&got, &want, why, sizeof(why));
		if (!why[0] || chk->nr_other == BOOTARGS_MAX_EVENTS)
			continue;
		m = &chk->other[chk->nr_other++];
		snprintf(m->event, sizeof(m->event), "%s", got.event);
		snprintf(m->why, sizeof(m->why), "%s", why);
	}
}
