"""One contract for every SqlExecutor: what any engine behind ``query_sql`` must guarantee.

Subclassed in a few lines per adapter (``tests/integration/sql/test_sql_executor_contract.py``)
for SQLite, MariaDB and PostgreSQL, each on the test dataset (``tests/data/sql/dataset.sql``,
the ``ledger`` table filled with 3,000 rows) behind its read-only account.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from attrs import evolve
from returns.result import Failure, Result

from factledger.domain.sql.cost import CostLimits
from factledger.domain.sql.plan import QueryPlan
from factledger.domain.sql.policy import SqlDialect, SqlPolicy
from factledger.domain.sql.raw_result import decode_raw_result
from factledger.domain.sql.validator import validate_sql
from factledger.ports.sql import SqlExecutionFailure, SqlExecutor, SqlFailureCode
from tests.unit.sql.corpus import CORPUS_NOW

OPEN_GATE = CostLimits(max_estimated_rows=10**15)
SLOW = (
    "SELECT COUNT(*) AS n FROM ledger a JOIN ledger b ON a.bucket = b.bucket "
    "JOIN ledger c ON b.bucket = c.bucket"
)


class SqlExecutorContract(ABC):
    """The guarantees; a subclass says how to build its executor."""

    @abstractmethod
    def policy(self) -> SqlPolicy:
        """The allowlist the executor's account was granted."""

    @abstractmethod
    def executor(self, cost_limits: CostLimits | None = None) -> SqlExecutor:
        """A new executor for the test datasource."""

    @abstractmethod
    def unreachable(self) -> SqlExecutor:
        """An executor whose database does not answer."""

    def plan(self, sql: str, policy: SqlPolicy | None = None) -> QueryPlan:
        return validate_sql(policy or self.policy(), sql, CORPUS_NOW).unwrap()

    def run(
        self, plan: QueryPlan, *, cost_limits: CostLimits | None = None, limit: float = 5.0
    ) -> Result[str, SqlExecutionFailure]:
        executor = self.executor(cost_limits)
        try:
            return executor.execute(plan, limit)
        finally:
            executor.close()

    def failure_code(
        self, plan: QueryPlan, *, cost_limits: CostLimits | None = None, limit: float = 5.0
    ) -> SqlFailureCode:
        outcome = self.run(plan, cost_limits=cost_limits, limit=limit)
        assert isinstance(outcome, Failure), outcome
        code: SqlFailureCode = outcome.failure().code
        return code

    # -- results -----------------------------------------------------------------------------

    def test_a_plan_returns_its_rows_with_their_types(self) -> None:
        plan = self.plan(
            "SELECT id, status, amount FROM orders WHERE status = 'failed' ORDER BY id"
        )
        raw = decode_raw_result(self.run(plan).unwrap()).unwrap()
        assert [list(row) for row in raw.rows] == [
            [2, "failed", 99.99],
            [3, "failed", 5.25],
            [6, "failed", 150.25],
        ]

    def test_the_raw_document_carries_the_executed_sql_and_the_bound_instant(self) -> None:
        window = (
            "now() - interval '1 hour'"
            if self.policy().dialect == "postgres"
            else "NOW() - INTERVAL 1 HOUR"
        )
        plan = self.plan(f"SELECT COUNT(*) AS n FROM orders WHERE created_at > {window}")
        raw = decode_raw_result(self.run(plan).unwrap()).unwrap()
        assert raw.sql == plan.sql
        assert raw.now == CORPUS_NOW.isoformat()
        assert "2024-05-01 10:00:00" in raw.sql
        assert [list(row) for row in raw.rows] == [[6]]

    def test_at_most_one_row_more_than_the_limit_is_fetched(self) -> None:
        plan = self.plan("SELECT id FROM ledger ORDER BY id LIMIT 5")
        raw = decode_raw_result(self.run(plan).unwrap()).unwrap()
        assert raw.row_limit == 5
        assert [row[0] for row in raw.rows] == [1, 2, 3, 4, 5, 6]

    def test_sensitive_values_reach_the_raw_document_marked_sensitive(self) -> None:
        plan = self.plan("SELECT id, api_token FROM users ORDER BY id")
        raw = decode_raw_result(self.run(plan).unwrap()).unwrap()
        assert [column.sensitive for column in raw.output_columns] == [False, True]
        assert raw.rows[1] == (2, None)

    # -- refusals ----------------------------------------------------------------------------

    def test_a_plan_for_another_datasource_is_not_run(self) -> None:
        plan = evolve(self.plan("SELECT id FROM orders"), datasource="elsewhere")
        assert self.failure_code(plan) is SqlFailureCode.WRONG_DATASOURCE

    def test_a_plan_for_another_engine_is_not_run(self) -> None:
        plan = self.plan("SELECT id FROM orders")
        other: SqlDialect = "postgres" if plan.dialect != "postgres" else "mysql"
        assert self.failure_code(evolve(plan, dialect=other)) is SqlFailureCode.UNSUPPORTED

    def test_a_forged_plan_that_writes_is_refused_by_the_database(self) -> None:
        plan = self.plan("SELECT id FROM orders")
        forged = evolve(plan, sql="UPDATE orders SET status = 'paid'")
        code = self.failure_code(forged)
        assert code in (SqlFailureCode.ACCESS_DENIED, SqlFailureCode.QUERY_FAILED)
        paid = self.plan("SELECT COUNT(*) AS n FROM orders WHERE status = 'paid'")
        assert decode_raw_result(self.run(paid).unwrap()).unwrap().rows == ((2,),)

    def test_a_forged_second_statement_is_refused_by_the_driver_or_the_database(self) -> None:
        plan = self.plan("SELECT id FROM orders")
        stacked = evolve(plan, sql=plan.sql + "; COMMIT")
        assert self.failure_code(stacked) in (
            SqlFailureCode.QUERY_FAILED,
            SqlFailureCode.ACCESS_DENIED,
            SqlFailureCode.COST_UNKNOWN,
        )

    def test_a_column_outside_the_grants_is_refused_by_the_database(self) -> None:
        policy = self.policy()
        orders = policy.table("orders")
        assert orders is not None
        wider = evolve(orders, columns=(*orders.columns, "internal_note"))
        widened = evolve(policy, tables=tuple(wider if t is orders else t for t in policy.tables))
        plan = self.plan("SELECT internal_note FROM orders", widened)
        assert self.failure_code(plan) is SqlFailureCode.ACCESS_DENIED

    def test_a_plan_above_the_cost_gate_is_refused_before_it_runs(self) -> None:
        plan = self.plan("SELECT id FROM ledger WHERE bucket = 3")
        tight = CostLimits(max_estimated_rows=100)
        assert self.failure_code(plan, cost_limits=tight) is SqlFailureCode.COST_TOO_HIGH
        assert self.run(plan, cost_limits=CostLimits(max_estimated_rows=10_000)).unwrap()

    def test_a_slow_plan_is_stopped_at_its_time_limit(self) -> None:
        plan = self.plan(SLOW)
        assert self.failure_code(plan, cost_limits=OPEN_GATE, limit=0.3) is SqlFailureCode.TIMEOUT

    def test_an_unreachable_database_is_unavailable(self) -> None:
        executor = self.unreachable()
        try:
            outcome = executor.execute(self.plan("SELECT id FROM orders"), 2.0)
        finally:
            executor.close()
        assert isinstance(outcome, Failure)
        assert outcome.failure().code is SqlFailureCode.UNAVAILABLE
