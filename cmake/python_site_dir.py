"""Print where this Python imports pure modules installed under PREFIX,
relative to PREFIX (cmake/python.cmake runs it: python3 python_site_dir.py
PREFIX).

Debian's interpreters (they have the "deb_system" install scheme) put
packages for /usr in lib/python3/dist-packages and read other prefixes'
lib/python3.X/dist-packages (/usr/local/lib/python3.X/dist-packages is on
their sys.path); any other Python, its purelib path for the prefix.
"""
import os
import sys
import sysconfig


def site_dir(prefix):
    """The site directory for PREFIX, relative to it, "/"-separated."""
    prefix = os.path.normpath(prefix)
    if "deb_system" in sysconfig.get_scheme_names():
        if prefix == "/usr":
            return "lib/python3/dist-packages"
        return "lib/python%d.%d/dist-packages" % sys.version_info[:2]
    scheme = "posix_prefix" if os.name == "posix" else "nt"
    purelib = sysconfig.get_path("purelib", scheme,
                                 vars={"base": prefix, "platbase": prefix})
    return os.path.relpath(purelib, prefix).replace(os.sep, "/")


if __name__ == "__main__":
    print(site_dir(sys.argv[1]))
