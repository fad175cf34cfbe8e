"""Entry script of the bundled command line ``sverka`` (PyInstaller freezes this file)."""

import multiprocessing

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a worker process of the frozen app starts here too
    from sverka.core.cli import entry

    entry()
