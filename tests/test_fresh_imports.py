"""The package imported afresh at every build (hooks/_workshop_fresh.py) where Python writes no
``.pyc``: each module's compiled code is kept for the process, keyed on its source's bytes, so an
edit (even one of the same size whose date was put back) runs as it is now, and an unchanged
module is not compiled again."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import importlib.util, os, sys
from pathlib import Path
sys.path.insert(0, str(Path(sys.argv[1]).parent))  # as MkDocs puts hooks/ on sys.path
spec = importlib.util.spec_from_file_location("fresh_probe", sys.argv[1])
fresh = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fresh)
folder = Path(sys.argv[2])
sys.path.insert(0, str(folder))
module = folder / "memo_pkg" / "values.py"

def value():
    fresh.forget("memo_pkg")
    import memo_pkg.values
    return memo_pkg.values.WORD

memo = lambda: next((f for f in sys.meta_path if getattr(f, "mark", None) == fresh.CodeMemo.MARK), None)
first = value()
kept = 0 if memo() is None else len(memo().codes)
again = value()
same = 0 if memo() is None else len(memo().codes)
st = module.stat()
module.write_text(module.read_text().replace("before", "after!"))
os.utime(module, ns=(st.st_atime_ns, st.st_mtime_ns))
assert module.stat().st_size == st.st_size and module.stat().st_mtime_ns == st.st_mtime_ns
edited = value()
print(first, again, edited, kept, same, 0 if memo() is None else len(memo().codes))
"""


def _run(tmp_path: Path, write_bytecode: bool) -> list[str]:
    pkg = tmp_path / "memo_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "values.py").write_text('WORD = "before"\n')
    # a copy of the two hooks: forget() writes checked-hash .pyc files beside them
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("_workshop_fresh.py", "_code_memo.py"):
        shutil.copy(ROOT / "hooks" / name, hooks / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(hooks / "_workshop_fresh.py"), str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.split()


def test_without_pyc_an_edit_runs_and_an_unchanged_module_is_compiled_once(tmp_path):
    first, again, edited, kept, same, after = _run(tmp_path, write_bytecode=False)
    assert (first, again, edited) == ("before", "before", "after!")
    # two modules (the package and values.py), compiled once for two imports; the edit adds one
    assert (int(kept), int(same), int(after)) == (2, 2, 3)


def test_where_python_writes_pyc_no_memo_is_added(tmp_path):
    first, again, edited, kept, same, after = _run(tmp_path, write_bytecode=True)
    assert (first, again, edited) == ("before", "before", "after!")
    assert (kept, same, after) == ("0", "0", "0")
