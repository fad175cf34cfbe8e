#!/usr/bin/env bash
# Builds the one-folder bundle of Sverka with PyInstaller (Linux and macOS; Windows: see
# installer/README.md).   bash installer/build.sh
# Result: dist/sverka/ with the executables sverka-gui (the window) and sverka (the command
# line) beside _internal/ (Python, Qt, dictionaries, data); on macOS also dist/Sverka.app.
# PyInstaller is a build tool only: it goes into the build environment, never into Sverka's
# dependencies. SVERKA_VENV overrides the environment folder (.venv), as in bootstrap.sh.
# Options: --clean (forget PyInstaller's cache first), --archive (also pack dist/sverka-<version>-<os>-<arch>.tar.gz).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
clean=""; archive=0
for arg in "$@"; do
  case "$arg" in
    --clean) clean="--clean" ;;
    --archive) archive=1 ;;
    *) echo "usage: bash installer/build.sh [--clean] [--archive]" >&2; exit 2 ;;
  esac
done
venv="${SVERKA_VENV:-$here/.venv}"
python="${PYTHON:-python3}"

# 1. The environment Sverka runs in (the same one the README's commands make), brought up
#    to this checkout's declared dependencies every time (quick when nothing changed).
if command -v apt-get >/dev/null 2>&1; then
  SVERKA_VENV="$venv" bash installer/bootstrap.sh --no-run
else
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q ./engine/python  # the compiled engine (needs Rust >= 1.85)
  "$venv/bin/python" -m pip install -q -e .
fi

# The table of every dictionary form the bundle carries (quick when this machine has it).
"$venv/bin/python" -m sverka.core.morph build-dictionary-table --if-missing

# 2. The build tool, into the same environment (a build dependency only).
"$venv/bin/python" -m pip install -q "pyinstaller>=6.10,<7"

# 3. The bundle.
start=$(date +%s)
"$venv/bin/python" -m PyInstaller --noconfirm $clean --log-level WARN \
  --distpath "$here/dist" --workpath "$here/build/pyinstaller" installer/sverka.spec
seconds=$(( $(date +%s) - start ))

bundle="$here/dist/sverka"
[ -x "$bundle/sverka" ] && [ -x "$bundle/sverka-gui" ] || { echo "build.sh: executables missing in $bundle" >&2; exit 1; }
size=$(du -sm "$bundle" | cut -f1)
echo "Sverka bundle: $bundle (${size} MB, built in ${seconds} s)"
echo "  window:       $bundle/sverka-gui"
echo "  command line: $bundle/sverka --help"

if [ "$archive" = 1 ]; then
  version=$("$venv/bin/python" -c "import sverka.core; print(sverka.core.__version__)")
  name="sverka-$version-$(uname -s | tr A-Z a-z)-$(uname -m)"
  tar -C "$here/dist" -czf "$here/dist/$name.tar.gz" sverka
  echo "  archive:      $here/dist/$name.tar.gz ($(du -sm "$here/dist/$name.tar.gz" | cut -f1) MB)"
fi
