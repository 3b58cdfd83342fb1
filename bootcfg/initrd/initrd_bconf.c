// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An initrd's bootconfig (initrd_bconf.h): find the footer where the kernel's
 * tool finds it, refuse to drop a config that cannot be read back, and
 * rewrite the file through initrd_rewrite (atomic, mode and owner kept).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "initrd/initrd.h"
#include "initrd/initrd_bconf.h"
#include "initrd/initrd_kind.h"
#include "util/atomic.h"

/* Enough of the file's end for the largest valid blob plus GRUB's slack. */
#define TAIL_MAX (BCONF_DATA_MAX + BCONF_FOOTER_LEN + 3)

/* A parse error of config text: FILE:LINE:COL in @e. */
static int ibc_config_error(const char *file, const struct bconf_error *pe,
			    struct bt_error *e)
{
	bt_error_set(e, BT_EXIT_INPUT, file, "%s", pe->msg);
	if (!strcmp(pe->msg, "Out of memory"))
		e->code = BT_EXIT_ENV;
	e->line = pe->line;
	e->col = pe->col;
	return -1;
}

/* A footer's config text as it sits in the tail buffer. */
static const char *ibc_blob_text(const struct initrd_tail *t,
				 const struct bconf_footer *f)
{
	return (const char *)t->buf + (t->len - (t->file_size - f->data_off));
}

/*
 * The footer at the very end of @t, as tools/bootconfig looks for it.
 * Returns 1 found (and valid), 0 none, -1 with @e.
 */
static int ibc_find_footer(const char *path, const struct initrd_tail *t,
			   struct bconf_footer *f, struct bt_error *e)
{
	struct bconf_error pe;
	int ret;

	ret = bconf_footer_find(t->buf, t->len, t->file_size, 0, f, &pe);
	if (ret < 0) {
		bt_error_set(e, BT_EXIT_INPUT, path, "%s; remove it with 'bootconfig -d' only after checking the file, or rebuild the initrd", pe.msg);
		e->off = pe.pos;
	}
	return ret;
}

/* Parse the config stored in a footer; NULL with @e if it is broken. */
static struct bconf *ibc_parse_blob(const char *path,
				    const struct initrd_tail *t,
				    const struct bconf_footer *f,
				    struct bt_error *e)
{
	struct bconf_error pe;
	struct bconf *bc;

	bc = bconf_parse(ibc_blob_text(t, f), f->size, NULL, &pe);
	if (!bc) {
		if (pe.pos >= 0)
			bt_error_set(e, BT_EXIT_INPUT, path, "embedded bootconfig, line %d column %d: %s", pe.line, pe.col, pe.msg);
		else
			bt_error_set(e, BT_EXIT_INPUT, path, "embedded bootconfig: %s", pe.msg);
	}
	return bc;
}

/* Tell about a footer that only the kernel's GRUB-tolerant search finds. */
static void ibc_note_slack_footer(const char *path, const struct initrd_tail *t)
{
	struct bconf_footer f;
	struct bconf_error pe;

	if (bconf_footer_find(t->buf, t->len, t->file_size, 3, &f, &pe) == 1)
		bt_say(path, BT_SAY_NOTE, "a bootconfig ends %llu byte(s) before the end of the file: the kernel finds it at boot, tools/bootconfig does not show it", (unsigned long long)(t->file_size - f.end));
}

/*
 * No footer: a file small enough is a config itself (as the kernel's tool
 * reads it); a larger one is an initrd without a bootconfig, where the
 * kernel's tool prints nothing and succeeds, or not an initrd at all.
 */
static int ibc_load_plain(const char *path, const struct initrd_tail *t,
			  int force, struct bconf **out, struct bt_error *e)
{
	struct bconf_error pe;
	const char *kind;

	if (t->file_size == 0) {
		/*
		 * An initrd without bootconfig to the kernel's tool, which
		 * prints "Error: Config data is empty." yet succeeds, and its
		 * test-bootconfig.sh expects success: say it as a note.
		 */
		bt_say(path, BT_SAY_NOTE, "empty file, no bootconfig in it");
		return 0;
	}
	if (t->file_size > BCONF_DATA_MAX) {
		if (!force && !initrd_kind_of_file(path, e))
			return -1;
		ibc_note_slack_footer(path, t);
		return 0;
	}
	*out = bconf_parse((const char *)t->buf, t->len, NULL, &pe);
	if (*out)
		return 1;
	/* The whole file is in the tail: say what it is if it is an initrd. */
	kind = initrd_kind(t->buf, t->len);
	if (!kind)
		return ibc_config_error(path, &pe, e);
	return bt_error_set(e, BT_EXIT_INPUT, path, "a %s initrd without a bootconfig (tools/bootconfig reads files this small as config text: %s at %d:%d)", kind, pe.msg, pe.line, pe.col);
}

int initrd_bconf_load(const char *path, int force, struct bconf **out,
		      struct bt_error *e)
{
	struct initrd_tail t = { 0 };
	struct bconf_footer f;
	int ret;

	*out = NULL;
	if (initrd_read_tail(path, TAIL_MAX, &t, e))
		return -1;
	ret = ibc_find_footer(path, &t, &f, e);
	if (ret > 0)
		ret = (*out = ibc_parse_blob(path, &t, &f, e)) ? 1 : -1;
	else if (ret == 0)
		ret = ibc_load_plain(path, &t, force, out, e);
	initrd_tail_free(&t);
	return ret;
}

/*
 * Where the initrd proper ends: before an existing footer, which must be
 * intact (as the kernel's tool, we refuse to drop a config we cannot read),
 * or at the end of the file.
 */
static int ibc_initrd_end(const char *path, const struct initrd_tail *t,
			  uint64_t *end, struct bt_error *e)
{
	struct bconf_footer f;
	struct bconf *old;
	int ret;

	ret = ibc_find_footer(path, t, &f, e);
	if (ret < 0)
		return -1;
	*end = t->file_size;
	if (ret == 0)
		return 0;
	old = ibc_parse_blob(path, t, &f, e);
	if (!old)
		return -1;
	bconf_free(old);
	*end = f.data_off;
	return 0;
}

/*
 * A file without its owner's write bit was made read-only on purpose (a
 * distribution's or a backup's initrd): rewriting it by rename would
 * succeed wherever the directory is writable, so it is refused unless
 * forced.
 */
/* BOOTTRACE_LOCK_WAIT: seconds to wait for another run's lock (0..3600). */
static int ibc_lock_wait(void)
{
	const char *s = getenv("BOOTTRACE_LOCK_WAIT");
	char *end;
	long v;

	if (!s || !*s)
		return IBC_LOCK_WAIT;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 3600) {
		bt_say(NULL, BT_SAY_WARN, "BOOTTRACE_LOCK_WAIT='%s' is not a number of seconds from 0 to 3600; waiting %d s", s, IBC_LOCK_WAIT);
		return IBC_LOCK_WAIT;
	}
	return (int)v;
}

static int ibc_writable(const char *path, int force, struct bt_error *e)
{
	struct stat st;

	if (force || stat(path, &st) || (st.st_mode & S_IWUSR))
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, path, "is read-only (mode %04o): not rewritten; make it writable (chmod u+w) or, with bootconfig, give --force", (unsigned)(st.st_mode & 07777));
}

int initrd_bconf_delete(const char *path, int force, struct bt_error *e)
{
	struct initrd_tail t = { 0 };
	uint64_t end;
	int ret = 0, lock;

	if ((lock = atomic_lock(path, ibc_lock_wait(), e)) < 0)
		return -1;
	if (initrd_read_tail(path, TAIL_MAX, &t, e)) {
		atomic_unlock(lock);
		return -1;
	}
	if (ibc_initrd_end(path, &t, &end, e) ||
	    (end != t.file_size && (ibc_writable(path, force, e) ||
				    initrd_rewrite(path, t.file_size, end, NULL, 0, e))))
		ret = -1;
	initrd_tail_free(&t);
	atomic_unlock(lock);
	return ret;
}

int initrd_bconf_apply(const char *name, const char *conf, size_t len,
		       const char *path, int force, FILE *summary,
		       struct bt_error *e)
{
	struct initrd_tail t = { 0 };
	unsigned char *blob = NULL;
	struct bconf_error pe;
	struct bconf *bc;
	size_t blen;
	uint64_t end;
	int ret = -1, nodes, lock;

	bc = bconf_parse(conf, len, NULL, &pe);
	if (!bc)
		return ibc_config_error(name, &pe, e);
	nodes = bconf_node_count(bc);
	bconf_free(bc);
	/* Before the initrd is looked at, as the kernel's tool: same stdout. */
	fprintf(summary, "Apply %s to %s\n\tNumber of nodes: %d\n\tSize: %u bytes\n\tChecksum: %u\n", name, path, nodes, (unsigned)len, (unsigned)bconf_checksum(conf, len));
	fflush(summary);
	if ((lock = atomic_lock(path, ibc_lock_wait(), e)) < 0)
		return -1;
	if (initrd_read_tail(path, TAIL_MAX, &t, e) ||
	    ibc_initrd_end(path, &t, &end, e) ||
	    (!force && !initrd_kind_of_file(path, e)) ||
	    ibc_writable(path, force, e))
		goto out;
	blen = bconf_footer_blob_len(len, end);
	if (blen - BCONF_FOOTER_LEN >= BCONF_DATA_MAX)
		bt_say(path, BT_SAY_WARN, "the bootconfig takes %zu bytes with padding; the kernel (init/main.c) refuses %d or more at boot, shorten it by %zu byte(s)", blen - BCONF_FOOTER_LEN, BCONF_DATA_MAX, blen - BCONF_FOOTER_LEN - BCONF_DATA_MAX + 1);
	blob = malloc(blen);
	if (!blob || bconf_footer_build(conf, len, end, blob, blen) != blen) {
		bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
		goto out;
	}
	ret = initrd_rewrite(path, t.file_size, end, blob, blen, e);
out:
	free(blob);
	initrd_tail_free(&t);
	atomic_unlock(lock);
	return ret;
}
