"""bench/fleet_broker_loss: the broker-loss spec and what the looks at the partitions say."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from fleet_broker_loss import parse, replicas_back


def test_a_spec_is_a_broker_and_its_moment():
    assert parse("2@150") == (2, 150)
    for bad in ("2", "0@10", "b@10", "2@soon", "@10"):
        with pytest.raises(SystemExit, match="BROKER@SECONDS"):
            parse(bad)


def test_the_replicas_are_back_from_the_last_look_with_none_under_replicated():
    looks = [(0.0, 0), (1.0, 0), (13.7, 306), (15.0, 12), (20.0, 0), (21.0, 0)]
    assert replicas_back(looks) == {
        "isr_shrunk_s": 13.7,
        "under_replicated_max": 306,
        "all_in_sync_from_s": 20.0,
    }
    # relapsed: in sync only from the last run of clean looks
    assert replicas_back(looks + [(22.0, 3), (23.0, 0)])["all_in_sync_from_s"] == 23.0
    # still behind at the end
    assert replicas_back(looks[:4])["all_in_sync_from_s"] is None
    # the loss never seen: nothing to be back from
    assert replicas_back([(0.0, 0), (1.0, 0)]) == {
        "isr_shrunk_s": None,
        "under_replicated_max": 0,
        "all_in_sync_from_s": None,
    }
