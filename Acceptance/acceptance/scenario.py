"""A scenario file (format: docs/cuff-sim.md), read the way the radio and the driver need it.

The Swift side (`Scenario.parse`, Tests/DaemonTests/ShippedScenarioTests) validates every rule of the
format and decodes the values; here only what the real stack needs is checked: the fields are there,
hex is hex, the actions are known. A file that breaks one of these is refused with the JSON path.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

SERVICES = {'1810', '180D', '180A', '1805', '180F'}
ACTIONS = ('notify', 'indicate', 'disconnect', 'advertise', 'restartBluez')


class ScenarioError(ValueError):
    def __init__(self, path: str, message: str):
        super().__init__(f'{path}: {message}')


def hex_bytes(text: str, path: str) -> bytes:
    try:
        return bytes.fromhex(text.replace(' ', '').replace(':', ''))
    except (ValueError, AttributeError):
        raise ScenarioError(path, f'{text!r} is not hex bytes') from None


@dataclass(frozen=True)
class Step:
    """One timeline step: `after` seconds from the first enabling of 0x2A35 indications."""
    after: float
    action: str                     # one of ACTIONS
    characteristic: str | None = None
    value: bytes = b''


@dataclass(frozen=True)
class Cuff:
    address: str
    name: str
    services: tuple[str, ...]
    pairing: str                    # none | justWorks | passkey
    passkey: int | None
    device_information: dict[str, str]
    feature: bytes
    stored_records: tuple[bytes, ...]
    timeline: tuple[Step, ...]

    @property
    def indicated(self) -> list[bytes]:
        """The 0x2A35 values the timeline indicates, in order."""
        return [s.value for s in self.timeline if s.action == 'indicate' and s.characteristic == '2A35']

    @property
    def measures_later(self) -> bool:
        """Whether a measurement comes after the cuff first dropped the link: `cuffctl start` waits for it."""
        dropped = False
        for step in self.timeline:
            dropped = dropped or step.action == 'disconnect'
            if dropped and step.action == 'indicate':
                return True
        return False


@dataclass(frozen=True)
class Scenario:
    name: str
    adapter_address: str
    adapter_name: str
    cuffs: tuple[Cuff, ...]
    expected_readings: tuple[dict, ...] = field(default_factory=tuple)
    failed_measurements: int = 0

    @property
    def length(self) -> float:
        """Seconds from the first enabling to the last step of the longest timeline."""
        return max((c.timeline[-1].after for c in self.cuffs if c.timeline), default=0.0)


def load(path: str) -> Scenario:
    with open(path, encoding='utf-8') as file:
        try:
            document = json.load(file)
        except json.JSONDecodeError as error:
            raise ScenarioError('$', str(error)) from None
    name = path.rsplit('/', 1)[-1].removesuffix('.json')
    adapter = _field(document, 'adapter', dict, '$')
    cuffs = tuple(_cuff(c, f'cuffs[{i}]') for i, c in enumerate(_field(document, 'cuffs', list, '$')))
    if not cuffs:
        raise ScenarioError('cuffs', 'at least one cuff')
    expect = document.get('expect', {})
    return Scenario(
        name=name,
        adapter_address=_field(adapter, 'address', str, 'adapter').upper(),
        adapter_name=adapter.get('name', 'cuff-sim'),
        cuffs=cuffs,
        expected_readings=tuple(expect.get('readings', [])),
        failed_measurements=int(expect.get('failedMeasurements', 0)))


def _field(container: dict, key: str, kind: type, path: str):
    value = container.get(key)
    if not isinstance(value, kind):
        raise ScenarioError(f'{path}.{key}', f'missing or not a {kind.__name__}')
    return value


# cuff-sim features the radio does not play yet (docs/acceptance.md, "What the suite does not cover").
NOT_PLAYED = ('records', 'clock', 'vendor', 'onStart')


def _cuff(document: dict, path: str) -> Cuff:
    if document.get('bonded'):
        raise ScenarioError(f'{path}.bonded', 'a bond made before the run cannot be staged on the real stack')
    for key in NOT_PLAYED:
        if key in document:
            raise ScenarioError(f'{path}.{key}', 'not played by the VM radio yet')
    services = tuple(s.upper() for s in _field(document, 'services', list, path))
    for index, service in enumerate(services):
        if service not in SERVICES:
            raise ScenarioError(f'{path}.services[{index}]', f'{service} is not one of {sorted(SERVICES)}')
    pairing = document.get('pairing', 'none')
    passkey = None
    if pairing.startswith('passkey:') and pairing[8:].isdigit() and len(pairing) == 14:
        pairing, passkey = 'passkey', int(pairing[8:])
    elif pairing not in ('none', 'justWorks'):
        raise ScenarioError(f'{path}.pairing', f'{pairing!r} is not none, justWorks or passkey:NNNNNN')
    return Cuff(
        address=_field(document, 'address', str, path).upper(),
        name=_field(document, 'name', str, path),
        services=services,
        pairing=pairing,
        passkey=passkey,
        device_information=dict(document.get('deviceInformation', {})),
        feature=hex_bytes(document.get('feature', '0000'), f'{path}.feature'),
        stored_records=tuple(hex_bytes(r, f'{path}.storedRecords[{i}]')
                             for i, r in enumerate(document.get('storedRecords', []))),
        timeline=tuple(_step(s, f'{path}.timeline[{i}]') for i, s in enumerate(document.get('timeline', []))))


def _step(document: dict, path: str) -> Step:
    actions = [a for a in ACTIONS if a in document]
    if len(actions) != 1:
        raise ScenarioError(path, f'exactly one of {", ".join(ACTIONS)}')
    after = document.get('after')
    if not isinstance(after, (int, float)) or after < 0:
        raise ScenarioError(f'{path}.after', 'a time ≥ 0 in seconds')
    action = actions[0]
    if action in ('notify', 'indicate'):
        return Step(float(after), action, str(document[action]).upper(),
                    hex_bytes(document.get('hex', ''), f'{path}.hex'))
    return Step(float(after), action)
