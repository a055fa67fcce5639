#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sets up the vendor's msaccucmp (Ascend/msprobe) as the reference the diff
# tests compare against:
#
#   tests/diff/setup-msaccucmp.sh MSPROBE_CHECKOUT DEST
#
# MSPROBE_CHECKOUT is a git repository of Ascend/msprobe (a clone or a bare
# mirror). DEST is created and must be outside this repository: the vendor's
# code is never copied into it. Then point the tests at it:
#
#   OVI_MSACCUCMP=DEST meson test -C BUILD --suite diff
#
# msprobe's current msaccucmp reads dump headers through a closed CANN
# library (libascend_dump_parser.so) that is not in the repository, so this
# takes the last revision that reads them with the protobuf module and
# generates dump_data_pb2.py from that revision's resource/dump_data.proto.
# Its ten metric algorithms are the same as the current ones. MSACCUCMP_REV
# in the environment picks another revision of that layout.
#
# Needs Debian's python3-numpy, python3-protobuf, python3-psutil and
# protobuf-compiler (apt-get install -y ...).
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 MSPROBE_CHECKOUT DEST" >&2
	exit 2
fi
checkout=$1
dest=$2
rev=${MSACCUCMP_REV:-72c5bd4cb59baf85adce39a7b2d7048d23cfb563}
python=${OVI_PYTHON:-/usr/bin/python3}

if [ -d "$checkout/.git" ] || [ -f "$checkout/.git" ]; then
	git_dir=$(git -C "$checkout" rev-parse --git-dir)
	case $git_dir in /*) ;; *) git_dir=$checkout/$git_dir ;; esac
elif [ -f "$checkout/HEAD" ] && [ -d "$checkout/objects" ]; then
	git_dir=$checkout
else
	echo "$0: $checkout: not a git repository of Ascend/msprobe" >&2
	exit 1
fi
if ! git --git-dir="$git_dir" cat-file -e "$rev:resource/dump_data.proto" 2>/dev/null; then
	echo "$0: $checkout: revision $rev with resource/dump_data.proto not found" \
		"(a shallow clone? fetch the full history)" >&2
	exit 1
fi
for tool in protoc "$python"; do
	if ! command -v "$tool" >/dev/null; then
		echo "$0: $tool not found (apt-get install -y protobuf-compiler python3)" >&2
		exit 1
	fi
done
if ! "$python" -c 'import numpy, google.protobuf, psutil' 2>/dev/null; then
	echo "$0: $python lacks numpy, protobuf or psutil" \
		"(apt-get install -y python3-numpy python3-protobuf python3-psutil)" >&2
	exit 1
fi

if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
	echo "$0: $dest exists and is not empty" >&2
	exit 1
fi
mkdir -p "$dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git --git-dir="$git_dir" archive "$rev" src/compare resource/dump_data.proto | tar -x -C "$work"
cp -R "$work/src/compare/." "$dest/"
protoc --proto_path="$work/resource" --python_out="$dest" "$work/resource/dump_data.proto"
echo "$rev" >"$dest/MSPROBE_REVISION"

# It must start and parse its arguments.
if ! (cd "$dest" && "$python" msaccucmp.py compare --help >/dev/null); then
	echo "$0: $dest/msaccucmp.py does not start" >&2
	exit 1
fi
echo "msaccucmp set up in $dest (msprobe $rev)"
