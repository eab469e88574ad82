#!/usr/bin/env bash
# The release binary as it goes to a device: `make release`, `make install`, `make package`.
# - ldd of .build/dist/verdicts names no library of the Swift toolchain, no libFoundation, no ICU
#   and no libcurl (opened with dlopen); the packages of the libraries it names (dpkg -S) are
#   exactly the .deb's Depends, and dpkg-shlibdeps (when there) works out the same line;
# - with the toolchain hidden (a mount namespace, an empty folder bound over it): --version names
#   the commit; a store filled from a scripted instance with writes queued and drained (libcurl
#   opened with dlopen); status, queue --json, watch --plain (the listing, and --from now while a
#   drain runs), and the TUI at 80x24 under tmux with its four panes;
# - make install DESTDIR=... PREFIX=/usr, as an unprivileged user: exactly the expected files, the
#   binary as built, the man page, the completions the binary writes; it does not rebuild; the
#   installed binary runs; make uninstall leaves nothing. Into a live PREFIX (no DESTDIR), the
#   prefix's own folders and another program's files stay;
# - make package: the .deb's control (version, arch, Depends), its files, the tarball's files;
# - the .deb put into a Debian 12 minbase root (debootstrap from Debian's mirror, made once and
#   kept in .build/debian12-minbase, used through an overlay so it stays as made): apt brings only
#   Depends packages; --version, status and queue --json run there; a drain without libcurl says
#   so (exit 3); with libcurl4 added, fill and drain against the instance outside.
# It runs `make release` itself (incremental), so it checks the sources as they are. The Debian 12
# part is skipped, saying why, when the root cannot be made (no debootstrap, no mirror, not root).
# time-limit: 900
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
REL="$ROOT/.build/dist/verdicts"
# The files `make install` puts under PREFIX, as this test expects them (not read from the Makefile).
EXPECTED_FILES="bin/verdicts
share/bash-completion/completions/verdicts
share/fish/vendor_completions.d/verdicts.fish
share/man/man1/verdicts.1.gz
share/zsh/site-functions/_verdicts"

# ---------------------------------------------------------------------------------------------
# The part run with the toolchain hidden: `unshare --mount` runs this script again with --hidden.
if [ "${1:-}" = --hidden ]; then
  VERDICTS_BIN="$REL"
  . "$HERE/lib.sh"
  e2e_init package-hidden
  unset LD_LIBRARY_PATH
  echo "package: hidden: $TOOLCHAIN is empty, swift is not on PATH"
  [ -z "$(ls -A "$TOOLCHAIN")" ] || fail "$TOOLCHAIN is not hidden"
  ! command -v swift >/dev/null 2>&1 || fail "swift is still found: $(command -v swift)"
  ! ldd "$REL" | grep -q "not found" || fail "a library is missing without the toolchain: $(ldd "$REL")"

  version=$("$VERDICTS" --version) || fail "--version failed"
  echo "package: hidden: $version"
  [[ "$version" =~ ^verdicts\ [0-9][^\ ]*\ \(commit\ ([0-9a-f]{12})(,\ with\ changes\ not\ committed)?\)$ ]] ||
    fail "--version names no commit: $version"
  case " $EXPECT_COMMITS " in *" ${BASH_REMATCH[1]} "*) ;; *) fail "--version names ${BASH_REMATCH[1]}, not HEAD ($EXPECT_COMMITS)" ;; esac

  STORE="$E2E_TMP/device.store"
  start_instance   # the tour scenario; its start key is tour-key-1
  grep -q "start key: tour-key-1" "$E2E_TMP"/instance-*.out || fail "the instance gave no start key"
  export MARFA_API_KEY=tour-key-1
  V() { "$VERDICTS" --store "$STORE" --url "$INSTANCE_URL" "$@"; }
  V fill >/dev/null || fail "fill failed"
  for i in 1 2 3; do V items create --type note --properties "{\"n\":$i}" >/dev/null; done
  out=$(V drain) || fail "drain failed: $out"
  [[ "$out" == "answered 3, held 0, undelivered 0"* ]] || fail "the drain did not answer 3: $out"
  waiting=()
  for i in 4 5; do
    waiting+=("$(V --json items create --type note --properties "{\"n\":$i}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')")
  done

  echo "package: hidden: status, queue --json"
  out=$(V status) || fail "status failed: $out"
  grep -qE '^queue +2 waiting, 3 answered, 0 blocked, 0 dead$' <<<"$out" || fail "status: $out"
  V queue --json | python3 -c '
import json, sys
q = json.load(sys.stdin)
v = sorted(str(w["verdict"]) for w in q)
assert len(q) == 5 and v.count("accepted") == 3, v
' || fail "queue --json does not list the 5 writes"

  echo "package: hidden: watch --plain, its listing"
  PLAIN="$E2E_TMP/plain.out"
  background "$VERDICTS" watch --plain --store "$STORE" >"$PLAIN" 2>"$E2E_TMP/plain.err"
  listed() { [ "$(grep -cE '^[^ ]+ [0-9a-f-]{36} create_item ' "$PLAIN")" = 5 ]; }
  WHY="watch --plain never listed the 5 writes" wait_until listed
  head -1 "$PLAIN" | grep -qx 'time id kind rows verdict reason streak status text' || fail "watch --plain: no header"
  kill -TERM "$BG_PID"; rc=0; wait "$BG_PID" || rc=$?
  [ "$rc" = 0 ] || fail "watch --plain ended $rc on SIGTERM"

  echo "package: hidden: watch --plain --from now, while a drain runs"
  FROM="$E2E_TMP/from.out"
  background "$VERDICTS" watch --plain --from now --store "$STORE" >"$FROM" 2>"$E2E_TMP/from.err"
  FROM_PID=$BG_PID
  WHY="watch --plain --from now never started" wait_until grep -q '^time id kind ' "$FROM"
  V drain >/dev/null || fail "the second drain failed"
  answered_both() { local id; for id in "${waiting[@]}"; do grep -qE "^[^ ]+ $id create_item [^ ]+ accepted " "$FROM" || return 1; done; }
  WHY="watch --plain --from now did not print the two writes drained" wait_until answered_both
  kill -TERM "$FROM_PID"; rc=0; wait "$FROM_PID" || rc=$?
  [ "$rc" = 0 ] || fail "watch --plain --from now ended $rc on SIGTERM"
  [ "$(grep -cE '^[^ ]+ [0-9a-f-]{36} ' "$FROM")" = 2 ] || fail "--from now printed writes from before: $(cat "$FROM")"

  echo "package: hidden: the TUI at 80x24"
  V items create --type note --properties '{"n":6}' >/dev/null
  shell_pane 80 24
  type_line "MARFA_API_KEY=tour-key-1 $VERDICTS --store '$STORE' --url '$INSTANCE_URL'"
  # At 80x24 the four panes stack, each under a rule with its title.
  wait_re '^┌?─ Waiting 1 ─'
  wait_re '^┌?─ Answered 5 ─'
  wait_re '^┌?─ Blocked 0 ─'
  wait_re '^┌?─ Dead 0 ─'
  wait_re '^┌─ Detail …'
  keys q
  expect_clean_shell "─ Waiting 1 ─"
  # The store, for the Debian 12 root's status and queue.
  if [ -n "${KEEP_STORE:-}" ]; then for f in "$STORE"*; do cp "$f" "$KEEP_STORE${f#"$STORE"}"; done; fi
  e2e_done
  exit 0
fi

# ---------------------------------------------------------------------------------------------
VERDICTS_BIN="$REL"
. "$HERE/lib.sh"
e2e_init package
cd "$ROOT"
sorted() { LC_ALL=C sort; }
expected_under() { sed "s|^|$1|" <<<"$EXPECTED_FILES" | sorted; } # $1: a prefix for each line

echo "package: make release"
heads="$(git rev-parse --short=12 HEAD 2>/dev/null || true)"
if ! make release >"$E2E_TMP/release.log" 2>&1; then
  tail -30 "$E2E_TMP/release.log" >&2
  fail "make release failed"
fi
heads="$heads $(git rev-parse --short=12 HEAD 2>/dev/null || true)"   # a commit may land meanwhile
[ -x "$REL" ] || fail "no $REL after make release"
version=$("$REL" --version | awk '{ print $2 }')
arch=$(dpkg --print-architecture)

echo "package: ldd names no toolchain library, no Foundation, no ICU, no libcurl"
libs=$(ldd "$REL")
swift_bin=$(command -v swift || true)
TOOLCHAIN=""
[ -z "$swift_bin" ] || TOOLCHAIN=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")
! grep -q "not found" <<<"$libs" || fail "ldd: a library is not found: $libs"
[ -z "$TOOLCHAIN" ] || ! grep -qF "$TOOLCHAIN/" <<<"$libs" || fail "ldd names the toolchain ($TOOLCHAIN): $libs"
! grep -qiE 'libFoundation|libicu|libswift|libdispatch|libBlocksRuntime|libcurl' <<<"$libs" || fail "ldd: $libs"
# The package of each library it names: exactly the names in the .deb's Depends (packaging/control.in).
needed=$(awk '/=>/ { print $3 }' <<<"$libs" | while read -r lib; do
  dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib"
done | sed -E 's/^([^:]+):.*/\1/' | sorted | uniq)
depends=$(sed -n 's/^Depends: //p' packaging/control.in)
named=$(tr ',' '\n' <<<"$depends" | sed -E 's/^ *//; s/ *\(.*//' | sorted | uniq)
[ "$needed" = "$named" ] || fail "ldd's packages ($(echo $needed)) are not the Depends ($(echo $named))"
if command -v dpkg-shlibdeps >/dev/null; then
  mkdir -p "$E2E_TMP/shlibdeps/debian"
  printf 'Source: verdicts\n\nPackage: verdicts\nArchitecture: any\n' >"$E2E_TMP/shlibdeps/debian/control"
  cp "$REL" "$E2E_TMP/shlibdeps/"
  shlibs=$(cd "$E2E_TMP/shlibdeps" && dpkg-shlibdeps -O verdicts 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
  [ "$shlibs" = "$depends" ] || fail "dpkg-shlibdeps says Depends: $shlibs; packaging/control.in says: $depends"
fi
echo "package: Depends: $depends"
max_glibc=$(objdump -T "$REL" | grep -oE 'GLIBC_[0-9.]+' | sort -uV | tail -1)
echo "package: the newest glibc symbol version it needs: $max_glibc"
[ "$max_glibc" = GLIBC_2.35 ] || [ "$(printf '%s\n' "$max_glibc" GLIBC_2.35 | sort -V | tail -1)" = GLIBC_2.35 ] ||
  fail "it needs $max_glibc: Ubuntu 22.04 has glibc 2.35 (README, INSTALL and control.in say 2.35)"

echo "package: the binary with the toolchain hidden"
if [ -z "$TOOLCHAIN" ] || [ "$TOOLCHAIN" = / ] || [ "$TOOLCHAIN" = /usr ]; then
  echo "package: SKIP hidden toolchain: no Swift toolchain in a folder of its own (swift: ${swift_bin:-none})"
elif ! unshare --mount true 2>/dev/null; then
  echo "package: SKIP hidden toolchain: unshare --mount is refused here ($(unshare --mount true 2>&1 | head -1))"
else
  mkdir -p "$E2E_TMP/empty"
  STORE_COPY="$E2E_TMP/device.store"
  TOOLCHAIN="$TOOLCHAIN" EXPECT_COMMITS="$heads" KEEP_STORE="$STORE_COPY" \
    unshare --mount -- bash -c 'mount --bind "$1" "$TOOLCHAIN" && exec bash "$2" --hidden' _ "$E2E_TMP/empty" "$HERE/test-package.sh" ||
    fail "the checks with the toolchain hidden failed"
fi

# ---------------------------------------------------------------------------------------------
echo "package: make install DESTDIR=... PREFIX=/usr (unprivileged), then uninstall"
chmod 755 "$E2E_TMP"
DEST="$E2E_TMP/dest"
mkdir -p "$DEST" && chmod 755 "$DEST"
as_user() { "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  chown nobody "$DEST"
  as_user() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups env HOME="$DEST" "$@"; }
fi
mtime=$(stat -c %Y.%i "$REL")
plan=$(make -n install DESTDIR="$DEST/root" PREFIX=/usr)
! grep -qE 'make.* release|swift build' <<<"$plan" || fail "install would rebuild an up-to-date binary: $plan"
as_user make --no-print-directory install DESTDIR="$DEST/root" PREFIX=/usr >"$E2E_TMP/install.log" 2>&1 ||
  { cat "$E2E_TMP/install.log" >&2; fail "make install failed"; }
[ "$(stat -c %Y.%i "$REL")" = "$mtime" ] || fail "make install rebuilt the binary"
got=$(cd "$DEST/root" && find . -mindepth 1 -not -type d | sed 's|^\./||' | sorted)
[ "$got" = "$(expected_under usr/)" ] || fail "make install put: $(echo $got)"
modes=$(cd "$DEST/root/usr" && stat -c '%a %n' $EXPECTED_FILES | sorted)
[ "$modes" = "$(sed -e 's|^bin/|755 bin/|' -e 's|^share/|644 share/|' <<<"$EXPECTED_FILES" | sorted)" ] || fail "modes: $modes"
[ -z "$(find "$DEST/root" -type d ! -perm 755)" ] || fail "folders not 755: $(find "$DEST/root" -type d ! -perm 755)"
I="$DEST/root/usr"
cmp -s "$REL" "$I/bin/verdicts" || fail "the installed binary is not the release binary"
cmp -s <(gzip -dc "$I/share/man/man1/verdicts.1.gz") docs/verdicts.1 || fail "the man page is not docs/verdicts.1"
for sh in bash:share/bash-completion/completions/verdicts zsh:share/zsh/site-functions/_verdicts \
  fish:share/fish/vendor_completions.d/verdicts.fish; do
  cmp -s <("$REL" completion "${sh%%:*}") "$I/${sh#*:}" || fail "${sh#*:} is not \`verdicts completion ${sh%%:*}\`"
done
bash -c ". '$I/share/bash-completion/completions/verdicts' && complete -p verdicts" >/dev/null 2>&1 ||
  fail "the bash completion does not complete verdicts"
[ "$("$I/bin/verdicts" --version)" = "$("$REL" --version)" ] || fail "the installed binary does not run"
if command -v man >/dev/null; then
  MANWIDTH=80 man -l "$I/share/man/man1/verdicts.1.gz" 2>/dev/null | grep -qi verdicts || fail "man cannot show the man page"
fi
as_user make --no-print-directory uninstall DESTDIR="$DEST/root" PREFIX=/usr >"$E2E_TMP/uninstall.log" 2>&1 ||
  { cat "$E2E_TMP/uninstall.log" >&2; fail "make uninstall failed"; }
left=$(cd "$DEST" && find . -mindepth 1 | sorted)
[ "$left" = "./root" ] || fail "make uninstall left: $(echo $left)"

echo "package: make install PREFIX=... (no DESTDIR), uninstall keeps the prefix's folders and others' files"
P="$DEST/prefix"
as_user mkdir -p "$P/bin" "$P/share/man" "$P/share/zsh/site-functions"
as_user touch "$P/share/zsh/site-functions/_other"
as_user make --no-print-directory install PREFIX="$P" >"$E2E_TMP/install2.log" 2>&1 ||
  { cat "$E2E_TMP/install2.log" >&2; fail "make install PREFIX=$P failed"; }
got=$(cd "$P" && find . -type f | sed 's|^\./||' | grep -v _other | sorted)
[ "$got" = "$(expected_under "")" ] || fail "make install PREFIX put: $(echo $got)"
as_user make --no-print-directory uninstall PREFIX="$P" >"$E2E_TMP/uninstall2.log" 2>&1 ||
  { cat "$E2E_TMP/uninstall2.log" >&2; fail "make uninstall PREFIX=$P failed"; }
left=$(cd "$P" && find . -mindepth 1 | sorted)
[ "$left" = "$(printf '%s\n' ./bin ./share ./share/man ./share/zsh ./share/zsh/site-functions ./share/zsh/site-functions/_other | sorted)" ] ||
  fail "make uninstall PREFIX left: $(echo $left)"

# ---------------------------------------------------------------------------------------------
echo "package: make package"
deb=".build/dist/verdicts_${version}_${arch}.deb"
tgz=".build/dist/verdicts_${version}_${arch}.tar.gz"
rm -f "$deb" "$tgz"
make --no-print-directory package >"$E2E_TMP/package.log" 2>&1 || { cat "$E2E_TMP/package.log" >&2; fail "make package failed"; }
[ -f "$deb" ] && [ -f "$tgz" ] || fail "make package made no $deb and $tgz: $(ls .build/dist)"
dpkg-deb --info "$deb" >"$E2E_TMP/info.txt"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = verdicts ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), --version says $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Depends)" = "$depends" ] || fail "Depends: $(field Depends)"
grep -qE '^ Depends: libc6 \(>= 2\.35\)' "$E2E_TMP/info.txt" || fail "dpkg-deb --info: no Depends line: $(cat "$E2E_TMP/info.txt")"
field Recommends | grep -qE '^libcurl4 \(>= 7\.68\.0\) \| libcurl4t64 \| libcurl3-gnutls' || fail "Recommends: $(field Recommends)"
for f in Maintainer Section Priority Installed-Size Description; do [ -n "$(field $f)" ] || fail "no $f"; done
contents=$(dpkg-deb --contents "$deb")
got=$(grep -v '^d' <<<"$contents" | awk '{ print $6 }' | sorted)
[ "$got" = "$(expected_under ./usr/)" ] || fail "dpkg-deb --contents: $(echo $got)"
! awk '{ print $2 }' <<<"$contents" | grep -vqx root/root || fail "a file of the .deb is not root's: $contents"
mkdir "$E2E_TMP/x"
dpkg-deb -x "$deb" "$E2E_TMP/x"
cmp -s "$REL" "$E2E_TMP/x/usr/bin/verdicts" || fail "the .deb's binary is not the release binary"
got=$(tar tzf "$tgz" | grep -v '/$' | sorted)
[ "$got" = "$( (expected_under "verdicts-$version/"; echo "verdicts-$version/INSTALL") | sorted)" ] || fail "the tarball holds: $(echo $got)"
tar xzf "$tgz" -C "$E2E_TMP/x"
cmp -s "$REL" "$E2E_TMP/x/verdicts-$version/bin/verdicts" || fail "the tarball's binary is not the release binary"
grep -q "glibc 2.35" "$E2E_TMP/x/verdicts-$version/INSTALL" && grep -q libsqlite3-0 "$E2E_TMP/x/verdicts-$version/INSTALL" ||
  fail "the tarball's INSTALL does not say what the machine needs"
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB), $(basename "$tgz") ($(du -k "$tgz" | cut -f1) KiB)"

# ---------------------------------------------------------------------------------------------
# Debian 12 minbase, made once with debootstrap from Debian's mirror and kept under .build/, with
# apt's lists and the .debs of the Depends and of libcurl4 downloaded into it (so a run needs no
# network unless the Depends change). A run uses it through an overlay, and leaves it as made.
BASE="$ROOT/.build/debian12-minbase"
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
make_base() {
  [ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
  if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >"$E2E_TMP/apt.log" 2>&1 ||
      { echo "debootstrap is not installed and apt-get could not install it"; return 1; }
  fi
  rm -rf "$BASE.new"
  echo "package: debootstrap --variant=minbase bookworm (made once, kept in .build/debian12-minbase)" >&2
  debootstrap --variant=minbase bookworm "$BASE.new" "$MIRROR" >"$E2E_TMP/debootstrap.log" 2>&1 ||
    { tail -5 "$E2E_TMP/debootstrap.log" >&2; echo "debootstrap failed ($MIRROR)"; return 1; }
  cp /etc/resolv.conf "$BASE.new/etc/resolv.conf" 2>/dev/null || true
  # The packages are only downloaded: the root itself stays minbase.
  unshare --mount -- bash -c '
    mount -t proc proc "$1/proc" && chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
      bash -c "apt-get update -qq && apt-get install -y -qq --download-only --no-install-recommends $2"' \
    _ "$BASE.new" "$(echo $named) libcurl4" >"$E2E_TMP/base-apt.log" 2>&1 ||
    { tail -5 "$E2E_TMP/base-apt.log" >&2; echo "apt-get in the new root failed"; return 1; }
  touch "$BASE.new/.verdicts-base-made"
  rm -rf "$BASE" && mv "$BASE.new" "$BASE"
}
if [ ! -e "$BASE/.verdicts-base-made" ] && ! why=$(make_base); then
  echo "package: SKIP Debian 12 root: $why"
else
  echo "package: the .deb in Debian 12 minbase"
  start_instance
  CH="$E2E_TMP/ch"
  mkdir -p "$CH/upper" "$CH/work" "$CH/root"
  mkdir -p "$CH/upper/tmp"
  cp "$deb" "$CH/upper/tmp/verdicts.deb"
  [ ! -f "${STORE_COPY:-/nonexistent}" ] || cp "$STORE_COPY" "$CH/upper/tmp/device.store"
  cat >"$CH/upper/tmp/run.sh" <<'EOF'
set -euo pipefail
url=$1
before=$(dpkg-query -W -f '${Package}\n' | sort)
apt-get install -y -qq --no-install-recommends /tmp/verdicts.deb >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
after=$(dpkg-query -W -f '${Package}\n' | sort)
echo "added: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')"
echo "libcurl: $(ls /usr/lib/*/libcurl* 2>/dev/null | wc -l)"
echo "version: $(verdicts --version)"
if [ -f /tmp/device.store ]; then
  verdicts --store /tmp/device.store status | sed 's/^/status: /'
  echo "queue: $(verdicts --store /tmp/device.store queue --json | head -c 2)"
fi
export MARFA_API_KEY=tour-key-1
rc=0; verdicts --store /tmp/new.store --url "$url" fill >/tmp/fill.out 2>&1 || rc=$?
echo "fill without libcurl: exit $rc: $(head -1 /tmp/fill.out)"
apt-get install -y -qq --no-install-recommends libcurl4 >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
verdicts --store /tmp/new.store --url "$url" fill | sed 's/^/fill: /'
verdicts --store /tmp/new.store items create --type note --properties '{"n":1}' >/dev/null
verdicts --store /tmp/new.store --url "$url" drain | sed 's/^/drain: /'
echo DONE
EOF
  unshare --mount -- bash -c '
    set -e; ch=$1
    mount -t overlay overlay -o "lowerdir=$2,upperdir=$ch/upper,workdir=$ch/work" "$ch/root"
    mount -t proc proc "$ch/root/proc"
    mount --rbind /dev "$ch/root/dev"
    exec chroot "$ch/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
      DEBIAN_FRONTEND=noninteractive bash /tmp/run.sh "$3"' _ "$CH" "$BASE" "$INSTANCE_URL" >"$E2E_TMP/chroot.out" 2>&1 ||
    { cat "$E2E_TMP/chroot.out" >&2; fail "the .deb in Debian 12 failed"; }
  out=$(cat "$E2E_TMP/chroot.out")
  sed 's/^/  debian12: /' <<<"$out"
  grep -q '^DONE$' <<<"$out" || fail "the Debian 12 run did not finish"
  added=$(sed -n 's/^added: //p' <<<"$out" | tr ' ' '\n' | grep -v '^$' | grep -vx verdicts | sorted)
  [ -n "$added" ] || fail "apt added nothing but verdicts: minbase should lack libsqlite3-0 and libncursesw6"
  extra=$(comm -23 <(echo "$added") <(echo "$named")) || true
  [ -z "$extra" ] || fail "apt brought packages that are not Depends: $(echo $extra)"
  grep -qx 'libcurl: 0' <<<"$out" || fail "libcurl came with the .deb's Depends"
  grep -qF "version: $("$REL" --version)" <<<"$out" || fail "verdicts --version in Debian 12"
  if [ -f "${STORE_COPY:-/nonexistent}" ]; then
    grep -qE '^status: queue +[0-9]+ waiting, [0-9]+ answered' <<<"$out" || fail "status in Debian 12"
    grep -qx 'queue: \[{' <<<"$out" || fail "queue --json in Debian 12"
  fi
  grep -qE '^fill without libcurl: exit 3: .*libcurl' <<<"$out" || fail "fill without libcurl should exit 3 naming libcurl"
  grep -qE '^drain: answered 1, held 0, undelivered 0' <<<"$out" || fail "drain in Debian 12 with libcurl4"
fi

e2e_done
