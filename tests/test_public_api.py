import silcrow


def test_curated_public_api_resolves() -> None:
    for name in silcrow.__all__:
        assert getattr(silcrow, name) is not None, name
    assert silcrow.ENTRY_DELIMITER == "\n§\n"
    assert issubclass(silcrow.MemoryStore, object)


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        silcrow.nope  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError("expected AttributeError")
