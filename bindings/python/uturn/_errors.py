"""uturn.Error, and the small functions around statuses."""

import ctypes

from . import _checks
from ._load import lib
from ._protos import OK
from ._structs import ErrorInfo


class Error(Exception):
    """A uturn call failed. ``status`` is the code, ``name`` its enumerator
    name, ``info`` the ErrorInfo the library filled (or None). ``note``,
    when given, is added to the message (what the binding knows besides).
    A failed run also sets ``observed`` (the counts as far as the run got)
    and ``report`` (its Report: actions_done, failed_action, failed_step);
    both are None elsewhere."""

    def __init__(self, status, info=None, note=None):
        self.status = status
        self.name = status_name(status)
        self.info = info
        self.observed = None
        self.report = None
        text = info.message.decode(errors="replace") if info else ""
        text = text or strerror(status)
        if note:
            text = "%s; %s" % (text, note)
        super().__init__("%s: %s" % (self.name, text))


def strerror(status):
    """The library's fixed text for a status, e.g. "out of memory"."""
    return lib.uturn_strerror(_checks.integer("status", status, "int")).decode()


def status_name(status):
    """The enumerator's name for a status, e.g. "UTURN_E_NOMEM"."""
    code = _checks.integer("status", status, "int")
    return lib.uturn_status_name(code).decode()


def version():
    """The version of the library loaded, e.g. "0.3.0"."""
    return lib.uturn_version_string().decode()


def version_number():
    """The version of the library loaded as MAJOR*10000 + MINOR*100 +
    PATCH."""
    return lib.uturn_version_number()


def check(status, info=None, note=None):
    """Raise Error for a status other than OK."""
    if status != OK:
        raise Error(status, info, note)


def error_info():
    """A fresh ErrorInfo for a call to fill, and byref() of it."""
    info = ErrorInfo()
    return info, ctypes.byref(info)
