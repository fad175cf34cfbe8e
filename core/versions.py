"""The versions of what a collection stores, read by both stores when they open one.

A collection built with another canonization or fingerprint version holds hashes this Sverka
would never match: it is refused with "rebuild" (:mod:`sverka.core.store`). Raise a version
with ANY change of its output; tests/core/test_versions.py pins the output of a fixed text
for each, so a change that forgets the version fails there.

Kept apart from the canonizer and the fingerprints so that the store can read them without
importing either (``sverka.core.text`` and ``sverka.core.fingerprints`` re-export them).
"""

from __future__ import annotations

__all__ = ["CANON_VERSION", "FINGERPRINT_VERSION"]

#: What :func:`sverka.core.text.canonize` gives for a text (tokens, lemmas, hashes, spans).
#: 2: look-alikes of every script folded, not only Latin/Cyrillic; 3: Russian's spellings before
#: 1918 and of 1918-1956 read as today's, a text in both Russian and Ukrainian read sentence by
#: sentence; 4: a full stop after a lower-case "я" ends a sentence ("– сказал я. Потом...");
#: 5: the default-ignorable code points that are no format character (variation selectors, the
#: combining grapheme joiner...) are invisible characters inside a word, not marks of it.
CANON_VERSION = 5

#: What :func:`sverka.core.fingerprints.fingerprint_document` gives for given tokens (the
#: retrieval keys a collection stores).
FINGERPRINT_VERSION = 1
