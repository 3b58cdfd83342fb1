// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm.h, U-Boot: a one-shot in the environment, written by libubootenv's
 * fw_setenv on the environment the fw_env.config names:
 *
 *	boottrace_oneshot  the line for the next boot
 *	boottrace_bootcmd  the board's bootcmd, as it was
 *	bootcmd            if test -n "${boottrace_oneshot}"; then ...; fi; run boottrace_bootcmd
 *
 * The new bootcmd, when the one-shot is set, copies it into a hush
 * variable (not the environment), clears it and runs saveenv (so a boot
 * that hangs or panics is followed by a normal one), and only then sets
 * bootargs, which is therefore never saved; then it runs the board's own
 * bootcmd. Chosen over bootcount/altbootcmd, which needs U-Boot built
 * with CONFIG_BOOTCOUNT_LIMIT and a bootcount store, and counts failed
 * boots rather than taking one boot (docs/arm-boot.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arm/arm.h"
#include "util/readfile.h"

#define UB_ONESHOT "boottrace_oneshot"
#define UB_BOOTCMD "boottrace_bootcmd"
#define UB_WRAPPER "if test -n \"${" UB_ONESHOT "}\"; then boottrace_line=\"${" UB_ONESHOT "}\"; setenv " UB_ONESHOT "; if saveenv; then setenv bootargs \"${boottrace_line}\"; fi; fi; run " UB_BOOTCMD

static const char *ub_config(const struct arm_opts *o)
{
	return o->fw_config ? o->fw_config : ARM_FW_CONFIG;
}

/* fw_printenv's whole output (NAME=VALUE lines). */
static char *ub_printenv(const char *config, struct bt_error *e)
{
	char *argv[] = { "fw_printenv", "-c", (char *)config, NULL };
	char *out = NULL;

	return arm_run(argv, "libubootenv-tool", &out, NULL, e) ? NULL : out;
}

/* The value of @name in fw_printenv output @env, malloc'd; NULL when unset. */
static char *ub_get(const char *env, const char *name)
{
	size_t n = strlen(name);
	const char *l, *nl;

	for (l = env; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			nl = l + strlen(l);
		if (!strncmp(l, name, n) && l[n] == '=')
			return strndup(l + n + 1, (size_t)(nl - l - n - 1));
		if (!*nl)
			break;
	}
	return NULL;
}

static int ub_has(const char *env, const char *name)
{
	char *v = ub_get(env, name);

	free(v);
	return v != NULL;
}

int arm_uboot_base(const struct arm_opts *o, char **base, struct bt_error *e)
{
	char *env = ub_printenv(ub_config(o), e);

	if (!env)
		return -1;
	*base = ub_get(env, "bootargs");
	free(env);
	if (!*base)
		return bt_error_set(e, BT_EXIT_INPUT, ub_config(o), "names an environment without bootargs: the one-shot line is merged into it (else the board boots without its root= and console=); give the whole line with --line, or set bootargs with fw_setenv first");
	return 0;
}

/*
 * The regions of the fw_env.config (libubootenv's old format: DEVICE
 * OFFSET SIZE [SECTOR [COUNT]] per line, one line or two for a redundant
 * environment) as items of @s, their bytes read.
 */
static int ub_regions(const char *config, struct arm_state *s,
		      struct bt_error *e)
{
	char *text, *l, *nl, dev[4096];
	unsigned long long off, size;
	struct arm_item *it;
	struct stat st;
	size_t len;
	int ln = 0, n = 0, ret = 0;

	text = readfile(config, 65536, 0, "a fw_env.config", &len, e);
	if (!text)
		return -1;
	for (l = text; !ret && *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		if (nl)
			*nl = 0;
		ln++;
		l += strspn(l, " \t");
		if (!*l || *l == '#')
			continue;
		if (sscanf(l, "%4095s %lli %lli", dev, (long long *)&off, (long long *)&size) != 3) {
			ret = bt_error_set(e, BT_EXIT_INPUT, config, "line %d: not DEVICE OFFSET SIZE (libubootenv's fw_env.config; the YAML form is not read by arm-boot: not done)", ln);
			break;
		}
		if (stat(dev, &st) < 0) {
			ret = bt_error_errno(e, errno, config, "line %d: cannot reach %s", ln, dev);
			break;
		}
		if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
			ret = bt_error_set(e, BT_EXIT_INPUT, config, "line %d: %s is %s: arm-boot keeps and restores an environment on a regular file or a block device only (an MTD needs an erase before a write: not done)", ln, dev, readfile_kind(st.st_mode));
			break;
		}
		if (!(it = arm_state_add(s, dev, e))) {
			ret = -1;
			break;
		}
		it->region = 1;
		it->off = off;
		it->size = size;
		n++;
	}
	free(text);
	if (!ret && !n)
		ret = bt_error_set(e, BT_EXIT_INPUT, config, "names no environment (no DEVICE OFFSET SIZE line)");
	return ret;
}

int arm_uboot(const struct arm_opts *o, const char *line, struct arm_state *s,
	      struct bt_error *e)
{
	const char *config = ub_config(o);
	char script[] = "/tmp/boottrace-fwenv.XXXXXX";
	char *argv[] = { "fw_setenv", "-c", (char *)config, "-s", script, NULL };
	char *env, *bootcmd = NULL;
	size_t i;
	FILE *f;
	int fd, ret = -1;

	if (strchr(line, '\n'))
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "the one-shot line has a line break, which an environment variable set by fw_setenv --script cannot hold");
	if (!(env = ub_printenv(config, e)))
		return -1;
	bootcmd = ub_get(env, "bootcmd");
	if (!bootcmd || !*bootcmd) {
		bt_error_set(e, BT_EXIT_INPUT, config, "names an environment without bootcmd: the one-shot runs before the board's bootcmd, so it needs one saved in the environment (U-Boot's built-in default is not there; save it with saveenv or fw_setenv bootcmd first)");
		goto out;
	}
	if (ub_has(env, UB_ONESHOT) || ub_has(env, UB_BOOTCMD)) {
		bt_error_set(e, BT_EXIT_INPUT, config, "names an environment that already has " UB_ONESHOT " or " UB_BOOTCMD " of an earlier arm-boot whose state is gone: restore bootcmd from " UB_BOOTCMD " and remove both with fw_setenv, then arm again");
		goto out;
	}
	s->config = realpath(config, NULL);
	if (!s->config) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (ub_regions(config, s, e))
		goto out;
	for (i = 0; i < s->n; i++)
		if (arm_item_read(&s->v[i], &s->v[i].orig, &s->v[i].orig_len, e))
			goto out;
	fd = mkstemp(script);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		bt_error_errno(e, errno, NULL, "cannot make a temporary file in /tmp for fw_setenv --script");
		if (fd >= 0) {
			close(fd);
			unlink(script);
		}
		goto out;
	}
	/* libubootenv: NAME=VALUE lines, each value stored as written */
	fprintf(f, "%s=%s\n%s=%s\nbootcmd=%s\n", UB_BOOTCMD, bootcmd, UB_ONESHOT, line, UB_WRAPPER);
	if (fclose(f)) {
		bt_error_errno(e, errno, script, "cannot write");
		unlink(script);
		goto out;
	}
	ret = arm_run(argv, "libubootenv-tool", NULL, NULL, e);
	unlink(script);
	for (i = 0; !ret && i < s->n; i++)
		ret = arm_item_read(&s->v[i], &s->v[i].armed, &s->v[i].armed_len, e);
out:
	free(bootcmd);
	free(env);
	return ret;
}

/*
 * The environment after the one-shot was taken: boottrace_oneshot gone or
 * empty while bootcmd is still arm-boot's (U-Boot's saveenv writes its
 * whole running environment, so other variables may differ).
 */
int arm_uboot_consumed(const struct arm_state *s, struct bt_error *e)
{
	char *env = ub_printenv(s->config, e), *one, *cmd, *old;
	int ok;

	if (!env)
		return -1;
	one = ub_get(env, UB_ONESHOT);
	cmd = ub_get(env, "bootcmd");
	old = ub_get(env, UB_BOOTCMD);
	ok = (!one || !*one) && cmd && !strcmp(cmd, UB_WRAPPER) && old;
	free(one);
	free(cmd);
	free(old);
	free(env);
	return ok;
}
