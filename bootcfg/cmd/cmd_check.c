/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace check: a config against the kernel that will boot, offline
 * (symbols, traceability, modules, initcall levels, .config), and
 * --callers: who calls a function, from the same inputs.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "kimage/check_callers.h"
#include "cmd/commands.h"
#include "util/source.h"

struct check_args {
	const char *config, *vmlinux, *sysmap, *modules, *kconfig, *format;
	const char *root, *callers;
	int depth, threshold;
	char root_buf[4][4096];	/* what --root found */
};

static int check_usage(FILE *f)
{
	fputs("usage: boottrace check [--vmlinux F | --system-map F] [--modules DIR]\n"
	      "                       [--kernel-config F] [--root DIR] [-f text|json]\n"
	      "                       [--threshold N] CONFIG\n"
	      "       boottrace check --callers FUNC [--depth N] --vmlinux F "
	      "[--modules DIR]\n\n"
	      "Check a boot-trace config against the kernel that will boot, "
	      "before the reboot:\nevery function name exists (or which module "
	      "has it), is traceable (has an\nmcount/fentry site), when an init "
	      "function runs, and what the settings need\nof the .config.\n\n"
	      "  --vmlinux F        the kernel with its symbol table (build tree or "
	      "-dbg package)\n"
	      "  --system-map F     System.map or /proc/kallsyms text instead "
	      "(no traceability)\n"
	      "  --modules DIR      modules tree (*.ko, .ko.xz, .ko.zst, .ko.gz), "
	      "e.g. /lib/modules/VER\n"
	      "  --kernel-config F  the kernel's .config (/boot/config-VER)\n"
	      "  --root DIR         an unpacked linux-image package (dpkg -x): "
	      "finds the above\n"
	      "  -f text|json       output format (default text)\n"
	      "  --threshold N      warn when a wildcard matches more than N "
	      "functions (1000)\n"
	      "  --callers FUNC     print who calls FUNC, as a tree with modules\n"
	      "  --depth N          levels of callers (default 3)\n\n"
	      "Exit status: 0 no error, 1 errors found or bad input, 2 usage, "
	      "3 environment.\nSee docs/check.md and boottrace(1).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

enum { O_VMLINUX = 256, O_SYSMAP, O_MODULES, O_KCONFIG, O_ROOT, O_CALLERS,
       O_DEPTH, O_THRESH };

static int check_number(const char *s, int *v)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (!*s || *end || n < 0 || n > 1000000)
		return -1;
	*v = (int)n;
	return 0;
}

static int check_parse_args(int argc, char **argv, struct check_args *a)
{
	static const struct option opts[] = {
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "system-map", required_argument, NULL, O_SYSMAP },
		{ "modules", required_argument, NULL, O_MODULES },
		{ "kernel-config", required_argument, NULL, O_KCONFIG },
		{ "root", required_argument, NULL, O_ROOT },
		{ "callers", required_argument, NULL, O_CALLERS },
		{ "depth", required_argument, NULL, O_DEPTH },
		{ "threshold", required_argument, NULL, O_THRESH },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, bad = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case O_VMLINUX: a->vmlinux = optarg; break;
		case O_SYSMAP: a->sysmap = optarg; break;
		case O_MODULES: a->modules = optarg; break;
		case O_KCONFIG: a->kconfig = optarg; break;
		case O_ROOT: a->root = optarg; break;
		case O_CALLERS: a->callers = optarg; break;
		case O_DEPTH: bad |= check_number(optarg, &a->depth); break;
		case O_THRESH: bad |= check_number(optarg, &a->threshold); break;
		case 'f': a->format = optarg; break;
		case 'h': return check_usage(stdout) == 0 ? 1 : -1;
		default: return -1;
		}
	}
	if (optind < argc)
		a->config = argv[optind++];
	if (bad || optind < argc || (!a->config == !a->callers) ||
	    (a->vmlinux && a->sysmap) ||
	    (strcmp(a->format, "text") && strcmp(a->format, "json"))) {
		fprintf(stderr, "boottrace check: error: give one CONFIG or "
			"--callers FUNC, at most one of --vmlinux and "
			"--system-map, -f text or json, numbers for --depth "
			"and --threshold\n");
		return -1;
	}
	return 0;
}

/* The first entry of @dir starting with @prefix that is a real file. */
static int root_find(const char *dir, const char *prefix, off_t min,
		     int want_dir, char *out, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) || de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(out, cap, "%s/%s", dir, de->d_name) >= cap ||
		    stat(out, &st))
			continue;
		found = want_dir ? S_ISDIR(st.st_mode) :
			S_ISREG(st.st_mode) && st.st_size >= min;
	}
	closedir(d);
	return found;
}

/*
 * An unpacked linux-image (and -dbg) package: boot/config-VER, lib/modules/VER,
 * the -dbg vmlinux or the real System.map. Debian's image package ships an
 * 83-byte placeholder System.map: a map smaller than 1 KB is skipped.
 */
static int check_root(struct check_args *a, struct bt_error *e)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/boot", a->root);
	if (!a->kconfig && root_find(dir, "config-", 1, 0, a->root_buf[0], 4096))
		a->kconfig = a->root_buf[0];
	snprintf(dir, sizeof(dir), "%s/lib/modules", a->root);
	if (!a->modules && root_find(dir, "", 0, 1, a->root_buf[1], 4096))
		a->modules = a->root_buf[1];
	snprintf(dir, sizeof(dir), "%s/usr/lib/debug/boot", a->root);
	if (!a->vmlinux && !a->sysmap &&
	    root_find(dir, "vmlinux-", 1, 0, a->root_buf[2], 4096))
		a->vmlinux = a->root_buf[2];
	snprintf(dir, sizeof(dir), "%s/boot", a->root);
	if (!a->vmlinux && !a->sysmap &&
	    root_find(dir, "System.map-", 1024, 0, a->root_buf[3], 4096))
		a->sysmap = a->root_buf[3];
	if (!a->vmlinux && !a->sysmap)
		return bt_error_set(e, BT_EXIT_INPUT, a->root, "no vmlinux "
				    "(usr/lib/debug/boot) and no real System.map "
				    "(boot/) here: unpack the linux-image-VER-dbg "
				    "package into the same directory");
	return 0;
}

static int check_load(const struct check_args *a, struct check_tab *t,
		      struct bt_error *e)
{
	if (a->vmlinux && check_load_elf(t, a->vmlinux, -1, e))
		return -1;
	if (a->sysmap && check_load_sysmap(t, a->sysmap, e))
		return -1;
	if (a->modules && check_load_modules(t, a->modules, e))
		return -1;
	t->core_path = a->vmlinux ? a->vmlinux : a->sysmap;
	if (check_tab_index(t))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 0;
}

static int check_config_file(const struct check_args *a, const struct check_tab *t,
			     struct kcaps *k, struct bt_error *e)
{
	struct check_opts o = { a->threshold };
	struct check_report r = { 0 };
	struct source src = { 0 };
	struct plan p;
	int ret = -1;

	if (source_load(a->config, &src, e))
		return -1;
	if (plan_build(&p, &src, e)) {
		source_free(&src);
		return -1;
	}
	if (!t->n)
		check_report_add(&r, &p, BCONF_NONE, CK_NOTE, "", "no --vmlinux, "
				 "--system-map or --root: function names were "
				 "not checked");
	else
		check_plan_symbols(&r, &p, t, &o);
	check_plan_config(&r, &p, k);
	if (r.oom)
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	else if ((!strcmp(a->format, "json") ? check_report_print_json(&r, stdout) :
		  check_report_print_text(&r, stdout)))
		bt_error_set(e, BT_EXIT_ENV, NULL, "cannot write the report");
	else
		ret = r.nerr ? 1 : 0;
	check_report_free(&r);
	plan_free(&p);
	source_free(&src);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .format = "text", .depth = 3, .threshold = 1000 };
	struct check_tab t = { 0 };
	struct kcaps k;
	struct bt_error e;
	int ret;

	bt_error_clear(&e);
	memset(&k, 0, sizeof(k));
	ret = check_parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? BT_EXIT_OK : check_usage(stderr);
	ret = -1;
	if (a.root && check_root(&a, &e))
		goto out;
	if (a.kconfig && kcaps_load_config(&k, a.kconfig, &e))
		goto out;
	if (check_load(&a, &t, &e))
		goto out;
	if (a.callers)
		ret = check_callers_print(&t, a.vmlinux, a.modules, a.callers,
					  a.depth, stdout, &e);
	else
		ret = check_config_file(&a, &t, &k, &e);
out:
	check_tab_free(&t);
	if (ret < 0) {
		bt_error_print(&e, stderr);
		return e.code ? (int)e.code : BT_EXIT_INPUT;
	}
	return ret ? BT_EXIT_INPUT : BT_EXIT_OK;
}
