#!/bin/sh
# A stand-in GoogleTest binary for the pair tests. Reads "Suite.Name outcome" lines from
# tests.txt in the current directory and writes a GoogleTest JSON report the way a real binary
# does under `gridlock pair`: to $GRIDLOCK_RESULTS_DIR, one file per rank when
# OMPI_COMM_WORLD_RANK is set, honouring GTEST_FILTER (exact names joined by ':').
# Outcomes: pass, fail, skip, flaky (fails until flaky.count exists in the tree, then passes),
# crash (leaves a truncated report and dies), rankfail (fails on rank 1 only).
set -e
rank=${OMPI_COMM_WORLD_RANK:-}
dir="$GRIDLOCK_RESULTS_DIR${rank:+/rank$rank}"
mkdir -p "$dir"
out="$dir/suite.json"
echo "$GRIDLOCK_RUN ${GTEST_FILTER:-all}" >> runs.log
first=1
crash=0
{
  printf '{"testsuites": ['
  while read -r id outcome; do
    if [ -n "${GTEST_FILTER:-}" ]; then
      case ":$GTEST_FILTER:" in *":$id:"*) ;; *) continue ;; esac
    fi
    case "$outcome" in
      flaky) if [ -e flaky.count ]; then outcome=pass; else : > flaky.count; outcome=fail; fi ;;
      rankfail) if [ "$rank" = 1 ]; then outcome=fail; else outcome=pass; fi ;;
      crash) crash=1; break ;;
    esac
    [ $first = 1 ] || printf ', '
    first=0
    result=COMPLETED
    [ "$outcome" = skip ] && result=SKIPPED
    printf '{"name": "%s", "testsuite": [{"name": "%s", "status": "RUN", "result": "%s"' \
      "${id%%.*}" "${id#*.}" "$result"
    if [ "$outcome" = fail ]; then
      printf ', "failures": [{"failure": "%s/model_test.cpp:%s\\n%s failed on rank %s", "type": ""}]' \
        "$PWD" "$$" "$id" "${rank:-0}"
    fi
    printf '}]}'
  done < tests.txt
  [ $crash = 1 ] || printf ']}\n'
} > "$out"
[ $crash = 0 ] || exit 139
