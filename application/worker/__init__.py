"""The worker: a long-running loop that keeps the audit projection caught up, runs retention,
and purges and compacts the vault so no body outlives its expiry on disk (ADR 0024, 0025).

``loop.Worker`` is the use case (a ``Clock`` port and an event-driven stop signal),
``maintenance.Maintenance`` the store-wide jobs under the maintenance lease,
``health.assess`` what ``/healthz`` says about the workers, ``notices`` what a worker tells
the process that runs it.
"""
