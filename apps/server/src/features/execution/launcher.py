"""The first process of every sandboxed run (docs/sandbox.md, "How one run is isolated").

The server starts one of these per queue slot ahead of time and moves it into the slot's
cgroups while it waits, because joining a cgroup costs a kernel RCU grace period (10-20 ms
here) that should not be paid while a user waits for their output. When a run comes, the
server writes its launch plan on stdin as its length in bytes, a newline, then the JSON. For
a run with its stdin given in advance the server then closes stdin; for a live run (a plan
whose stdin is null) stdin stays open and is the program's own, so the plan is read with
unbuffered reads that never take a byte past it. The launcher then

1. puts each program file into a memory file at fd 3, 4, ... (bwrap's `--file FD` reads them,
   so the host never writes a file the sandbox could swap for a symlink), and the given stdin
   into fd 0, and closes every other descriptor but stdout and stderr;
2. sets the run's rlimits, and as root drops to the slot's uid with no supplementary groups
   (a non-root uid keeps no capabilities);
3. execs bwrap, which builds the namespaces and runs the interpreter.

Every failure before the exec exits with FAILED and one line on stderr starting with PREFIX,
which the server reports as the sandbox failing to start (not as the program's result). Empty
stdin means the server discarded this launcher: it exits quietly.
"""

import base64
import fcntl
import json
import os
import resource
import sys

FAILED = 125
PREFIX = "ensemble-launcher: "
FIRST_FILE_FD = 3
# Memory files are made above every fd they are later moved to, so no move overwrites another.
SCRATCH_FD = 100
# close_range(2) takes any upper bound at no cost.
MAX_FD = 2**31 - 1
# The plan's length line: digits and a newline.
MAX_HEADER = 21


def memory_file(content: bytes) -> int:
    fd = os.memfd_create("ensemble", os.MFD_CLOEXEC)
    view = memoryview(content)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    scratch = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, SCRATCH_FD)
    os.close(fd)
    return scratch


def inherited_capabilities() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("CapInh:"):
                return int(line.split()[1], 16)
    return 0


def launch(plan: dict) -> None:
    files = [memory_file(base64.b64decode(f)) for f in plan["files"]]
    for i, fd in enumerate(files):
        os.dup2(fd, FIRST_FILE_FD + i)  # inheritable, unlike the scratch copy
    if plan["stdin"] is not None:
        os.dup2(memory_file(base64.b64decode(plan["stdin"])), 0)
    # Nothing else the server inherited (from a supervisor or a shell) may reach the program.
    os.closerange(FIRST_FILE_FD + len(files), MAX_FD)
    for name, soft, hard in plan["rlimits"]:
        resource.setrlimit(getattr(resource, "RLIMIT_" + name), (soft, hard))
    uid = plan["uid"]
    if uid is not None:
        # Dropping every uid from root clears the permitted, effective and ambient sets; the
        # inheritable set survives, so it must already be empty (setpriv --inh-caps=-all).
        if inherited_capabilities() != 0:
            raise RuntimeError("the server has inheritable capabilities; refusing to run")
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    argv = plan["argv"]
    os.execv(argv[0], argv)


def read_exactly(size: int) -> bytes:
    chunks = []
    while size > 0:
        chunk = os.read(0, min(size, 1 << 20))
        if not chunk:
            raise EOFError("the launch plan ended early")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_plan() -> bytes:
    """The plan's bytes, or b"" when stdin closed before any. One byte at a time up to the
    newline, then exactly the announced size: a live run's stdin must keep what follows."""
    header = b""
    while not header.endswith(b"\n"):
        byte = os.read(0, 1)
        if not byte:
            if header:
                raise EOFError("the launch plan ended early")
            return b""
        header += byte
        if len(header) > MAX_HEADER:
            raise ValueError("the launch plan's length is unreadable")
    return read_exactly(int(header))


def main() -> int:
    try:
        raw = read_plan()
        if not raw:
            return 0
        launch(json.loads(raw))
    except Exception as error:  # noqa: BLE001 - any failure is reported the same way
        sys.stderr.write(f"{PREFIX}{type(error).__name__}: {error}\n")
        sys.stderr.flush()
    return FAILED


if __name__ == "__main__":
    sys.exit(main())
