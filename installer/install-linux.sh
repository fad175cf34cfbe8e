#!/usr/bin/env bash
# Installs the built bundle (dist/sverka) for the current user, with a menu entry and icon:
#   bash installer/install-linux.sh              copy to ~/.local/opt/sverka, link ~/.local/bin/sverka{,-gui}
#   bash installer/install-linux.sh --uninstall  remove all of that again (the collection stays)
# PREFIX overrides ~/.local (e.g. PREFIX=/usr/local as root for every user of the machine).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${PREFIX:-$HOME/.local}"
target="$prefix/opt/sverka"
apps="$prefix/share/applications"
icons="$prefix/share/icons/hicolor"
if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$target" "$prefix/bin/sverka" "$prefix/bin/sverka-gui" "$apps/sverka.desktop" \
         "$icons/scalable/apps/sverka.svg" "$icons/256x256/apps/sverka.png"
  echo "Sverka removed from $prefix"
  exit 0
fi
[ -x "$here/dist/sverka/sverka-gui" ] || { echo "no bundle in dist/sverka: run bash installer/build.sh first" >&2; exit 1; }
rm -rf "$target" && mkdir -p "$target" "$prefix/bin" "$apps" "$icons/scalable/apps" "$icons/256x256/apps"
cp -a "$here/dist/sverka/." "$target/"
ln -sf "$target/sverka" "$prefix/bin/sverka"
ln -sf "$target/sverka-gui" "$prefix/bin/sverka-gui"
install -m 644 "$here/installer/sverka.svg" "$icons/scalable/apps/sverka.svg"
install -m 644 "$here/installer/sverka.png" "$icons/256x256/apps/sverka.png"
# The menu entry names the executable by its full path: ~/.local/bin need not be on PATH.
sed -e "s|^Exec=sverka-gui|Exec=\"$target/sverka-gui\"|" -e "s|^TryExec=.*|TryExec=$target/sverka-gui|" \
  "$here/installer/sverka.desktop" >"$apps/sverka.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$icons" 2>/dev/null || true
echo "Sverka installed in $target; menu entry $apps/sverka.desktop; commands $prefix/bin/sverka-gui and $prefix/bin/sverka"
