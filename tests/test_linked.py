"""workshop_site/linked.py: a large generated file linked into the site from the cache's copy.

What must hold: the site's file holds exactly the build's bytes, always (a damaged, an old or a
missing copy is written again first); a site's file keeps the bytes it was linked with when the
next build's differ; MkDocs' copy of the linked file does nothing and loses nothing; nothing is
linked with ``FRESH=1``, with the cache off, or for a small or a text file.
"""

from __future__ import annotations

import os
import stat

import pytest
from mkdocs.structure.files import File

from workshop_site import linked

URI = "generated/minilm/model.bin"


def big(fill: int) -> bytes:
    return bytes([fill]) * linked.LARGE + os.urandom(1000)


def test_a_large_file_is_linked_and_holds_the_builds_bytes(empty_cache):
    data = big(1)
    site = empty_cache / "site"
    assert linked.into_site(str(site), URI, data)
    path = site / URI
    assert path.read_bytes() == data
    assert path.stat().st_nlink == 2  # the site's name and the cache's
    # readable by others as a file MkDocs writes would be (not mkstemp's 0600)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask


def test_mkdocs_copy_of_the_linked_file_keeps_its_bytes(empty_cache):
    """MkDocs copies a file whose source is its destination: shutil.SameFileError, passed over."""
    data = big(2)
    site = empty_cache / "site"
    assert linked.into_site(str(site), URI, data)
    # what File.generated(config, URI, abs_src_path=...) makes, outside a build
    f = File(URI, src_dir=str(site), dest_dir=str(site), use_directory_urls=True)
    assert f.abs_src_path == f.abs_dest_path == str(site / URI)
    f.copy_file()
    assert (site / URI).read_bytes() == data


@pytest.mark.parametrize("at", [0, linked.LARGE // 2, -1])
def test_a_damaged_copy_is_written_again_before_it_is_linked(empty_cache, at):
    data = big(3)
    assert linked.into_site(str(empty_cache / "a"), URI, data)
    kept = next((empty_cache / "cache" / "site-files").iterdir())
    damaged = bytearray(kept.read_bytes())
    damaged[at] ^= 1
    kept.write_bytes(damaged)  # in place: the first site's file is damaged with it
    assert linked.into_site(str(empty_cache / "b"), URI, data)
    assert (empty_cache / "b" / URI).read_bytes() == data


def test_a_shorter_or_longer_copy_is_written_again(empty_cache):
    data = big(4)
    assert linked.into_site(str(empty_cache / "a"), URI, data)
    kept = next((empty_cache / "cache" / "site-files").iterdir())
    for wrong in (data[:-1], data + b"x", b""):
        kept.write_bytes(wrong)
        assert linked.into_site(str(empty_cache / "b"), URI, data)
        assert (empty_cache / "b" / URI).read_bytes() == data


def test_a_new_build_with_other_bytes_leaves_the_old_site_its_own(empty_cache):
    old, new = big(5), big(6)
    assert linked.into_site(str(empty_cache / "old"), URI, old)
    assert linked.into_site(str(empty_cache / "new"), URI, new)
    assert (empty_cache / "old" / URI).read_bytes() == old
    assert (empty_cache / "new" / URI).read_bytes() == new


def test_the_same_site_folder_built_again_is_linked_again(empty_cache):
    """``mkdocs serve`` builds into one folder again and again (MkDocs empties it in between;
    a file left there is replaced, not written through)."""
    site = empty_cache / "site"
    assert linked.into_site(str(site), URI, big(7))
    assert linked.into_site(str(site), URI, big(8))
    assert (site / URI).read_bytes()[:1] == bytes([8])


def test_nothing_is_linked_fresh_off_small_or_text(empty_cache, monkeypatch):
    site = str(empty_cache / "site")
    assert not linked.into_site(site, URI, b"small")
    assert not linked.into_site(site, URI, "x" * (linked.LARGE + 1))
    monkeypatch.setenv("FRESH", "1")
    assert not linked.into_site(site, URI, big(9))
    monkeypatch.delenv("FRESH")
    monkeypatch.setenv("WORKSHOP_CACHE", "off")
    assert not linked.into_site(site, URI, big(9))
    assert not (empty_cache / "site" / URI).exists()


def test_where_no_link_can_be_made_the_file_is_written_instead(
    empty_cache, monkeypatch
):
    def no_link(src, dst):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(linked.os, "link", no_link)
    site = empty_cache / "site"
    (site / URI).parent.mkdir(parents=True)
    (site / URI).write_bytes(b"an older build's file")
    assert not linked.into_site(str(site), URI, big(10))
    assert not (site / URI).exists()  # MkDocs writes a new file, not into a link


def test_a_copy_changed_after_the_link_leaves_the_sites_file_alone(empty_cache):
    """Another build sharing the cache puts other bytes in the cache's copy (a new file): the
    site linked before keeps the bytes it was checked with."""
    data = big(11)
    site = empty_cache / "site"
    assert linked.into_site(str(site), URI, data)
    assert linked.into_site(str(empty_cache / "other"), URI, big(12))
    assert (site / URI).read_bytes() == data


# ------------------------------------------------- link_known: checked against the bytes' hash
def sha(data: bytes) -> str:
    """The hash, computed here with hashlib (the expected value comes from outside linked.py)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def test_a_file_known_by_its_hash_is_linked_and_made_only_when_its_copy_is_wrong(
    empty_cache,
):
    data, made = big(13), []

    def make() -> bytes:
        made.append(1)
        return data

    site = empty_cache / "site"
    assert linked.link_known(str(site), URI, sha(data), make)
    assert (site / URI).read_bytes() == data and (site / URI).stat().st_nlink == 2
    assert len(made) == 1  # no copy yet: made once
    assert linked.link_known(str(site), URI, sha(data), make)
    assert len(made) == 1  # the copy has the hash: the bytes are not made again
    kept = next((empty_cache / "cache" / "site-files").iterdir())
    for wrong in (bytes([data[0] ^ 1]) + data[1:], data[:-1], b""):
        kept.write_bytes(wrong)  # in place: damaged, or shorter
        assert linked.link_known(str(empty_cache / "b"), URI, sha(data), make)
        assert (empty_cache / "b" / URI).read_bytes() == data
    assert len(made) == 4


def test_bytes_not_of_the_hash_are_never_linked(empty_cache, monkeypatch):
    site = empty_cache / "site"
    assert not linked.link_known(str(site), URI, sha(b"other"), lambda: big(14))
    assert not (site / URI).exists()  # MkDocs writes the bytes the build made
    monkeypatch.setenv("FRESH", "1")
    assert not linked.link_known(str(site), URI, sha(big(15)), lambda: big(15))
    assert not (site / URI).exists()


def test_a_hash_taken_in_the_background_serves_only_the_file_it_read(
    empty_cache, monkeypatch
):
    data, made = big(16), []

    def make() -> bytes:
        made.append(1)
        return data

    site = empty_cache / "site"
    assert linked.link_known(str(site), URI, sha(data), make)  # the copy is made
    kept = next((empty_cache / "cache" / "site-files").iterdir())

    # the copy as it is: its hash is taken in the background and used, not taken again
    linked.prehash(URI)
    assert linked._HASHING[URI].result() is not None

    def hashed_again(path):
        raise AssertionError(f"{path} was hashed again")

    with monkeypatch.context() as m:
        m.setattr(linked, "_sha256", hashed_again)
        assert linked.link_known(str(empty_cache / "b"), URI, sha(data), make)
    assert len(made) == 1

    # another file put in the copy's place since (a new inode, other bytes): never served
    linked.prehash(URI)
    linked._HASHING[URI].result()
    wrong = kept.with_name("wrong")
    wrong.write_bytes(big(17))
    os.replace(wrong, kept)
    assert linked.link_known(str(empty_cache / "c"), URI, sha(data), make)
    assert (empty_cache / "c" / URI).read_bytes() == data
    assert len(made) == 2

    # the copy damaged in place before the hash: found
    kept.write_bytes(data[:-1])
    linked.prehash(URI)
    assert linked.link_known(str(empty_cache / "d"), URI, sha(data), make)
    assert (empty_cache / "d" / URI).read_bytes() == data
    assert len(made) == 3
    monkeypatch.setenv("FRESH", "1")
    linked.prehash(URI)
    assert URI not in linked._HASHING
