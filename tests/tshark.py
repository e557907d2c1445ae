"""Run tshark with the staged sqlnet plugin, the way a user would.

tshark run as root ignores WIRESHARK_PLUGIN_DIR, so as root every run drops
to an unprivileged user with setpriv; captures and the plugin are first copied
into a private world-readable folder so that user can read them wherever the
checkout lives.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = Path(os.environ.get("SQLNET_BUILD_DIR", ROOT / "build"))
SHARED = ROOT.parent / "shared"
# The real-capture corpus: ../shared/captures/public beside the checkout, or
# wherever SQLNET_CORPUS says (scripts/fetch_corpus.py fetches the captures).
PUBLIC = Path(os.environ.get("SQLNET_CORPUS", SHARED / "captures" / "public"))
# SQLNET_TSHARK_LOG=path: one JSON line per tshark run (the test, capture, arguments,
# seconds, whether the session cache answered): where a lane's tshark time goes
_RUN_LOG = os.environ.get("SQLNET_TSHARK_LOG", "")
TEST_CAPTURES = ROOT / "test-captures"
# The tshark to run: the installed one, or another build's (scripts/intree_build.sh
# points it at the tshark of a Wireshark source tree built with sqlnet in-tree)
TSHARK = os.environ.get("SQLNET_TSHARK", "tshark")


def corpus_file(public_dir, name, what=None):
    """public_dir / name (the public_dir fixture: the corpus is there), or a
    skip saying that this copy of the corpus lacks it (`what`: how to name
    it, default the path)."""
    import pytest
    path = Path(public_dir) / name
    if not path.exists():
        pytest.skip(f"{what or name} not in the corpus")
    return path


def staged_plugin():
    hits = sorted((BUILD / "plugins").glob("*/epan/sqlnet.so"))
    return hits[-1] if hits else None


def normalise_booleans(value):
    """-T fields prints a boolean as 1/0 on Wireshark 4.0 and as True/False on
    4.4 and later; tests compare the 4.0 form. `value` may be an aggregate (a,b)."""
    return ",".join({"True": "1", "False": "0"}.get(v, v) for v in value.split(","))


class Tshark:
    """One sandbox (plugin dir + home) shared by all runs of a test session."""

    def __init__(self, with_plugin=True):
        """with_plugin=False: the Lua scripts alone, as on a machine where the
        C plugin is not installed (tests/test_lua_without_plugin.py)."""
        plugin = staged_plugin()
        if plugin is None and with_plugin:
            raise RuntimeError(f"sqlnet.so not staged under {BUILD}/plugins: build first")
        self.root_mode = os.geteuid() == 0
        self.sandbox = Path(tempfile.mkdtemp(prefix="sqlnet-tshark-"))
        os.chmod(self.sandbox, 0o755)
        self.plugin_dir = self.sandbox / "plugins"
        self.plugin_dir.mkdir()
        if with_plugin:
            release = plugin.parent.parent.name
            (self.plugin_dir / release / "epan").mkdir(parents=True)
            shutil.copy2(plugin, self.plugin_dir / release / "epan" / "sqlnet.so")
        lua_src = ROOT / "lua"
        if lua_src.is_dir():
            for f in lua_src.glob("*.lua"):
                shutil.copy2(f, self.plugin_dir / f.name)
        self.home = self.sandbox / "home"
        self.home.mkdir()
        self.captures = self.sandbox / "captures"
        self.captures.mkdir()
        for d in self.sandbox.rglob("*"):
            os.chmod(d, 0o777 if d == self.home else (0o755 if d.is_dir() else 0o644))
        self._copied = {}
        # Results of earlier runs of the same command on the same inputs (many
        # tests read the same report of the same capture): tshark is
        # deterministic given its arguments, the capture's bytes, the plugin
        # and Lua files (fixed for the session) and the sandbox home (the
        # profile, preferences); the key holds all of them. Outputs over
        # CACHE_ITEM bytes are not kept. SQLNET_TSHARK_CACHE=0 turns it off.
        self._cache = {}
        self._cache_bytes = 0
        self.cache_stats = {"hits": 0, "misses": 0, "saved_s": 0.0}
        self._cache_on = os.environ.get("SQLNET_TSHARK_CACHE", "1") != "0"

    CACHE_ITEM = 4 << 20
    CACHE_TOTAL = 1 << 30

    def close(self):
        shutil.rmtree(self.sandbox, ignore_errors=True)

    def _home_state(self):
        """What of the sandbox home tshark reads: every file's path, size and
        modification time (the profile and preferences the tests install)."""
        state = []
        for dirpath, _dirs, files in os.walk(self.home):
            for f in files:
                try:
                    st = os.stat(os.path.join(dirpath, f))
                except OSError:
                    continue
                state.append((dirpath, f, st.st_size, st.st_mtime_ns))
        return tuple(sorted(state))

    def _cache_key(self, capture, args):
        try:
            st = os.stat(capture)
        except OSError:
            return None
        return (str(Path(capture).resolve()), st.st_size, st.st_mtime_ns, tuple(str(a) for a in args),
                self._home_state())

    def readable(self, path):
        """Path of a copy of `path` that the unprivileged user can read."""
        path = Path(path)
        if not self.root_mode:
            return path
        if path not in self._copied:
            dst = self.captures / f"{len(self._copied)}_{path.name}"
            shutil.copyfile(path, dst)
            os.chmod(dst, 0o644)
            self._copied[path] = dst
        return self._copied[path]

    def command(self, args):
        env_args = [f"HOME={self.home}", f"WIRESHARK_PLUGIN_DIR={self.plugin_dir}",
                    "LC_ALL=C.UTF-8"]
        base = ["env"] + env_args + [TSHARK] + list(args)
        if self.root_mode:
            base = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + base
        return base

    def run(self, capture, args=(), check=True, timeout=600):
        """tshark -r capture args...; returns CompletedProcess (text)."""
        cmd = self.command(["-r", str(self.readable(capture))] + list(args))
        key = self._cache_key(capture, args) if self._cache_on else None
        proc = self._cache.get(key) if key else None
        hit = proc is not None
        if proc is not None:
            self.cache_stats["hits"] += 1
            self.cache_stats["saved_s"] += proc.elapsed
        else:
            t0 = time.monotonic()
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            proc.elapsed = time.monotonic() - t0
            self.cache_stats["misses"] += 1
            size = len(proc.stdout) + len(proc.stderr)
            if key and size <= self.CACHE_ITEM and self._cache_bytes + size <= self.CACHE_TOTAL:
                self._cache[key] = proc
                self._cache_bytes += size
        if _RUN_LOG:
            with open(_RUN_LOG, "a") as f:
                f.write(json.dumps({"test": os.environ.get("PYTEST_CURRENT_TEST", ""), "capture": Path(capture).name,
                                    "args": [str(a) for a in args], "s": round(proc.elapsed, 3),
                                    "hit": hit}) + "\n")
        if check and proc.returncode != 0:
            raise AssertionError(f"tshark failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
        return proc

    def wrapper(self):
        """An executable that runs this sandbox's tshark (for scripts that call tshark)."""
        path = self.sandbox / "tshark.sh"
        if not path.exists():
            cmd = " ".join(f"'{c}'" for c in self.command([]))
            path.write_text(f'#!/bin/sh\nexec {cmd} "$@"\n')
            os.chmod(path, 0o755)
        return path

    def run_plain(self, args, timeout=300):
        """tshark with arguments but no capture (e.g. -G fields)."""
        proc = subprocess.run(self.command(list(args)), capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise AssertionError(f"tshark {args} failed: {proc.stderr}")
        return proc

    def fields(self, capture, fields, display_filter=None, extra=()):
        """Rows of -T fields output as lists of strings (one per field)."""
        args = ["-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
        for f in fields:
            args += ["-e", f]
        if display_filter:
            args += ["-Y", display_filter]
        args += list(extra)
        out = self.run(capture, args).stdout
        rows = [line.split("\t") for line in out.splitlines()]
        booleans = [i for i, f in enumerate(fields) if f in self.boolean_fields()]
        for row in rows:
            for i in booleans:
                if i < len(row):
                    row[i] = normalise_booleans(row[i])
        return rows

    def boolean_fields(self):
        """Abbreviations of every FT_BOOLEAN field this tshark knows."""
        if getattr(self, "_booleans", None) is None:
            out = self.run_plain(["-G", "fields"]).stdout
            self._booleans = {p[2] for p in (line.split("\t") for line in out.splitlines())
                              if len(p) > 3 and p[0] == "F" and p[3] == "FT_BOOLEAN"}
        return self._booleans

    # --- additions for the Wireshark profile and GUI tests -----------------

    def user_command(self, argv, env=()):
        """argv run the way tshark is run: sandbox HOME and plugin dir, and
        as root dropped to the unprivileged user. env: extra NAME=value."""
        env_args = [f"HOME={self.home}", f"WIRESHARK_PLUGIN_DIR={self.plugin_dir}",
                    "LC_ALL=C.UTF-8"] + list(env)
        base = ["env"] + env_args + list(argv)
        if self.root_mode:
            base = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] + base
        return base

    def install_profile(self, name="SQLNet"):
        """Install profiles/<name> into the sandbox home with
        scripts/install_profile.sh; returns the installed profile folder.
        The configuration folder is made writable for the unprivileged user
        (Wireshark saves preferences and recent files into it)."""
        subprocess.run([str(ROOT / "scripts" / "install_profile.sh"), "--home", str(self.home)],
                       check=True, capture_output=True, text=True)
        config = self.home / ".config"
        for d in [config] + list(config.rglob("*")):
            os.chmod(d, 0o777 if d.is_dir() else 0o666)
        return config / "wireshark" / "profiles" / name
