"""Where a submission runs: its own folder, and a sandbox around its kernel.

Every submission is graded in a fresh temporary folder that holds nothing
but what its kernel writes (the kernel starts there, with ``HOME`` and
``TMPDIR`` inside it); the solution notebooks and the other submissions
stay with the grader, which sends the cells to the kernel one by one.

Where bubblewrap (``bwrap``, Debian package ``bubblewrap``) is installed,
the kernel also runs in a sandbox (:func:`sandbox_command`): a new mount
namespace in which only the system's read-only folders, the Python
installation, the svmlib package, the data folder and the submission's own
folder exist (the repository, the solutions, home folders and other
submissions are simply not there), no network (a new network namespace;
the grader talks to the kernel over Unix sockets in the submission's
folder), its own process table, and, when the grader runs as root, the
unprivileged user ``nobody`` (uid 65534), under resource limits
(:class:`Limits`: memory, processes, CPU time, file size, set by
``prlimit``; ``/tmp`` and ``/dev/shm`` in memory of a bounded size; and,
where the grader can create them, a memory and a process cgroup of its
own, :class:`Cgroups`). When the grader stops the kernel it waits until every
process of the sandbox is gone (``wait_for_namespace``). Without
bubblewrap the grader
says so in every report: the kernel then runs with the grader's
permissions, in the temporary folder (``ISOLATION_NOTE``).

The instructors' page (``instructors.md``) says what this does and does
not protect against, and how to grade a large class in a container.
"""

import contextlib
import ctypes
import hashlib
import math
import numbers
import os
import shlex
import shutil
import signal
import site
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from traitlets import Any, Dict, List, Unicode

__all__ = ["Limits", "sandbox_command"]

#: One mebibyte, the unit of the memory and file-size limits.
MIB = 2**20


@dataclass(frozen=True)
class Limits:
    """Resource limits of one submission's kernel in the sandbox.

    The first four are ``setrlimit`` limits that ``prlimit`` sets on the
    kernel inside the sandbox (soft and hard alike, so the kernel cannot
    raise them); they are inherited by every process the kernel starts.
    ``notebook_time`` is the grader's own budget of wall-clock time for
    the whole notebook.

    Parameters
    ----------
    memory : int, default=4096
        Address space of each process, in MiB (``RLIMIT_AS``). An
        allocation beyond it fails (Python raises ``MemoryError``). The
        kernel with numpy, scipy, scikit-learn and svmlib's numba code
        loaded reserves about 0.8 GiB of address space before any work.
        Where the grader can create cgroups (:class:`Cgroups`), it is
        also the memory of all the sandbox's processes together.
    processes : int, default=256
        Processes and threads of the kernel's user (``RLIMIT_NPROC``).
        Under a root grader every kernel runs as ``nobody``, so kernels
        graded at the same time (``--jobs``) share this count; where the
        grader can create cgroups, it is also each sandbox's own limit
        (``pids.max``).
    cpu_time : int, default=1200
        CPU seconds of each process (``RLIMIT_CPU``); the kernel is killed
        when it uses them up.
    file_size : int, default=256
        Largest file a process may write, in MiB (``RLIMIT_FSIZE``); a
        longer write fails (``OSError: File too large``). The sandbox's
        ``/tmp`` and ``/dev/shm`` (in memory) hold at most this much each,
        in all their files (``OSError: No space left on device``).
    notebook_time : float, default=900
        Wall-clock seconds for the whole notebook: the cells left when it
        runs out are not run (each cell also has its own time limit).

    Attributes
    ----------
    memory : int
        Address space of each process, in MiB.
    processes : int
        Processes and threads of the kernel's user.
    cpu_time : int
        CPU seconds of each process.
    file_size : int
        Largest file a process may write, in MiB.
    notebook_time : float
        Wall-clock seconds for the whole notebook.

    Raises
    ------
    ValueError
        If a limit is not a positive number (the message names it).

    References
    ----------
    ``setrlimit(2)`` and ``prlimit(1)``; the book's page for instructors
    (``instructors.md``), "What the grader protects against".

    Examples
    --------
    >>> from svmbook_classroom.sandbox import Limits
    >>> Limits(memory=2048).prlimit_command()  # doctest: +NORMALIZE_WHITESPACE
    ['prlimit', '--as=2147483648', '--nproc=256', '--cpu=1200',
     '--fsize=268435456', '--']
    >>> Limits(processes=0)
    Traceback (most recent call last):
    ...
    ValueError: processes must be a positive number, got 0.
    """

    memory: int = 4096
    processes: int = 256
    cpu_time: int = 1200
    file_size: int = 256
    notebook_time: float = 900

    def __post_init__(self):
        """Check that every limit is a positive finite number."""
        for name in ("memory", "processes", "cpu_time", "file_size",
                     "notebook_time"):  # fmt: skip
            value = getattr(self, name)
            if (
                not isinstance(value, numbers.Real)
                or isinstance(value, bool)
                or not math.isfinite(value)
                or value <= 0
            ):
                raise ValueError(
                    f"{name} must be a positive number, got {value!r}."
                )

    def prlimit_command(self):
        """Return the ``prlimit`` command that sets the limits, then execs.

        Returns
        -------
        list of str
            ``prlimit`` and its options, ending with ``--``: memory and file
            size in bytes, CPU time in whole seconds.

        References
        ----------
        ``prlimit(1)`` (util-linux).

        Examples
        --------
        >>> from svmbook_classroom.sandbox import Limits
        >>> Limits(file_size=1).prlimit_command()[-2:]
        ['--fsize=1048576', '--']
        """
        return [
            "prlimit",
            f"--as={int(self.memory * MIB)}",
            f"--nproc={int(self.processes)}",
            f"--cpu={math.ceil(self.cpu_time)}",
            f"--fsize={int(self.file_size * MIB)}",
            "--",
        ]

    def describe(self):
        """Return the limits in words, for reports.

        Returns
        -------
        str
            One line naming each limit with its unit.

        References
        ----------
        The book's page for instructors (``instructors.md``), "What the
        grader protects against".

        Examples
        --------
        >>> from svmbook_classroom.sandbox import Limits
        >>> Limits(memory=2048, processes=100).describe()[:45]
        '2048 MiB of memory per process, 100 processes'
        """
        return (
            f"{self.memory:g} MiB of memory per process, "
            f"{self.processes:g} processes, {self.cpu_time:g} s of CPU "
            f"time, {self.file_size:g} MiB per file, "
            f"{self.notebook_time:g} s per notebook"
        )


#: Threads of BLAS, OpenMP and numba in a graded kernel, at most: on a
#: machine with many cores, one thread per core would reserve gigabytes of
#: address space (buffers and allocator arenas) against ``Limits.memory``.
KERNEL_THREADS = 2


def _threads_from(env):
    """Return the grader's OMP_NUM_THREADS if set, else KERNEL_THREADS."""
    try:
        return max(1, int(env.get("OMP_NUM_THREADS", "")))
    except ValueError:
        return KERNEL_THREADS


#: The user a root grader runs kernels as (nobody, nogroup on Debian).
NOBODY = 65534

#: System folders the kernel may read (those that exist are bound).
SYSTEM_FOLDERS = ("/usr", "/etc", "/opt")

#: The note in every report when bubblewrap is missing.
ISOLATION_NOTE = (
    "isolation: bubblewrap (bwrap) is not installed, so the kernel ran "
    "with the grader's permissions (in a temporary folder, but able to "
    "read and write whatever the grader can); install the Debian package "
    "bubblewrap or grade in a container"
)


def bwrap():
    """Path of the bwrap executable, or None."""
    return shutil.which("bwrap")


def python_roots():
    """Folders of the running Python, its packages and svmlib (real paths)."""
    import svmlib

    roots = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        str(Path(svmlib.__file__).parent),
        *site.getsitepackages(),
    }
    return sorted({os.path.realpath(r) for r in roots if os.path.isdir(r)})


def data_roots():
    """Return the data folder of svmlib's loaders (SVMLIB_DATA_DIR), if set."""
    folder = os.environ.get("SVMLIB_DATA_DIR")
    if folder and os.path.isdir(folder):
        return [os.path.realpath(folder)]
    return []


def read_roots(workdir):
    """Every folder whose files the kernel may read."""
    system = [os.path.realpath(f) for f in SYSTEM_FOLDERS]
    devices = ["/proc", "/sys", "/dev"]
    return [*system, *devices, *python_roots(), *data_roots(), str(workdir)]


def write_roots(workdir):
    """Every folder the kernel may write to."""
    return [str(workdir), "/dev/shm"]


class Workspace:
    """A fresh temporary folder for one submission (a context manager).

    ``path`` is the kernel's working folder; ``home`` and ``tmp`` are
    folders inside it for ``HOME`` and ``TMPDIR``. On exit the folder and
    everything the kernel wrote are removed.
    """

    def __init__(self):
        self.path = Path(tempfile.mkdtemp(prefix="svmbook-grading-"))
        self.home = self.path / "home"
        self.tmp = self.path / "tmp"
        for folder in (self.home, self.tmp):
            folder.mkdir()
        _copy_font_cache(self.home / ".matplotlib")
        _copy_numba_cache(self.home / ".numba")
        if os.geteuid() == 0:  # the kernel will run as nobody
            for folder in self.path.rglob("*"):
                os.chown(folder, NOBODY, NOBODY)
            os.chown(self.path, NOBODY, NOBODY)
        self.path.chmod(0o755)

    def environment(self):
        """Environment variables of the kernel."""
        keep = ("PATH", "LANG", "LC_ALL", "SVMLIB_DATA_DIR", "OMP_NUM_THREADS")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        env.update(
            HOME=str(self.home),
            TMPDIR=str(self.tmp),
            MPLCONFIGDIR=str(self.home / ".matplotlib"),
            NUMBA_CACHE_DIR=str(self.home / ".numba"),
            PYTHONDONTWRITEBYTECODE="1",
        )
        # Threads of BLAS and of the allocator count against the limits
        # (each thread reserves address space, each is a process for
        # RLIMIT_NPROC): at most KERNEL_THREADS, whatever the machine's
        # cores, unless the grader's own OMP_NUM_THREADS says fewer.
        threads = str(min(KERNEL_THREADS, _threads_from(env)))
        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                     "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):  # fmt: skip
            env[name] = threads
        env["MALLOC_ARENA_MAX"] = threads
        # the data folder as the sandbox binds it: by its real path (a
        # path through a symbolic link may not exist in the sandbox)
        for folder in data_roots():
            env["SVMLIB_DATA_DIR"] = folder
        return env

    def __enter__(self):
        """Return the workspace itself."""
        return self

    def __exit__(self, *exc):
        """Remove the folder and everything in it."""
        shutil.rmtree(self.path, ignore_errors=True)


def hand_to_kernel(folder):
    """Make ``folder`` and what it holds the kernel's (nobody under root)."""
    if os.geteuid() == 0:
        for path in [Path(folder), *Path(folder).rglob("*")]:
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)


def _copy_font_cache(folder):
    """Copy the grader's Matplotlib font list into ``folder``.

    Without it, Matplotlib in the kernel builds the list on first use,
    which takes seconds and runs ``fc-list`` (a new process, which the
    guard would flag).
    """
    import matplotlib
    from matplotlib import font_manager

    font_manager.fontManager  # noqa: B018 (built and cached on first use)
    folder.mkdir()
    for cached in Path(matplotlib.get_cachedir()).glob("fontlist-*.json"):
        shutil.copy(cached, folder)


def _copy_numba_cache(folder):
    """Copy svmlib's compiled numba functions into ``folder``.

    With ``NUMBA_CACHE_DIR`` set to ``folder`` the kernel's numba keeps its
    cache there, not beside svmlib's sources (read-only for the kernel:
    numba's attempt to write there would be flagged). The copies, laid out
    as numba looks for them (the source folder's name and the SHA-1 of its
    path), spare each kernel the compilation.
    """
    import svmlib

    folder.mkdir()
    for cache in Path(svmlib.__file__).parent.rglob("__pycache__"):
        compiled = [*cache.glob("*.nbi"), *cache.glob("*.nbc")]
        if not compiled:
            continue
        source = os.path.abspath(cache.parent)
        digest = hashlib.sha1(source.encode()).hexdigest()
        target = folder / f"{os.path.basename(source)}_{digest}"
        target.mkdir()
        for path in compiled:
            shutil.copy2(path, target)


def _tmpfs_bytes(limits):
    """Size of the sandbox's ``/tmp`` and ``/dev/shm``: ``file_size`` bytes."""
    return int(limits.file_size * MIB)


def _parents(path):
    """Return the ancestors of an absolute path, outermost first, without /."""
    parts = Path(path).parts[1:-1]
    return [str(Path("/", *parts[: k + 1])) for k in range(len(parts))]


def sandbox_command(workdir, env, executable="bwrap", limits=None):
    """Return the bubblewrap command line that runs a kernel in the sandbox.

    Parameters
    ----------
    workdir : path-like
        The submission's folder: the only one writable, and the start
        folder.
    env : dict of str
        The kernel's environment (the sandbox starts from an empty one).
    executable : str
        The bwrap program.
    limits : Limits, optional
        Resource limits that ``prlimit`` sets on the kernel inside the
        sandbox (none without).

    Returns
    -------
    list of str
        Arguments to put before the kernel's own command.

    References
    ----------
    The bubblewrap manual, ``bwrap(1)``; the book's page for instructors
    (``instructors.md``), "What the grader protects against".

    Examples
    --------
    >>> import os
    >>> from svmbook_classroom.sandbox import sandbox_command
    >>> folder = os.path.realpath("/tmp")
    >>> command = sandbox_command(folder, {"HOME": folder})
    >>> command[:2], "--unshare-net" in command, "--clearenv" in command
    (['bwrap', '--die-with-parent'], True, True)
    >>> command[command.index("--chdir") + 1] == folder
    True
    >>> command[command.index("--setenv"):][:3] == ["--setenv", "HOME", folder]
    True
    >>> command = sandbox_command(folder, {}, limits=Limits(memory=1024))
    >>> command[-6:-4]
    ['prlimit', '--as=1073741824']
    """
    workdir = os.path.realpath(workdir)
    command = [
        executable, "--die-with-parent", "--new-session",
        "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
        "--unshare-cgroup-try", "--clearenv",
        # /dev/shm and /tmp writable by the kernel's user (joblib's
        # semaphores live in /dev/shm), sticky like the real ones
        "--proc", "/proc", "--dev", "/dev",
    ]  # fmt: skip
    # the two in memory: each at most the file-size limit in all (without
    # a size, a tmpfs may take half the machine's memory)
    size = [] if limits is None else ["--size", str(_tmpfs_bytes(limits))]
    for folder in ("/dev/shm", "/tmp"):
        command += ["--perms", "1777", *size, "--tmpfs", folder]
    for name in ("lib", "lib64", "bin", "sbin"):  # Debian: links into /usr
        if os.path.islink(f"/{name}"):
            command += ["--symlink", os.readlink(f"/{name}"), f"/{name}"]
        elif os.path.isdir(f"/{name}"):
            command += ["--ro-bind", f"/{name}", f"/{name}"]
    readable = [
        f for f in SYSTEM_FOLDERS if os.path.isdir(f)
    ] + python_roots() + data_roots()  # fmt: skip
    made = set()
    for folder in sorted(set(readable)):
        for parent in _parents(folder):
            if parent not in made and not any(
                parent == r or parent.startswith(r + os.sep) for r in readable
            ):
                command += ["--perms", "0755", "--dir", parent]
                made.add(parent)
        command += ["--ro-bind", folder, folder]
    for parent in _parents(workdir):
        if parent not in made and parent != "/tmp":
            command += ["--perms", "0755", "--dir", parent]
    command += ["--bind", workdir, workdir, "--chdir", workdir]
    for key, value in env.items():
        command += ["--setenv", key, value]
    if os.geteuid() == 0:  # drop root inside: the kernel runs as nobody
        command += [
            "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
            "--clear-groups", "--inh-caps=-all",
        ]  # fmt: skip
    if limits is not None:  # set by the kernel's user, who cannot raise them
        command += limits.prlimit_command()
    return command


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager that starts the kernel behind a command prefix.

    The connection file and the kernel's Unix sockets live in the
    submission's folder, which the sandbox shares with the grader.
    """

    prefix = List(Unicode(), help="command before the kernel's own")
    cgroups = Any(None, allow_none=True, help="the sandbox's Cgroups")
    kernel_env = Dict(help="the kernel's whole environment")

    @property
    def kernel_spec(self):
        """The python3 kernel spec; interrupts by message in the sandbox.

        A signal sent to the sandbox's process group does not reach the
        kernel (bubblewrap starts it in a new session), so the grader asks
        the kernel to interrupt itself over its control channel.
        """
        spec = super().kernel_spec
        if self.prefix and spec is not None:
            spec.interrupt_mode = "message"
        return spec

    def write_connection_file(self, **kwargs):
        """Write it, readable by the kernel's user (nobody under root)."""
        super().write_connection_file(**kwargs)
        if self.prefix and os.geteuid() == 0:
            os.chown(self.connection_file, NOBODY, NOBODY)

    async def _async_pre_start_kernel(self, **kw):
        kw["env"] = dict(self.kernel_env)  # not the grader's environment
        kw["stdout"] = subprocess.DEVNULL  # the kernel's banner
        return await super()._async_pre_start_kernel(**kw)

    def format_kernel_cmd(self, extra_arguments=None):
        """Return the kernel's command, prefixed by the sandbox's."""
        command = super().format_kernel_cmd(extra_arguments)
        # the interpreter by a path without "..": the folders it passes
        # through (the grader's working folder) may not exist in the sandbox
        return [*self.prefix, os.path.abspath(command[0]), *command[1:]]


def pid_namespace(pid):
    """Return the pid namespace that the bwrap process ``pid`` started.

    Parameters
    ----------
    pid : int
        The bwrap process that the grader started.

    Returns
    -------
    str or None
        The namespace's name (``"pid:[4026532301]"``), or None if there is
        none other than the grader's (no sandbox, or it is gone).
    """
    own = os.readlink("/proc/self/ns/pid")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return None
    for child in children.split():
        try:
            namespace = os.readlink(f"/proc/{child}/ns/pid")
        except OSError:
            continue
        if namespace != own:
            return namespace
    return None


def become_subreaper():
    """Make this process the reaper of the sandboxes' orphaned processes.

    When a sandbox ends, its processes are orphans; Linux hands them to
    the nearest ancestor that is a "child subreaper" (``prctl``
    ``PR_SET_CHILD_SUBREAPER``), else to the machine's first process,
    which may take a second or more to reap them (measured: 1.1 to 1.7 s
    on the book's machine), and until then they count against the
    sandbox user's process limit. The grader reaps them itself
    (:func:`wait_for_namespace`). Returns whether it could (Linux only).
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


#: prctl's option number (linux/prctl.h)
PR_SET_CHILD_SUBREAPER = 36


def _stat(pid):
    """(state, parent pid) of a process, from ``/proc/<pid>/stat``."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def _end_in_namespace(pid, namespace):
    """Kill, or reap, process ``pid`` if it is in ``namespace``.

    The process is held by a pidfd while its namespace is read, so a pid
    reused by another process in between is never signalled. A living
    process gets SIGKILL; a zombie whose parent is the grader (a
    subreaper, :func:`become_subreaper`) is reaped. Returns whether the
    process was in the namespace.
    """
    try:
        fd = os.pidfd_open(int(pid))
    except (OSError, ValueError):  # gone
        return False
    try:
        try:
            if os.readlink(f"/proc/{pid}/ns/pid") != namespace:
                return False
            state, parent = _stat(pid)
        except (OSError, ValueError):  # gone
            return False
        if state != "Z":
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
        elif parent == os.getpid():
            with contextlib.suppress(ChildProcessError):
                os.waitpid(int(pid), os.WNOHANG)
        return True
    finally:
        os.close(fd)


def wait_for_namespace(namespace, timeout=60.0):
    """Kill what is left in a pid namespace; wait until it is empty.

    When the grader stops a kernel, the sandbox's first process kills
    every process in it, but it may wait a second or more before it does
    and its orphans wait for a reaper; they count against the process
    limit of the user until they are gone, so the next kernel waits for
    them. The grader does not wait for the sandbox to take its time: it
    sends SIGKILL to every process still in the namespace (its first
    process included, whose end ends the namespace), reaps the zombies
    handed to it (:func:`become_subreaper`) and polls until none is
    left.

    Parameters
    ----------
    namespace : str
        As :func:`pid_namespace` returns it.
    timeout : float
        Seconds to wait at most.

    Returns
    -------
    bool
        True if the namespace is empty, False if it was not in time.
    """
    deadline = time.monotonic() + timeout
    while True:
        left = False
        for entry in os.listdir("/proc"):
            if entry.isdigit() and _end_in_namespace(entry, namespace):
                left = True
        if not left:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


#: Where the cgroup (version 1) controllers are mounted.
CGROUP_ROOT = "/sys/fs/cgroup"


def _own_cgroup(controller):
    """Folder of this process's cgroup for ``controller`` (v1), or None."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if controller in controllers.split(","):
            folder = Path(CGROUP_ROOT, controller, path.lstrip("/"))
            return folder if folder.is_dir() else None
    return None


class Cgroups:
    """A memory and a process cgroup around one sandbox, where possible.

    ``RLIMIT_AS`` bounds each process and ``RLIMIT_NPROC`` counts every
    process of the kernel's user (under a root grader, every kernel runs
    as ``nobody``, so kernels graded at the same time share it). Where
    the grader may create cgroups (version 1, as root), each sandbox also
    gets its own: ``memory.limit_in_bytes`` (``Limits.memory``, for all
    its processes together, files in its ``/tmp`` and ``/dev/shm``
    included) and ``pids.max`` (``Limits.processes``, its own). Elsewhere
    ``folders`` is empty and only the rlimits apply.

    Parameters
    ----------
    limits : Limits
        The memory and process limits.
    """

    def __init__(self, limits):
        self.folders = []
        name = f"svmbook-{os.getpid()}-{time.monotonic_ns()}"
        settings = {
            "memory": ("memory.limit_in_bytes", int(limits.memory * MIB)),
            "pids": ("pids.max", int(limits.processes)),
        }
        if os.geteuid() != 0:
            return
        for controller, (key, value) in settings.items():
            parent = _own_cgroup(controller)
            if parent is None:
                continue
            folder = parent / name
            try:
                folder.mkdir()
                (folder / key).write_text(str(value))
            except OSError:
                self._remove(folder)
                continue
            self.folders.append(folder)

    def command(self):
        """Return the command prefix that moves the sandbox into them."""
        if not self.folders:
            return []
        moves = " && ".join(
            f"echo $$ > {shlex.quote(str(f / 'cgroup.procs'))}"
            for f in self.folders
        )
        return ["sh", "-c", f'{moves} && exec "$@"', "svmbook-cgroups"]

    def memory_reached(self):
        """Tell whether the sandbox's memory reached its limit."""
        for folder in self.folders:
            try:
                if int((folder / "memory.failcnt").read_text()) > 0:
                    return True
            except (OSError, ValueError):
                continue
        return False

    def remove(self):
        """Kill what is left in the cgroups and remove them."""
        for folder in self.folders:
            self._remove(folder)
        self.folders = []

    @staticmethod
    def _remove(folder):
        for _ in range(50):
            try:
                folder.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:  # busy: processes left
                try:
                    for pid in (folder / "cgroup.procs").read_text().split():
                        os.kill(int(pid), 9)
                except (OSError, ValueError):
                    pass
                time.sleep(0.1)


def kernel_manager(workspace, isolate, limits=None):
    """Return the kernel manager for one submission.

    Parameters
    ----------
    workspace : Workspace
    isolate : bool
        Run the kernel in the bubblewrap sandbox (bwrap must exist).
    limits : Limits, optional
        Resource limits of the kernel in the sandbox.

    Returns
    -------
    SandboxedKernelManager
    """
    env = workspace.environment()
    if isolate:
        become_subreaper()
    manager = SandboxedKernelManager(
        kernel_name="python3",
        transport="ipc",
        ip=str(workspace.path / "kernel"),
        connection_file=str(workspace.path / "kernel.json"),
    )
    manager.cgroups = Cgroups(limits) if isolate and limits else None
    manager.prefix = [
        *manager.cgroups.command(),
        *sandbox_command(workspace.path, env, bwrap(), limits),
    ] if isolate else []  # fmt: skip
    manager.kernel_env = env
    return manager
