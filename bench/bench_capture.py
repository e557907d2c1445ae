"""The generated capture a benchmark runs on (bench/flow_bench.py,
bench/predict_bench.py): one python-oracledb session fetching rows at array
sizes 1 and 2 (rows + rows / 2 round trips), made by the generator

    python3 testgen/generate.py --bench --rows ROWS --sizes 1,2 --out DIR

into a temporary folder (removed after the run) or --keep DIR, unless
--capture names one; read once before the runs (page cache)."""
import contextlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def add_arguments(ap, round_trips):
    """--round-trips (default `round_trips`), --capture, --keep."""
    ap.add_argument("--round-trips", type=int, default=round_trips)
    ap.add_argument("--capture", type=Path, help="use this capture instead of generating one")
    ap.add_argument("--keep", type=Path, help="generate into this folder and keep it")


def generate(round_trips, out):
    rows = round_trips * 2 // 3          # array size 1 and 2: rows + rows / 2 round trips
    proc = subprocess.run([sys.executable, str(ROOT / "testgen" / "generate.py"), "--bench", "--rows", str(rows),
                           "--sizes", "1,2", "--out", str(out)], capture_output=True, text=True)
    print(proc.stdout.strip(), file=sys.stderr)
    if proc.returncode != 0:
        sys.exit(f"generate.py failed:\n{proc.stderr[-2000:]}")
    return out / "bench.pcapng"


@contextlib.contextmanager
def capture(args, prefix):
    """The capture's path (args from add_arguments), in the page cache."""
    tmp = None
    cap = args.capture
    try:
        if cap is None:
            out = args.keep or Path(tempfile.mkdtemp(prefix=prefix))
            tmp = None if args.keep else out
            out.mkdir(parents=True, exist_ok=True)
            cap = generate(args.round_trips, out)
        cap = cap.resolve()
        subprocess.run(["cat", str(cap)], stdout=subprocess.DEVNULL, check=True)
        yield cap
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
