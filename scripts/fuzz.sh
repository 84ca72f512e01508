#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang in build-fuzz (ASan + UBSan,
# -O1 -g, CUDA off) and runs each for a bounded time. docs/testing.md has the
# details and docs/reliability.md the latest results.
#
#   scripts/fuzz.sh [--seconds N] [--no-build] [TARGET...]    (default: 60 s, every target)
#
# Seeds: fuzz/corpus/TARGET/ (committed), tests/data/fuzz_regressions/TARGET/
# (less those in its known_findings.txt) and the target's files of the shared
# data (CONTACTLAB_DATA_DIR, default ../shared/data beside the repository; the
# globs are in fuzz/CMakeLists.txt).
# What the fuzzer adds is kept in build-fuzz/runs/TARGET/corpus for the next
# run. A crash, sanitizer report, hang (-timeout), leak or out-of-memory input
# is copied to tests/data/fuzz_regressions/TARGET/ (commit it: the regression
# test tests/io/test_fuzz_regressions.cpp reads it) and the script exits 1.
#
# Environment: CONTACTLAB_DATA_DIR, CONTACTLAB_FUZZ_BUILD (build folder,
# default build-fuzz), CONTACTLAB_JOBS (build jobs), CONTACTLAB_FUZZ_TIMEOUT
# (seconds one input may take, default 10), CONTACTLAB_FUZZ_RSS_MB (default
# 2048), CONTACTLAB_FUZZ_ARGS (more libFuzzer flags), CXX (default clang++).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

seconds=60
build=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift ;;
    --seconds=*) seconds="${1#--seconds=}" ;;
    --no-build) build=0 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: --seconds wants a whole number, not '$seconds'" >&2; exit 2 ;; esac

dir="${CONTACTLAB_FUZZ_BUILD:-build-fuzz}"
data="${CONTACTLAB_DATA_DIR:-$root/../shared/data}"
jobs="${CONTACTLAB_JOBS:-$(nproc)}"
timeout="${CONTACTLAB_FUZZ_TIMEOUT:-10}"
rss="${CONTACTLAB_FUZZ_RSS_MB:-2048}"
manifest="$dir/fuzz/targets.txt"

if [ "$build" -eq 1 ]; then
  # Debug at -O1 -g: no NDEBUG, so Eigen's index assertions abort too. The
  # peers are not needed by the readers (and cost configure and build time).
  # Not a unity build: the one build in CI that compiles each library source
  # on its own, so a source that leans on another's includes fails here.
  cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" -DCONTACTLAB_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCONTACTLAB_CUDA=OFF \
    -DCONTACTLAB_MUJOCO=OFF -DCONTACTLAB_SICONOS=OFF -DCONTACTLAB_PYTHON=OFF -DCONTACTLAB_UNITY_BUILD=OFF \
    ${CONTACTLAB_CMAKE_ARGS:-} >/dev/null
fi
[ -f "$manifest" ] || { echo "fuzz.sh: $manifest missing (run without --no-build)" >&2; exit 2; }

declare -A exe max_len dict writes seeds
known=()
while IFS='|' read -r name path len dictionary written globs; do
  known+=("$name")
  exe[$name]="$path"; max_len[$name]="$len"; dict[$name]="$dictionary"; writes[$name]="$written"; seeds[$name]="$globs"
done < "$manifest"
if [ ${#targets[@]} -eq 0 ]; then
  targets=("${known[@]}")
fi
for t in "${targets[@]}"; do
  [ -n "${exe[$t]:-}" ] || { echo "fuzz.sh: unknown target '$t' (known: ${known[*]})" >&2; exit 2; }
done

if [ "$build" -eq 1 ]; then
  build_targets=()
  for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
  cmake --build "$dir" -j "$jobs" --target "${build_targets[@]}"
fi

if [ ! -d "$data" ]; then
  echo "fuzz.sh: no shared data at $data (CONTACTLAB_DATA_DIR): seeding from the committed corpus only" >&2
fi

shopt -s globstar nullglob
status=0
summary=()
for t in "${targets[@]}"; do
  run="$dir/runs/$t"
  mkdir -p "$run/corpus" "$run/artifacts"
  rm -rf "$run/seeds" "$run/artifacts"/*
  mkdir -p "$run/seeds"
  count=0
  if [ -d "$data" ]; then
    IFS=';' read -r -a patterns <<< "${seeds[$t]}"
    for pattern in "${patterns[@]}"; do
      for f in "$data"/$pattern; do
        [ -f "$f" ] || continue
        count=$((count + 1))
        ln -sf "$(realpath "$f")" "$run/seeds/$count-$(basename "$f")"
      done
    done
  fi
  # Kept inputs, less the known findings (tests/data/fuzz_regressions/known_findings.txt):
  # each would stop the target at once.
  for f in "tests/data/fuzz_regressions/$t"/*; do
    [ -f "$f" ] || continue
    [ -n "${writes[$t]}" ] && [ "${f##*.}" = "${writes[$t]}" ] && continue  # a file it wrote, not a recipe
    awk -v k="$t/$(basename "$f")" '$1 == k { found = 1 } END { exit !found }' \
      tests/data/fuzz_regressions/known_findings.txt 2>/dev/null && continue
    count=$((count + 1))
    ln -sf "$root/$f" "$run/seeds/kept-$(basename "$f")"
  done
  inputs=("$run/corpus" "$run/seeds")
  [ -d "fuzz/corpus/$t" ] && inputs+=("fuzz/corpus/$t")
  flags=(-max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" -print_final_stats=1
         -artifact_prefix="$run/artifacts/")
  [ "${max_len[$t]}" != 0 ] && flags+=(-max_len="${max_len[$t]}")
  [ -n "${dict[$t]}" ] && flags+=(-dict="${dict[$t]}")
  # shellcheck disable=SC2206
  flags+=(${CONTACTLAB_FUZZ_ARGS:-})
  echo "fuzz.sh: $t for ${seconds} s ($count seeds from the shared data and kept inputs; log $run/log.txt)"
  rc=0
  "${exe[$t]}" "${flags[@]}" "${inputs[@]}" > "$run/log.txt" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log.txt" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/log.txt" | tail -1)
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[0-9a-zA-Z]*' "$run/log.txt" | tail -1 || true)
  # -fork=N prints "#RUNS: cov: C ft: F corp: N exec/s R ..." instead.
  fork_line=$(grep -E '^#[0-9]+: cov: ' "$run/log.txt" | tail -1 || true)
  if [ -n "$fork_line" ]; then
    execs="${execs:-$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$fork_line")}"
    rate="${rate:-$(sed -E 's/.*exec\/s ([0-9]+).*/\1/' <<< "$fork_line")}"
    cov="${cov:-$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' <<< "$fork_line")}"
  fi
  line="$t: ${execs:-?} runs, ${rate:-?}/s, ${cov:-no coverage line}, exit $rc"
  found=("$run/artifacts"/*)
  if [ "$rc" -ne 0 ] || [ ${#found[@]} -gt 0 ]; then
    status=1
    mkdir -p "tests/data/fuzz_regressions/$t"
    for f in "${found[@]}"; do
      cp "$f" "tests/data/fuzz_regressions/$t/"
      # A structure-aware target's input is a recipe: keep the file it makes too.
      saved="tests/data/fuzz_regressions/$t/$(basename "$f").${writes[$t]}"
      if [ -n "${writes[$t]}" ] && [ ! -e "$saved" ]; then
        CONTACTLAB_FUZZ_SAVE_AS="$saved" "${exe[$t]}" -timeout="$timeout" "$f" >/dev/null 2>&1 || true
        [ -e "$saved" ] && chmod 644 "$saved"
      fi
    done
    line="$line: FINDING, kept in tests/data/fuzz_regressions/$t/: $(cd "$run/artifacts" && echo *)"
    grep -m1 -E 'ERROR: |runtime error|==ERROR|SUMMARY' "$run/log.txt" | sed 's/^/    /' || true
  fi
  echo "  $line"
  summary+=("$line")
done

echo "fuzz.sh: summary (${seconds} s per target)"
printf '  %s\n' "${summary[@]}"
if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: FINDINGS (logs in $dir/runs/TARGET/log.txt; inputs copied to tests/data/fuzz_regressions/)" >&2
fi
exit "$status"
