"""A scenario file (format: docs/cuff-sim.md), read the way the radio and the driver need it.

The Swift side (`Scenario.parse`, Tests/DaemonTests/ShippedScenarioTests) validates every rule of the
format and decodes the values; here only what the real stack needs is checked: the fields are there,
hex is hex, the actions are known. A file that breaks one of these is refused with the JSON path.
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field

from . import status_names

SERVICES = {'1810', '180D', '180A', '1805', '180F'}
ACTIONS = ('notify', 'indicate', 'disconnect', 'advertise', 'restartBluez', 'measure', 'pressStart')


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
    user: int = 1                   # measure: the Omron user (1-based) whose next slot takes `record`
    record: dict | None = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Record:
    """A BPS 1.1 record in the cuff's memory: its sequence number and 0x2B34 value."""
    sequence: int
    value: bytes


@dataclass(frozen=True)
class Clock:
    """The cuff's clock: its wall-clock time when the radio starts, whether it may be set, and where — Current
    Time 0x2A2B, or a write-only Date Time 0x2A08 in 0x1810 (A&D)."""
    start: datetime.datetime
    writable: bool
    characteristic: str = "2A2B"


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
    records: tuple[Record, ...] | None = None      # None: no RACP (a BPS 1.0 cuff)
    record_segment_size: int | None = None
    clock: Clock | None = None                     # None: a writable clock at the machine's local time
    vendor: str | None = None                      # qardioArm | omron | omronModern | aAndD | microlife
    on_start: tuple[Step, ...] = ()
    omron: dict | None = None                      # with vendor omron(Modern): model, pairingMode, users, corruptReads, refusesToken (omron.py)
    cooperation_mode: bool = False                 # with vendor aAndD: it advertises A&D's service (a_and_d.py)
    switches_off_on_record_request: bool = False   # with records: a RACP write switches the cuff off (Beurer BM48)
    forgets_bond_after_link: bool = False          # the cuff forgets its bond after each link (bond_memory.py)
    manufacturer_id: int | None = None             # the company identifier of its manufacturer data (Medisana: 18498)
    microlife: dict | None = None                  # with vendor microlife: selectedUser, patientIDs, readings (microlife.py)

    @property
    def date_time_clock(self) -> bool:
        """The clock is set through a Date Time 0x2A08 in 0x1810 (A&D) rather than Current Time."""
        return self.clock is not None and self.clock.characteristic == '2A08'

    @property
    def clock_writable(self) -> bool:
        return self.clock is None or self.clock.writable

    @property
    def indicated(self) -> list[bytes]:
        """The 0x2A35 values the timeline indicates, in order."""
        return [s.value for s in self.timeline if s.action == 'indicate' and s.characteristic == '2A35']

    @property
    def measured_after_pairing(self) -> list[bytes]:
        """The 0x2A35 values measured after the cuff first dropped the link, or on the vendor start command:
        `cuffctl start` waits for the first of them."""
        values = [s.value for s in self.on_start if s.action == 'indicate' and s.characteristic == '2A35']
        dropped = False
        for step in self.timeline:
            dropped = dropped or step.action == 'disconnect'
            if dropped and step.action == 'indicate' and step.characteristic == '2A35':
                values.append(step.value)
        return values


@dataclass(frozen=True)
class Scenario:
    name: str
    adapter_address: str
    adapter_name: str
    cuffs: tuple[Cuff, ...]
    expected_readings: tuple[dict, ...] = field(default_factory=tuple)
    failed_measurements: int = 0
    heart_rates: int = 0

    @property
    def length(self) -> float:
        """Seconds from the first enabling to the last step of the longest timeline."""
        return max((c.timeline[-1].after for c in self.cuffs if c.timeline), default=0.0)


def load(path: str) -> Scenario:
    try:
        with open(path, encoding='utf-8') as file:
            document = json.load(file)
    except json.JSONDecodeError as error:
        raise ScenarioError('$', str(error)) from None
    except OSError as error:
        # A path the guest cannot see (it mounts the host's root read-only, not its private /tmp): this
        # scenario fails with its name, the others still run.
        raise ScenarioError('$', f'cannot read {path} in the guest: {error.strerror}') from None
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
        expected_readings=tuple(_expected_reading(r, f'expect.readings[{i}]') for i, r in enumerate(expect.get('readings', []))),
        failed_measurements=int(expect.get('failedMeasurements', 0)),
        heart_rates=int(expect.get('heartRates', 0)))


def _expected_reading(reading: dict, path: str) -> dict:
    """An expected reading as written; its `status`, when there, must list names of status_names.TABLE."""
    unknown = [n for n in reading.get('status', []) if n not in status_names.KNOWN]
    if not isinstance(reading.get('status', []), list) or unknown:
        raise ScenarioError(f'{path}.status', f'{unknown or reading["status"]!r} is not a list of status names')
    return reading


def _field(container: dict, key: str, kind: type, path: str):
    value = container.get(key)
    if not isinstance(value, kind):
        raise ScenarioError(f'{path}.{key}', f'missing or not a {kind.__name__}')
    return value


def _cuff(document: dict, path: str) -> Cuff:
    if document.get('bonded'):
        raise ScenarioError(f'{path}.bonded', 'a bond made before the run cannot be staged on the real stack')
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
        timeline=tuple(_step(s, f'{path}.timeline[{i}]') for i, s in enumerate(document.get('timeline', []))),
        records=_records(document, path),
        record_segment_size=document.get('recordSegmentSize'),
        clock=_clock(document.get('clock'), f'{path}.clock'),
        vendor=_vendor(document, path),
        on_start=tuple(_step(s, f'{path}.onStart[{i}]') for i, s in enumerate(document.get('onStart', []))),
        omron=_omron(document, path),
        cooperation_mode=bool(document.get('aAndD', {}).get('cooperationMode', False)),
        switches_off_on_record_request=bool(document.get('switchesOffOnRecordRequest', False)),
        forgets_bond_after_link=bool(document.get('forgetsBondAfterLink', False)),
        manufacturer_id=document.get('manufacturerID'),
        microlife=_field(document, 'microlife', dict, path) if document.get('vendor') == 'microlife' else None)


def _records(document: dict, path: str) -> tuple[Record, ...] | None:
    if 'records' not in document:
        return None
    records = _field(document, 'records', list, path)
    return tuple(Record(int(r['sequence']), hex_bytes(r.get('hex', ''), f'{path}.records[{i}].hex'))
                 for i, r in enumerate(records))


def _clock(document: dict | None, path: str) -> Clock | None:
    if document is None:
        return None
    try:
        start = datetime.datetime.fromisoformat(_field(document, 'start', str, path))
    except ValueError:
        raise ScenarioError(f'{path}.start', 'not a time like 2021-01-01T00:00:00') from None
    characteristic = str(document.get('characteristic', '2A2B')).upper()
    if characteristic not in ('2A2B', '2A08'):
        raise ScenarioError(f'{path}.characteristic', f'{characteristic!r} is not 2A2B or 2A08')
    return Clock(start, bool(document.get('writable', True)), characteristic)


def _vendor(document: dict, path: str) -> str | None:
    vendor = document.get('vendor')
    if vendor not in (None, 'qardioArm', 'omron', 'omronModern', 'aAndD', 'microlife'):
        raise ScenarioError(f'{path}.vendor', f'{vendor!r} is not qardioArm, omron, omronModern, aAndD or microlife')
    return vendor


def _omron(document: dict, path: str) -> dict | None:
    """An Omron cuff's model and memory; the Swift side checks the rest of docs/cuff-sim.md's rules."""
    if document.get('vendor') not in ('omron', 'omronModern'):
        return None
    spec = _field(document, 'omron', dict, path)
    from .omron import MODELS
    if spec.get('model') not in MODELS:
        raise ScenarioError(f'{path}.omron.model', f'{spec.get("model")!r} is not one of {sorted(MODELS)}')
    return spec


def _step(document: dict, path: str) -> Step:
    actions = [a for a in ACTIONS if a in document]
    if len(actions) != 1:
        raise ScenarioError(path, f'exactly one of {", ".join(ACTIONS)}')
    after = document.get('after')
    if not isinstance(after, (int, float)) or after < 0:
        raise ScenarioError(f'{path}.after', 'a time ≥ 0 in seconds')
    action = actions[0]
    if action == 'measure':
        return Step(float(after), action, user=int(document.get('user', 1)), record=_field(document, 'measure', dict, path))
    if action in ('notify', 'indicate'):
        return Step(float(after), action, str(document[action]).upper(),
                    hex_bytes(document.get('hex', ''), f'{path}.hex'))
    return Step(float(after), action)
