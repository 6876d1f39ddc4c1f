"""The check every refusal test makes of a response: an RFC 9457 problem JSON with the status and code expected,
the common members, and no traceback."""

PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}


def problem(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.get_json()
    assert r.mimetype == "application/problem+json"
    body = r.get_json()
    assert PROBLEM_KEYS <= set(body)
    assert body["status"] == status and body["code"] == code and body["type"].endswith(":" + code)
    assert "Traceback" not in r.get_data(as_text=True)
    return body
