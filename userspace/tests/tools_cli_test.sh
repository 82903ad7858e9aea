#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools_cli_test.sh - host test (TAP) of what both commands promise about
# their command lines (Documentation/userspace.rst, "One way to use every
# command"), on the release build/bin/ programs, without a device:
#   - neuronsim --help, and --help after every subcommand (before and
#     after -j);
#   - -j before or after the subcommand gives the same output, for
#     neuronsim and neuronsim-cc;
#   - under -j every error is one JSON object {"error": {...}} on stderr
#     (errno, message, command, file as known), with the exit status of
#     the text mode: 1 a failed operation, 2 bad usage (neuronsim);
#   - the text messages stay as they were;
#   - neuronsim-cc plan --memory: the same JSON with -j before or after,
#     for a NEFF as for its plan; exit 2 when the model does not fit;
#   - neuronsim monitor -c reads a pipe; --prometheus --port outlives a
#     client that resets its connection or trickles its request.
# Device 63 (-d 63) is never there, so opening it fails with ENOENT.
# Run by scripts/check.sh after make all (it is in HOST_TESTS).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
ns=$top/build/bin/neuronsim
cc=$top/build/bin/neuronsim-cc
mkneff=$top/build/bin/mkneff
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsim-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# ok NAME CMD..., $n and $fails
. "$top/userspace/tests/tap.sh"

# run WANT_RC CMD...: CMD's stdout in $tmp/o, stderr in $tmp/e; its exit
# status must be WANT_RC
run() {
	local want=$1 rc
	shift
	"$@" > "$tmp/o" 2> "$tmp/e"
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit status $rc, want $want: $*"; cat "$tmp/e"; return 1; }
}

# json_error ERRNO [KEY=VALUE...]: $tmp/e is exactly one line, a JSON
# object {"error": {...}} whose errno is ERRNO ("-" for none) and whose
# members KEY are VALUE
json_error() {
	python3 - "$tmp/e" "$@" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
if len(lines) != 1:
    sys.exit("stderr has %d lines, want one JSON object: %r" % (len(lines), lines))
e = json.loads(lines[0])["error"]
want = sys.argv[2]
if want == "-":
    if "errno" in e:
        sys.exit("errno %s, want none" % e["errno"])
elif e.get("errno") != want:
    sys.exit("errno %r, want %s: %r" % (e.get("errno"), want, e))
if not e.get("message"):
    sys.exit("no message: %r" % e)
for kv in sys.argv[3:]:
    k, v = kv.split("=", 1)
    if str(e.get(k)) != v:
        sys.exit("%s is %r, want %r: %r" % (k, e.get(k), v, e))
PY
}

help_all() {
	local c
	run 0 "$ns" --help || return 1
	for c in $(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' "$tmp/o"); do
		run 0 "$ns" "$c" --help || return 1
		grep -q "^usage: neuronsim .*$c" "$tmp/o" || { echo "$c --help: no usage line"; cat "$tmp/o"; return 1; }
		run 0 "$ns" -j "$c" --help || return 1
		run 0 "$ns" "$c" -h -j || return 1
		echo "$c"
	done > "$tmp/cmds"
	[ "$(wc -l < "$tmp/cmds")" -ge 8 ] || { echo "only $(wc -l < "$tmp/cmds") subcommands listed"; return 1; }
}

no_device_text() {
	run 1 "$ns" -d 63 info || return 1
	grep -qx "neuronsim: info: /dev/neuronsim63: No such file or directory" "$tmp/e" ||
		{ echo "text message:"; cat "$tmp/e"; return 1; }
}

no_device_json() {
	local where
	for where in before after; do
		if [ $where = before ]; then
			run 1 "$ns" -j -d 63 info || return 1
		else
			run 1 "$ns" -d 63 info -j || return 1
		fi
		[ ! -s "$tmp/o" ] || { echo "stdout not empty"; return 1; }
		json_error ENOENT command=info || return 1
	done
}

usage_json() {
	run 2 "$ns" -j load || return 1
	json_error EINVAL command=load || return 1
	run 2 "$ns" load --core -j || return 1
	json_error EINVAL command=load || return 1
	run 2 "$ns" frobnicate -j || return 1
	json_error EINVAL || return 1
	run 2 "$ns" -j resolve plan.kbin 'w+12q' || return 1
	json_error EINVAL command=resolve || return 1
	grep -q "offset '12q' is not a number" "$tmp/e"
}

usage_text() {
	run 2 "$ns" load || return 1
	grep -qx "neuronsim: load: missing PLAN (try --help)" "$tmp/e" || { cat "$tmp/e"; return 1; }
	run 2 "$ns" frobnicate || return 1
	grep -q "^neuronsim: unknown command 'frobnicate'" "$tmp/e"
}

cc_json_where() {
	"$mkneff" demo "$tmp/demo.neff" > /dev/null || return 1
	run 0 "$cc" -j info "$tmp/demo.neff" || return 1
	mv "$tmp/o" "$tmp/before"
	run 0 "$cc" info -j "$tmp/demo.neff" || return 1
	cmp "$tmp/before" "$tmp/o" || return 1
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/o" || return 1
	run 0 "$cc" -j compile "$tmp/demo.neff" -o "$tmp/demo.kbin" || return 1
	mv "$tmp/o" "$tmp/before"
	run 0 "$cc" compile "$tmp/demo.neff" -o "$tmp/demo.kbin" --json || return 1
	cmp "$tmp/before" "$tmp/o" || return 1
	run 0 "$cc" -j dump "$tmp/demo.kbin" || return 1
	mv "$tmp/o" "$tmp/before"
	run 0 "$cc" dump -j "$tmp/demo.kbin" || return 1
	cmp "$tmp/before" "$tmp/o"
}

# plan --memory: -j before or after; the NEFF and its plan give the same
# figures; exit 2 when it does not fit, 1 for an error (a JSON one)
cc_plan_memory() {
	run 0 "$cc" -j plan --memory "$tmp/demo.kbin" || return 1
	mv "$tmp/o" "$tmp/before"
	run 0 "$cc" plan --memory -j "$tmp/demo.kbin" || return 1
	cmp "$tmp/before" "$tmp/o" || return 1
	run 0 "$cc" plan --memory -j "$tmp/demo.neff" || return 1
	python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
del a["file"], b["file"]
assert a == b and a["fits"] and a["total"] > 0, (a, b)' "$tmp/before" "$tmp/o" || return 1
	run 2 "$cc" plan --memory --first-core 64 "$tmp/demo.kbin" || return 1
	grep -q "^  cores (ENODEV): " "$tmp/o" || { cat "$tmp/o"; return 1; }
	run 1 "$cc" -j plan --memory --arch trn9 "$tmp/demo.kbin" || return 1
	json_error EINVAL command=plan
}

cc_errors_json() {
	run 1 "$cc" -j info "$tmp/nosuch.neff" || return 1
	json_error ENOENT "file=$tmp/nosuch.neff" || return 1
	run 1 "$cc" info "$tmp/nosuch.neff" -j || return 1
	json_error ENOENT "file=$tmp/nosuch.neff" || return 1
	run 1 "$cc" -j compile "$tmp/nosuch.neff" || return 1
	json_error EINVAL command=compile || return 1
	run 1 "$cc" frob -j || return 1
	run 1 "$cc" -j frob || return 1
	json_error EINVAL
}

cc_errors_text() {
	run 1 "$cc" info "$tmp/nosuch.neff" || return 1
	grep -qx "neuronsim-cc: $tmp/nosuch.neff: No such file or directory" "$tmp/e" ||
		{ cat "$tmp/e"; return 1; }
}

# monitor -c: the configuration is read as a stream (a pipe, /dev/stdin);
# a directory is EISDIR and a file over 1 MiB EFBIG, exit 2
monitor_config_files() {
	local conf='{"period": "0.05s", "system_metrics": [{"type": "memory_info"}]}'
	run 0 "$ns" -d 63 -j monitor -c <(echo "$conf") --count 1 || return 1
	python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert list(r) == ["neuron_runtime_data", "system_data", "instance_info",
                   "neuron_hardware_info"], list(r)
assert list(r["system_data"]) == ["memory_info"], r["system_data"]' "$tmp/o" || return 1
	echo "$conf" | "$ns" -d 63 -j monitor -c /dev/stdin --count 1 > "$tmp/o" 2> "$tmp/e" ||
		{ echo "-c /dev/stdin: exit $?"; cat "$tmp/e"; return 1; }
	grep -q '"memory_info"' "$tmp/o" || return 1
	mkdir -p "$tmp/confdir"
	run 2 "$ns" -d 63 -j monitor -c "$tmp/confdir" || return 1
	json_error EISDIR command=monitor || return 1
	head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' > "$tmp/big.conf"
	run 2 "$ns" -d 63 -j monitor -c "$tmp/big.conf" || return 1
	json_error EFBIG command=monitor
}

# monitor --prometheus --port: a client that resets its connection is
# no SIGPIPE, a client that trickles its request is cut after 2 s, and
# the next GET is served
monitor_http_clients() {
	local port pid rc
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$ns" -d 63 monitor --prometheus --port "$port" --period 0.1 > "$tmp/mon.out" 2> "$tmp/mon.err" &
	pid=$!
	python3 - "$port" <<'PY'
import socket, struct, sys, time
port = int(sys.argv[1])
for i in range(100):
    try:
        socket.create_connection(("127.0.0.1", port)).close()
        break
    except OSError:
        time.sleep(0.05)
for i in range(20):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.send(b"GET / HTTP/1.0\r\n\r\n")
    s.close()
    time.sleep(0.02)
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(0.25)
t0 = time.time()
cut = None
while time.time() - t0 < 6:
    try:
        s.send(b"G")
        if s.recv(100) == b"":
            cut = time.time() - t0
            break
    except socket.timeout:
        pass
    except OSError:
        cut = time.time() - t0
        break
if cut is None or cut > 3:
    sys.exit("a request trickled byte by byte was not cut after 2 s (%s)" % cut)
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
reply = b""
while True:
    d = s.recv(65536)
    if not d:
        break
    reply += d
if not reply.startswith(b"HTTP/1.0 200 OK") or b"# TYPE system_memory_total_bytes gauge" not in reply:
    sys.exit("no exposition: %r" % reply[:200])
PY
	rc=$?
	kill -0 "$pid" 2> /dev/null || { wait "$pid"; echo "the monitor died: exit $?"; cat "$tmp/mon.err"; return 1; }
	kill -TERM "$pid"
	wait "$pid" || { echo "monitor exit $?"; return 1; }
	return $rc
}

echo "TAP version 13"
ok "neuronsim --help, and --help after every subcommand (with -j too)" help_all
ok "neuronsim without the device: the text message, exit 1" no_device_text
ok "neuronsim -j before or after the subcommand: one JSON error on stderr (ENOENT), exit 1" no_device_json
ok "neuronsim bad usage under -j: JSON errors (EINVAL), exit 2" usage_json
ok "neuronsim bad usage in text: the messages, exit 2" usage_text
ok "neuronsim monitor -c: a pipe or /dev/stdin is read; a directory EISDIR, over 1 MiB EFBIG (exit 2)" monitor_config_files
ok "neuronsim monitor --prometheus --port: a reset connection, a trickled request, then a GET served" monitor_http_clients
ok "neuronsim-cc -j before or after the subcommand: the same JSON (info, compile, dump)" cc_json_where
ok "neuronsim-cc plan --memory: -j before or after, a NEFF as its plan, exit 2 when it does not fit" cc_plan_memory
ok "neuronsim-cc errors under -j: one JSON object on stderr, exit 1" cc_errors_json
ok "neuronsim-cc errors in text: the message, exit 1" cc_errors_text
echo "1..$n"
[ $fails -eq 0 ]
