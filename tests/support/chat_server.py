"""A real HTTP server on loopback that speaks the Chat Completions protocol from a script.

Each request takes the next scripted answer (status, JSON body, delay, headers); the last one
repeats. Requests are recorded so tests can check what a client sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from attrs import define, field

from factledger.domain.json_types import JsonObject


@define
class Answer:
    """One scripted answer."""

    body: JsonObject | str
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(factory=dict)


def message(content: str | None = None, tool_calls: list[JsonObject] | None = None) -> JsonObject:
    """A Chat Completions response body with one assistant message."""
    msg: JsonObject = {"role": "assistant", "content": content}
    if tool_calls:
        msg["tool_calls"] = tool_calls  # type: ignore[assignment]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": msg, "finish_reason": "tool_calls" if tool_calls else "stop"}
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def tool_call(call_id: str, name: str, arguments: str) -> JsonObject:
    """One tool call of an assistant message."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


@define
class ChatServer:
    """The script and what the server received."""

    answers: list[Answer]
    requests: list[JsonObject] = field(factory=list)
    url: str = ""
    lock: threading.Lock = field(factory=threading.Lock)

    def next_answer(self) -> Answer:
        with self.lock:
            return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


@contextmanager
def chat_server(answers: list[Answer]) -> Iterator[ChatServer]:
    """Serve the script on a free loopback port until the block ends."""
    state = ChatServer(answers)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            try:
                state.requests.append(json.loads(body))
            except ValueError:
                state.requests.append({"unparsed": body.decode(errors="replace")})
            answer = state.next_answer()
            if answer.delay:
                time.sleep(answer.delay)
            payload = answer.body if isinstance(answer.body, str) else json.dumps(answer.body)
            data = payload.encode()
            try:
                self.send_response(answer.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
