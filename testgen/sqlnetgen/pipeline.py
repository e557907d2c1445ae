"""Capture pipeline: network namespaces + veth + dumpcap + scripted server + real client.

netns mode (root / CAP_NET_ADMIN):
    sqlnetgen-<rand>-s  (10.200.0.1, server, dumpcap on its veth end)
    sqlnetgen-<rand>-c  (10.200.0.2, client)
  joined by a veth pair with the scenario MTU and TSO/GSO/GRO off, so every
  frame on the wire is really at most MTU bytes.
loopback mode: server on 127.0.0.1, dumpcap on lo (no MTU control).
text2pcap mode: the server itself hex-dumps both directions; text2pcap -D -T
  turns that into a pcap (no capture privileges needed).

Everything started here is killed and every namespace deleted in `finally`.
"""

from __future__ import annotations

import bisect
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from . import GENERATOR_VERSION, releases

TESTGEN = Path(__file__).resolve().parent.parent
CLIENTS = TESTGEN / "clients"
SERVER_ADDR = "10.200.0.1"
CLIENT_ADDR = "10.200.0.2"


class PipelineError(RuntimeError):
    pass


def _run(cmd, check=True, timeout=30, **kw):
    return subprocess.run(cmd, check=check, timeout=timeout, capture_output=True, text=True, **kw)


def have_tool(name: str) -> bool:
    return shutil.which(name) is not None


def netem_args(wan: dict) -> list[str]:
    """`netem ...` arguments of a scenario's WAN setting (one direction)."""
    args = ["netem", "delay", f"{float(wan.get('delay_ms', 0)):g}ms"]
    if wan.get("rate_mbit"):
        args += ["rate", f"{float(wan['rate_mbit']):g}mbit"]
    if wan.get("loss_pct"):
        args += ["loss", f"{float(wan['loss_pct']):g}%"]
    return args


def netns_available() -> tuple[bool, str]:
    if os.geteuid() != 0:
        return False, "not root"
    if not have_tool("ip"):
        return False, "iproute2 (ip) missing"
    name = f"sqlnetgen-probe{secrets.token_hex(3)}"
    try:
        r = _run(["ip", "netns", "add", name], check=False)
        if r.returncode != 0:
            return False, f"ip netns add failed: {r.stderr.strip()}"
        return True, "ok"
    finally:
        _run(["ip", "netns", "del", name], check=False)


def steady_prefix(role: str) -> list[str]:
    """Command prefix that keeps the timing of a LAN round trip (tens of microseconds of
    work on each side) free of the machine's other work: the server on the last CPU, the
    client on the first, both at the highest CFS weight (nice -20), so neither waits for
    the other's core or for an unrelated task.  Not real-time scheduling: the JVM's
    spinning threads could starve one another under SCHED_FIFO.  Root and two CPUs or
    more; SQLNETGEN_STEADY=0 turns it off.  Recorded in the manifest (host.scheduling)."""
    if os.environ.get("SQLNETGEN_STEADY", "1") == "0" or os.geteuid() != 0:
        return []
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2 or not (have_tool("taskset") and have_tool("nice")):
        return []
    cpu = cpus[-1] if role == "server" else cpus[0]
    return ["taskset", "-c", str(cpu), "nice", "-n", "-20"]


def hold_cpu_awake():
    """Keep the CPUs out of their idle states while a scenario runs (a PM QoS request of
    0 us on /dev/cpu_dma_latency, held while the file stays open; closed in teardown).
    On a virtual machine an idle vCPU halts, and waking it again costs the client or the
    server 0.1-0.3 ms whenever the other side worked long enough for it to halt: a cost
    that grows with the other side's time, as if it were time per row.  Returns the open
    file, or None (not root, no such device, SQLNETGEN_STEADY=0)."""
    if os.environ.get("SQLNETGEN_STEADY", "1") == "0" or os.geteuid() != 0:
        return None
    try:
        f = open("/dev/cpu_dma_latency", "wb", buffering=0)
        f.write((0).to_bytes(4, sys.byteorder, signed=True))
        return f
    except OSError:
        return None


def steady_description(cpu_awake: bool = False) -> str | None:
    s, c = steady_prefix("server"), steady_prefix("client")
    if not s:
        return None
    return (f"server on CPU {s[2]}, client on CPU {c[2]}, both nice -20"
            + ("; CPU idle states off (/dev/cpu_dma_latency 0)" if cpu_awake else ""))


# --- client commands ---------------------------------------------------------
def client_command(driver: str, plan: dict) -> list[str]:
    arg = json.dumps(plan)
    if driver == "python":
        return [sys.executable, str(CLIENTS / "python" / "client.py"), arg]
    if driver == "node":
        node = shutil.which("node")
        if not node:
            raise PipelineError("node not installed")
        if not (CLIENTS / "node" / "node_modules" / "oracledb").exists():
            raise PipelineError("node-oracledb not installed (run testgen/setup.sh)")
        return [node, str(CLIENTS / "node" / "client.js"), arg]
    if driver == "goora":
        binary = goora_binary()
        return [str(binary), arg]
    if driver in ("jdbc", "jdbc8"):
        java = shutil.which("java")
        if not java:
            raise PipelineError("java not installed")
        # C1 only: the client reaches compiled speed within its first few hundred calls,
        # instead of recompiling (C2) in the middle of a sweep, which makes a statement's
        # time depend on where it falls in the session rather than on its array size.
        # A heap whose young generation holds everything a run allocates, and no periodic
        # cleanup safepoint: a collection or the once-a-second safepoint (4 ms measured
        # here) costs a long-running application server a fraction of a percent, but in a
        # captured session of 100 ms it lands on one statement by chance.
        return [java, "-XX:TieredStopAtLevel=1", "-Xms2g", "-Xmn1536m",
                "-XX:+UnlockDiagnosticVMOptions", "-XX:GuaranteedSafepointInterval=0",
                "-cp", jdbc_classpath(driver), "Client", arg]
    raise PipelineError(f"unknown driver {driver}")


# ojdbc jars from Maven Central, pinned by version and SHA-256 (testgen/setup.sh downloads them)
JDBC_JARS = {
    "jdbc": "ojdbc11-23.26.0.0.0.jar",
    "jdbc8": "ojdbc8-23.26.0.0.0.jar",
}


def jdbc_classpath(driver: str) -> str:
    src = CLIENTS / "jdbc"
    jar = src / "lib" / JDBC_JARS[driver]
    if not jar.exists():
        raise PipelineError(f"{jar.name} not downloaded (run testgen/setup.sh)")
    out = src / "bin" / "Client.class"
    if not out.exists() or out.stat().st_mtime < (src / "Client.java").stat().st_mtime:
        javac = shutil.which("javac")
        if not javac:
            raise PipelineError("javac not installed (openjdk-17-jdk-headless)")
        # compiled against one jar; the two jars share the API the client uses
        r = subprocess.run([javac, "--release", "8", "-cp", str(jar), "-d", str(src / "bin"),
                            str(src / "Client.java")], capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise PipelineError(f"javac failed: {r.stderr[-2000:]}")
    return f"{jar}{os.pathsep}{src / 'bin'}"


def go_tool() -> str | None:
    for cand in (shutil.which("go"), "/usr/local/go/bin/go"):
        if cand and os.path.exists(cand):
            return cand
    return None


def goora_binary() -> Path:
    src = CLIENTS / "goora"
    out = src / "bin" / "goora-client"
    newest_src = max((p.stat().st_mtime for p in src.glob("*.go")), default=0)
    for extra in ("go.mod", "go.sum"):
        if (src / extra).exists():
            newest_src = max(newest_src, (src / extra).stat().st_mtime)
    if out.exists() and out.stat().st_mtime >= newest_src:
        return out
    go = go_tool()
    if not go:
        raise PipelineError("go toolchain not installed")
    env = dict(os.environ, GOFLAGS="-mod=mod", CGO_ENABLED="0")
    r = subprocess.run([go, "build", "-o", str(out), "."], cwd=src, env=env,
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise PipelineError(f"go build failed: {r.stderr[-2000:]}")
    return out


def driver_available(driver: str) -> tuple[bool, str]:
    try:
        if driver == "python":
            import importlib.util
            if importlib.util.find_spec("oracledb") is None:
                return False, "python-oracledb not installed"
            return True, "ok"
        if driver == "node":
            if not shutil.which("node"):
                return False, "node not installed"
            if not (CLIENTS / "node" / "node_modules" / "oracledb").exists():
                return False, "node-oracledb not installed (npm ci in testgen/clients/node)"
            return True, "ok"
        if driver == "goora":
            if not go_tool() and not (CLIENTS / "goora" / "bin" / "goora-client").exists():
                return False, "go toolchain not installed"
            goora_binary()
            return True, "ok"
        if driver in ("jdbc", "jdbc8"):
            if not shutil.which("java"):
                return False, "java not installed"
            jdbc_classpath(driver)
            return True, "ok"
    except PipelineError as exc:
        return False, str(exc)
    return False, f"unknown driver {driver}"


# --- the run ---------------------------------------------------------------
class Run:
    def __init__(self, scenario: dict, outdir: Path, mode: str | None = None, verbose=False):
        self.scn = scenario
        self.outdir = Path(outdir)
        self.verbose = verbose
        self.tag = secrets.token_hex(3)
        self.ns_s = f"sqlnetgen-{self.tag}-s"
        self.ns_c = f"sqlnetgen-{self.tag}-c"
        self.veth_s = f"sg{self.tag}s"
        self.veth_c = f"sg{self.tag}c"
        self.ns_w = f"sqlnetgen-{self.tag}-w"       # WAN scenarios: the link in between
        self.veth_ws = f"sg{self.tag}ws"
        self.veth_wc = f"sg{self.tag}wc"
        self.wan_emulator = None
        self.procs: list[subprocess.Popen] = []
        self.namespaces: list[str] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="sqlnetgen-"))
        self.mode = mode

    def log(self, *a):
        if self.verbose:
            print(f"[{self.scn['name']}]", *a, file=sys.stderr)

    # namespaces ---------------------------------------------------------
    def setup_netns(self, mtu: int):
        wan = self.scn.get("netem")
        nss = (self.ns_s, self.ns_c) + ((self.ns_w,) if wan else ())
        for ns in nss:
            _run(["ip", "netns", "add", ns])
            self.namespaces.append(ns)
        if not wan:
            _run(["ip", "link", "add", self.veth_s, "netns", self.ns_s, "type", "veth",
                  "peer", "name", self.veth_c, "netns", self.ns_c])
        else:
            # server - [WAN namespace] - client: the delay sits between the two ends, so
            # the server-side capture sees the server's own packets when it sends them
            _run(["ip", "link", "add", self.veth_s, "netns", self.ns_s, "type", "veth",
                  "peer", "name", self.veth_ws, "netns", self.ns_w])
            _run(["ip", "link", "add", self.veth_c, "netns", self.ns_c, "type", "veth",
                  "peer", "name", self.veth_wc, "netns", self.ns_w])
        devs = [(self.ns_s, self.veth_s, SERVER_ADDR), (self.ns_c, self.veth_c, CLIENT_ADDR)]
        if wan:
            devs += [(self.ns_w, self.veth_ws, None), (self.ns_w, self.veth_wc, None)]
        for ns, dev, addr in devs:
            ex = ["ip", "netns", "exec", ns]
            _run(ex + ["ip", "link", "set", "lo", "up"])
            _run(ex + ["ip", "link", "set", dev, "mtu", str(mtu)])
            if addr:
                _run(ex + ["ip", "addr", "add", f"{addr}/24", "dev", dev])
            else:       # the WAN namespace has no address and sends nothing of its own
                _run(ex + ["sysctl", "-qw", f"net.ipv6.conf.{dev}.disable_ipv6=1"], check=False)
            _run(ex + ["ip", "link", "set", dev, "up"])
            if have_tool("ethtool"):
                _run(ex + ["ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off"],
                     check=False)
                for feat in ("tx-checksumming", "rx-checksumming"):
                    # keep checksums valid in the capture (no checksum offload on veth)
                    _run(ex + ["ethtool", "-K", dev, feat, "off"], check=False)
        if wan:
            self.setup_wan(wan)

    def setup_wan(self, wan: dict):
        """Delay (rate, loss) both directions in the WAN namespace: `tc netem` on its two
        veth ends behind a bridge when the kernel has sch_netem, else the user-space link
        (wanlink.py).  SQLNETGEN_WAN_EMULATOR=netem|userspace forces one; netem forced but
        missing is an error, never a LAN capture."""
        forced = os.environ.get("SQLNETGEN_WAN_EMULATOR", "")
        if forced not in ("", "netem", "userspace"):
            raise PipelineError(f"SQLNETGEN_WAN_EMULATOR={forced!r}: netem or userspace")
        ex = ["ip", "netns", "exec", self.ns_w]
        emulator = forced or "netem"
        if emulator == "netem":
            if not have_tool("tc"):
                raise PipelineError("tc (iproute2) missing: cannot emulate a WAN link")
            if have_tool("modprobe"):
                _run(["modprobe", "sch_netem"], check=False)
            probe = _run(ex + ["tc", "qdisc", "add", "dev", self.veth_ws, "root", "netem",
                               "delay", "0ms"], check=False)
            if probe.returncode == 0:
                _run(ex + ["tc", "qdisc", "del", "dev", self.veth_ws, "root"])
            elif forced:
                raise PipelineError(f"netem unavailable in this kernel: {probe.stderr.strip()}")
            else:
                print(f"[{self.scn['name']}] netem unavailable ({probe.stderr.strip()}): "
                      "using the user-space WAN link (wanlink.py)", file=sys.stderr)
                emulator = "userspace"
        self.wan_emulator = emulator
        if emulator == "netem":
            _run(ex + ["ip", "link", "add", "br0", "type", "bridge"])
            for dev in (self.veth_ws, self.veth_wc):
                _run(ex + ["ip", "link", "set", dev, "master", "br0"])
            _run(ex + ["ip", "link", "set", "br0", "up"])
            # the egress of the end facing the server delays client->server, and back
            for dev in (self.veth_ws, self.veth_wc):
                _run(ex + ["tc", "qdisc", "add", "dev", dev, "root"] + netem_args(wan))
            return
        cfg = {"a": self.veth_ws, "b": self.veth_wc, "a_to_b": wan, "b_to_a": wan,
               "seed": zlib.crc32(self.scn["name"].encode()), "limit": 1000}
        (self.tmp / "wan.json").write_text(json.dumps(cfg))
        ready = self.tmp / "wan.ready"
        env = dict(os.environ, PYTHONPATH=str(TESTGEN) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.wan_proc = self.popen([sys.executable, "-m", "sqlnetgen.wanlink", "--config",
                                    str(self.tmp / "wan.json"), "--stats", str(self.tmp / "wan_stats.json"),
                                    "--ready", str(ready)], ns=self.ns_w, env=env,
                                   stdout=subprocess.DEVNULL, stderr=open(self.tmp / "wan.err", "w"))
        self._wait_for(lambda: ready.exists(), 15, "user-space WAN link did not start")

    def wan_stats(self) -> dict | None:
        """Stop the user-space link and return its counters (a faces the server: a_to_b is
        what the server sent, server->client)."""
        p = getattr(self, "wan_proc", None)
        if p is None:
            return None
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=10)
        path = self.tmp / "wan_stats.json"
        if not path.exists():
            raise PipelineError(f"WAN link wrote no counters: {(self.tmp / 'wan.err').read_text()[-2000:]}")
        st = json.loads(path.read_text())
        return {"server_to_client": st["a_to_b"], "client_to_server": st["b_to_a"]}

    def teardown(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except (ProcessLookupError, PermissionError):
                    pass
        deadline = time.time() + 5
        for p in self.procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                p.wait(timeout=5)
        if getattr(self, "cpu_awake", None) is not None:
            self.cpu_awake.close()
            self.cpu_awake = None
        for ns in self.namespaces:
            _run(["ip", "netns", "del", ns], check=False)
        self.namespaces.clear()
        keep = os.environ.get("SQLNETGEN_KEEP_TMP")
        if keep:   # debugging aid: keep the raw capture, server log and stats of every run
            shutil.copytree(self.tmp, Path(keep) / f"{self.scn['name']}-{os.getpid()}", dirs_exist_ok=True)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def popen(self, cmd, ns=None, **kw):
        if ns:
            cmd = ["ip", "netns", "exec", ns] + cmd
        p = subprocess.Popen(cmd, start_new_session=True, **kw)
        self.procs.append(p)
        return p

    # main -------------------------------------------------------------------
    def execute(self) -> dict:
        scn = self.scn
        name = scn["name"]
        mtu = int(scn.get("mtu", 1500))
        port = int(scn.get("port", 1521))
        mode = self.mode or ("netns" if netns_available()[0] else
                             ("loopback" if os.geteuid() == 0 and have_tool("dumpcap") else "text2pcap"))
        self.mode = mode
        self.cpu_awake = hold_cpu_awake()
        if scn.get("netem") and mode != "netns":
            raise PipelineError(f"{name}: a WAN scenario (netem) needs the netns mode, not {mode}")
        self.outdir.mkdir(parents=True, exist_ok=True)
        pcap = self.outdir / f"{name}.pcapng"
        if pcap.exists():
            pcap.unlink()
        server_addr = SERVER_ADDR if mode == "netns" else "127.0.0.1"
        if mode != "netns" and port == 1521 and scn.get("loopback_port_shift", True):
            pass
        cfg = releases.resolve(scn.get("server", {}))
        cfg.update({"address": server_addr, "port": port,
                    "max_connections": int(scn.get("plan", {}).get("sessions", 1)) *
                    (len(scn.get("client_plans") or []) or int(scn.get("client_runs", 1))),
                    "max_runtime_s": float(scn.get("timeout_s", 900))})
        if scn.get("redirect"):
            # a listener on from_port answers the CONNECT with a REDIRECT to `port`
            if mode == "text2pcap":
                raise PipelineError("redirect scenarios need network namespaces or loopback capture")
            cfg["redirect"] = dict(scn["redirect"])
        if mode == "text2pcap":
            if scn.get("tls"):
                raise PipelineError("TLS scenarios need network namespaces or loopback capture")
            cfg["hexdump"] = str(self.tmp / "dump.txt")
        tls_files = None
        if scn.get("tls"):       # TCPS: throwaway CA and certificate, key log from the server
            from . import tls as tlsgen
            tls_files = tlsgen.make_certificates(self.tmp / "tls", server_addr)
            tls_files["keylog"] = str(self.tmp / "tls" / "keylog.txt")
            cfg["tls"] = dict(tls_files, version=str(scn["tls"]["version"]))
        cfg_path = self.tmp / "server.json"
        cfg_path.write_text(json.dumps(cfg))
        stats_path = self.tmp / "stats.json"
        ready = self.tmp / "ready"
        env = dict(os.environ, PYTHONPATH=str(TESTGEN) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        try:
            ns_s = ns_c = None
            iface = "lo"
            cap_ns = None
            if mode == "netns":
                self.setup_netns(mtu)
                ns_s, ns_c, iface = self.ns_s, self.ns_c, self.veth_s
                cap_ns = ns_s
                # "capture_at": "client": dumpcap on the client's end of the link
                # (a WAN scenario then shows the RTT in the wait for each answer)
                if scn.get("capture_at") == "client":
                    cap_ns, iface = ns_c, self.veth_c
            cap = None
            if mode in ("netns", "loopback"):
                capfile = self.tmp / "cap.pcapng"
                cap_filter = f"tcp port {port}"
                if scn.get("redirect"):
                    cap_filter += f" or tcp port {int(scn['redirect']['from_port'])}"
                cap_err = open(self.tmp / "dumpcap.err", "w")
                cap = self.popen(["dumpcap", "-q", "-i", iface, "-f", cap_filter, "-w", str(capfile)],
                                 ns=cap_ns, stdout=subprocess.DEVNULL, stderr=cap_err)
                self._wait_for(lambda: capfile.exists() and capfile.stat().st_size > 0, 15,
                               "dumpcap did not start")
                time.sleep(0.3)
            srv_log = open(self.tmp / "server.log", "w")
            srv = self.popen(steady_prefix("server") + [sys.executable, "-m", "sqlnetgen.server", "--config", str(cfg_path),
                              "--stats", str(stats_path), "--ready", str(ready)],
                             ns=ns_s, env=env, stdout=srv_log, stderr=subprocess.STDOUT)
            self._wait_for(lambda: ready.exists(), 20, "server did not start")
            plan = dict(scn["plan"])
            plan.update({"host": server_addr, "port": port})
            if scn.get("redirect"):    # the client is given the redirecting listener
                plan["port"] = int(scn["redirect"]["from_port"])
            warm_runs = int(scn.get("client_warmup_runs", 0))
            if warm_runs:
                # a second server on the next port, outside the capture filter: the client
                # runs its session there first (JDBC: a JIT-compiled driver, as in a
                # long-running application server); only the captured server's counters count
                # max_connections 0: it waits, idle, until the teardown stops it.  Left to
                # end after its last session, its exit (the interpreter freeing its heap)
                # would take the captured server's CPU while the captured session runs.
                warm_cfg = dict(cfg, port=port + 1, max_connections=0)
                warm_cfg_path = self.tmp / "warm.json"
                warm_cfg_path.write_text(json.dumps(warm_cfg))
                warm_ready = self.tmp / "warm.ready"
                # no --stats: writing them as its sessions end would take the CPU the
                # captured server runs on while the captured session starts
                self.popen(steady_prefix("server") + [sys.executable, "-m", "sqlnetgen.server", "--config",
                           str(warm_cfg_path), "--ready", str(warm_ready)], ns=ns_s, env=env,
                           stdout=open(self.tmp / "warm.log", "w"), stderr=subprocess.STDOUT)
                self._wait_for(lambda: warm_ready.exists(), 20, "warm-up server did not start")
                plan.update({"warmup_port": port + 1, "warmup_runs": warm_runs})
            if tls_files:
                plan["tls"] = {"ca": tls_files["ca"], "version": str(scn["tls"]["version"])}
                if scn["client"] in ("jdbc", "jdbc8"):      # JDBC thin: a PKCS12 truststore
                    plan["tls"]["truststore"] = tlsgen.make_truststore(
                        tls_files["ca"], self.tmp / "tls" / "truststore.p12")
                    plan["tls"]["truststore_password"] = tlsgen.TRUSTSTORE_PASSWORD
                env["NODE_EXTRA_CA_CERTS"] = tls_files["ca"]    # node-oracledb without a wallet
                env["SSL_CERT_FILE"] = tls_files["ca"]          # go-ora: Go's system roots
            reports = []
            # client_plans: one plan override per run (e.g. the SDU of each connection)
            run_plans = [dict(plan, **o) for o in scn.get("client_plans") or []] or \
                [plan] * int(scn.get("client_runs", 1))
            for run_plan in run_plans:
                cmd = client_command(scn["client"], run_plan)
                self.log("client:", " ".join(cmd[:2]))
                cp = subprocess.run((["ip", "netns", "exec", ns_c] if ns_c else []) + steady_prefix("client") + cmd,
                                    capture_output=True, text=True,
                                    timeout=float(scn.get("timeout_s", 900)), env=env)
                lines = [ln for ln in cp.stdout.splitlines() if ln.startswith("{")]
                if cp.returncode != 0 or not lines:
                    raise PipelineError(f"client failed rc={cp.returncode}: {cp.stderr[-3000:]} "
                                        f"{cp.stdout[-2000:]}\nserver log: "
                                        f"{(self.tmp / 'server.log').read_text()[-3000:]}")
                reports.append(json.loads(lines[-1]))
            # wait until the server has recorded every connection as closed
            nconn = cfg["max_connections"]

            def _all_closed():
                if not stats_path.exists():
                    return False
                try:
                    st = json.loads(stats_path.read_text())
                except json.JSONDecodeError:
                    return False
                cs = st.get("connections", [])
                return len(cs) >= nconn and all(c.get("closed_reason") for c in cs)
            self._wait_for(_all_closed, 30, "server did not record all connections")
            srv.send_signal(signal.SIGTERM)
            srv.wait(timeout=15)
            if cap is not None:
                time.sleep(0.5)                 # let FIN/ACK reach the capture
                cap.send_signal(signal.SIGTERM)
                cap.wait(timeout=15)
                if tls_files:      # embed the server's key log: a plain tshark -r decrypts
                    tlsgen.inject_secrets(self.tmp / "cap.pcapng", Path(tls_files["keylog"]), pcap)
                else:
                    shutil.move(str(self.tmp / "cap.pcapng"), pcap)
            else:
                self._text2pcap(Path(cfg["hexdump"]), pcap, port)
            wan_counters = self.wan_stats()
            stats = json.loads(stats_path.read_text())
            manifest = build_manifest(scn, mode, mtu, server_addr, port, cfg, reports, stats, pcap)
            # the machine's load while the scenario ran (its timings include scheduling pauses
            # when other work competed for the cores)
            manifest["host"] = {"cpus": os.cpu_count(), "load_average_1min": round(os.getloadavg()[0], 2)}
            if steady_description(self.cpu_awake is not None):
                manifest["host"]["scheduling"] = steady_description(self.cpu_awake is not None)
            if scn.get("netem"):
                manifest["netem"] = wan_manifest(scn["netem"], self.wan_emulator, wan_counters)
                rtts = handshake_rtts(pcap, scn.get("capture_at", "server"))
                for c in manifest["connections"]:
                    c["handshake_rtt_ms"] = rtts.get(c["client_port"])
            (self.outdir / f"{name}.json").write_text(dump_manifest(manifest))
            os.chmod(pcap, 0o644)
            return manifest
        finally:
            self.teardown()

    def _text2pcap(self, dump: Path, pcap: Path, port: int):
        r = _run(["text2pcap", "-q", "-D", "-n", "-t", "%s.%f", "-T", f"54321,{port}",
                  str(dump), str(pcap)], check=False, timeout=300)
        if r.returncode != 0:
            raise PipelineError(f"text2pcap failed: {r.stderr}")

    def _wait_for(self, cond, timeout, what):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if cond():
                return
            for p in self.procs:
                if p.poll() is not None and p.returncode not in (0, None):
                    log = self.tmp / "server.log"
                    raise PipelineError(f"{what}: process {p.args[:6]} exited {p.returncode}; "
                                        f"{log.read_text()[-2000:] if log.exists() else ''}")
            time.sleep(0.05)
        raise PipelineError(what)


# --- manifest ------------------------------------------------------------------
def dump_manifest(manifest: dict) -> str:
    """Pretty JSON, but one line per request record (keeps files small and diffable)."""
    conns = manifest["connections"]
    reqs = [c.pop("requests") for c in conns]
    text = json.dumps(manifest, indent=1)
    for c, rq in zip(conns, reqs):
        c["requests"] = rq
    lines = text.rstrip().split("\n")
    # re-insert requests: rebuild connections block by hand
    head = {k: v for k, v in manifest.items() if k != "connections"}
    out = json.dumps(head, indent=1)[:-2] + ',\n "connections": [\n'
    cparts = []
    for c in conns:
        cc = {k: v for k, v in c.items() if k != "requests"}
        body = json.dumps(cc, indent=1)
        body = "  " + body[:-2].replace("\n", "\n  ") + ',\n   "requests": [\n'
        body += ",\n".join("    " + json.dumps(r, separators=(",", ":")) for r in c["requests"])
        body += "\n   ]\n  }"
        cparts.append(body)
    out += ",\n".join(cparts) + "\n ]\n}\n"
    json.loads(out)            # must stay valid JSON
    del lines
    return out


def tcp_segments(pcap: Path) -> list[dict]:
    """Frames via tshark *core* fields only (no Oracle dissector involved)."""
    r = _run(["tshark", "-r", str(pcap), "-n", "-o", "tcp.relative_sequence_numbers:TRUE",
              "-T", "fields", "-E", "separator=,", "-e", "frame.number", "-e", "frame.time_epoch",
              "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.seq", "-e", "tcp.len"],
             timeout=900)
    out = []
    for line in r.stdout.splitlines():
        parts = line.split(",")
        if len(parts) < 6 or not parts[4]:
            continue
        out.append({"frame": int(parts[0]), "time": float(parts[1]), "sport": int(parts[2]),
                    "dport": int(parts[3]), "seq": int(parts[4]), "len": int(parts[5] or 0)})
    return out


def _split_repeats(stream: list[dict]) -> tuple[list[dict], list[dict]]:
    """(segments with at least one byte not seen before in capture order, repeats)."""
    seen: list[list[int]] = []          # merged [start, end) byte ranges
    new, rep = [], []
    for s in stream:
        lo, hi = s["seq"] - 1, s["seq"] - 1 + s["len"]
        if any(a <= lo and hi <= b for a, b in seen):
            rep.append(s)
            continue
        new.append(s)
        merged = [lo, hi]
        rest = []
        for a, b in seen:
            if b < merged[0] or a > merged[1]:
                rest.append([a, b])
            else:
                merged = [min(a, merged[0]), max(b, merged[1])]
        seen = rest + [merged]
    return new, rep


def _annotate_segments(conn: dict, segs: list[dict], server_port: int):
    cport = conn["client_port"]
    s2c_all = [s for s in segs if s["sport"] == server_port and s["dport"] == cport and s["len"] > 0]
    c2s_all = [s for s in segs if s["sport"] == cport and s["dport"] == server_port and s["len"] > 0]
    # a TCP retransmission (WAN scenarios with loss) repeats bytes the capture already
    # holds: it neither carries nor completes a response; counted apart
    s2c, s2c_rexmit = _split_repeats(s2c_all)
    c2s, _ = _split_repeats(c2s_all)
    conn["tcp_segments_server"] = len(s2c)
    conn["tcp_segments_client"] = len(c2s)
    conn["max_tcp_payload_server"] = max((s["len"] for s in s2c), default=0)
    conn["max_tcp_payload_client"] = max((s["len"] for s in c2s), default=0)

    def index(stream):
        """The stream's segments sorted by their first byte, for covering(): a scan of the
        whole stream per request took hours on the 100,000-round-trip benchmark."""
        order = sorted(range(len(stream)), key=lambda i: stream[i]["seq"])
        return {"stream": stream, "order": order, "starts": [stream[i]["seq"] - 1 for i in order],
                "longest": max((s["len"] for s in stream), default=0)}

    def covering(ix, lo, hi):
        """The segments carrying any byte of [lo, hi), in capture order."""
        stream, order, starts = ix["stream"], ix["order"], ix["starts"]
        a = bisect.bisect_left(starts, lo - ix["longest"])
        b = bisect.bisect_left(starts, hi)
        hits = sorted(order[k] for k in range(a, b)
                      if stream[order[k]]["seq"] - 1 + stream[order[k]]["len"] > lo)
        return [stream[i] for i in hits]
    s2c_ix, rexmit_ix, c2s_ix = index(s2c), index(s2c_rexmit), index(c2s)
    for req in conn["requests"]:
        resp = req["response"]
        # under TCPS the segments carry the TLS records: the response's ciphertext offsets
        lo, hi = (resp.get("tls") or {}).get("stream_offset") or resp.get("stream_offset", [0, 0])
        cov = covering(s2c_ix, lo, hi)
        resp["tcp_segments"] = len(cov)
        rex = covering(rexmit_ix, lo, hi)
        if rex:
            resp["tcp_retransmissions"] = len(rex)
            resp["last_retransmission_frame"] = rex[-1]["frame"]
        if cov:
            resp["first_frame"] = cov[0]["frame"]
            resp["last_frame"] = cov[-1]["frame"]
            resp["first_frame_time"] = round(cov[0]["time"], 6)
            resp["last_frame_time"] = round(cov[-1]["time"], 6)
        rlo, rhi = (req.get("request_tls_stream_offset") or req.get("request_stream_offset")
                    or [None, None])
        if rlo is not None:
            rc = covering(c2s_ix, rlo, rhi)
            req["request_tcp_segments"] = len(rc)
            if rc:
                req["request_first_frame"] = rc[0]["frame"]
        req.pop("request_stream_offset", None)
        req.pop("request_tls_stream_offset", None)
        resp.pop("server_time_s", None)
        if not req.get("request_data_flags"):
            req.pop("request_data_flags", None)


def wan_manifest(wan: dict, emulator: str | None, counters: dict | None) -> dict:
    """The WAN setting as applied: the same netem setting on each direction."""
    side = {k: wan.get(k) for k in ("delay_ms", "rate_mbit", "loss_pct")}
    out = {"emulator": emulator,
           "server_to_client": dict(side), "client_to_server": dict(side),
           "rtt_ms": 2 * float(wan.get("delay_ms", 0)),
           "applied": ("tc qdisc add dev <veth> root " + " ".join(netem_args(wan)) +
                       " on both veth ends of the WAN namespace (bridged)" if emulator == "netem" else
                       "sqlnetgen.wanlink between the two veth ends of the WAN namespace, "
                       "each direction: " + " ".join(netem_args(wan)[1:]))}
    if counters:
        for k in ("server_to_client", "client_to_server"):
            out[k]["link_counters"] = counters[k]
    return out


def handshake_rtts(pcap: Path, capture_at: str = "server") -> dict:
    """client port -> SYN/ACK -> ACK gap (ms) at the server-side capture, via tshark core
    TCP fields: the last SYN/ACK the server sent before the client's first ACK; at a
    capture near the client, the client's first SYN -> the SYN/ACK."""
    r = _run(["tshark", "-r", str(pcap), "-n", "-T", "fields", "-E", "separator=,",
              "-e", "frame.time_epoch", "-e", "tcp.srcport", "-e", "tcp.dstport",
              "-e", "tcp.flags.syn", "-e", "tcp.flags.ack"], timeout=300)
    synack: dict = {}
    syn_sent: dict = {}
    out: dict = {}
    for line in r.stdout.splitlines():
        p = line.split(",")
        if len(p) < 5 or not p[1]:
            continue
        t, sport, dport = float(p[0]), int(p[1]), int(p[2])
        syn, ack = p[3] in ("1", "True"), p[4] in ("1", "True")
        if capture_at == "client":
            if syn and not ack and sport not in syn_sent:
                syn_sent[sport] = t
            elif syn and ack and dport in syn_sent and dport not in out:
                out[dport] = round((t - syn_sent[dport]) * 1000, 3)
            continue
        if syn and ack:
            synack[dport] = t
        elif ack and not syn and sport in synack and sport not in out:
            out[sport] = round((t - synack[sport]) * 1000, 3)
    return out


def build_manifest(scn, mode, mtu, server_addr, port, cfg, reports, stats, pcap: Path) -> dict:
    plan = scn["plan"]
    rep = reports[0]
    rows_received = sum(r.get("rows_received", 0) for r in reports)
    statements = [s for r in reports for s in r.get("statements", [])]
    client = {
        "driver": rep.get("driver"), "driver_version": rep.get("driver_version"),
        "arraysize": plan.get("arraysize"), "prefetchrows": plan.get("prefetchrows"),
        "sdu_requested": plan.get("sdu"), "rows_received": rows_received,
        "statements": statements, "sessions": plan.get("sessions", 1),
        "steps": plan.get("steps"), "report": reports if len(reports) > 1 else rep,
    }
    if scn.get("client_warmup_runs"):
        client["warmup_runs_uncaptured"] = int(scn["client_warmup_runs"])
    conns = stats["connections"]
    segs = tcp_segments(pcap) if pcap.exists() else []
    for c in conns:
        c.pop("connect_data", None)
        if mode == "text2pcap":
            c["client_port_real"] = c["client_port"]
            c["client_port"] = 54321          # text2pcap -T 54321,<port>
        if segs:
            _annotate_segments(c, segs, port)
    server = {"address": server_addr, "port": port,
              "tns_version": cfg.get("tns_version", 319),
              "end_of_response": bool(cfg.get("end_of_response", True)),
              "sdu_limit": cfg.get("sdu_limit", 8192),
              "think_time_ms": cfg.get("think_time_ms", 0),
              "field_version": cfg.get("field_version", 24),
              "server_release": cfg.get("server_release"),
              "verifier": cfg.get("verifier", "12c"),
              "tables": cfg.get("tables", [])}
    tls_info = None
    if scn.get("tls"):
        tls_info = {"version": str(scn["tls"]["version"]), "secrets_embedded": True,
                    "negotiated": sorted({(c.get("tls") or {}).get("version") or "" for c in conns}),
                    "ciphers": sorted({(c.get("tls") or {}).get("cipher") or "" for c in conns})}
    out = {
        "scenario": scn["name"], "capture": pcap.name, "mode": mode, "mtu": mtu if mode == "netns" else None,
        "generator_version": GENERATOR_VERSION, "description": scn.get("description", ""),
        **({"held_out": True} if scn.get("held_out") else {}),
        **({"capture_at": scn["capture_at"]} if scn.get("capture_at") else {}),
        "client": client, "server": server, "connections": conns,
        **({"redirects": stats.get("redirects", [])} if scn.get("redirect") else {}),
        "capture_bytes": pcap.stat().st_size if pcap.exists() else None,
        "notes": {
            "round_trips": "TTC requests answered by the server (PRO, DTY, auth and every "
                           "function call); CONNECT/ACCEPT, ANO and the closing EOF packet excluded",
            "bytes_tns": "sum of TNS packet lengths (header included) after the ACCEPT, all packet "
                         "types (DATA, MARKER); ANO and EOF packets are in other_*_tns_bytes",
            "bytes_socket": "everything written/read on the socket incl. CONNECT/ACCEPT",
            "response.packet_lengths": "TNS packets of the response in order, MARKER packets of an "
                                       "error response included",
            "response.ttc_bytes": "DATA payload of the response after the data flags (Oracle's "
                                  "'bytes sent via SQL*Net to client')",
            "response.row_bytes": "row data inside ttc_bytes: 0x07 row messages and the 0x15 bit "
                                  "vectors before them, RXH excluded",
            "response.bvc_bytes": "the 0x15 bit vector messages inside row_bytes",
            "stream_offset": "[first, end) byte offsets of the response in the server->client TCP "
                             "stream (request_stream_offset: client->server)",
            "rows_requested": "row count the client put on the wire as parsed by the server: "
                              "OALL8 prefetch rows (new cursor) or al8i4[1] (open cursor), "
                              "OFETCH rows, OEXFEN num_iters",
        },
    }
    if cfg.get("nne"):   # native network encryption: what the server negotiated and wrote
        client_nne = plan.get("nne") or {k: v for k, v in (plan.get("jdbc_properties") or {}).items()
                                         if k.startswith("oracle.net.")}
        out["nne"] = {"server": cfg["nne"], "client": client_nne,
                      "negotiated": [c.get("nne") for c in conns]}
        out["notes"]["response.nne"] = (
            "native network encryption: the DATA packets the server wrote for the response, "
            "their TNS bytes (headers included, as sent), the plaintext TTC bytes each carried "
            "and the sealed payload after the 2 data-flag bytes (ciphertext, pad-count byte, "
            "folding-key byte), overhead_bytes = sealed - plaintext; ttc_bytes stays the plaintext")
    if tls_info:         # TCPS: TLS version and cipher, the key log embedded in the pcapng
        out["tls"] = tls_info
        out["notes"]["response.tls"] = (
            "TCPS: the response in the server->client ciphertext stream (stream_offset, from which "
            "tcp_segments and the frames are counted), the TLS application-data records the server "
            "wrote for it and their bytes, 5-byte record headers included")
    return out
