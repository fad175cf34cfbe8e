"""The one warning every reader gives for text its format hides from the reader of the page
(hidden formatting, white or tiny text, invisible PDF text): how much was left out and how."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..messages import Message, message

_WORD = re.compile(r"\w+")


def hidden_text_warnings(hidden: Mapping[str, int], visible_text: str) -> list[Message]:
    """``hidden``: words left out, by how they were hidden; ``visible_text``: what was kept."""
    total = sum(hidden.values())
    if not total:
        return []
    share = 100.0 * total / (total + len(_WORD.findall(visible_text)))
    ways = tuple((reason, n) for reason, n in sorted(hidden.items(), key=lambda kv: -kv[1]))
    return [message("warning.hidden_text", words=total, share=round(share, 1), ways=ways)]
