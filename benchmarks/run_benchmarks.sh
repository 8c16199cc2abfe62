#!/usr/bin/env bash
# `make bench`: runs the benchmark program (WG_BENCH_REPS repetitions, default 3, medians),
# writes the raw JSON, times `wargame simulate` with 1 and 2 threads (CPU time per game),
# builds the pinned baseline commit (WG_BENCH_BASELINE) and runs its random-game and AI
# benchmarks in turns with this build's, and prints the summary table (summarize.py).
#   usage: run_benchmarks.sh [build-dir]     (default build-bench)
#   WG_BENCH_FILTER=regex limits the benchmarks run (Google Benchmark --benchmark_filter).
set -euo pipefail
build="${1:-build-bench}"
src="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")"
out="$build/benchmarks/bench.json"
sim="$build/benchmarks/simulate.txt"
log="$build/benchmarks/bench.log"
reps="${WG_BENCH_REPS:-3}"
echo "running $build/benchmarks/wg_bench ($reps repetitions; console output in $log) ..."
"$build/benchmarks/wg_bench" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
  --benchmark_filter="${WG_BENCH_FILTER:-.}" \
  --benchmark_out="$out" --benchmark_out_format=json > "$log" 2>&1 || { tail -20 "$log"; exit 1; }

# wargame simulate: the same random-vs-random games with 1 and 2 threads: CPU time per
# game (user + sys of the process) and wall time.
: > "$sim"
wargame="$build/examples/wargame/wargame"
games="${WG_SIMULATE_GAMES:-200}"
players="random,random"
timecmd="python3 $src/benchmarks/timecmd.py"
# WG_SIMULATE_ROUNDS pairs (default 5; the order alternates), each pair's ratio of
# CPU per game: a single pair (0.65 s of CPU a side) swung between 0.89x and 1.10x.
sim_rounds="${WG_SIMULATE_ROUNDS:-5}"
if [ -x "$wargame" ] && "$wargame" simulate stars_and_bars --games 2 --threads 1 --players "$players" > /dev/null 2>&1; then
  for k in $(seq 1 "$sim_rounds"); do
    order="1 2"; [ $((k % 2)) -eq 0 ] && order="2 1"
    for t in $order; do
      m=$($timecmd -- "$wargame" simulate stars_and_bars --games "$games" --threads "$t" --seed 1 --players "$players")
      echo "threads=$t round=$k $m spec=stars_and_bars games=$games players=$players" >> "$sim"
    done
  done
else
  echo "skipped=wargame_simulate_not_built" > "$sim"
fi

# The pinned baseline: the same benchmarks built from an earlier commit of this repository
# (WG_BENCH_BASELINE, a commit or tag; "none" skips it), run in turns with this build so
# both sides see the same machine: random-play games (BM_RandomGame, BM_FastRandomGame)
# and uniform random tabletop games (`wargame simulate civil_war_miniatures`, CPU per game).
# AI decisions: `wargame simulate GAME --players ai,ai --games WG_AI_GAMES (default 1)` on
# Stars and Bars and on Chattanooga (actions per CPU second).
baseline="${WG_BENCH_BASELINE:-353dadd1881af15319da37f6114b0751fcb655f4}"
rounds="${WG_BENCH_ROUNDS:-5}"
cmp="$build/benchmarks/baseline"
rm -rf "$cmp/runs" && mkdir -p "$cmp/runs"
if [ "$baseline" != none ] && git -C "$src" cat-file -e "$baseline^{commit}" 2>/dev/null; then
  bdir="$build/baseline-$baseline"
  if [ ! -x "$bdir/build/benchmarks/wg_bench" ] || [ ! -x "$bdir/build/examples/wargame/wargame" ]; then
    echo "building the baseline $baseline in $bdir ..."
    rm -rf "$bdir" && mkdir -p "$bdir/src"
    git -C "$src" archive "$baseline" | tar -x -C "$bdir/src"
    launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$build/CMakeCache.txt")
    cmake -S "$bdir/src" -B "$bdir/build" -DCMAKE_BUILD_TYPE=Release -DWG_BUILD_TESTS=OFF \
      ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher} > "$bdir/build.log" 2>&1 &&
      cmake --build "$bdir/build" -j "${JOBS:-$(nproc)}" --target wg_bench wargame_cli >> "$bdir/build.log" 2>&1 ||
      { tail -20 "$bdir/build.log"; exit 1; }
  fi
  echo "$baseline" > "$cmp/rev"
  filter='BM_(Fast)?RandomGame/'
  ai_games="${WG_AI_GAMES:-1}"
  : > "$cmp/ai.txt.new"
  : > "$cmp/tabletop.txt.new"
  sed 's/^turns: .*/turns: 8/' "$src/rulesets/civil_war_miniatures/scenarios/farm/scenario.yaml" > "$cmp/farm8.yaml"
  for k in $(seq 1 "$rounds"); do
    echo "baseline round $k of $rounds ..."
    for side in base cur; do
      dir=$build; [ "$side" = base ] && dir="$bdir/build"
      "$dir/benchmarks/wg_bench" --benchmark_filter="$filter" --benchmark_out="$cmp/runs/$side-$k.json" \
        --benchmark_out_format=json >> "$log" 2>&1
      for spec in stars_and_bars 'blue_and_gray(scenario=chattanooga)'; do
        m=$($timecmd --grep 'game length' -- "$dir/examples/wargame/wargame" simulate "$spec" \
            --games "$ai_games" --threads 1 --seed 1 --players ai,ai)
        echo "side=$side round=$k games=$ai_games spec=$spec $m" >> "$cmp/ai.txt.new"
      done
      tg="${WG_TABLETOP_GAMES:-400}"  # 40 games (0.07 s of CPU) swung by 30% between rounds; 200 by 25%
      # The baseline's farm is 8 turns; the farm is 12 since 2026-12-03, so this build plays
      # a copy of today's farm cut to 8 turns: the same length of game on both sides.
      farm=(); [ "$side" = cur ] && farm=(--scenario "$cmp/farm8.yaml")
      m=$($timecmd -- "$dir/examples/wargame/wargame" simulate civil_war_miniatures "${farm[@]}" \
          --games "$tg" --threads 1 --seed 1 --players random,random)
      echo "side=$side round=$k games=$tg $m" >> "$cmp/tabletop.txt.new"
    done
  done
  mv "$cmp/ai.txt.new" "$cmp/ai.txt"
  mv "$cmp/tabletop.txt.new" "$cmp/tabletop.txt"
else
  echo "baseline: skipped (WG_BENCH_BASELINE=$baseline is not a commit here)"
fi

echo
python3 "$src/benchmarks/summarize.py" "$out" "$sim" "$cmp"
echo "raw results: $out (simulate: $sim, console: $log)"
