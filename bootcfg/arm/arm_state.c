// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm.h: the state directory of arm-boot and the reads and writes of the
 * files it changes. The index file "armed" (docs/arm-boot.md):
 *
 *	# boottrace arm-boot state: boottrace disarm-boot restores from it
 *	loader grub
 *	config /etc/fw_env.config		(uboot-env only)
 *	file N present|absent PATH		(a whole file; orig.N if present)
 *	efivar N present|absent PATH		(an efivarfs file, as a file)
 *	region N OFFSET SIZE PATH		(bytes of a file or block device)
 *
 * with orig.N (the bytes before) and armed.N (the bytes arm-boot left)
 * beside it. The index is written last: a directory without it is no state.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arm/arm.h"
#include "util/atomic.h"
#include "util/grow.h"
#include "util/readfile.h"

void arm_state_free(struct arm_state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].orig);
		free(s->v[i].armed);
	}
	free(s->v);
	free(s->dir);
	free(s->config);
	memset(s, 0, sizeof(*s));
}

struct arm_item *arm_state_add(struct arm_state *s, const char *path,
			       struct bt_error *e)
{
	struct arm_item *it;

	if (strchr(path, '\n')) {
		bt_error_set(e, BT_EXIT_INPUT, path, "has a line break in its name, which the state file of arm-boot cannot hold: rename it");
		return NULL;
	}
	if (BT_GROW(s->v, s->n + 1, s->cap) < 0) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		return NULL;
	}
	it = &s->v[s->n];
	memset(it, 0, sizeof(*it));
	it->path = strdup(path);
	if (!it->path) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		return NULL;
	}
	s->n++;
	return it;
}

int arm_state_dir(const struct arm_opts *o, char **dir, struct bt_error *e)
{
	*dir = o->state ? strdup(o->state) : arm_path(o->root, ARM_STATE_PARENT "/" ARM_STATE_NAME);
	return *dir ? 0 : bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
}

/* A region's bytes, read with pread from a regular file or block device. */
static int arm_region_read(const struct arm_item *it, char **buf, size_t *len,
			   struct bt_error *e)
{
	size_t got = 0;
	ssize_t r;
	int fd;

	if (it->size > ((size_t)64 << 20))
		return bt_error_set(e, BT_EXIT_INPUT, it->path, "an environment of %llu bytes is more than the 64 MiB arm-boot keeps a copy of: check the size in the fw_env.config", it->size);
	fd = open(it->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bt_error_errno(e, errno, it->path, "cannot open the U-Boot environment's device");
	*buf = malloc(it->size + 1);
	if (!*buf) {
		close(fd);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	while (got < it->size) {
		r = pread(fd, *buf + got, it->size - got, (off_t)(it->off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : 0;

			close(fd);
			free(*buf);
			*buf = NULL;
			if (err)
				return bt_error_errno(e, err, it->path, "cannot read the environment at offset %llu", it->off);
			return bt_error_set(e, BT_EXIT_INPUT, it->path, "ends before offset %llu + size %llu of the environment the fw_env.config names: check the offset and size there", it->off, it->size);
		}
		got += (size_t)r;
	}
	close(fd);
	(*buf)[got] = 0;
	*len = got;
	return 0;
}

int arm_item_read(const struct arm_item *it, char **buf, size_t *len,
		  struct bt_error *e)
{
	struct stat st;

	*buf = NULL;
	*len = 0;
	if (it->region)
		return arm_region_read(it, buf, len, e);
	if (stat(it->path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return bt_error_errno(e, errno, it->path, "cannot read its status");
	}
	*buf = readfile(it->path, (size_t)64 << 20, 0, "a bootloader file", len, e);
	return *buf ? 0 : -1;
}

/* Whole-file bytes through util/atomic (a temp file renamed over it). */
static int arm_file_write(const char *path, const char *buf, size_t len,
			  struct bt_error *e)
{
	struct atomic a;
	FILE *f;

	if (atomic_begin(&a, path, e))
		return -1;
	f = atomic_stream(&a, e);
	if (!f || (len && fwrite(buf, 1, len, f) != len)) {
		if (f)
			atomic_fail(&a, errno, "writing the temp file", e);
		atomic_abort(&a);
		return -1;
	}
	return atomic_commit(&a, e);
}

/*
 * A region: of a regular file, the whole file with the region replaced,
 * through util/atomic; of a block device, pwrite and fsync in place (as
 * fw_setenv writes it).
 */
static int arm_region_write(const struct arm_item *it, const char *buf,
			    size_t len, struct bt_error *e)
{
	struct stat st;
	size_t flen, done = 0;
	char *all;
	ssize_t r;
	int fd, ret;

	if (len != it->size)
		return bt_error_set(e, BT_EXIT_INPUT, it->path, "the saved environment has %zu bytes, not the %llu of the region: the state directory is damaged", len, it->size);
	if (stat(it->path, &st) < 0)
		return bt_error_errno(e, errno, it->path, "cannot read its status");
	if (S_ISREG(st.st_mode)) {
		all = readfile(it->path, RF_IMAGE_MAX, 0, "an environment image", &flen, e);
		if (!all)
			return -1;
		if (flen < it->off + it->size) {
			free(all);
			return bt_error_set(e, BT_EXIT_INPUT, it->path, "is now %zu bytes, shorter than the environment region at %llu + %llu: it was changed since arm-boot", flen, it->off, it->size);
		}
		memcpy(all + it->off, buf, len);
		ret = arm_file_write(it->path, all, flen, e);
		free(all);
		return ret;
	}
	if (!S_ISBLK(st.st_mode))
		return bt_error_set(e, BT_EXIT_INPUT, it->path, "is %s: arm-boot restores an environment on a regular file or a block device only (an MTD needs an erase first: not done)", readfile_kind(st.st_mode));
	fd = open(it->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return bt_error_errno(e, errno, it->path, "cannot open for writing");
	while (done < len) {
		r = pwrite(fd, buf + done, len - done, (off_t)(it->off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			close(fd);
			return bt_error_errno(e, err, it->path, "cannot write the environment at offset %llu", it->off);
		}
		done += (size_t)r;
	}
	if (fsync(fd) < 0) {
		int err = errno;

		close(fd);
		return bt_error_errno(e, err, it->path, "cannot sync the environment");
	}
	close(fd);
	return 0;
}

/*
 * efivarfs makes the files of variables it does not know immutable
 * (chattr +i), so unlink fails with EPERM until the flag is cleared, as
 * bootctl does it.
 */
static int arm_efivar_mutable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), flags, ret = -1;

	if (fd < 0)
		return -1;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
		flags &= ~FS_IMMUTABLE_FL;
		ret = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
	return ret;
}

/* An efivarfs file: @buf (attributes, then data), or NULL: removed. */
static int arm_efivar_write(const char *path, const char *buf, size_t len,
			    struct bt_error *e)
{
	ssize_t r;
	int fd;

	if (!buf) {
		if (unlink(path) == 0 || errno == ENOENT)
			return 0;
		if (errno != EPERM || arm_efivar_mutable(path) < 0 || unlink(path) < 0)
			return bt_error_errno(e, errno, path, "cannot remove the EFI variable (efivarfs; clearing its immutable flag first)");
		return 0;
	}
	/*
	 * One write of attributes and data: efivarfs sets the variable
	 * from each write as a whole (no temp file, no rename there).
	 */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return bt_error_errno(e, errno, path, "cannot create the EFI variable");
	r = write(fd, buf, len);
	if (r != (ssize_t)len) {
		int err = r < 0 ? errno : EIO;

		close(fd);
		arm_efivar_mutable(path);
		unlink(path);
		return bt_error_errno(e, err, path, "cannot write the EFI variable (%zu bytes at offset 0)", len);
	}
	if (close(fd) < 0)
		return bt_error_errno(e, errno, path, "cannot write the EFI variable");
	return 0;
}

int arm_item_write(const struct arm_item *it, const char *buf, size_t len,
		   struct bt_error *e)
{
	if (it->region)
		return arm_region_write(it, buf, len, e);
	if (it->efivar)
		return arm_efivar_write(it->path, buf, len, e);
	if (!buf) {
		if (unlink(it->path) < 0 && errno != ENOENT)
			return bt_error_errno(e, errno, it->path, "cannot remove (arm-boot made it)");
		return 0;
	}
	return arm_file_write(it->path, buf, len, e);
}

/* mkdir -p @dir, the last part 0700. */
static int arm_mkdirs(const char *dir, struct bt_error *e)
{
	char *p = strdup(dir), *s;

	if (!p)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	for (s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = 0;
			if (mkdir(p, c ? 0755 : 0700) < 0 && errno != EEXIST) {
				int err = errno;

				bt_error_errno(e, err, NULL, "cannot make the state directory %s", p);
				free(p);
				return -1;
			}
			if (!c)
				break;
			*s = c;
		}
	}
	free(p);
	return 0;
}

static int arm_state_file(const struct arm_state *s, const char *name,
			  const char *buf, size_t len, struct bt_error *e)
{
	char *path;
	int ret;

	if (asprintf(&path, "%s/%s", s->dir, name) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	ret = arm_file_write(path, buf, len, e);
	free(path);
	return ret;
}

int arm_state_save(const struct arm_state *s, struct bt_error *e)
{
	char name[32], *idx = NULL, *line;
	size_t i, ilen = 0;
	FILE *f;

	if (arm_mkdirs(s->dir, e))
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct arm_item *it = &s->v[i];

		snprintf(name, sizeof(name), "orig.%zu", i);
		if (it->orig && arm_state_file(s, name, it->orig, it->orig_len, e))
			return -1;
		snprintf(name, sizeof(name), "armed.%zu", i);
		if (arm_state_file(s, name, it->armed, it->armed_len, e))
			return -1;
	}
	f = open_memstream(&idx, &ilen);
	if (!f)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	fprintf(f, "# boottrace arm-boot state (docs/arm-boot.md): boottrace disarm-boot restores from it\nloader %s\n", s->loader);
	if (s->config)
		fprintf(f, "config %s\n", s->config);
	for (i = 0; i < s->n; i++) {
		const struct arm_item *it = &s->v[i];

		if (it->region)
			fprintf(f, "region %zu %llu %llu %s\n", i, it->off, it->size, it->path);
		else
			fprintf(f, "%s %zu %s %s\n", it->efivar ? "efivar" : "file", i, it->existed ? "present" : "absent", it->path);
	}
	if (fclose(f))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	line = idx;
	i = (size_t)arm_state_file(s, "armed", line, ilen, e);
	free(idx);
	return (int)i;
}

static int arm_state_bytes(const char *dir, const char *kind, size_t i,
			   char **buf, size_t *len, struct bt_error *e)
{
	char *path;

	if (asprintf(&path, "%s/%s.%zu", dir, kind, i) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	*buf = readfile(path, (size_t)64 << 20, 0, "a copy kept by arm-boot", len, e);
	if (!*buf) {
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), " (the state directory of arm-boot is damaged: restore the files by hand)");
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* One index line; @ln its number, for messages. */
static int arm_state_line(struct arm_state *s, char *l, const char *ipath,
			  int ln, struct bt_error *e)
{
	struct arm_item *it;
	unsigned long long off, size;
	size_t i;
	int n = 0;
	char kind[16];

	if (!*l || *l == '#')
		return 0;
	if (!strncmp(l, "loader ", 7)) {
		snprintf(s->loader, sizeof(s->loader), "%s", l + 7);
		return 0;
	}
	if (!strncmp(l, "config ", 7)) {
		free(s->config);
		s->config = strdup(l + 7);
		return s->config ? 0 : bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	if (sscanf(l, "region %zu %llu %llu %n", &i, &off, &size, &n) == 3 && n) {
		if (!(it = arm_state_add(s, l + n, e)))
			return -1;
		it->region = 1;
		it->off = off;
		it->size = size;
	} else if ((sscanf(l, "file %zu %15s %n", &i, kind, &n) == 2 ||
		    sscanf(l, "efivar %zu %15s %n", &i, kind, &n) == 2) && n &&
		   (!strcmp(kind, "present") || !strcmp(kind, "absent"))) {
		if (!(it = arm_state_add(s, l + n, e)))
			return -1;
		it->existed = !strcmp(kind, "present");
		it->efivar = *l == 'e';
	} else {
		return bt_error_set(e, BT_EXIT_INPUT, ipath, "line %d is not a line of arm-boot's state (%s): the state is damaged; restore the files by hand from orig.N beside it", ln, l);
	}
	if (i != s->n - 1)
		return bt_error_set(e, BT_EXIT_INPUT, ipath, "line %d: item %zu is out of order: the state is damaged; restore the files by hand from orig.N beside it", ln, i);
	if ((it->region || it->existed) &&
	    arm_state_bytes(s->dir, "orig", i, &it->orig, &it->orig_len, e))
		return -1;
	return arm_state_bytes(s->dir, "armed", i, &it->armed, &it->armed_len, e);
}

int arm_state_load(const char *dir, struct arm_state *s, struct bt_error *e)
{
	char *ipath, *text, *l, *nl;
	size_t len;
	int ln = 0, ret = 0;

	memset(s, 0, sizeof(*s));
	if (!(s->dir = strdup(dir)) || asprintf(&ipath, "%s/armed", dir) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (access(ipath, F_OK) < 0 && errno == ENOENT) {
		ret = bt_error_set(e, BT_EXIT_INPUT, NULL, "nothing is armed: %s does not exist (boottrace arm-boot writes it; give --state DIR or --root DIR if it armed with them)", ipath);
		free(ipath);
		return ret;
	}
	text = readfile(ipath, 65536, 0, "the state of arm-boot", &len, e);
	if (!text) {
		free(ipath);
		return -1;
	}
	for (l = text; !ret && *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		ret = arm_state_line(s, l, ipath, ++ln, e);
	}
	if (!ret && (!s->loader[0] || !s->n))
		ret = bt_error_set(e, BT_EXIT_INPUT, ipath, "names no loader or no file: the state is damaged; restore the files by hand from orig.N beside it");
	free(text);
	free(ipath);
	return ret;
}

int arm_state_remove(const struct arm_state *s, struct bt_error *e)
{
	char path[4096];
	size_t i;

	/* the index first: a half-removed directory is no state */
	snprintf(path, sizeof(path), "%s/armed", s->dir);
	if (unlink(path) < 0 && errno != ENOENT)
		return bt_error_errno(e, errno, path, "cannot remove");
	for (i = 0; i < s->n; i++) {
		snprintf(path, sizeof(path), "%s/orig.%zu", s->dir, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/armed.%zu", s->dir, i);
		unlink(path);
	}
	if (rmdir(s->dir) < 0 && errno != ENOENT)
		bt_say(s->dir, BT_SAY_WARN, "not removed (%s): it holds files that are not arm-boot's", strerror(errno));
	return 0;
}
