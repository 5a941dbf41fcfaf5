"""Unseen log styles of a seventh set: formats no other generator of the bench writes, modelled
on real ones, true templates known by construction (deterministic: seeded).

    unseen7_corpus("bind", 2000) → [(message, template id), ...]
    python bench/logs_unseen7.py [--lines N] [--show N]

They were written without reading the miner, its rules or its tests, measured once, and are
not edited to fit the miner. ``main`` mines each style as ``bench/logs_eval.py`` mines the
unseen styles (factledger's default setting, Drain3 default and with its example masks) and
prints GA / FGA per style and their mean; ``--show`` prints, per style, the clusters of
factledger that join several true templates and the true templates it splits. The set is not
registered in ``bench/logs_eval.py``; it takes no part in choosing a rule or a setting.

The true template follows Loghub-2.0's labelling (one template per print statement): a value
is a variable whatever its shape, also a word from a small set (a DNS record type, a Jenkins
step name, a build result, a GC name of one or three words, a resolver's result text of two
or three words); an audit record's ``type=`` and an ALB line's request kind and method are
the kind of the event, so constants.

* ``cassandra``: Cassandra ``system.log`` messages (``Compacted (uuid) 4 sstables to
  [/var/lib/cassandra/data/ks/t-…/nb-5-big,] to level=0.  12.345MiB to …``): sizes glued
  to ``MiB``/``KiB``, numbers with thousands separators, doubled spaces, sstable lists glued
  by ``,``, merge counts in braces, CQL text of several lengths, ``is now UP`` / ``DOWN``.
* ``jenkins``: Jenkins pipeline console output with Maven steps (``[Pipeline] { (Unit
  Tests)``, ``[Pipeline] sh``, ``[Pipeline] }``, `` > git fetch … # timeout=10``,
  ``[INFO] Downloaded from central: … (4.5 kB at 120.3 kB/s)``): stage names and user names of
  one to three words, commit subjects, e-mail lists, ``Downloading`` / ``Downloaded``,
  ``BUILD SUCCESS`` / ``BUILD FAILURE``.
* ``alb``: AWS Application Load Balancer access log entries (``https 2026-…Z app/web-prod/…
  10.0.0.1:5123 10.0.1.7:80 0.001 0.048 0.000 200 200 0 57 "GET https://…:443/x HTTP/1.1"
  "Mozilla/5.0 (…)" ECDHE-… TLSv1.2 arn:… "Root=1-…" … "forward" "-" "-" "10.0.1.7:80" "200"
  "-" "-" TID_…``): about thirty fields, user agents of one to eighteen words, ``-`` for an
  absent field, ``-1`` timings of failed requests; kinds (http, https, h2, wss), methods and
  actions (forward, redirect, waf, fixed-response, authenticate) tell templates apart.
* ``bind``: BIND 9 ``named`` lines with category and severity (``queries: info: client
  @0x7f… 10.0.0.5#53422 (www.example.com): query: www.example.com IN A +E(0)K (10.0.0.1)``):
  addresses glued to ports by ``#``, names in quotes glued to ``/A/IN``, EDNS flags, result
  texts of several words, ``started`` / ``ended`` zone transfers.
* ``containerd``: containerd's logrus lines (``time="…" level=info msg="StartContainer for
  \\"<64 hex>\\" returns successfully"``): escaped quotes, Go struct dumps
  (``&PodSandboxMetadata{Name:…,Uid:…,Namespace:…,Attempt:0,}``), messages that differ by a
  ``returns …`` tail, an ``exit_status:`` present in some exit events only, Go durations.
* ``auditd``: Linux audit records (``type=SYSCALL msg=audit(1764812345.123:4567): arch=…
  success=yes exit=0 …``): long ``key=value`` runs, an EXECVE record of one to five
  arguments, PAM records that differ by their type only, hex-encoded or quoted titles,
  ``(null)`` values, an AVC permission set of one or two words in braces.

The values of an audit record (``res=success`` / ``res=failed``, ``op=LOAD`` / ``UNLOAD``,
``nametype=``) and the units of a size (``4.5 kB``, ``1.2 MB``) are variables too.

First run, 2026-12-04, miner at commit afa468e (the branch's base f103a73 has the same miner),
``python bench/logs_unseen7.py``, 2000 lines a style, GA / FGA:

    | style      | templates | factledger    | Drain3 default | Drain3 example masks |
    |------------|-----------|---------------|----------------|----------------------|
    | cassandra  | 23        | 0.471 / 0.679 | 0.322 / 0.526  | 0.259 / 0.225        |
    | jenkins    | 29        | 0.896 / 0.676 | 0.521 / 0.548  | 0.496 / 0.515        |
    | alb        | 20        | 0.344 / 0.579 | 0.000 / 0.000  | 0.000 / 0.000        |
    | bind       | 23        | 0.856 / 0.667 | 0.751 / 0.588  | 0.222 / 0.364        |
    | containerd | 27        | 0.599 / 0.577 | 0.657 / 0.545  | 0.657 / 0.577        |
    | auditd     | 22        | 0.207 / 0.237 | 0.207 / 0.175  | 0.287 / 0.305        |
    | mean       |           | 0.562 / 0.569 | 0.410 / 0.397  | 0.320 / 0.331        |

What factledger got wrong (``--show 3``): auditd joins no two templates but splits most in two
(``res=success`` from ``res=failed``, ``op=LOAD`` from ``UNLOAD``) and the EXECVE record in 15
(its quoted argument words are kept, most argument lists a cluster of their own); alb joins the
https ``forward`` lines of six methods (GET, POST, PUT, DELETE, HEAD, OPTIONS) in one cluster
and the 504 and 460 lines in another; cassandra splits the CQL texts by their length (``LIMIT``
or not, one or two ``WHERE`` terms) and the GC line by the GC's name; containerd joins in one
cluster (``msg=<*>``) the requests of five kinds (PullImage, StartContainer, StopPodSandbox,
RemoveContainer, RunPodSandbox) and RunPodSandbox's ``returns sandbox id`` answer, and in
another the ``… returns successfully`` answers of three kinds; jenkins joins ``[Pipeline] sh``
with ``[Pipeline] {``, ``[Pipeline] }`` and ``[Pipeline] // dir``; bind joins ``REFUSED
unexpected RCODE resolving`` with ``host unreachable resolving``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.logs_eval import drain3_default, drain3_examples, factledger  # noqa: E402
from bench.logs_loo import grouping_scores  # noqa: E402
from bench.logs_unseen7_slots import unseen7_corpus  # noqa: E402
from bench.logs_unseen7_styles import UNSEEN7_STYLES  # noqa: E402

__all__ = ["UNSEEN7_STYLES", "main", "unseen7_corpus"]

_MINERS: Final = (
    ("factledger", factledger),
    ("Drain3 default", drain3_default),
    ("Drain3 example masks", drain3_examples),
)


def _show(
    contents: Sequence[str], truth: Sequence[str], predicted: Sequence[str], top: int
) -> None:
    """The clusters that join true templates and the true templates split, one line each."""
    merged: dict[str, Counter[str]] = {}
    split: dict[str, Counter[str]] = {}
    first: dict[tuple[str, str], str] = {}
    for content, true_id, cluster in zip(contents, truth, predicted, strict=True):
        merged.setdefault(cluster, Counter())[true_id] += 1
        split.setdefault(true_id, Counter())[cluster] += 1
        first.setdefault((true_id, cluster), content)
    joined = sorted((c for c in merged.items() if len(c[1]) > 1), key=lambda c: -sum(c[1].values()))
    for cluster, ids in joined[:top]:
        print(f"  merged in one cluster: {dict(ids)}")
        for true_id in list(ids)[:3]:
            print(f"    {true_id}: {first[(true_id, cluster)][:160]}")
    parted = sorted((s for s in split.items() if len(s[1]) > 1), key=lambda s: -len(s[1]))
    for true_id, clusters in parted[:top]:
        print(
            f"  {true_id} split in {len(clusters)} clusters, "
            f"sizes {sorted(clusters.values())[::-1][:8]}"
        )
        for cluster in list(clusters)[:2]:
            print(f"    {first[(true_id, cluster)][:160]}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="GA and FGA of the seventh unseen set.")
    parser.add_argument("--lines", type=int, default=2000, help="lines per style")
    parser.add_argument("--show", type=int, default=0, help="mis-groupings shown per style")
    args = parser.parse_args(argv)
    print("| style | templates | " + " | ".join(f"{name} GA / FGA" for name, _ in _MINERS) + " |")
    print("|" + "---|" * (len(_MINERS) + 2))
    scores: dict[str, list[tuple[float, float]]] = {}
    for style, templates in UNSEEN7_STYLES.items():
        corpus = unseen7_corpus(style, args.lines)
        contents = [message for message, _ in corpus]
        truth = [true_id for _, true_id in corpus]
        cells = []
        for name, miner in _MINERS:
            predicted = miner(style, contents)
            pair = grouping_scores(truth, predicted)
            scores.setdefault(name, []).append(pair)
            cells.append(f"{pair[0]:.3f} / {pair[1]:.3f}")
            if name == "factledger" and args.show:
                print(f"{style}:")
                _show(contents, truth, predicted, args.show)
        print(f"| {style} | {len(templates)} | " + " | ".join(cells) + " |")
    means = []
    for name, _ in _MINERS:
        pairs = scores[name]
        ga, fga = (sum(pair[k] for pair in pairs) / len(pairs) for k in (0, 1))
        means.append(f"**{ga:.3f} / {fga:.3f}**")
    print("| mean | | " + " | ".join(means) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
