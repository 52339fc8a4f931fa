"""experiment/cache_key.py: what a cache key is made of (the parts, hashed canonically, and the environment)."""

from __future__ import annotations

import pickle

from attention_workshop.experiment import cache, cache_key


def test_equal_values_give_equal_digests_however_their_parts_are_shared():
    part = ["a", "b"]
    shared, copies = [part, part], [["a", "b"], ["a", "b"]]
    # a plain pickle tells them apart (a memo reference to the first copy)...
    assert pickle.dumps(shared, protocol=4) != pickle.dumps(copies, protocol=4)
    # ...the key does not
    assert cache_key.digest(shared) == cache_key.digest(copies)
    assert cache_key.digest(shared) != cache_key.digest([part])


def test_the_digest_frames_each_part():
    # the same bytes cut differently are different parts
    assert cache_key.digest(b"ab", b"c") != cache_key.digest(b"a", b"bc")


def test_the_cache_keys_with_these_functions():
    assert cache.key is cache_key.key and cache.digest is cache_key.digest


def test_the_environment_is_part_of_every_key(monkeypatch):
    before = cache_key.key("kind", 1)
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "avx2")
    cache_key._environment.cache_clear()
    try:
        assert cache_key.key("kind", 1) != before
    finally:
        monkeypatch.undo()
        cache_key._environment.cache_clear()
    assert cache_key.key("kind", 1) == before


def test_the_unset_kernel_setting_is_the_portable_one(monkeypatch):
    """torch_refs asks for the portable kernels when ATEN_CPU_CAPABILITY is unset: the same key."""
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    cache_key._environment.cache_clear()
    set_default = cache_key.key("kind", 1)
    monkeypatch.delenv("ATEN_CPU_CAPABILITY")
    cache_key._environment.cache_clear()
    try:
        assert cache_key.key("kind", 1) == set_default
    finally:
        monkeypatch.undo()
        cache_key._environment.cache_clear()
