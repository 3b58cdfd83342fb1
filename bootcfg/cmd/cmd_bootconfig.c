// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `boottrace bootconfig` and the `bootconfig` symlink: the kernel's
 * tools/bootconfig, same flags, same standard output, same success and
 * failure. Where the kernel's tool can hurt the user we do better: -a and -d
 * replace the initrd atomically, -a refuses files that are not initrds, and
 * every error is one line naming the file and the place.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "bconf.h"
#include "cmd/commands.h"
#include "initrd/initrd.h"
#include "initrd/initrd_kind.h"

/* Enough of the file's end for the largest valid blob plus GRUB's slack. */
#define TAIL_MAX (BCONF_DATA_MAX + BCONF_FOOTER_LEN + 3)

struct bc_args {
	const char *apply;	/* -a CONF */
	const char *path;
	int del, list, force;
};

static int usage(FILE *f)
{
	fputs("Usage: bootconfig [OPTIONS] <INITRD>\n"
	      "Or     bootconfig <CONFIG>\n"
	      " Apply, delete or show boot config to initrd.\n"
	      " Options:\n"
	      "\t\t-a <config>: Apply boot config to initrd\n"
	      "\t\t-d : Delete boot config file from initrd\n"
	      "\t\t-l : list boot config in initrd or file\n"
	      "\t\t--force : treat INITRD as an initrd even if it does not\n"
	      "\t\t          start like one (cpio, compressed, ramdisk fs)\n\n"
	      " If no option is given, show the bootconfig in the given file.\n"
	      " -a and -d replace the file atomically; it is never left half-written.\n"
	      " See boottrace(1).\n", f);
	return BT_EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct bc_args *a)
{
	static const struct option longopts[] = {
		{ "apply", required_argument, NULL, 'a' },
		{ "delete", no_argument, NULL, 'd' },
		{ "list", no_argument, NULL, 'l' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "hda:l", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			a->apply = optarg;
			break;
		case 'd':
			a->del = 1;
			break;
		case 'l':
			a->list = 1;
			break;
		case 'F':
			a->force = 1;
			break;
		case 'h':
			usage(stdout);
			return BT_EXIT_OK + 100;	/* done, success */
		default:
			return usage(stderr);
		}
	}
	if ((a->apply != NULL) + a->del + a->list > 1) {
		fputs("bootconfig: error: give only one of -a, -d or -l\n", stderr);
		return usage(stderr);
	}
	if (optind >= argc) {
		fputs("bootconfig: error: no initrd is specified\n", stderr);
		return usage(stderr);
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "bootconfig: error: unexpected argument '%s'\n",
			argv[optind + 1]);
		return usage(stderr);
	}
	a->path = argv[optind];
	return BT_EXIT_OK;
}

/* ---- errors ------------------------------------------------------------ */

/* A parse error of a config file: FILE:LINE:COL: error: TEXT. */
static int config_error(const char *file, const struct bconf_error *pe)
{
	struct bt_error e;

	bt_error_set(&e, BT_EXIT_INPUT, file, "%s", pe->msg);
	if (!strcmp(pe->msg, "Out of memory"))
		e.code = BT_EXIT_ENV;
	e.line = pe->line;
	e.col = pe->col;
	bt_error_print(&e, stderr);
	return e.code;
}

static int fail(const struct bt_error *e)
{
	bt_error_print(e, stderr);
	return e->code;
}

/* ---- reading ----------------------------------------------------------- */

static int write_stdout(void *ctx, const char *s, size_t n)
{
	return fwrite(s, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

/* A footer's config text as it sits in the tail buffer. */
static const char *blob_text(const struct initrd_tail *t,
			     const struct bconf_footer *f)
{
	return (const char *)t->buf + (t->len - (t->file_size - f->data_off));
}

/*
 * The footer at the very end of @t, as tools/bootconfig looks for it.
 * Returns 1 found (and valid), 0 none, -1 with @e.
 */
static int find_footer(const char *path, const struct initrd_tail *t,
		       struct bconf_footer *f, struct bt_error *e)
{
	struct bconf_error pe;
	int ret;

	ret = bconf_footer_find(t->buf, t->len, t->file_size, 0, f, &pe);
	if (ret < 0) {
		bt_error_set(e, BT_EXIT_INPUT, path,
			     "%s; remove it with 'bootconfig -d' only after "
			     "checking the file, or rebuild the initrd", pe.msg);
		e->off = pe.pos;
	}
	return ret;
}

/* Parse the config stored in a footer; NULL with @e if it is broken. */
static struct bconf *parse_blob(const char *path, const struct initrd_tail *t,
				const struct bconf_footer *f,
				struct bt_error *e)
{
	struct bconf_error pe;
	struct bconf *bc;

	bc = bconf_parse(blob_text(t, f), f->size, NULL, &pe);
	if (!bc) {
		if (pe.pos >= 0)
			bt_error_set(e, BT_EXIT_INPUT, path,
				     "embedded bootconfig, line %d column %d: %s",
				     pe.line, pe.col, pe.msg);
		else
			bt_error_set(e, BT_EXIT_INPUT, path,
				     "embedded bootconfig: %s", pe.msg);
	}
	return bc;
}

/* Tell about a footer that only the kernel's GRUB-tolerant search finds. */
static void note_slack_footer(const char *path, const struct initrd_tail *t)
{
	struct bconf_footer f;
	struct bconf_error pe;

	if (bconf_footer_find(t->buf, t->len, t->file_size, 3, &f, &pe) == 1)
		fprintf(stderr, "%s: note: a bootconfig ends %llu byte(s) before "
			"the end of the file: the kernel finds it at boot, "
			"tools/bootconfig does not show it\n", path,
			(unsigned long long)(t->file_size - f.end));
}

/*
 * No footer: a file small enough is a config itself (as the kernel's tool
 * reads it); a larger one is an initrd without a bootconfig, where the
 * kernel's tool prints nothing and succeeds, or not an initrd at all.
 */
static struct bconf *load_plain(const char *path, const struct initrd_tail *t,
				int force, int *status)
{
	struct bconf_error pe;
	struct bconf *bc;
	struct bt_error e;
	const char *kind;

	*status = BT_EXIT_OK;
	if (t->file_size == 0) {
		/*
		 * An initrd without bootconfig to the kernel's tool, which
		 * prints "Error: Config data is empty." yet succeeds, and its
		 * test-bootconfig.sh expects success: say it as a note.
		 */
		fprintf(stderr, "%s: note: empty file, no bootconfig in it\n", path);
		return NULL;
	}
	if (t->file_size > BCONF_DATA_MAX) {
		bt_error_clear(&e);
		if (!force && !initrd_kind_of_file(path, &e))
			*status = fail(&e);
		else
			note_slack_footer(path, t);
		return NULL;
	}
	bc = bconf_parse((const char *)t->buf, t->len, NULL, &pe);
	if (bc)
		return bc;
	/* The whole file is in the tail: say what it is if it is an initrd. */
	kind = initrd_kind(t->buf, t->len);
	if (!kind) {
		*status = config_error(path, &pe);
		return NULL;
	}
	bt_error_set(&e, BT_EXIT_INPUT, path, "a %s initrd without a bootconfig "
		     "(tools/bootconfig reads files this small as config text: "
		     "%s at %d:%d)", kind, pe.msg, pe.line, pe.col);
	*status = fail(&e);
	return NULL;
}

static int show(const struct bc_args *a)
{
	struct initrd_tail t = { 0 };
	struct bconf_footer f;
	struct bconf *bc = NULL;
	struct bt_error e;
	int ret, status = BT_EXIT_OK;

	bt_error_clear(&e);
	if (initrd_read_tail(a->path, TAIL_MAX, &t, &e))
		return fail(&e);
	ret = find_footer(a->path, &t, &f, &e);
	if (ret < 0)
		status = fail(&e);
	else if (ret > 0 && !(bc = parse_blob(a->path, &t, &f, &e)))
		status = fail(&e);
	else if (ret == 0)
		bc = load_plain(a->path, &t, a->force, &status);
	if (bc) {
		ret = a->list ? bconf_print_list(bc, write_stdout, stdout)
			      : bconf_print_tree(bc, write_stdout, stdout);
		if (ret == 1)
			fprintf(stderr, "%s: warning: listing stopped at a key "
				"of %d or more words (the kernel's tool and "
				"/proc/bootconfig stop there too)\n", a->path,
				BCONF_DEPTH_MAX);
		if (fflush(stdout) || ret < 0) {
			bt_error_errno(&e, errno, NULL, "cannot write output");
			status = fail(&e);
		}
	}
	bconf_free(bc);
	initrd_tail_free(&t);
	return status;
}

/* ---- changing an initrd ------------------------------------------------- */

/*
 * Where the initrd proper ends: before an existing footer, which must be
 * intact (as the kernel's tool, we refuse to drop a config we cannot read),
 * or at the end of the file.
 */
static int initrd_end(const char *path, const struct initrd_tail *t,
		      uint64_t *end, struct bt_error *e)
{
	struct bconf_footer f;
	struct bconf *old;
	int ret;

	ret = find_footer(path, t, &f, e);
	if (ret < 0)
		return -1;
	*end = t->file_size;
	if (ret == 0)
		return 0;
	old = parse_blob(path, t, &f, e);
	if (!old)
		return -1;
	bconf_free(old);
	*end = f.data_off;
	return 0;
}

static int delete(const struct bc_args *a)
{
	struct initrd_tail t = { 0 };
	struct bt_error e;
	uint64_t end;
	int ret = BT_EXIT_OK;

	bt_error_clear(&e);
	if (initrd_read_tail(a->path, TAIL_MAX, &t, &e))
		return fail(&e);
	if (initrd_end(a->path, &t, &end, &e) ||
	    (end != t.file_size && initrd_rewrite(a->path, t.file_size, end, NULL, 0, &e)))
		ret = fail(&e);
	initrd_tail_free(&t);
	return ret;
}

/* Read a whole config file; it is text up to its first NUL, as -a sees it. */
static char *read_config(const char *path, size_t *len, struct bt_error *e)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf = NULL, *nb;

	if (!f) {
		bt_error_errno(e, errno, path, "cannot open config");
		return NULL;
	}
	for (;;) {
		nb = realloc(buf, cap + 1);
		if (!nb)
			break;
		buf = nb;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
	}
	if (!nb || ferror(f)) {
		bt_error_errno(e, nb ? EIO : ENOMEM, path, "cannot read config");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = strlen(buf) + 1;
	return buf;
}

static int apply(const struct bc_args *a)
{
	struct bt_error e;
	size_t len;
	char *conf;
	int ret;

	bt_error_clear(&e);
	conf = read_config(a->apply, &len, &e);
	if (!conf)
		return fail(&e);
	ret = bootconfig_apply_text(a->apply, conf, len, a->path, a->force,
				    stdout);
	free(conf);
	return ret;
}

int bootconfig_apply_text(const char *name, const char *conf, size_t len,
			  const char *path, int force, FILE *summary)
{
	const struct bc_args args = { .apply = name, .path = path, .force = force };
	const struct bc_args *a = &args;
	struct initrd_tail t = { 0 };
	unsigned char *blob = NULL;
	struct bconf_error pe;
	struct bconf *bc;
	struct bt_error e;
	size_t blen;
	uint64_t end;
	int ret = BT_EXIT_OK, nodes;

	bt_error_clear(&e);
	bc = bconf_parse(conf, len, NULL, &pe);
	if (!bc)
		return config_error(a->apply, &pe);
	nodes = bconf_node_count(bc);
	bconf_free(bc);
	/* Before the initrd is looked at, as the kernel's tool: same stdout. */
	fprintf(summary, "Apply %s to %s\n\tNumber of nodes: %d\n"
		"\tSize: %u bytes\n\tChecksum: %u\n", a->apply, a->path, nodes,
		(unsigned)len, (unsigned)bconf_checksum(conf, len));
	fflush(summary);
	if (initrd_read_tail(a->path, TAIL_MAX, &t, &e) ||
	    initrd_end(a->path, &t, &end, &e) ||
	    (!a->force && !initrd_kind_of_file(a->path, &e))) {
		ret = fail(&e);
		goto out;
	}
	blen = bconf_footer_blob_len(len, end);
	if (blen - BCONF_FOOTER_LEN >= BCONF_DATA_MAX)
		fprintf(stderr, "%s: warning: the bootconfig takes %zu bytes with "
			"padding; the kernel (init/main.c) refuses %d or more at "
			"boot, shorten it by %zu byte(s)\n", a->path,
			blen - BCONF_FOOTER_LEN, BCONF_DATA_MAX,
			blen - BCONF_FOOTER_LEN - BCONF_DATA_MAX + 1);
	blob = malloc(blen);
	if (!blob || bconf_footer_build(conf, len, end, blob, blen) != blen) {
		bt_error_set(&e, BT_EXIT_ENV, a->path, "out of memory");
		ret = fail(&e);
		goto out;
	}
	if (initrd_rewrite(a->path, t.file_size, end, blob, blen, &e))
		ret = fail(&e);
out:
	free(blob);
	initrd_tail_free(&t);
	return ret;
}

int cmd_bootconfig(int argc, char **argv)
{
	struct bc_args a = { 0 };
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret == BT_EXIT_OK + 100 ? BT_EXIT_OK : ret;
	if (a.apply)
		return apply(&a);
	if (a.del)
		return delete(&a);
	return show(&a);
}
