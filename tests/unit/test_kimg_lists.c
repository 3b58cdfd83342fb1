/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a kernel image offers to tracing, read from small kernels built
 * here (kimage/kimg_addr.c, kimg_mcount.c, kimg_events.c, kimg_params.c;
 * docs/kernel-image.md): the call sites between __start_mcount_loc and
 * __stop_mcount_loc, the events between __start_ftrace_events and
 * __stop_ftrace_events, each in a raw image, an ELF kernel and an arm64
 * Image whose pointers are R_AARCH64_RELATIVE relocations; then the
 * check of a config's events against them (check/check_events.c).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "check/check.h"
#include "kimage/kimg.h"

#define B 0xffffffff81000000ull	/* link address of byte 0 (raw) */
#define LEN 0x20000

/* The symbols every kernel here has (addresses relative to B). */
static const char syms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T traced_a\n"
	"ffffffff81001100 t notrace_b\n"
	"ffffffff81001200 T traced_c\n"
	"ffffffff81002000 T _etext\n"
	"ffffffff81003000 T _sinittext\n"
	"ffffffff81003010 t init_d\n"
	"ffffffff81003100 T _einittext\n"
	"ffffffff81008000 D __start_mcount_loc\n"
	"ffffffff81008018 D __stop_mcount_loc\n"
	"ffffffff81009000 D __start_ftrace_events\n"
	"ffffffff81009018 D __stop_ftrace_events\n";

struct kern {
	struct kimg k;
	int rela;		/* pointers as relocations (arm64) */
	size_t nrel, relat;	/* relocation entries so far, at byte relat */
};

static void kern_init(struct kern *m, int rela)
{
	memset(m, 0, sizeof(*m));
	m->k.data = calloc(1, LEN);
	assert_non_null(m->k.data);
	m->k.len = LEN;
	m->rela = rela;
	m->relat = 0x10000;	/* .rela.dyn of the arm64 kernel */
}

static void put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A pointer to @to at byte @at: in place, or 0 and a relocation. */
static void kern_ptr(struct kern *m, size_t at, uint64_t to)
{
	unsigned char *r;

	if (!m->rela) {
		put64(m->k.data + at, to);
		return;
	}
	r = m->k.data + m->relat + m->nrel++ * 24;
	put64(r, B + at);
	put64(r + 8, 1027);
	put64(r + 16, to);
}

/* Relocations of other words, as a kernel has thousands. */
static void kern_rela_fill(struct kern *m)
{
	while (m->rela && m->nrel < 80)
		kern_ptr(m, 0xf000 + m->nrel * 8, B + 0x1000);
}

static void kern_str(struct kern *m, size_t at, const char *s)
{
	memcpy(m->k.data + at, s, strlen(s) + 1);
}

/* The call sites: traced_a after an endbr64, traced_c at +0, init_d. */
static void kern_sites(struct kern *m)
{
	kern_ptr(m, 0x8000, B + 0x1204);
	kern_ptr(m, 0x8008, B + 0x1004);
	kern_ptr(m, 0x8010, B + 0x3014);
}

/*
 * Three events: sched:sched_switch (a tracepoint's name), syscalls:
 * sys_enter_openat (the call's own string) and sched_switch again.
 */
static void kern_events(struct kern *m)
{
	kern_ptr(m, 0x9000, B + 0xa000);
	kern_ptr(m, 0x9008, B + 0xa100);
	kern_ptr(m, 0x9010, B + 0xa000);
	/* call 1: list (2 words), class, tp */
	kern_ptr(m, 0xa010, B + 0xb000);
	kern_ptr(m, 0xa018, B + 0xb200);
	kern_ptr(m, 0xb000, B + 0xc000);	/* class.system */
	kern_ptr(m, 0xb200, B + 0xc100);	/* tp.name */
	kern_str(m, 0xc000, "sched");
	kern_str(m, 0xc100, "sched_switch");
	/* call 2 */
	kern_ptr(m, 0xa110, B + 0xb100);
	kern_ptr(m, 0xa118, B + 0xc300);
	kern_ptr(m, 0xb100, B + 0xc200);
	kern_str(m, 0xc200, "syscalls");
	kern_str(m, 0xc300, "sys_enter_openat");
}

static void kern_map(struct kern *m, struct kimg_addr *a)
{
	kern_rela_fill(m);
	assert_int_equal(kimg_addr_init(a, &m->k, B, 8, 0), 0);
	assert_int_equal(a->nrel, m->nrel);
}

static void expect_sites(struct kern *m)
{
	struct kimg_addr a;
	struct bt_error e = { 0 };
	uint64_t *s;
	size_t n;

	kern_map(m, &a);
	assert_int_equal(kimg_mcount(&m->k, &a, syms, strlen(syms), "k", &s, &n, &e), 1);
	assert_int_equal(n, 3);
	assert_true(s[0] == B + 0x1004 && s[1] == B + 0x1204 && s[2] == B + 0x3014);
	free(s);
	kimg_addr_free(&a);
}

static void test_sites_raw(void **state)
{
	struct kern m;

	(void)state;
	kern_init(&m, 0);
	kern_sites(&m);
	expect_sites(&m);
	free(m.k.data);
}

static void test_sites_rela(void **state)
{
	struct kern m;

	(void)state;
	kern_init(&m, 1);
	kern_sites(&m);
	expect_sites(&m);
	free(m.k.data);
}

/* An ELF kernel: one PT_LOAD maps B to byte 0x1000 of the file. */
static void test_sites_elf(void **state)
{
	struct kern m;
	struct kimg_addr a;
	struct bt_error e = { 0 };
	unsigned char *d;
	uint64_t *s;
	size_t n;

	(void)state;
	kern_init(&m, 0);
	d = m.k.data;
	memcpy(d, "\x7f" "ELF\x02\x01\x01", 7);
	put64(d + 32, 64);		/* e_phoff */
	d[54] = 56;			/* e_phentsize */
	d[56] = 1;			/* e_phnum */
	d[64] = 1;			/* PT_LOAD */
	put64(d + 64 + 8, 0x1000);	/* p_offset */
	put64(d + 64 + 16, B);		/* p_vaddr */
	put64(d + 64 + 32, LEN - 0x1000);
	m.k.elf_class = 64;
	put64(d + 0x1000 + 0x8000, B + 0x1004);
	put64(d + 0x1000 + 0x8008, B + 0x1204);
	put64(d + 0x1000 + 0x8010, B + 0x3014);
	assert_int_equal(kimg_addr_init(&a, &m.k, 0, 8, 0), 0);
	assert_int_equal(a.n, 1);
	assert_int_equal(kimg_addr_byte(&a, &m.k, B + 0x8000), 0x9000);
	assert_int_equal(kimg_mcount(&m.k, &a, syms, strlen(syms), "k", &s, &n, &e), 1);
	assert_int_equal(n, 3);
	free(s);
	kimg_addr_free(&a);
	free(m.k.data);
}

/*
 * No __start_mcount_loc (no CONFIG_KALLSYMS_ALL): the array is the longest
 * run of text addresses; a shorter one (an exception table) is not it.
 */
static void shape(int rela)
{
	static const char bounds[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 T traced_a\n"
		"ffffffff81002000 T _etext\n"
		"ffffffff81003000 T _sinittext\n"
		"ffffffff81003100 T _einittext\n";
	struct kern m;
	struct kimg_addr a;
	struct bt_error e = { 0 };
	uint64_t *s;
	size_t n, i;

	kern_init(&m, rela);
	for (i = 0; i < 1200; i++)	/* the call sites */
		kern_ptr(&m, 0x4000 + i * 8, B + 0x1000 + (i % 0x1000));
	for (i = 0; i < 300; i++)	/* a shorter table of text pointers */
		kern_ptr(&m, 0xa000 + i * 8, B + 0x3000 + i % 0x100);
	kern_map(&m, &a);
	assert_int_equal(kimg_mcount(&m.k, &a, bounds, strlen(bounds), "k", &s, &n, &e), 2);
	assert_int_equal(n, 1200);
	assert_true(s[0] == B + 0x1000 && s[1199] == B + 0x1000 + 1199);
	free(s);
	/* fewer than 1000 in a row: not taken for the array */
	kern_ptr(&m, 0x4000 + 600 * 8, 0);
	if (rela)	/* its relocation gone too */
		m.k.data[m.relat + 600 * 24 + 8] = 0;
	kimg_addr_free(&a);
	assert_int_equal(kimg_addr_init(&a, &m.k, B, 8, 0), 0);
	assert_int_equal(kimg_mcount(&m.k, &a, bounds, strlen(bounds), "k", &s, &n, &e), 0);
	kimg_addr_free(&a);
	free(m.k.data);
}

static void test_sites_shape(void **state)
{
	(void)state;
	shape(0);
	shape(1);
}

/* Words outside the text are no table of sites; no symbols, nothing read. */
static void test_sites_refused(void **state)
{
	static const char none[] = "ffffffff81000000 T _text\n";
	struct kern m;
	struct kimg_addr a;
	struct bt_error e = { 0 };
	uint64_t *s;
	size_t n;

	(void)state;
	kern_init(&m, 0);
	kern_ptr(&m, 0x8000, B + 0x1004);
	kern_ptr(&m, 0x8008, 0x1234);
	kern_ptr(&m, 0x8010, B + 0x9000);
	kern_map(&m, &a);
	assert_int_equal(kimg_mcount(&m.k, &a, syms, strlen(syms), "k.img", &s, &n, &e), -1);
	assert_null(s);
	assert_non_null(strstr(e.msg, "2 of the 3 words"));
	assert_non_null(strstr(e.msg, "outside the kernel's text"));
	assert_string_equal(e.file, "k.img");
	bt_error_clear(&e);
	assert_int_equal(kimg_mcount(&m.k, &a, none, strlen(none), "k.img", &s, &n, &e), 0);
	assert_int_equal(n, 0);
	kimg_addr_free(&a);
	free(m.k.data);
}

static void expect_events(struct kern *m)
{
	struct kimg_addr a;
	struct kimg_events ev;
	struct bt_error e = { 0 };

	kern_map(m, &a);
	assert_int_equal(kimg_events(&m->k, &a, syms, strlen(syms), "k", &ev, &e), 1);
	assert_int_equal(ev.n, 2);
	assert_int_equal(ev.nsystems, 2);
	assert_string_equal(ev.name[0], "sched:sched_switch");
	assert_string_equal(ev.name[1], "syscalls:sys_enter_openat");
	assert_true(kimg_events_has(&ev, "sched", "sched_switch"));
	assert_true(kimg_events_has(&ev, "syscalls", NULL));
	assert_false(kimg_events_has(&ev, "sched", "sched_wakeup"));
	assert_false(kimg_events_has(&ev, "sys", NULL));
	kimg_events_free(&ev);
	kimg_addr_free(&a);
}

static void test_events_raw(void **state)
{
	struct kern m;

	(void)state;
	kern_init(&m, 0);
	kern_events(&m);
	expect_events(&m);
	free(m.k.data);
}

static void test_events_rela(void **state)
{
	struct kern m;

	(void)state;
	kern_init(&m, 1);
	kern_events(&m);
	expect_events(&m);
	free(m.k.data);
}

/*
 * The events of @m with the symbols @text (freed, with @m's data): two
 * listed, sched_switch and sys_enter_openat; @unlisted left out; the
 * syscall table read @how (1 by its symbol, 2 by its shape).
 */
static void expect_syscalls(struct kern *m, char *text, int how, size_t unlisted)
{
	struct kimg_addr a;
	struct kimg_events ev;
	struct bt_error e = { 0 };

	kern_map(m, &a);
	assert_int_equal(kimg_events(&m->k, &a, text, strlen(text), "k", &ev, &e), 1);
	assert_int_equal(ev.syscall_table, how);
	assert_int_equal(ev.n, 2);
	assert_string_equal(ev.name[1], "syscalls:sys_enter_openat");
	assert_int_equal(ev.unlisted, unlisted);
	kimg_events_free(&ev);
	kimg_addr_free(&a);
	free(m->k.data);
	free(text);
}

/*
 * What the kernel does not list: ftrace's own entry types, and a syscall
 * event whose syscall sys_call_table does not hold (kernel-facts 114).
 */
static void test_events_unlisted(void **state)
{
	static const char more[] =
		"ffffffff81001300 T __x64_sys_openat\n"
		"ffffffff81001400 T __x64_sys_ni_syscall\n"
		"ffffffff8100d000 D sys_call_table\n"
		"ffffffff8100d010 d after_the_table\n"
		"ffffffff81009030 D __stop_ftrace_events\n";
	char *text = malloc(sizeof(syms) + sizeof(more));
	struct kern m;

	(void)state;
	assert_non_null(text);
	/* syms but for its three-entry array's end: this array has six */
	sprintf(text, "%.*s%s", (int)(strstr(syms, "ffffffff81009018 D __stop") - syms), syms, more);
	kern_init(&m, 0);
	kern_events(&m);
	/* ftrace:function, syscalls:sys_enter_stat, syscalls:sys_enter_ni_syscall */
	kern_ptr(&m, 0x9018, B + 0xa200);
	kern_ptr(&m, 0xa210, B + 0xb300);
	kern_ptr(&m, 0xa218, B + 0xc500);
	kern_ptr(&m, 0xb300, B + 0xc400);
	kern_str(&m, 0xc400, "ftrace");
	kern_str(&m, 0xc500, "function");
	kern_ptr(&m, 0x9020, B + 0xa300);
	kern_ptr(&m, 0xa310, B + 0xb100);
	kern_ptr(&m, 0xa318, B + 0xc600);
	kern_str(&m, 0xc600, "sys_enter_stat");
	kern_ptr(&m, 0x9028, B + 0xa400);
	kern_ptr(&m, 0xa410, B + 0xb100);
	kern_ptr(&m, 0xa418, B + 0xc700);
	kern_str(&m, 0xc700, "sys_enter_ni_syscall");
	kern_ptr(&m, 0xd000, B + 0x1300);	/* sys_call_table[0] */
	kern_ptr(&m, 0xd008, B + 0x1400);	/* sys_call_table[1] */
	expect_syscalls(&m, text, 1, 3);
}

/*
 * No sys_call_table symbol (arm64: data, no KALLSYMS_ALL): the table is the
 * longest run of pointers to native syscall wrappers, here 250 to
 * __arm64_sys_openat and its empty slots; a compat wrapper ends a run. So
 * sys_enter_openat is listed and sys_enter_stat is not.
 */
static void test_events_syscall_shape(void **state)
{
	static const char more[] =
		"ffffffff81001300 T __arm64_sys_openat\n"
		"ffffffff81001380 T __arm64_compat_sys_stat\n"
		"ffffffff81001400 T __arm64_sys_ni_syscall\n"
		"ffffffff81009020 D __stop_ftrace_events\n";
	char *text = malloc(sizeof(syms) + sizeof(more));
	struct kern m;
	size_t i;

	(void)state;
	assert_non_null(text);
	sprintf(text, "%.*s%s", (int)(strstr(syms, "ffffffff81009018 D __stop") - syms), syms, more);
	kern_init(&m, 1);
	kern_events(&m);
	kern_ptr(&m, 0x9018, B + 0xa400);	/* syscalls:sys_enter_stat */
	kern_ptr(&m, 0xa410, B + 0xb100);
	kern_ptr(&m, 0xa418, B + 0xc700);
	kern_str(&m, 0xc700, "sys_enter_stat");
	for (i = 0; i < 250; i++)	/* the table, at 0xd000 */
		kern_ptr(&m, 0xd000 + 8 * i, B + (i % 10 ? 0x1300 : 0x1400));
	for (i = 0; i < 150; i++)	/* a compat table: runs of 9 at most */
		kern_ptr(&m, 0xe000 + 8 * i, B + (i % 10 ? 0x1300 : 0x1380));
	expect_syscalls(&m, text, 2, 1);
}

/*
 * No __start_ftrace_events: the longest run of pointers that each lead to
 * an event (at least 100); the syscall events matched with every syscall
 * table kallsyms lists (MIPS's three, "__sys_" stripped as MIPS does).
 */
static void events_by_shape(int rela)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 T early_one\n"
		"ffffffff81001100 T early_two\n"
		"ffffffff81001300 T sys_openat\n"
		"ffffffff81001300 t __se_sys_openat\n"	/* its alias, after it: not the name */
		"ffffffff81001400 T __sys_fork\n"
		"ffffffff8100d000 T sys_call_table\n"
		"ffffffff8100d008 T sys32_call_table\n"
		"ffffffff8100d010 T after_the_tables\n";
	static const char no32[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001300 T sys_openat\n"
		"ffffffff81001300 t __se_sys_openat\n"	/* its alias, after it: not the name */
		"ffffffff81001400 T __sys_fork\n"
		"ffffffff8100d000 T sys_call_table\n"
		"ffffffff8100d008 T after_the_table\n";
	struct kern m;
	struct kimg_addr a;
	struct kimg_events ev;
	struct bt_error e = { 0 };
	size_t i;

	kern_init(&m, rela);
	kern_events(&m);	/* sched_switch at 0xa000, sys_enter_openat at 0xa100 */
	/* sys_enter_fork */
	kern_ptr(&m, 0xa210, B + 0xb100);
	kern_ptr(&m, 0xa218, B + 0xc800);
	kern_str(&m, 0xc800, "sys_enter_fork");
	for (i = 0; i < 150; i++)	/* the array, at 0xe000 */
		kern_ptr(&m, 0xe000 + i * 8, B + (i % 3 == 0 ? 0xa000 : i % 3 == 1 ? 0xa100 : 0xa200));
	kern_ptr(&m, 0xd000, B + 0x1300);	/* sys_call_table[0]: openat */
	kern_ptr(&m, 0xd008, B + 0x1400);	/* sys32_call_table[0]: fork */
	kern_map(&m, &a);
	assert_int_equal(kimg_events(&m.k, &a, text, strlen(text), "k", &ev, &e), 2);
	assert_true(ev.by_shape);
	assert_int_equal(ev.entries, 150);
	assert_int_equal(ev.n, 3);
	assert_string_equal(ev.name[1], "syscalls:sys_enter_fork");
	assert_string_equal(ev.name[2], "syscalls:sys_enter_openat");
	kimg_events_free(&ev);
	/* a kernel without sys32_call_table: fork's event is not listed */
	assert_int_equal(kimg_events(&m.k, &a, no32, strlen(no32), "k", &ev, &e), 2);
	assert_int_equal(ev.n, 2);
	kimg_events_free(&ev);
	kimg_addr_free(&a);
	free(m.k.data);
}

static void test_events_shape(void **state)
{
	(void)state;
	events_by_shape(0);
	events_by_shape(1);
}

/* Pointers that lead nowhere: refused, naming the file and the byte. */
static void test_events_refused(void **state)
{
	struct kern m;
	struct kimg_addr a;
	struct kimg_events ev;
	struct bt_error e = { 0 };

	(void)state;
	kern_init(&m, 0);
	kern_events(&m);
	kern_ptr(&m, 0x9008, 0x10);
	kern_map(&m, &a);
	assert_int_equal(kimg_events(&m.k, &a, syms, strlen(syms), "k.img", &ev, &e), -1);
	assert_non_null(strstr(e.msg, "byte 36864: 1 of the 3 entries"));
	assert_int_equal(ev.n, 0);
	kimg_addr_free(&a);
	free(m.k.data);
}

/*
 * An arm64 Image's __setup table: every pointer 0 in the file, its value
 * in a relocation (kernel-facts 106); read as the raw one is.
 */
static void params_table(int rela)
{
	struct kern m;
	struct kimg_params p;
	struct bt_error e = { 0 };
	char *text = malloc(strlen(syms) + 64 * 48), *t;
	int i;

	assert_non_null(text);
	t = text + sprintf(text, "%s", syms);
	kern_init(&m, rela);
	for (i = 0; i < 40; i++) {
		size_t at = 0x4000 + (size_t)i * 24;

		kern_ptr(&m, at, B + 0x6000 + (uint64_t)i * 16);
		kern_ptr(&m, at + 8, B + 0x1400 + (uint64_t)i * 16);
		m.k.data[at + 16] = (unsigned char)(i & 1);
		sprintf((char *)m.k.data + 0x6000 + i * 16, "param%d=", i);
		t += sprintf(t, "%016llx t setup_%d\n", (unsigned long long)(B + 0x1400 + (uint64_t)i * 16), i);
	}
	kern_rela_fill(&m);
	if (kimg_params(&m.k, text, strlen(text), "Image", &p, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(p.n, 40);
	assert_int_equal(p.early, 20);
	assert_int_equal(p.at, 0x4000);
	assert_int_equal(p.relocated, rela ? m.nrel : 0);
	assert_string_equal(p.name[0], "param0=");
	assert_string_equal(p.name[39], "param39=");
	kimg_params_free(&p);
	free(m.k.data);
	free(text);
}

static void test_params_raw_and_rela(void **state)
{
	(void)state;
	params_table(0);
	params_table(1);
}

/* ---- a config's events against the image's (check_events.c) -------- */

static void check_events(const char *conf, struct check_report *r)
{
	static char *names[] = { "sched:sched_switch", "sched:sched_wakeup", "syscalls:sys_enter_openat" };
	struct ksyms t = { 0 };
	struct source src = { 0 };
	struct plan p;
	struct bt_error e = { 0 };

	t.events.name = names;
	t.events.n = 3;
	t.events.nsystems = 2;
	t.events_known = 1;
	t.core_path = "vmlinuz-6.1";
	memset(r, 0, sizeof(*r));
	assert_int_equal(source_load_text("t.bconf", conf, strlen(conf), &src, &e), 0);
	if (plan_build(&p, &src, &e))
		fail_msg("%s", e.msg);
	check_plan_events(r, &p, &t);
	assert_false(r->oom);
	plan_free(&p);
	source_free(&src);
}

static void test_check_events(void **state)
{
	struct check_report r;

	(void)state;
	/* the kernel's forms: SYS:EVENT, SYS:*, SYS:, :EVENT, a bare event or system, !negation */
	check_events("ftrace.events = \"sched:sched_switch\", \"sched:*\", \"syscalls:\", \":sched_wakeup\", \"sched_wakeup\", \"syscalls\", \"!sched:sched_switch\"\n"
		     "ftrace.event.sched.sched_wakeup.enable\nftrace.event.syscalls.enable\nftrace.event.enable\n"
		     "ftrace.event.kprobes.myprobe.probes = vfs_read\nftrace.event.kprobes.myprobe.enable\n", &r);
	assert_int_equal(r.n, 0);
	check_report_free(&r);
	check_events("ftrace.events = \"sched:sched_swich\", \"shed:*\", \"bonding:bond_x\", \"sched_wakup\"\n"
		     "ftrace.event.sched.sched_wakup.enable\n", &r);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.nerr, 5);
	assert_string_equal(r.f[0].where, "t.bconf:1:8");
	assert_non_null(strstr(r.f[0].msg, "no event 'sched:sched_swich' is built into vmlinuz-6.1 (3 events in 2 systems)"));
	assert_non_null(strstr(r.f[0].msg, "did you mean sched_switch"));
	assert_non_null(strstr(r.f[1].msg, "event system 'shed' is not built into vmlinuz-6.1"));
	assert_non_null(strstr(r.f[1].msg, "did you mean sched"));
	assert_non_null(strstr(r.f[2].msg, "event system 'bonding'"));
	assert_non_null(strstr(r.f[2].msg, "a module's events are made when it loads"));
	assert_non_null(strstr(r.f[3].msg, "no event 'sched_wakup'"));
	assert_non_null(strstr(r.f[3].msg, "did you mean sched_wakeup"));
	assert_string_equal(r.f[4].where, "t.bconf:2:20");
	assert_non_null(strstr(r.f[4].msg, "no event 'sched:sched_wakup'"));
	check_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sites_raw),
		cmocka_unit_test(test_sites_rela),
		cmocka_unit_test(test_sites_elf),
		cmocka_unit_test(test_sites_refused),
		cmocka_unit_test(test_sites_shape),
		cmocka_unit_test(test_events_raw),
		cmocka_unit_test(test_events_rela),
		cmocka_unit_test(test_events_unlisted),
		cmocka_unit_test(test_events_syscall_shape),
		cmocka_unit_test(test_events_refused),
		cmocka_unit_test(test_events_shape),
		cmocka_unit_test(test_params_raw_and_rela),
		cmocka_unit_test(test_check_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
