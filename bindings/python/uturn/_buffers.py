"""Memory shared with the library: the live state a run copies in and out
of, and the views of slot memory that save, load and user storage
callbacks get for the length of one call."""

import ctypes
import re
import sys

from . import _checks

# What to do instead, per argument: the live state may be given by
# callbacks; a durable run's adjoint state only as an array.
_ALTERNATIVE = {
    "state": ", or pass state=None and give save= and load= callbacks",
    "adjoint_state": " (the array your turn and adjoint callbacks update)",
}


def _describe(view):
    """shape, strides and format of a buffer, for a message."""
    return "shape %s, strides %s, format %r" % (
        tuple(view.shape), tuple(view.strides), view.format)


def _refuse(view, name):
    """The reason a buffer cannot be argument ``name``, or None."""
    other = _ALTERNATIVE[name]
    if view.readonly:
        return ("%s is read-only (%s): the executor writes restored "
                "states into it; pass a writable array (np.array(x) copies "
                "a read-only one) and update it in place%s"
                % (name, _describe(view), other))
    if not view.c_contiguous:
        return ("%s is not C-contiguous (%s): the executor copies it as "
                "one block of bytes; pass np.ascontiguousarray(x) (a "
                "writable, C-contiguous copy) and update that array in "
                "place (x[:] = ...)%s" % (name, _describe(view), other))
    if "O" in re.sub(r":[^:]*:", "", view.format):  # names left out
        return ("%s holds Python objects (format %r): the executor "
                "copies bytes, which for objects are pointers, not their "
                "values; use a numeric dtype%s" % (name, view.format, other))
    if view.nbytes == 0:
        return ("%s is empty (0 bytes): it must hold the %s" %
                (name, "live state" if name == "state" else
                 "adjoint state a resumed run goes on with"))
    return None


def state_buffer(state, name="state"):
    """(a ctypes char array over the memory of ``state``, its size in
    bytes). The array holds a buffer export of ``state`` for as long as it
    lives, so ``state`` cannot be resized or freed under a run. ``name``
    is the argument's name in messages: "state" or "adjoint_state"."""
    try:
        view = memoryview(state)
    except TypeError:
        raise ValueError(
            "uturn: %s must be a writable, C-contiguous buffer (a numpy "
            "array, bytearray, array.array or ctypes object), not %s%s"
            % (name, _checks.shown(state), _ALTERNATIVE[name])) from None
    with view:
        reason = _refuse(view, name)
        nbytes = view.nbytes
    if reason is not None:
        raise ValueError("uturn: " + reason)
    return (ctypes.c_char * nbytes).from_buffer(state), nbytes


class SlotView:
    """A memoryview of ``nbytes`` at ``address`` (format "B"; read-only
    unless ``writable``) for the length of one callback. close() releases
    it, and says whether anything made from it (a slice, a cast, a numpy
    array from np.frombuffer()) outlived the call: such a view would point
    at memory the executor reuses and frees."""

    def __init__(self, address, nbytes, writable):
        self._raw = (ctypes.c_char * nbytes).from_address(address)
        whole = memoryview(self._raw)
        self._views = [whole, whole.cast("B")]
        if not writable:
            self._views.append(self._views[-1].toreadonly())

    @property
    def view(self):
        """The memoryview the callback gets."""
        return self._views[-1]

    def close(self):
        """Release every view; True when no view of the memory remains."""
        kept = False
        for view in reversed(self._views):
            try:
                view.release()
            except BufferError:  # something holds a buffer export of it
                kept = True
        self._views = []
        # Views made from ours share one managed buffer, which holds a
        # reference to _raw until the last of them is gone (CPython).
        if hasattr(sys, "getrefcount") and sys.getrefcount(self._raw) > 2:
            kept = True
        return not kept
