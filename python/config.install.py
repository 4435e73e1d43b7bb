# Where librlx_c.so and the tools are: <prefix>/lib and <prefix>/bin,
# beside <prefix>/python/rlx.
import os

_PREFIX = os.path.join(os.path.dirname(__file__), "..", "..")
LIB_DIR = os.path.normpath(os.path.join(_PREFIX, "lib"))
TOOLS_DIR = os.path.normpath(os.path.join(_PREFIX, "bin"))
