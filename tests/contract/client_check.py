"""Calls the service through a Python client generated from its OpenAPI document
(openapi-python-client): one archive read and one small simulation, run to the end.

Run by tests/tests/api/schemathesis.rs as `python client_check.py CLIENT_PARENT_DIR BASE_URL`;
prints one JSON line with what it saw, and exits non-zero on any surprise.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])
base_url = sys.argv[2]

from tsoro_client import Client  # noqa: E402
from tsoro_client.api.archive import ruleset  # noqa: E402
from tsoro_client.api.simulations import create, show  # noqa: E402
from tsoro_client.models import JobView, QueuedJobView, RulesetDetail, RunRequest  # noqa: E402

client = Client(base_url=base_url, raise_on_unexpected_status=True, timeout=90)

# An archive call: a ruleset with its parameters and a citation per rule, as typed models.
detail = ruleset.sync("tsoro-matthews-basic", client=client)
assert isinstance(detail, RulesetDetail), detail
assert detail.id == "tsoro-matthews-basic", detail.id
holes = next(p for p in detail.params if p.name == "holes")
assert holes.default == 8 and holes.min_ == 6 and holes.max_ == 21, holes
assert detail.citations, "rules are cited"

# A simulation: the README's request shape, built with the generated model, awaited.
request = RunRequest.from_dict(
    {
        "ruleset": "tsoro-matthews-basic",
        "params": {"holes": 8},
        "agents": "random,greedy",
        "games": 6,
        "seed": "7",
    }
)
queued = create.sync(client=client, body=request)
# The 202: the job, its estimate and its place in the queue.
assert isinstance(queued, QueuedJobView), queued
assert queued.estimate.core_seconds > 0 and queued.queue_position >= 0, queued
job = queued
for _ in range(10):
    job = show.sync(job.id, client=client, wait=60)
    assert isinstance(job, JobView), job
    if job.status in ("done", "failed", "cancelled"):
        break
assert job.status == "done", job.status
stats = job.to_dict()["stats"]
assert stats, "a finished job has its statistics"
print(
    json.dumps(
        {
            "ruleset": detail.id,
            "citations": len(detail.citations),
            "job": str(job.id),
            "status": job.status,
            "seed": job.seed,
            "games": job.games,
        }
    )
)
