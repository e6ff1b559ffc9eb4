#!/usr/bin/env bash
# Page-1 review of every shipped scenario (studies/2026-11-28-page-one-review.md).
# Each scenario is copied with its [ladder]/[tune]/[sensitivity] games cut down, run
# with 400 games per configuration on one worker, and each question's one-line
# verdict printed from the report's manifest (findings.verdicts).
# Usage: bash studies/2026-11-28-page-one-review/review.sh OUT_DIR   (from the repo root)
set -u
out=${1:?an output folder}
mkdir -p "$out/scenarios"
for f in scenarios/*.toml; do
  b=$(basename "$f" .toml)
  [ "$b" = uruk_inventions ] && continue   # rebuilt on restricted play elsewhere
  python - "$f" "$out/scenarios/$b.toml" <<'PY'
import re, sys
src, dst = sys.argv[1:]
sec, out = None, []
for line in open(src, encoding="utf-8").read().splitlines():
    m = re.match(r"\s*\[+([^\]]+)\]+", line)
    if m:
        sec = m.group(1)
    if sec in ("ladder", "tune", "sensitivity") and re.match(r"\s*games\s*=", line):
        line = re.sub(r"=\s*[0-9_]+", "= 60" if sec == "ladder" else "= 300", line, count=1)
    out.append(line)
open(dst, "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
  games="--games 400"
  grep -q '^games' "$out/scenarios/$b.toml" || games=""
  python -m analyzer run "$out/scenarios/$b.toml" $games --workers 1 --quiet --out "$out/$b" \
    > "$out/$b.log" 2>&1
  echo "== $b (exit $?)"
  python - "$out/$b/manifest.json" <<'PY'
import json, sys
try:
    m = json.load(open(sys.argv[1], encoding="utf-8"))["findings"]
except OSError:
    sys.exit(0)
for q in m["questions"]:
    p = q["params"]
    key = q["id"] + (":" + ",".join(f"{k}={v}" for k, v in sorted(p.items())) if p else "")
    print("  Q", q["text"])
    print("  V", m.get("verdicts", {}).get(key, ""))
PY
done
