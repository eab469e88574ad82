#!/usr/bin/env bash
# `make package`: the .deb and the .tar.gz of the release binary, into $RELEASE_DIR (.build/dist).
# Both hold exactly what `make install DESTDIR=<stage> PREFIX=/usr` puts in the stage (the Makefile's
# INSTALL_FILES): the .deb as /usr/..., with DEBIAN/control from packaging/control.in; the tarball
# under verdicts-<version>/ (bin/, share/...) with an INSTALL saying what the machine must have.
# The version is the word after `verdicts` in `verdicts --version`; the arch is dpkg's.
set -euo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
dist=${RELEASE_DIR:-.build/dist}
bin="$dist/verdicts"
[ -x "$bin" ] || { echo "package: no $bin (make release)" >&2; exit 1; }
command -v dpkg-deb >/dev/null || { echo "package: dpkg-deb is needed (apt-get install dpkg)" >&2; exit 1; }

version=$("$bin" --version | awk '$1 == "verdicts" { print $2; exit }')
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] ||
  { echo "package: no version in \`verdicts --version\`: $("$bin" --version)" >&2; exit 1; }
arch=$(dpkg --print-architecture)
name="verdicts_${version}_${arch}"

umask 022   # the stage's folders and files as a package wants them, whatever the caller's umask
work=$(mktemp -d "${TMPDIR:-/tmp}/verdicts-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage="$work/stage"
"$MAKE" --no-print-directory -s install DESTDIR="$stage" PREFIX=/usr >/dev/null

files=$(cd "$stage/usr" && find . -type f | sed 's|^\./||' | sort)
[ -n "$files" ] || { echo "package: make install put nothing in the stage" >&2; exit 1; }

# The .deb. Installed-Size: KiB, each file rounded up, one for each folder (as dpkg-gencontrol counts).
size=$(cd "$stage" && find . -mindepth 1 \( -type f -printf '%s\n' \) -o \( -type d -printf '1024\n' \) |
  awk '{ kib += int(($1 + 1023) / 1024) } END { print kib }')
mkdir -m 755 "$stage/DEBIAN"
sed -e '/^#/d' -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$size/" \
  packaging/control.in >"$stage/DEBIAN/control"
chmod 644 "$stage/DEBIAN/control"
rm -f "$dist/$name.deb"
dpkg-deb --build --root-owner-group "$stage" "$dist/$name.deb" >/dev/null

# The tarball: the same files under verdicts-<version>/, and its INSTALL.
top="$work/verdicts-$version"
mkdir "$top"
cp -a "$stage/usr/." "$top/"
sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" -e "s|@FILES@|$(echo $files)|" \
  packaging/INSTALL.in >"$top/INSTALL"
rm -f "$dist/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner -C "$work" -czf "$dist/$name.tar.gz" "verdicts-$version"

ls -l "$dist/$name.deb" "$dist/$name.tar.gz"
