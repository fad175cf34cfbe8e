"""The ``sverka`` command line: argparse over :mod:`sverka.core.api` only.

Exit codes: 0 success; 1 input problems (some files could not be read, the others were
processed); 2 usage errors. Errors go to stderr with the file and the reason.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


def _cmd_extract(args: argparse.Namespace) -> int:
    from . import api

    try:
        doc = api.load_document(args.file)
    except api.SverkaError as e:
        print(f"sverka: {e}", file=sys.stderr)
        return EXIT_INPUT
    out = sys.stdout.buffer
    out.write(doc.text.encode("utf-8", "surrogatepass"))
    out.flush()
    for w in doc.warnings:
        print(f"sverka: {args.file}: {w}", file=sys.stderr)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sverka",
        description="Sverka: find borrowed passages in texts, offline (Russian, Ukrainian, English).",
    )
    p.add_argument("--version", action="version", version=f"sverka {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    e = sub.add_parser(
        "extract",
        help="print the extracted plain text of a file (UTF-8)",
        description="Print the plain text Sverka extracts from FILE, as UTF-8, on stdout. "
        "Every character offset Sverka reports is a Python string index into exactly this text.",
    )
    e.add_argument("file", metavar="FILE")
    e.set_defaults(func=_cmd_extract)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
