"""Renders installer/sverka.svg to the icons the bundles use (run after changing the SVG):
sverka.png (256 px, Linux menu), sverka.ico (16-256 px, PNG entries; Windows executables),
sverka.icns (512 px; macOS application).   python installer/make_icons.py
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0], "-platform", "offscreen"])
    renderer = QSvgRenderer(str(HERE / "sverka.svg"))
    if not renderer.isValid():
        raise SystemExit("sverka.svg does not render")

    def render(size: int) -> QImage:
        img = QImage(size, size, QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent)
        painter = QPainter(img)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        return img

    def png_bytes(img: QImage) -> bytes:
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        img.save(buf, "PNG")
        return bytes(data)

    render(256).save(str(HERE / "sverka.png"))
    render(512).save(str(HERE / "sverka.icns"), "ICNS")
    # ICO with PNG-compressed entries (Windows Vista and later read them)
    sizes = (16, 24, 32, 48, 64, 128, 256)
    blobs = [png_bytes(render(s)) for s in sizes]
    offset = 6 + 16 * len(sizes)
    head = struct.pack("<HHH", 0, 1, len(sizes))
    entries = b""
    for s, blob in zip(sizes, blobs):
        entries += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
    (HERE / "sverka.ico").write_bytes(head + entries + b"".join(blobs))
    del app


if __name__ == "__main__":
    main()
