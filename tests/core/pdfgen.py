"""Tiny PDF files written object by object, for tests that need a precise drawing (forms
scaled by a matrix, letters drawn twice, form fields, forms drawing each other, Flate bombs)."""

from __future__ import annotations

import zlib


def stream(data: bytes, extra: str = "", *, deflate: bool = False) -> bytes:
    """A stream object's body: its dictionary (``extra`` entries) and its bytes."""
    if deflate:
        data = zlib.compress(data, 9)
        extra += " /Filter /FlateDecode"
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra.encode()) + data + b"\nendstream"


def build(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (object k+1 is ``objects[k]``; object 1 must be the catalog)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def page_pdf(content: bytes, *, xobjects: dict[str, bytes] | None = None, extra_objects: list[bytes] = (),
             annots: str = "", acroform: str = "") -> bytes:
    """One A4 page drawing ``content`` with font /F1 (Helvetica); ``xobjects``: name -> the
    body of a form XObject (objects 5, 6, ... in order); ``extra_objects`` follow them."""
    xobjects = xobjects or {}
    names = list(xobjects)
    first = 5
    xo = " ".join(f"/{n} {first + i} 0 R" for i, n in enumerate(names))
    catalog = b"<< /Type /Catalog /Pages 2 0 R" + (f" /AcroForm {acroform}".encode() if acroform else b"") + b" >>"
    page = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
            f"/Resources << /Font << /F1 3 0 R >> /XObject << {xo} >> >>"
            + (f" /Annots {annots}" if annots else "") + " >>").encode()
    objects = [catalog, b"<< /Type /Pages /Kids [6 0 R] /Count 1 >>", HELVETICA, stream(content)]
    objects += [xobjects[n] for n in names]
    page_number = len(objects) + 1
    objects[1] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page_number
    objects.append(page)
    objects += list(extra_objects)
    return build(objects)


def form(content: bytes, matrix: str = "1 0 0 1 0 0", resources: str = "/Font << /F1 3 0 R >>", **kw) -> bytes:
    """A form XObject drawing ``content``."""
    return stream(content, f"/Type /XObject /Subtype /Form /BBox [-10000 -10000 10000 10000] /Matrix [{matrix}] "
                           f"/Resources << {resources} >>", **kw)
