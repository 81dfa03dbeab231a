"""Run by the hostile-input tests in a child process: ``check`` then ``print`` of one game folder
with 1 GB of address space, printing the two exit codes (the tests add a 10 s timeout)."""

import resource
import sys

resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

from irata.cli import main  # noqa: E402  (after the limit, so the import counts against it)

codes = []
for args in (["check", "--components", sys.argv[1]],
             ["print", "--components", sys.argv[1], "--out", sys.argv[2]]):
    try:
        main(args)
    except SystemExit as exc:
        codes.append(exc.code)
print(codes)
