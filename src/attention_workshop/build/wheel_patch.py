"""A wheel made from the last one setuptools built, when only the package's files' text changed.

Under ``mkdocs serve`` an edit to the package used to wait for setuptools (a process of its own,
half a second or more) to build the take-home wheel again. When the project's metadata
(``pyproject.toml``, ``README.md``), the list of files and ``SOURCE_DATE_EPOCH`` are those of a
wheel setuptools built, the new wheel differs from it only in the changed files' bytes and in
``RECORD`` (each file's hash and size). :func:`derive` writes exactly that: each member as
setuptools' wheel writer writes it (same order, dates, permissions and compression), the files'
new bytes, ``RECORD`` made again in its format. tests/test_takehome.py checks the result is
byte for byte the wheel setuptools builds from the edited files.

:func:`derive` first makes the template's own ``RECORD`` again from its members: when that is not
byte for byte the template's, the format is not the one this module writes and the answer is
None (build with setuptools). ``FRESH=1`` builds never derive (build/takehome.py).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import zipfile
from collections.abc import Mapping

__all__ = ["derive", "record"]


def record(members: list[tuple[str, bytes]], record_path: str) -> bytes:
    """``RECORD`` as setuptools' wheel writer makes it: each member's sha256 and size, then itself."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=",", quotechar='"', lineterminator="\n")
    for name, data in members:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        writer.writerow((name, "sha256=" + digest.decode("ascii"), len(data)))
    writer.writerow((record_path, "", ""))
    return out.getvalue().encode("utf-8")


def _write(infos: list[zipfile.ZipInfo], data: Mapping[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as z:
        for old in infos:
            info = zipfile.ZipInfo(old.filename, date_time=old.date_time)
            info.external_attr = old.external_attr
            info.compress_type = old.compress_type
            z.writestr(info, data[old.filename])
    return buf.getvalue()


def derive(template: bytes, files: Mapping[str, bytes]) -> bytes | None:
    """``template`` (a wheel setuptools built) with ``files`` (name in the wheel -> bytes) as its
    package's files; None when the files are not the template's list, or when the template's
    format is not the one written here."""
    with zipfile.ZipFile(io.BytesIO(template)) as z:
        infos = z.infolist()
        data = {i.filename: z.read(i) for i in infos}
    records = [i.filename for i in infos if i.filename.endswith(".dist-info/RECORD")]
    if len(records) != 1 or infos[-1].filename != records[0]:
        return None
    record_path = records[0]
    package = {n for n in data if ".dist-info/" not in n}
    if package != set(files):
        return None
    members = [(i.filename, data[i.filename]) for i in infos[:-1]]
    # the format check: the template's RECORD made again from its own members, and the whole
    # template written again, byte for byte
    if (
        record(members, record_path) != data[record_path]
        or _write(infos, data) != template
    ):
        return None
    new = {**data, **files}
    new[record_path] = record(
        [(i.filename, new[i.filename]) for i in infos[:-1]], record_path
    )
    return _write(infos, new)
