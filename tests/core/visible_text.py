"""Test helper: the text a reader of an HTML report sees (shared by the report and window tests)."""

from __future__ import annotations

from html.parser import HTMLParser


class Visible(HTMLParser):
    """Text a reader sees (no <style>, <title>, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("style", "title")

    def handle_endtag(self, tag):
        self.skip -= tag in ("style", "title")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)
