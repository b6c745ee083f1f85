"""Finding and loading libuturn.

In this order: the UTURN_LIBRARY environment variable (a path); the path
`cmake --install` wrote beside this package (_installed.py, relative to
this directory unless absolute); ctypes.util.find_library("uturn").
"""

import ctypes
import ctypes.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _installed_path():
    """The library the install put beside this package, if it is there."""
    try:
        from . import _installed
    except ImportError:  # the source tree: nothing was installed
        return None
    path = os.path.normpath(os.path.join(_HERE, _installed.LIBRARY))
    return path if os.path.exists(path) else None


def library_path():
    """The path (or name) of the libuturn this package loads."""
    env = os.environ.get("UTURN_LIBRARY")
    if env:
        return env
    path = _installed_path() or ctypes.util.find_library("uturn")
    if path:
        return path
    raise ImportError("uturn: libuturn not found: install uturn with "
                      "cmake --install (the package then finds the library "
                      "it was installed with), or set UTURN_LIBRARY to the "
                      "path of libuturn.so")


lib = ctypes.CDLL(library_path())
