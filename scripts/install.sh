#!/bin/sh
# Installs the xcsh-hooks executable for this machine: picks the release asset for the OS and CPU,
# checks it against the release's SHA256SUMS, and puts it on PATH.
#
#   sh install.sh [--dir DIR] [--version X.Y.Z]
#
#   --dir DIR        where to install (default: ~/.local/bin)
#   --version X.Y.Z  the release to install (default: the one SHA256SUMS lists)
#   XCSH_HOOKS_RELEASE=<folder or URL>   where the assets and SHA256SUMS are
#                    (default: the latest GitHub release)
#
# Nothing is installed unless the checksum matches.
set -eu

DEFAULT_RELEASE="https://github.com/f5-sales-demo/xcsh-hooks/releases/latest/download"
release="${XCSH_HOOKS_RELEASE:-$DEFAULT_RELEASE}"
dir="${HOME:?HOME is not set}/.local/bin"
version=""

fail() {
	printf 'xcsh-hooks install: %s\n' "$1" >&2
	exit 1
}

while [ $# -gt 0 ]; do
	case "$1" in
		--dir) [ $# -ge 2 ] || fail "--dir needs a folder"; dir="$2"; shift 2 ;;
		--dir=*) dir="${1#--dir=}"; shift ;;
		--version) [ $# -ge 2 ] || fail "--version needs a version such as 0.1.0"; version="$2"; shift 2 ;;
		--version=*) version="${1#--version=}"; shift ;;
		-h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" 2>/dev/null; exit 0 ;;
		*) fail "unknown option $1 (expected --dir DIR or --version X.Y.Z)" ;;
	esac
done

# The platform name the release uses for this machine.
platform() {
	os=$(uname -s)
	arch=$(uname -m)
	case "$arch" in
		x86_64 | amd64) arch=x64 ;;
		aarch64 | arm64) arch=arm64 ;;
		*) fail "no release for the CPU $arch (available: x64, arm64)" ;;
	esac
	case "$os" in
		Linux)
			if [ "$arch" = x64 ] && { [ -f /etc/alpine-release ] || ldd --version 2>&1 | grep -qi musl; }; then
				echo linux-x64-musl
			else
				echo "linux-$arch"
			fi ;;
		Darwin) echo "darwin-$arch" ;;
		MINGW* | MSYS* | CYGWIN*) echo windows-x64 ;;
		*) fail "no release for the OS $os (available: Linux, macOS, Windows)" ;;
	esac
}

# Copies the release file $1 to $2, from a folder or over HTTP(S).
fetch() {
	case "$release" in
		http://* | https://*)
			if command -v curl >/dev/null 2>&1; then curl -fsSL "$release/$1" -o "$2" || fail "could not download $release/$1"
			elif command -v wget >/dev/null 2>&1; then wget -q "$release/$1" -O "$2" || fail "could not download $release/$1"
			else fail "need curl or wget to download from $release"; fi ;;
		*)
			[ -f "$release/$1" ] || fail "$release/$1: no such file (XCSH_HOOKS_RELEASE must hold the release assets and SHA256SUMS)"
			cp "$release/$1" "$2" ;;
	esac
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
	elif command -v openssl >/dev/null 2>&1; then openssl dgst -sha256 -r "$1" | cut -d' ' -f1
	else fail "need sha256sum, shasum or openssl to verify the download"; fi
}

target=$(platform)
tmp=$(mktemp -d 2>/dev/null || mktemp -d -t xcsh-hooks)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fetch SHA256SUMS "$tmp/SHA256SUMS"
# Every line must be `<64 hex digits>  <name>` (or ` *<name>`), each name listed once: a file that
# says two things about one asset, or something else, is not trusted for any of them.
problem=$(awk '
	/^$/ { next }
	{
		if (index($0, "\r") || $0 !~ /^[0-9A-Fa-f]+ [ *][^ \/]+$/ || length($1) != 64) { printf "line %d cannot be read (%s)", NR, $0; exit }
		name = $2; sub(/^\*/, "", name)
		if (seen[name]++) { printf "%s is listed twice", name; exit }
	}' "$tmp/SHA256SUMS")
[ -z "$problem" ] || fail "SHA256SUMS from $release: $problem; nothing installed"
suffix="-$target"
[ "$target" = windows-x64 ] && suffix="$suffix.exe"
if [ -n "$version" ]; then
	asset="xcsh-hooks-$version$suffix"
	expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1 }' "$tmp/SHA256SUMS")
else
	line=$(awk -v s="$suffix" 'substr($2, length($2) - length(s) + 1) == s && $2 ~ /^\*?xcsh-hooks-[0-9]/ { print }' "$tmp/SHA256SUMS" | tail -n 1)
	expected=${line%% *}
	asset=${line##* }
	asset=${asset#\*}
fi
[ -n "$expected" ] && [ -n "$asset" ] || fail "SHA256SUMS from $release lists no asset for $target${version:+ version $version}"

fetch "$asset" "$tmp/$asset"
actual=$(sha256 "$tmp/$asset")
[ "$actual" = "$expected" ] || fail "checksum mismatch for $asset: expected $expected, got $actual; nothing installed"

name=xcsh-hooks
[ "$target" = windows-x64 ] && name=xcsh-hooks.exe
mkdir -p "$dir" || fail "cannot create $dir"
chmod 755 "$tmp/$asset"
# Moved into place in one step: a running xcsh-hooks is never half overwritten.
cp "$tmp/$asset" "$dir/.$name.new" && mv -f "$dir/.$name.new" "$dir/$name" || fail "cannot write $dir/$name"

printf 'installed %s (%s) to %s\n' "$asset" "$target" "$dir/$name"
case ":${PATH:-}:" in
	*":$dir:"*) ;;
	*) printf 'note: %s is not on PATH; add it, e.g. export PATH="%s:$PATH"\n' "$dir" "$dir" ;;
esac
# The self-check's output is captured: a reader that closed our stdout (`install.sh | head -1`) must not
# make a binary that runs look as if it did not.
version_line=$("$dir/$name" --version 2>&1) || fail "$dir/$name was installed but does not run on this machine: $version_line"
printf '%s\n' "$version_line"
