#!/usr/bin/env bash
# Seed corpora for the fuzz targets, from the project's own files:
#   fuzz/corpus.sh SOURCE_DIR WARGAME_BIN OUT_DIR
# OUT_DIR/TARGET/ gets one file per seed (see fuzz/targets.h for each format).
set -euo pipefail
src=$1 bin=$2 out=$3
mkdir -p "$out"/{game_spec,action_text,save,ruleset,scenario}
skirmish="$src/tests/data/rulesets/skirmish"
seed() { cat > "$(mktemp "$out/$1/seed_XXXXXX")"; }

# Game specs: every registered ruleset, its scenarios and optional rules.
for spec in stars_and_bars "stars_and_bars(scenario=perryville,optional=12.1+12.6)" \
            "blue_and_gray(scenario=chattanooga)" civil_war_miniatures "$skirmish" \
            "$skirmish(scenario=duel)" "\"$skirmish\"(scenario=\"meeting\")"; do
  printf '%s' "$spec" | seed game_spec
done

# Ruleset files: every YAML file of every ruleset folder, named by its first line.
for f in $(cd "$src/rulesets" && find . -name '*.yaml' | sort); do
  { printf '#file: rulesets/%s\n' "${f#./}"; cat "$src/rulesets/$f"; } | seed ruleset
done
for f in $(cd "$skirmish" && find . -name '*.yaml' | sort); do
  { printf '#file: skirmish/%s\n' "${f#./}"; cat "$skirmish/$f"; } | seed ruleset
done

# Scenarios: every scenario file, for its own ruleset.
for r in stars_and_bars blue_and_gray civil_war_miniatures; do
  for f in $(find "$src/rulesets/$r" -path '*scenario*' -name '*.yaml' | sort); do
    { printf '#ruleset: %s\n' "$r"; cat "$f"; } | seed scenario
  done
done
for f in "$skirmish"/scenarios/*.yaml; do { printf '#ruleset: skirmish\n'; cat "$f"; } | seed scenario; done

# Saves and actions: games the program plays, saved at several lengths.
tmp=$(mktemp -d)
for game in "$skirmish" stars_and_bars blue_and_gray civil_war_miniatures; do
  for len in 0 30 200; do
    if "$bin" play "$game" --players random,random --seed 3 --max-actions "$len" --save "$tmp/s.yaml" >/dev/null 2>&1 \
       || [ -s "$tmp/s.yaml" ]; then
      seed save < "$tmp/s.yaml"
      # Each recorded action, as text for a session (even first byte).
      { grep '^  - ' "$tmp/s.yaml" || true; } | head -40 | sed 's/^  - //' | while IFS= read -r line; do
        { printf "$(printf '\\x%02x' $(( (RANDOM % 64) * 2 )))"; printf '%s' "$line"; } | seed action_text
      done
    fi
    rm -f "$tmp/s.yaml"
  done
done
rm -rf "$tmp"
for t in game_spec action_text save ruleset scenario; do
  echo "$t: $(ls "$out/$t" | wc -l) seeds"
done
