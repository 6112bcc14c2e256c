"""What the scripts of tests/cli share: their arguments, SCALEFUZZ, one
more (a build directory or a helper program) and WORK_DIR, which each run
starts empty."""
import os
import shutil
import sys


def arguments_with_fresh_work_dir():
    """(SCALEFUZZ, the second argument, WORK_DIR), WORK_DIR emptied and created."""
    scalefuzz, other, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return scalefuzz, other, work
