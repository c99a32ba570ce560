#!/bin/sh
# crabtalk installer. POSIX sh: runs under dash, busybox sh, bash and zsh.
#
#   curl -fsSL https://github.com/crabtalk/crabtalk/releases/latest/download/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- --add-to-path --version 0.2.0
#
# Downloads the prebuilt binary for this OS and CPU, checks it against the
# release's SHA256SUMS and moves it into place in one step, so a failed or
# interrupted install leaves nothing behind and an upgrade never leaves a
# half-written binary. Run `sh install.sh --help` for the options.
set -u

RELEASES_URL=${CRABTALK_RELEASES_URL:-https://github.com/crabtalk/crabtalk/releases}
# `crabtalk uninstall` finds the PATH line by this comment (src/cli/shell-profile.ts).
MARKER="# added by the crabtalk installer"

version=${CRABTALK_VERSION:-}
add_to_path=0
sums=""
binary=""
made_dir=""
made_top=""

usage() {
  cat <<'EOF'
Install crabtalk, the local agent daemon.

Usage: sh install.sh [--version X] [--add-to-path] [--help]

Options:
  --version X     install release X (default: the latest release)
  --add-to-path   add the install directory to PATH in your shell's startup
                  file (bash, zsh or fish; otherwise ~/.profile)
  -h, --help      show this help

Environment:
  CRABTALK_INSTALL_DIR   where the binary goes (default: ~/.crabtalk/bin)
  CRABTALK_VERSION       same as --version
  CRABTALK_DOWNLOAD_URL  a directory URL holding the release assets and SHA256SUMS
                         (a mirror, a proxy or your own build)
  CRABTALK_INSTALL_TARGET  the build to install instead of the detected one,
                         e.g. linux-x64-baseline

Re-running the installer upgrades crabtalk in place, also while the daemon
runs; then run `crabtalk restart`. `crabtalk uninstall` removes it again.
EOF
}

say() { printf '%s\n' "$*"; }

cleanup() {
  [ -z "$sums" ] || rm -f "$sums"
  [ -z "$binary" ] || rm -f "$binary"
  # The directories we created for a failed install go too (each only if empty),
  # up to the first one that did not exist: a fresh install leaves no empty ~/.crabtalk.
  if [ -n "$made_dir" ] && [ ! -e "$made_dir/crabtalk" ]; then
    d=$made_dir
    while rmdir "$d" 2>/dev/null && [ "$d" != "$made_top" ]; do d=$(dirname "$d"); done
  fi
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

die() {
  printf 'crabtalk install: %s\n' "$*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs a value, e.g. --version 0.2.0"; version=$2; shift ;;
    --version=*) version=${1#--version=} ;;
    --add-to-path) add_to_path=1 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
version=${version#v}

# --- which build -----------------------------------------------------------

has() { command -v "$1" >/dev/null 2>&1; }

is_musl() {
  if has ldd && ldd --version 2>&1 | grep -qi musl; then return 0; fi
  for f in /lib/ld-musl-*.so.1; do [ -e "$f" ] && return 0; done
  return 1
}

# Bun's default x64 build needs AVX2; older CPUs get the -baseline build.
has_avx2() {
  grep -qw avx2 "${CRABTALK_TEST_CPUINFO:-/proc/cpuinfo}" 2>/dev/null
}

detect_target() {
  os=$(uname -s 2>/dev/null)
  arch=$(uname -m 2>/dev/null)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "on Windows, download crabtalk-windows-x64.exe from $(base_url)/crabtalk-windows-x64.exe and put it on your PATH" ;;
    *) die "no crabtalk build for $os; builds exist for Linux and macOS on x64 and arm64, and Windows x64" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no crabtalk build for $arch CPUs on $os; builds exist for x64 and arm64" ;;
  esac
  # A shell under Rosetta 2 reports x86_64 on an Apple silicon Mac: the native build is faster.
  if [ "$os-$arch" = darwin-x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null)" = 1 ]; then
    arch=arm64
  fi
  target="$os-$arch"
  if [ "$os" = linux ] && is_musl; then
    [ "$arch" = x64 ] || die "no crabtalk build for musl libc on $arch; builds exist for musl on x64"
    target="$target-musl"
  elif [ "$target" = linux-x64 ] && ! has_avx2; then
    target="$target-baseline"
  fi
  say "$target"
}

base_url() {
  if [ -n "${CRABTALK_DOWNLOAD_URL:-}" ]; then
    say "${CRABTALK_DOWNLOAD_URL%/}"
  elif [ -n "$version" ]; then
    say "$RELEASES_URL/download/v$version"
  else
    say "$RELEASES_URL/latest/download"
  fi
}

# --- download and verify ---------------------------------------------------

# Fetches url into file; on failure sets $why to the downloader's own error
# (curl's or wget's), so the one error line can say what went wrong.
download() { # url file
  if has curl; then
    why=$(curl -fsSL --retry 2 -o "$2" "$1" 2>&1) && return 0
  elif has wget; then
    why=$(wget -q -O "$2" "$1" 2>&1) && return 0
  else
    die "neither curl nor wget is installed: install one of them (e.g. 'apt-get install curl') and run this again"
  fi
  why=$(printf '%s' "$why" | tr '\n' ' ')
  return 1
}

sha256_of() {
  if has sha256sum; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif has shasum; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif has openssl; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    die "cannot verify the download: no sha256sum, shasum or openssl found; install one of them (coreutils, perl or openssl)"
  fi
}

# The topmost directory of $1 that does not exist yet (what `mkdir -p $1` creates first).
first_missing() {
  d=$1
  top=$1
  while [ ! -e "$d" ]; do
    top=$d
    d=$(dirname "$d")
  done
  say "$top"
}

# Temp files live in the install directory, so the final mv is an atomic rename.
temp_path() { say "$install_dir/.crabtalk-install.$$.$1"; }

# --- PATH ------------------------------------------------------------------

on_path() {
  case ":$PATH:" in *":$1:"*) return 0 ;; esac
  return 1
}

profile_file() {
  case "$(basename "${SHELL:-sh}")" in
    zsh) say "${ZDOTDIR:-$HOME}/.zshrc" ;;
    fish) say "${XDG_CONFIG_HOME:-$HOME/.config}/fish/config.fish" ;;
    bash) if [ "$(uname -s)" = Darwin ]; then say "$HOME/.bash_profile"; else say "$HOME/.bashrc"; fi ;;
    *) say "$HOME/.profile" ;;
  esac
}

add_path_line() {
  file=$(profile_file)
  case "$file" in
    *.fish) line="set -gx PATH \"$install_dir\" \$PATH $MARKER" ;;
    *) line="export PATH=\"$install_dir:\$PATH\" $MARKER" ;;
  esac
  if [ -f "$file" ] && grep -qF "$line" "$file"; then
    say "PATH: $file already adds $install_dir"
    return
  fi
  mkdir -p "$(dirname "$file")" && printf '\n%s\n' "$line" >>"$file" ||
    die "could not write $file; add $install_dir to PATH yourself"
  say "PATH: added $install_dir in $file (open a new shell to use it)"
}

print_path_hint() {
  say ""
  say "$install_dir is not on your PATH. Add it with one of:"
  say "  export PATH=\"$install_dir:\$PATH\"   # bash, zsh: put it in ~/.bashrc or ~/.zshrc"
  say "  fish_add_path \"$install_dir\"        # fish"
  say "or run the installer again with --add-to-path."
}

# --- install ---------------------------------------------------------------

install_dir=${CRABTALK_INSTALL_DIR:-$HOME/.crabtalk/bin}
if [ -n "${CRABTALK_INSTALL_TARGET:-}" ]; then
  target=$CRABTALK_INSTALL_TARGET
else
  target=$(detect_target) || exit 1
fi
asset="crabtalk-$target"
url=$(base_url)
dest="$install_dir/crabtalk"

if [ ! -d "$install_dir" ]; then
  # The default lives in the daemon's home, which holds conversations and keys: owner only.
  [ -n "${CRABTALK_INSTALL_DIR:-}" ] || umask 077
  made_top=$(first_missing "$install_dir")
  mkdir -p "$install_dir" 2>/dev/null ||
    die "cannot create $install_dir (permission denied?): choose another directory with CRABTALK_INSTALL_DIR"
  made_dir=$install_dir
fi

sums=$(temp_path sums)
binary=$(temp_path bin)
touch "$binary" 2>/dev/null ||
  die "cannot write to $install_dir (permission denied?): choose another directory with CRABTALK_INSTALL_DIR"

say "Downloading $asset from $url"
release="release ${version:-latest}"
download "$url/SHA256SUMS" "$sums" ||
  die "could not download $url/SHA256SUMS ($why): check your connection, and that $release exists"
expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$sums")
[ -n "$expected" ] || die "SHA256SUMS at $url lists no $asset; $release has no build for $target (set CRABTALK_INSTALL_TARGET to pick another, or try another --version)"

old_version=""
[ -x "$dest" ] && old_version=$("$dest" --version 2>/dev/null)
up_to_date=0
# The installed binary already is this release's build: nothing to download.
if [ -n "$old_version" ] && [ "$(sha256_of "$dest")" = "$expected" ]; then up_to_date=1; fi

[ "$up_to_date" = 1 ] || download "$url/$asset" "$binary" ||
  die "could not download $url/$asset ($why): check your connection, and that $release has a build for $target"
if [ "$up_to_date" = 0 ]; then
  actual=$(sha256_of "$binary") || exit 1
  [ "$actual" = "$expected" ] ||
    die "checksum mismatch for $asset (expected $expected, got $actual): the download is corrupt or tampered with; nothing was installed"
  chmod 755 "$binary" || die "could not make $binary executable"
  new_version=$("$binary" --version 2>/dev/null) ||
    die "the downloaded $asset does not run on this machine; set CRABTALK_INSTALL_TARGET (e.g. linux-x64-baseline) to pick another build"
  # The same version already installed (another build of it): leave it.
  [ "$new_version" = "$old_version" ] && up_to_date=1
fi

if [ "$up_to_date" = 1 ]; then
  say "crabtalk is already up to date: $old_version at $dest"
elif ! mv -f "$binary" "$dest"; then
  die "could not move the new binary to $dest"
elif [ -n "$old_version" ]; then
  say "Upgraded $dest: $old_version -> $new_version"
  say "If the daemon is running, run 'crabtalk restart' so it uses the new version."
else
  say "Installed $new_version to $dest"
fi

if on_path "$install_dir"; then
  [ "$add_to_path" = 0 ] || say "PATH: $install_dir is already on your PATH; nothing added"
elif [ "$add_to_path" = 1 ]; then
  add_path_line
else
  print_path_hint
fi
say ""
say "Next: 'crabtalk start' runs the daemon as a user service; 'crabtalk --help' lists the commands."
