"""docs/protocol.md carries the JSON Schema of the models as they are (regenerate, don't edit)."""

from protocol.schema_doc import DOC, render


def test_protocol_doc_schema_is_up_to_date() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert render(text) == text, "run: python -m protocol.schema_doc"
