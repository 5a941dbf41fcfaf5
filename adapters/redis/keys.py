"""Key names. Every key of a run shares its partition's hash tag with the partition log, so
every script touches one slot and the layout works unchanged on Redis Cluster."""

from __future__ import annotations

from attrs import frozen

from factledger.domain.ids import partition_of
from factledger.ports.payload_vault import PayloadKey

__all__ = ["RedisKeys", "RunKeys"]


@frozen
class RunKeys:
    """The keys of one run."""

    events: str
    meta: str
    unique: str
    counters: str
    commands: str
    partition_log: str
    run_index: str

    def as_script_keys(self) -> list[str]:
        """In the order the append script expects."""
        return [
            self.events,
            self.meta,
            self.unique,
            self.counters,
            self.commands,
            self.partition_log,
            self.run_index,
        ]


@frozen
class RedisKeys:
    """Key names under one prefix with ``partitions`` partitions."""

    prefix: str
    """Namespace of every key (``[store] key_prefix``)."""
    partitions: int
    """How many partitions runs are spread over."""

    def tag(self, partition: int) -> str:
        return f"{self.prefix}:{{p{partition}}}"

    def partition_of(self, run_id: str) -> int:
        return partition_of(run_id, self.partitions)

    def partition_log(self, partition: int) -> str:
        return f"{self.tag(partition)}:log"

    def run_index(self, partition: int) -> str:
        return f"{self.tag(partition)}:runs"

    def run(self, run_id: str) -> RunKeys:
        partition = self.partition_of(run_id)
        base = f"{self.tag(partition)}:run:{run_id}"
        return RunKeys(
            events=f"{base}:events",
            meta=f"{base}:meta",
            unique=f"{base}:unique",
            counters=f"{base}:counters",
            commands=f"{base}:commands",
            partition_log=self.partition_log(partition),
            run_index=self.run_index(partition),
        )

    def payload(self, key: PayloadKey) -> str:
        partition = self.partition_of(key.run_id)
        return f"{self.tag(partition)}:vault:{key.run_id}:{key.tool_call_id}:{key.part.value}"
