"""Stack-trace folding for the common runtimes."""

from __future__ import annotations

from factledger.domain.logs.stack_traces import fold_stack, looks_like_continuation


def test_a_java_trace_keeps_the_top_exception_the_root_cause_and_application_frames() -> None:
    summary = fold_stack(
        "request failed",
        [
            "java.lang.IllegalStateException: boom",
            "\tat com.acme.pay.Service.charge(Service.java:42)",
            "\tat org.springframework.web.X.y(X.java:1)",
            "\tat com.acme.pay.Api.post(Api.java:10)",
            "Caused by: java.net.SocketTimeoutException: Read timed out",
            "\tat java.net.Socket.read(Socket.java:1)",
            "\t... 37 more",
        ],
    )
    assert summary is not None
    assert summary.exception == "java.lang.IllegalStateException"
    assert summary.message == "boom"
    assert summary.root_cause == "java.net.SocketTimeoutException: Read timed out"
    assert summary.frames == (
        "com.acme.pay.Service.charge(Service.java:42)",
        "com.acme.pay.Api.post(Api.java:10)",
    )
    assert summary.dropped_frames == 39


def test_a_python_traceback_keeps_the_final_exception_and_the_deepest_application_frame() -> None:
    summary = fold_stack(
        "error handling request",
        [
            "Traceback (most recent call last):",
            '  File "/app/api.py", line 10, in handle',
            "    x()",
            '  File "/usr/lib/python3.11/json/decoder.py", line 5, in decode',
            "    y",
            "ValueError: bad input",
        ],
    )
    assert summary is not None
    assert (summary.exception, summary.message) == ("ValueError", "bad input")
    assert summary.frames == ("/app/api.py:10 in handle",)
    assert summary.dropped_frames == 1


def test_a_go_panic_is_recognised() -> None:
    summary = fold_stack(
        "panic: runtime error: index out of range [3] with length 2",
        ["goroutine 1 [running]:", "main.handler(...)", "\t/app/main.go:12 +0x1d"],
    )
    assert summary is not None
    assert summary.exception == "panic"
    assert summary.frames == ("main.handler /app/main.go:12",)


def test_lines_without_exception_or_frame_fold_to_nothing() -> None:
    assert fold_stack("hello", ["  just an indented note"]) is None


def test_continuation_lines_are_told_apart_from_new_records() -> None:
    assert looks_like_continuation("\tat com.acme.A.b(A.java:1)")
    assert looks_like_continuation("Caused by: java.io.IOException: x")
    assert looks_like_continuation("java.lang.NullPointerException")
    assert not looks_like_continuation("INFO server started")
