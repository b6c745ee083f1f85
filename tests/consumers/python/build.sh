#!/bin/sh
# Import the uturn package installed in $PREFIX, from the site directory
# the install chose ($PYTHONDIR, under the prefix), then run the consumers.
set -eu
PYTHONPATH="$PREFIX/$PYTHONDIR"
export PYTHONPATH
${PYTHON:-python3} -c "import uturn; print('uturn', uturn.version(), 'from', uturn.__file__, 'with', uturn.library_path())"
${PYTHON:-python3} main.py
${PYTHON:-python3} numpy_model.py
