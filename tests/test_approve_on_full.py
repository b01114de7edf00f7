"""With on_full = "archive_oldest", approving a proposal applies what its review showed: an add
shown as refused (over budget, no changes) is refused, never applied by evicting an entry the
reviewer did not see go."""

from __future__ import annotations

from pathlib import Path

from silcrow.home import open_profile

CONFIG = ('embedder = "none"\n[memory]\non_full = "archive_oldest"\nwrite_policy = "approve"\n'
          "user_char_limit = 100\n")


def test_an_approval_never_evicts_what_the_review_did_not_show(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(CONFIG, encoding="utf-8")
    store = open_profile(home).store()
    store.add("user", "User is allergic to penicillin", origin="cli")
    assert store.add("user", "User has two cats named Miso and Tofu", origin="tool")["pending"]
    store.add("user", "User lives in Lisbon near the river", origin="cli")  # now it would not fit
    [shown] = store.review()
    assert shown["changes"] == [] and "over its limit" in shown["problem"]
    result = store.approve(shown["id"], base=shown["base"])
    assert not result["success"] and "over its limit" in result["error"]
    assert store.entries("user") == ["User is allergic to penicillin", "User lives in Lisbon near the river"]
    assert store.archived() == []
    assert [p.id for p in store.pending()] == [shown["id"]]  # still there to reject
    # A person's own add still makes room, as configured.
    assert store.add("user", "User works night shifts at the port", origin="cli")["success"]
    assert [i["why"] for i in store.archived()] == ["evicted"]
