#!/usr/bin/env bash
# Smoke test of the one-folder bundle: builds it, then uses it as a user would, with nothing
# of the build environment around (empty environment, fresh home, another working folder).
#   bash installer/smoke.sh              build (installer/build.sh), then test dist/sverka
#   bash installer/smoke.sh --no-build   test the bundle already in dist/sverka
# Checks:
# * the window starts offscreen to a visible main window and stays 3 s (dictionaries warm
#   up); in Russian (LANG=ru_RU.UTF-8: the translations are in the bundle); again under Xvfb
#   with the real xcb platform when xvfb-run is installed (dist/smoke-window.png shows it);
# * the command line extracts a .txt (CP1251), .docx, .pdf, .odt, .rtf and .html; compares two documents
#   (--json, validated); indexes a collection, also a folder big enough for the index's
#   worker processes of the frozen app; checks a suspect against it (--json, --html);
#   cross-checks three documents.
# Exits non-zero on the first failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
venv="${SVERKA_VENV:-$here/.venv}"
[ "${1:-}" = "--no-build" ] || bash installer/build.sh
bundle="$here/dist/sverka"
[ -x "$bundle/sverka" ] || { echo "smoke: no bundle at $bundle (run installer/build.sh)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/docs" "$work/out"
"$venv/bin/python" installer/smoke_docs.py write "$work/docs"

# The bundle runs with an empty environment: no venv, no PYTHONPATH, a fresh home (so no
# collection or settings of this machine), from an unrelated working folder.
run() {
  (cd "$work/out" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 \
     XDG_DATA_HOME="$work/home/.local/share" XDG_CONFIG_HOME="$work/home/.config" \
     XDG_CACHE_HOME="$work/home/.cache" XDG_RUNTIME_DIR="$work/home/run" "$@")
}
mkdir -p "$work/home/run" && chmod 700 "$work/home/run"
step() { echo "smoke: $*"; }

step "window (offscreen)"
start=$(date +%s%N)
out=$(run QT_QPA_PLATFORM=offscreen SVERKA_SMOKE_TIMEOUT=60 SVERKA_SMOKE_LINGER=3 timeout 120 "$bundle/sverka-gui" --smoke-test 2>"$work/gui.err") || {
  cat "$work/gui.err" >&2; echo "smoke: the window did not start: $out" >&2; exit 1; }
echo "  $out; process ran $(( ($(date +%s%N) - start) / 1000000 )) ms"
grep -q "^window shown" <<<"$out"
if grep -q "Traceback" "$work/gui.err"; then cat "$work/gui.err" >&2; echo "smoke: the window logged an error" >&2; exit 1; fi
step "window in Russian (the .qm translations in the bundle)"
out=$(run LANG=ru_RU.UTF-8 QT_QPA_PLATFORM=offscreen timeout 120 "$bundle/sverka-gui" --smoke-test 2>/dev/null)
echo "  $out"
grep -q "^window shown: Сверка" <<<"$out"
if command -v xvfb-run >/dev/null 2>&1; then
  step "window (xcb under Xvfb)"
  out=$(run SVERKA_SMOKE_TIMEOUT=60 SVERKA_SMOKE_LINGER=2 SVERKA_SMOKE_SCREENSHOT="$here/dist/smoke-window.png" \
    timeout 120 "$(command -v xvfb-run)" -a "$bundle/sverka-gui" --smoke-test 2>"$work/gui.err") || {
    cat "$work/gui.err" >&2; echo "smoke: the window did not start under Xvfb: $out" >&2; exit 1; }
  echo "  $out; picture of the window: dist/smoke-window.png"
fi

step "command line"
run "$bundle/sverka" --version
# The compiled engine is carried built (compare, index and check below run through it).
ls "$bundle"/_internal/sverka/_engine.*.so >/dev/null 2>&1 || { echo "smoke: sverka._engine missing from the bundle" >&2; exit 1; }
for f in suspect.txt source.docx other.pdf other.odt other.rtf other.html; do
  run "$bundle/sverka" extract "$work/docs/$f" >"$work/docs/$f.extracted"
  echo "  extract $f: $(wc -m <"$work/docs/$f.extracted") characters"
done
grep -q "Студенты" "$work/docs/suspect.txt.extracted"      # CP1251 decoded
grep -q "Викладач" "$work/docs/source.docx.extracted"
grep -q "погоде" "$work/docs/other.pdf.extracted"
grep -q "приложения" "$work/docs/other.odt.extracted"
grep -q "погоде" "$work/docs/other.rtf.extracted"                # \ansicpg1251 honoured
grep -q "приложения" "$work/docs/other.html.extracted"
if grep -q "alert" "$work/docs/other.html.extracted"; then echo "smoke: a script came through as text" >&2; exit 1; fi

step "compare A B --json (the table of dictionary forms the bundle carries read: required)"
ls -d "$bundle"/_internal/sverka-dictionary/dictionary-*/COMPLETE >/dev/null 2>&1 || { echo "smoke: the table of dictionary forms is missing from the bundle" >&2; exit 1; }
run SVERKA_DICTIONARY_TABLE=require "$bundle/sverka" compare "$work/docs/suspect.txt" "$work/docs/source.docx" --json >"$work/compare.json"
"$venv/bin/python" installer/smoke_docs.py check-compare "$work/docs" "$work/compare.json"

step "compare by meaning (the sentence encoder, its tokenizer and the second judge in the bundle)"
run "$bundle/sverka" compare "$work/docs/meaning_suspect.txt" "$work/docs/meaning_source.txt" --json >"$work/meaning.json"
"$venv/bin/python" installer/smoke_docs.py check-meaning "$work/meaning.json"

step "index + check --json --html"
run timeout 300 "$bundle/sverka" index --db "$work/collection.sverka" "$work/docs/source.docx" "$work/docs/other.pdf"
step "index a folder of 4 files, 1.3 MB (worker processes of the frozen app)"
run SVERKA_DICTIONARY_TABLE=require timeout 300 "$bundle/sverka" index --db "$work/collection.sverka" "$work/docs/archive" | tee "$work/index.out"
grep -q "added 4," "$work/index.out"
run "$bundle/sverka" check --db "$work/collection.sverka" "$work/docs/suspect.txt" --json --html "$work/report.html" >"$work/check.json"
"$venv/bin/python" installer/smoke_docs.py check-check "$work/docs" "$work/check.json"
grep -q "<html" "$work/report.html"

step "crosscheck --json"
run "$bundle/sverka" crosscheck "$work/docs/suspect.txt" "$work/docs/source.docx" "$work/docs/other.pdf" --json >"$work/crosscheck.json"
"$venv/bin/python" installer/smoke_docs.py check-crosscheck "$work/crosscheck.json"

echo "smoke: bundle OK ($(du -sm "$bundle" | cut -f1) MB)"
