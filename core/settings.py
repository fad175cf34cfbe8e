"""Every engine parameter, declared once with its default; serialisable to JSON.

Defaults are chosen by measurement (see docs/BENCHMARKS.md), not tuned to one corpus.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # Canonization
    drop_adjectives: bool = False
    # Fingerprints
    shingle_words: int = 4  # w: words per shingle
    winnow_window: int = 4  # k: any shared run of w + k - 1 words is guaranteed to be found
    minhash_functions: int = 84
    # Passages
    min_passage_words: int = 8  # words of the text a passage must match; shorter ones: excluded="short"
    max_gap_words: int = 6  # edits bridged between two matching runs
    align_seed_words: int = 2  # words per seed shingle when aligning a pair (computed on the fly)
    min_sentence_words: int = 5  # sentences this long match by sentence hash (any order, any form)
    # Candidates
    max_candidates: int = 50  # sources aligned per check, most shared fingerprints first
    min_shared_fingerprints: int = 2  # winnowed shingles a candidate must share with the suspect
    short_text_words: int = 40  # below this many canonical words the seed 000 method joins in
    # Reporting
    min_source_containment: float = 0.005  # a source below this share of the suspect is not listed
    short_text_similarity: float = 80.0  # seed 000: not unique above this percentage
    crosscheck_threshold: float = 0.10  # pairs with either containment at least this are listed
    # Exclusions (applied to a finished result without searching again)
    exclude_quotes: bool = True
    count_quotes_as_borrowed: bool = False  # the student's own quotations count as borrowed, not cited
    exclude_bibliography: bool = True
    excluded_sources: tuple[str, ...] = ()  # paths or sha256 of sources not to count

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, data: str | dict) -> "Settings":
        """Build from JSON; unknown keys are ignored, missing keys take their defaults."""
        raw = json.loads(data) if isinstance(data, str) else dict(data)
        known = {f.name: f for f in dataclasses.fields(cls)}
        kwargs = {}
        for key, value in raw.items():
            if key in known:
                kwargs[key] = tuple(value) if isinstance(value, list) else value
        return cls(**kwargs)

    def replace(self, **changes) -> "Settings":
        return dataclasses.replace(self, **changes)
