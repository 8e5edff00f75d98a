"""What one scenario came to: named checks, each passed or failed with a detail, and timings."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    scenario: str
    client: str
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def check(self, name: str, passed: bool, detail: str = ''):
        self.checks.append((name, bool(passed), detail))

    def time(self, name: str, seconds: float):
        self.timings.setdefault(name, round(seconds, 3))

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(passed for _, passed, _ in self.checks)

    def as_json(self) -> dict:
        return {'scenario': self.scenario, 'client': self.client, 'passed': self.passed, 'seconds': round(self.seconds, 1),
                'checks': [{'name': n, 'passed': p, 'detail': d} for n, p, d in self.checks], 'timings': self.timings}
