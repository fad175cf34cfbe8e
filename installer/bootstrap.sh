#!/usr/bin/env bash
# Sets Sverka up on a fresh Debian/Ubuntu machine with Python >= 3.11, then starts it.
#   bash installer/bootstrap.sh          install, then start the window (sverka-gui)
#   bash installer/bootstrap.sh --test   install with the test tools, then run the whole test suite
#                                        (the engine's cargo test, then pytest)
#   bash installer/bootstrap.sh --no-run install only
# Extra arguments after --test go to pytest. SVERKA_VENV overrides the environment folder (.venv).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mode=run
case "${1:-}" in
  --test) mode=test; shift ;;
  --no-run) mode=none; shift ;;
esac
venv="${SVERKA_VENV:-$here/.venv}"
python="${PYTHON:-python3}"

# System libraries Qt 6 needs: the offscreen platform (tests) and the xcb platform (a real window).
# libxcb-icccm4 and libxcb-keysyms1 are needed by xcb although Qt's own message blames libxcb-cursor0.
qt_libs="libegl1 libgl1 libglib2.0-0 libdbus-1-3 libfontconfig1 libxkbcommon0 libxkbcommon-x11-0
 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0
 libxcb-randr0 libxcb-xinerama0 libxcb-xkb1 libxcb-xfixes0 libxcb-shm0 libxcb-sync1 fonts-dejavu-core"
# PDF reports: WeasyPrint typesets with pango; the tests look at the pages with poppler-utils.
qt_libs="$qt_libs libpango-1.0-0 libpangoft2-1.0-0 poppler-utils"
# Word 97-2003 .doc files are read by catdoc (run by the sandboxed reader, no shell).
qt_libs="$qt_libs catdoc"
# The tests of the shared collection start a real PostgreSQL server (tests/store/conftest.py).
[ "$mode" = test ] && qt_libs="$qt_libs postgresql"
need=""
if command -v dpkg-query >/dev/null 2>&1; then
  for p in $qt_libs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need="$need $p"
  done
  "$python" -c "import venv, ensurepip" 2>/dev/null || need="$need python3-venv"
fi
# The compiled engine (engine/, docs/ENGINE.md) is built here from its Rust sources, so the Rust
# toolchain comes from the distribution when cargo is missing. A rustup toolchain in ~/.cargo wins.
rust_min="1.85"
[ -d "$HOME/.cargo/bin" ] && PATH="$HOME/.cargo/bin:$PATH"
need_rust=0
command -v cargo >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || need_rust=1
if [ -n "$need" ] || [ "$need_rust" = 1 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  if [ "$need_rust" = 1 ]; then
    # Debian 12's rustc is 1.63, too old; its rustc-web and cargo-web (kept current by Debian's
    # security support for the browsers) are new enough. Elsewhere the plain packages.
    if apt-cache policy rustc-web 2>/dev/null | grep -q "Candidate: [0-9]"; then
      need="$need rustc-web cargo-web"
    else
      need="$need rustc cargo"
    fi
  fi
  echo "Sverka: installing system packages:$need"
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
rust_version="$(rustc --version 2>/dev/null | awk '{print $2}')"
if [ -z "$rust_version" ] || [ "$(printf '%s\n%s\n' "$rust_min" "$rust_version" | sort -V | head -1)" != "$rust_min" ]; then
  echo "Sverka's engine needs Rust $rust_min or newer (rustc and cargo); found: ${rust_version:-none}." >&2
  echo "Install a newer Rust from your distribution (or rustup), then run this again." >&2
  exit 1
fi

"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "Sverka needs Python 3.11 or newer; $("$python" --version) found" >&2; exit 1; }
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
extra=""; [ "$mode" = test ] && extra="[test]"
"$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
# The engine's wheel (the module sverka._engine, built by maturin), then Sverka itself, editable.
"$venv/bin/python" -m pip install -q ./engine/python
"$venv/bin/python" -m pip install -q -e ".$extra"
"$venv/bin/python" -m sverka.gui.i18n build >/dev/null || echo "Sverka: interface translations not built (English only)" >&2
# Every form of the Russian and Ukrainian dictionaries analysed once for this machine (~2 min of
# the cores, 59 MB in the cache folder; again only when a dictionary changes): words new to the
# machine are then looked up, not analysed (core/formdict.py). Without it Sverka analyses them.
"$venv/bin/python" -m sverka.core.morph build-dictionary-table --if-missing \
  || echo "Sverka: the table of dictionary forms was not built (words new to this machine are analysed)" >&2

# The desktop menu entry (and icon) for this user, pointing at this .venv; not for a test run.
if [ "$mode" != test ] && [ -z "${SVERKA_NO_MENU:-}" ]; then
  apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
  icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor"
  if mkdir -p "$apps" "$icons/scalable/apps" "$icons/256x256/apps" 2>/dev/null; then
    install -m 644 installer/sverka.svg "$icons/scalable/apps/sverka.svg"
    install -m 644 installer/sverka.png "$icons/256x256/apps/sverka.png"
    gui="$(cd "$venv/bin" && pwd)/sverka-gui"
    sed -e "s|^Exec=sverka-gui|Exec=\"$gui\"|" -e "s|^TryExec=.*|TryExec=$gui|" installer/sverka.desktop \
      >"$apps/sverka.desktop"
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
    echo "Sverka: menu entry $apps/sverka.desktop"
  fi
fi

case "$mode" in
  run)  exec "$venv/bin/sverka-gui" "$@" ;;
  test)
    # The engine's algorithms by their own tests (the crate with no Python), then everything by pytest.
    (cd engine && cargo test --locked -q -p sverka-engine)
    exec "$venv/bin/python" -m pytest "$@" ;;
esac
