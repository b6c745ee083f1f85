"""Checking what Python hands to C.

ctypes would wrap an integer silently (2**64 + 10 becomes 10, -1 becomes
2**64 - 1), so every value is checked against its C type before it
crosses. The wrong kind of value is ValueError, an integer past its C type
OverflowError; both messages name the argument and what it accepts.
"""

import ctypes
import operator
import os

_C_TYPES = {  # name: (least, greatest), from the sizes of this platform
    "uint64_t": (0, 2**64 - 1),
    "size_t": (0, 2**(8 * ctypes.sizeof(ctypes.c_size_t)) - 1),
    "uintptr_t": (0, 2**(8 * ctypes.sizeof(ctypes.c_void_p)) - 1),
    "int": (-2**(8 * ctypes.sizeof(ctypes.c_int) - 1),
            2**(8 * ctypes.sizeof(ctypes.c_int) - 1) - 1),
}


def number(n):
    """n as a message writes it: 2**64-1 and -2**31 rather than digits."""
    if n >= 2**15 and (n + 1) & n == 0:
        return "2**%d-1" % n.bit_length()
    if n <= -2**15 and (-n) & (-n - 1) == 0:
        return "-2**%d" % (-n - 1).bit_length()
    return str(n)


def shown(value):
    """value for a message: its repr (shortened) and its type."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return "%s (%s)" % (text, type(value).__name__)


def is_integer(value):
    """An int or another integer type (operator.index() takes it); a bool
    is not one, although Python counts it as an int, and neither is a
    numpy array of more than one element (its type has __index__, which
    refuses it)."""
    if isinstance(value, bool):
        return False
    try:
        operator.index(value)
    except TypeError:
        return False
    return True


def c_int_range():
    """(least, greatest) of a C int here."""
    return _C_TYPES["int"]


def integer(name, value, ctype="uint64_t", least=None):
    """value as an int for an argument or field `name` of C type `ctype`,
    at least `least` (default: the type's least value)."""
    low, high = _C_TYPES[ctype]
    least = low if least is None else least
    span = "%s..%s" % (number(least), number(high))
    if not is_integer(value):
        raise ValueError("uturn: %s must be an integer in %s (a C %s), "
                         "not %s" % (name, span, ctype, shown(value)))
    n = operator.index(value)
    if n < low and low < 0 or n > high:
        raise OverflowError("uturn: %s must be an integer in %s (a C %s), "
                            "not %d, which does not fit"
                            % (name, span, ctype, n))
    if n < least:
        rule = ("must not be negative" if least == 0
                else "must be at least %s" % number(least))
        raise ValueError("uturn: %s %s (an integer in %s), not %d"
                         % (name, rule, span, n))
    return n


def boolean(name, value):
    """value as a bool: True, False, 1 or 0, nothing else."""
    if isinstance(value, bool):
        return value
    if is_integer(value) and operator.index(value) in (0, 1):
        return bool(operator.index(value))
    raise ValueError("uturn: %s must be True or False, not %s"
                     % (name, shown(value)))


def pointer(name, value):
    """An address given as an integer must fit a pointer; anything else
    (None, a ctypes object) is left to ctypes, which checks its type."""
    if isinstance(value, bool) or is_integer(value):
        return integer(name, value, "uintptr_t")
    return value


def text(name, value):
    """None, or a str, bytes or path without NUL characters as the bytes a
    `const char *` field holds (str through os.fsencode, as paths are)."""
    if value is None:
        return None
    if isinstance(value, (str, os.PathLike)):
        data = os.fsencode(value)
    elif isinstance(value, bytes):
        data = value
    else:
        raise ValueError("uturn: %s must be None, a str or bytes, not %s"
                         % (name, shown(value)))
    if b"\0" in data:
        raise ValueError("uturn: %s must not contain a NUL character, "
                         "which would end it in C: %s" % (name, shown(value)))
    return data


def callable_or_none(name, value):
    """value, which must be None or callable."""
    if value is not None and not callable(value):
        raise ValueError("uturn: %s must be callable (or None), not %s"
                         % (name, shown(value)))
    return value
