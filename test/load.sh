#!/usr/bin/env bash
# Runs a command N times while two busy loops keep two cores loaded, and
# prints how many runs failed: flaky tests fail under load, rarely at rest.
#
#   test/load.sh                                  # 5 runs of `bash .ci/run`
#   test/load.sh -n 10 -- bun test test/agent/send-stream.test.ts
#
# -n RUNS (default 5), -b BUSY (busy loops, default 2). The busy loops are
# stopped when the script ends, however it ends (a trap).
set -uo pipefail
cd "$(dirname "$0")/.."

runs=5
busy=2
while getopts "n:b:h" opt; do
  case "$opt" in
    n) runs=$OPTARG ;;
    b) busy=$OPTARG ;;
    *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
case "$runs$busy" in
  *[!0-9]*) echo "test/load.sh: -n and -b take whole numbers" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- bash .ci/run

loops=()
stop_loops() {
  [ ${#loops[@]} -gt 0 ] && kill "${loops[@]}" 2>/dev/null
  wait "${loops[@]}" 2>/dev/null
  loops=()
}
trap stop_loops EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$busy"); do
  (while :; do :; done) &
  loops+=($!)
done

failures=0
for i in $(seq "$runs"); do
  printf '== run %d/%d: %s\n' "$i" "$runs" "$*"
  if "$@"; then
    echo "== run $i passed"
  else
    failures=$((failures + 1))
    echo "== run $i FAILED"
  fi
done
echo "$runs runs, $failures failed (under $busy busy loops)"
[ "$failures" -eq 0 ]
