"""A MariaDB for the integration tests: the one already running, or a throwaway one.

The tests use a server answering on 127.0.0.1:3306 as root with an empty password when there
is one (``FACTLEDGER_TEST_MARIADB_PORT`` picks another port). Without it they start their own
``mariadbd`` from the installed binary: ``mariadb-install-db`` into a temporary directory, a
free loopback port, stopped by pid at the end. With neither, they fail and say what to
install: they never skip.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from attrs import frozen
from sqlalchemy import create_engine
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from tests.support.processes import free_port, port_open, wait_until

INSTALL_HINT = (
    "MariaDB is needed by the SQL integration tests: install it "
    "(Debian/Ubuntu: apt-get install mariadb-server) or start one on 127.0.0.1:3306 "
    "that accepts root with an empty password."
)


@frozen
class MariaDbAddress:
    """Where a MariaDB answers, and how root logs in."""

    host: str
    port: int
    user: str = "root"
    password: str = ""

    def engine(
        self, user: str | None = None, password: str | None = None, database: str | None = None
    ) -> Engine:
        """An unpooled, autocommitting engine (root unless ``user`` is given)."""
        url = URL.create(
            "mysql+pymysql",
            username=user or self.user,
            password=self.password if user is None else password,
            host=self.host,
            port=self.port,
            database=database,
            query={"charset": "utf8mb4"},
        )
        return create_engine(
            url,
            poolclass=NullPool,
            isolation_level="AUTOCOMMIT",
            connect_args={"connect_timeout": 5},
        )

    def answers(self) -> bool:
        """True when root can log in."""
        engine = self.engine()
        try:
            with engine.connect() as connection:
                connection.exec_driver_sql("SELECT 1")
        except SQLAlchemyError:
            return False
        finally:
            engine.dispose()
        return True


def running_mariadb() -> MariaDbAddress | None:
    """The MariaDB already answering on the default loopback port as root, if any."""
    port = int(os.environ.get("FACTLEDGER_TEST_MARIADB_PORT", "3306"))
    address = MariaDbAddress("127.0.0.1", port)
    if not port_open(address.host, address.port):
        return None
    return address if address.answers() else None


def mariadb_binaries() -> tuple[str, str] | None:
    """The paths of ``mariadbd`` and ``mariadb-install-db``, when installed."""
    server = shutil.which("mariadbd") or _executable("/usr/sbin/mariadbd")
    installer = shutil.which("mariadb-install-db") or _executable("/usr/bin/mariadb-install-db")
    if server is None or installer is None:
        return None
    return server, installer


def _executable(path: str) -> str | None:
    return path if os.access(path, os.X_OK) else None


class MariaDbProcess:
    """A throwaway ``mariadbd`` on a free loopback port, with its data in a temp dir."""

    def __init__(self, server: str, installer: str) -> None:
        self.server = server
        self.installer = installer
        self.workdir = Path(tempfile.mkdtemp(prefix="factledger-mariadb-"))
        self.address = MariaDbAddress("127.0.0.1", free_port())
        self.process: subprocess.Popen[bytes] | None = None

    def _user_args(self) -> list[str]:
        return ["--user=root"] if os.geteuid() == 0 else []

    def start(self) -> None:
        datadir = self.workdir / "data"
        subprocess.run(
            [
                self.installer,
                "--no-defaults",
                f"--datadir={datadir}",
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                *self._user_args(),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )
        args = [
            self.server,
            "--no-defaults",
            f"--datadir={datadir}",
            f"--port={self.address.port}",
            "--bind-address=127.0.0.1",
            f"--socket={self.workdir / 'mariadb.sock'}",
            f"--pid-file={self.workdir / 'mariadb.pid'}",
            "--skip-log-bin",
            "--innodb-buffer-pool-size=32M",
            *self._user_args(),
        ]
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        wait_until(self._answers, 60, f"mariadbd on port {self.address.port}")

    def _answers(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError("mariadbd exited during start-up")
        if not port_open(self.address.host, self.address.port):
            return False
        return self.address.answers()

    def stop(self) -> None:
        """Stop the server by pid and wait for it (SIGKILL if it does not end)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.process = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)
