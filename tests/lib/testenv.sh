# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced (sh or bash) by the tests that run make on this tree or keep a
# cache: the environment a test means, whatever its caller's is.
#
# bt_clear_buildenv: forget the build settings a caller passes down without
# meaning them for the test. dpkg-buildflags exports CFLAGS, CPPFLAGS,
# LDFLAGS... to the whole package build, `make test` included; a parent make
# hands its command-line variables (`make WERROR=0 test`) and options (-e,
# -i, -k, its jobserver) to every make below it through MAKEFLAGS; and every
# `VAR ?=` of the Makefile is taken from the environment (tests/cli/hardening.sh
# checks that each is cleared here). A test that means a flag passes it
# explicitly after this. CC and CLANG stay: they choose the compiler, not the
# flags; FUZZ_SECONDS and DEMO build or install nothing.
bt_clear_buildenv() {
	unset CPPFLAGS CFLAGS CXXFLAGS LDFLAGS ASFLAGS OBJCFLAGS OBJCXXFLAGS \
		FFLAGS FCFLAGS GCJFLAGS DFLAGS \
		WERROR DEVELOPER HARDEN_CFLAGS HARDEN_LDFLAGS FORTIFY \
		PREFIX DESTDIR sysconfdir DISTDIR CROSS_COMPILE SYSROOT \
		DRACUT_MODULES_DIR INITRAMFS_TOOLS_DIR SYSTEMD_UNIT_DIR SYSTEMD_GENERATOR_DIR INITD_DIR \
		BASH_COMPLETION_DIR INSTALL_HOOK INSTALL_COLLECT \
		MAKEFLAGS MFLAGS MAKEOVERRIDES GNUMAKEFLAGS MAKEFILES MAKELEVEL
}

# bt_make ARGS...: make with the variables given and none inherited
bt_make() { (bt_clear_buildenv && exec make "$@"); }

# bt_cache_dir: the base of the tests' caches (boottrace/... under it):
# XDG_CACHE_HOME, else $HOME/.cache. With neither set (env -i, a bare
# service), the home directory the password database gives this user, when
# it is a directory this user can write (root: /root/.cache); else a
# directory of this user's own in TMPDIR (/tmp/boottrace-cache-UID, mode
# 0700; refused if someone else made it). Never /.cache. A note on stderr
# says which when HOME was not set.
bt_cache_dir() {
	if [ -n "${XDG_CACHE_HOME:-}" ]; then
		echo "$XDG_CACHE_HOME"
		return 0
	fi
	if [ -n "${HOME:-}" ]; then
		echo "$HOME/.cache"
		return 0
	fi
	_bt_home=$(getent passwd "$(id -u)" | cut -d: -f6)
	if [ -n "$_bt_home" ] && [ "$_bt_home" != / ] && [ -d "$_bt_home" ] && [ -w "$_bt_home" ]; then
		echo "note: HOME is not set: caching in $_bt_home/.cache (the password database's home of $(id -un 2>/dev/null || id -u))" >&2
		echo "$_bt_home/.cache"
		return 0
	fi
	_bt_dir=${TMPDIR:-/tmp}/boottrace-cache-$(id -u)
	mkdir -m 0700 "$_bt_dir" 2>/dev/null
	if [ ! -d "$_bt_dir" ] || [ -L "$_bt_dir" ] || [ ! -O "$_bt_dir" ] ||
		[ -n "$(find "$_bt_dir" -maxdepth 0 -perm /0077)" ]; then
		echo "error: HOME is not set, no writable home in the password database, and $_bt_dir is not this user's own (mode 0700): set HOME or XDG_CACHE_HOME" >&2
		return 1
	fi
	echo "note: HOME is not set and the password database gives no writable home: caching in $_bt_dir" >&2
	echo "$_bt_dir"
}
