# Where librlx_c.so is: <prefix>/lib, beside <prefix>/python/rlx.
import os

LIB_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "..",
                                        "..", "lib"))
