#!/usr/bin/env python3
"""Checks a `cuffctl export` file against `cuffctl readings --json`, with implementations other than cuffctl's
(docs/export.md): Python's csv module for CSV; the fhir.resources R4B models for FHIR Bundles; jsonschema with
the Open mHealth schema rules for data points. Prints `ok N` (N readings checked) or what is wrong, exit 1.

    export_check.py csv|fhir|omh|omh-ndjson EXPORT_FILE READINGS_JSON
    export_check.py heart-rate-csv|heart-rate-fhir|heart-rate-omh EXPORT_FILE HEART_RATE_JSON   (cuffctl heart-rate --json)
"""
import csv
import io
import json
import sys
import urllib.parse
import uuid
from datetime import datetime

problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def instant(text):
    moment = datetime.fromisoformat(text)
    check(moment.tzinfo is not None, f"{text}: no offset")
    return moment.timestamp()


def status_bits(status):
    """GATT 0x2A35 Measurement Status (Bluetooth GATT Specification Supplement §3.31)."""
    return {"body_movement": status & 1, "cuff_too_loose": status >> 1 & 1, "irregular_pulse": status >> 2 & 1,
            "pulse_rate_range": status >> 3 & 3, "improper_position": status >> 5 & 1}


# ---- CSV (RFC 4180) -------------------------------------------------------------------------------------------
COLUMNS = ["local_time", "utc_time", "systolic", "diastolic", "mean_arterial_pressure", "pulse_rate", "unit", "person",
           "user_id", "device_address", "manufacturer", "model", "serial", "body_movement", "cuff_too_loose",
           "irregular_pulse", "pulse_rate_range", "improper_position", "sync_identifier", "entered_by_hand", "excluded",
           "exclusion_reason", "arm", "position", "note"]
RANGES = ["withinRange", "exceedsUpperLimit", "belowLowerLimit", "reserved"]


def text_field(value):
    """A field as written, with the formula-injection apostrophe taken off again."""
    if value.startswith("'") and value[1:2] in ("=", "+", "-", "@", "\t", "\r"):
        return value[1:]
    return value


def check_csv(raw, readings):
    check(raw.count(b"\n") == raw.count(b"\r\n"), "a line does not end in CRLF")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    check(rows[0] == COLUMNS, f"header {rows[0]}")
    rows = rows[1:]
    check(len(rows) == len(readings), f"{len(rows)} rows for {len(readings)} readings")
    for row, reading in zip(rows, readings):
        field = dict(zip(COLUMNS, row))
        where = reading["syncIdentifier"]
        check(instant(field["local_time"]) == instant(reading["time"]), f"{where}: local_time {field['local_time']}")
        check(field["utc_time"].endswith("Z") and instant(field["utc_time"]) == instant(reading["time"]), f"{where}: utc_time")
        for column, key in [("systolic", "systolic"), ("diastolic", "diastolic"),
                            ("mean_arterial_pressure", "meanArterialPressure"), ("pulse_rate", "pulseRate")]:
            expected = reading[key]
            check((field[column] == "" and expected is None) or (expected is not None and float(field[column]) == expected),
                  f"{where}: {column} {field[column]!r} for {expected}")
        for column, value in [("unit", reading["unit"]), ("person", reading["person"]),
                              ("device_address", reading["device"]["address"]),
                              ("manufacturer", reading["device"]["manufacturer"]), ("model", reading["device"]["model"]),
                              ("serial", reading["device"]["serial"]), ("sync_identifier", reading["syncIdentifier"]),
                              ("exclusion_reason", reading.get("exclusionReason")), ("arm", reading.get("arm")),
                              ("position", reading.get("position")), ("note", reading.get("note"))]:
            check(text_field(field[column]) == (value or ""), f"{where}: {column} {field[column]!r} for {value!r}")
        check(field["user_id"] == ("" if reading["userID"] is None else str(reading["userID"])), f"{where}: user_id")
        check(field["entered_by_hand"] == ("1" if reading.get("enteredByHand") else "0"), f"{where}: entered_by_hand")
        check(field["excluded"] == ("1" if reading.get("excluded") else "0"), f"{where}: excluded")
        if reading["status"] is None:
            check(all(field[c] == "" for c in status_bits(0)), f"{where}: status columns without a status")
        else:
            for column, bit in status_bits(reading["status"]).items():
                written = RANGES.index(field[column]) if column == "pulse_rate_range" else int(field[column])
                check(written == bit, f"{where}: {column} {field[column]} for status {reading['status']}")
    return len(rows)


# ---- FHIR R4 ----------------------------------------------------------------------------------------------------
LOINC, MDC, UCUM = "http://loinc.org", "urn:iso:std:iso:11073:10101", "http://unitsofmeasure.org"
SNOMED = "http://snomed.info/sct"
BODY_POSITION = "http://hl7.org/fhir/StructureDefinition/observation-bodyPosition"
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:cuffd")  # docs/export.md: version 5 UUIDs in this namespace


def codes(concept):
    return {(c["system"], c["code"]) for c in concept.get("coding", [])}


def check_fhir(raw, readings, transaction):
    from fhir.resources.R4B.bundle import Bundle
    Bundle.model_validate_json(raw)  # raises on any element the R4B models refuse
    bundle = json.loads(raw)
    check(bundle["type"] == ("transaction" if transaction else "collection"), f"Bundle type {bundle['type']}")
    entries = bundle.get("entry", [])
    urls = [e["fullUrl"] for e in entries]
    check(len(set(urls)) == len(urls) and all(u.startswith("urn:uuid:") for u in urls), "fullUrls not unique urn:uuid")
    by_url = {e["fullUrl"]: e["resource"] for e in entries}
    references = [v for e in entries for v in json.dumps(e["resource"]).split('"reference": "')[1:]]
    check(all(r.split('"')[0] in by_url for r in references), "a reference names no entry")
    for entry in entries:
        resource = entry["resource"]
        if transaction:
            request = entry.get("request", {})
            system, value = urllib.parse.unquote(request.get("ifNoneExist", "")).removeprefix("identifier=").split("|", 1)
            check(request.get("method") == "POST" and request.get("url") == resource["resourceType"], f"request {request}")
            check({"system": system, "value": value} in resource["identifier"], f"ifNoneExist {request} for {resource['identifier']}")
        else:
            check("request" not in entry, "a collection entry with a request")

    def url(name):
        return f"urn:uuid:{uuid.uuid5(NAMESPACE, name)}"

    observations = 0
    for reading in readings:
        sync, where = reading["syncIdentifier"], reading["syncIdentifier"]
        pressure = by_url.get(url("blood-pressure:" + sync))
        check(pressure is not None, f"{where}: no blood-pressure Observation")
        if pressure is None:
            continue
        observations += 1
        check(pressure["meta"]["profile"] == ["http://hl7.org/fhir/StructureDefinition/bp"], f"{where}: bp profile")
        check(pressure["status"] == "final", f"{where}: status")
        check(codes(pressure["category"][0]) == {("http://terminology.hl7.org/CodeSystem/observation-category", "vital-signs")}, f"{where}: category")
        check(codes(pressure["code"]) == {(LOINC, "85354-9"), (MDC, "150020")}, f"{where}: code")
        check(pressure["identifier"] == [{"system": "urn:cuffd:sync-identifier", "value": sync}], f"{where}: identifier")
        check(instant(pressure["effectiveDateTime"]) == instant(reading["time"]), f"{where}: effectiveDateTime")
        expected = {(LOINC, "8480-6"): reading["systolic"], (LOINC, "8462-4"): reading["diastolic"]}
        if reading["meanArterialPressure"] is not None:
            expected[(LOINC, "8478-0")] = reading["meanArterialPressure"]
        mdc = {"8480-6": "150021", "8462-4": "150022", "8478-0": "150023"}
        components = pressure["component"]
        check(len(components) == len(expected), f"{where}: {len(components)} components")
        for component in components:
            loinc = next(c for c in codes(component["code"]) if c[0] == LOINC)
            check(codes(component["code"]) == {loinc, (MDC, mdc[loinc[1]])}, f"{where}: component codes")
            q = component["valueQuantity"]
            check(q == {"value": expected.get(loinc), "unit": "mmHg", "system": UCUM, "code": "mm[Hg]"}, f"{where}: {q}")
        person, address = reading["person"], reading["device"]["address"]
        if person is None:
            check("subject" not in pressure, f"{where}: a subject without a person")
        else:
            patient = by_url[pressure["subject"]["reference"]]
            check(pressure["subject"]["reference"] == url("patient:" + person), f"{where}: subject")
            check(patient["resourceType"] == "Patient" and patient["name"] == [{"text": person}], f"{where}: Patient {patient}")
        notes = [note["text"] for note in pressure.get("note", [])]
        check(reading.get("enteredByHand", False) == any(n.startswith("Entered by hand") for n in notes), f"{where}: notes {notes}")
        if reading.get("excluded"):
            check(f"Excluded from statistics and averages: {reading['exclusionReason']}" in notes, f"{where}: notes {notes}")
        if reading.get("note"):
            check(reading["note"] in notes, f"{where}: notes {notes}")
        # docs/reference/fhir-body-codes.md: the arm as bodySite, the position as the core body-position extension.
        arm = {"left": "368208006", "right": "368209003"}.get(reading.get("arm"))
        check(codes(pressure.get("bodySite", {})) == ({(SNOMED, arm)} if arm else set()), f"{where}: bodySite {pressure.get('bodySite')}")
        position = {"sitting": "33586001", "standing": "10904000", "lying": "102538003"}.get(reading.get("position"))
        positions = [codes(e["valueCodeableConcept"]) for e in pressure.get("extension", []) if e["url"] == BODY_POSITION]
        check(positions == ([{(SNOMED, position)}] if position else []), f"{where}: body position {pressure.get('extension')}")
        if address is None:
            check("device" not in pressure, f"{where}: a device without an address")
        else:
            device = by_url[pressure["device"]["reference"]]
            check(device["resourceType"] == "Device" and {"system": "urn:cuffd:bluetooth-address", "value": address} in device["identifier"],
                  f"{where}: Device {device['identifier']}")
            check((device.get("manufacturer"), device.get("modelNumber"), device.get("serialNumber")) ==
                  (reading["device"]["manufacturer"], reading["device"]["model"], reading["device"]["serial"]), f"{where}: Device {device}")
        derived = [{"reference": url("blood-pressure:" + sync)}]
        pulse = by_url.get(url("pulse-rate:" + sync))
        check((pulse is None) == (reading["pulseRate"] is None), f"{where}: pulse Observation")
        if pulse:
            observations += 1
            check(pulse["meta"]["profile"] == ["http://hl7.org/fhir/StructureDefinition/heartrate"], f"{where}: heartrate profile")
            check(codes(pulse["code"]) == {(LOINC, "8867-4"), (MDC, "149546")}, f"{where}: pulse code")
            check(pulse["valueQuantity"] == {"value": reading["pulseRate"], "unit": "/min", "system": UCUM, "code": "/min"}, f"{where}: pulse value")
            check(pulse["derivedFrom"] == derived, f"{where}: pulse derivedFrom")
        status = by_url.get(url("measurement-status:" + sync))
        check((status is None) == (reading["status"] is None), f"{where}: status Observation")
        if status:
            observations += 1
            check(codes(status["code"]) == {(MDC, "8410608")} and status["derivedFrom"] == derived, f"{where}: status code")
            bits = status_bits(reading["status"])
            wanted = [bits["body_movement"], bits["cuff_too_loose"], bits["irregular_pulse"], int(bits["pulse_rate_range"] == 1),
                      int(bits["pulse_rate_range"] == 2), bits["improper_position"]]
            for n, component in enumerate(status["component"][:6]):
                check(codes(component["code"]) == {("http://hl7.org/fhir/uv/phd/CodeSystem/ASN1ToHL7", f"8410608.{n}")}, f"{where}: bit {n}")
                check(codes(component["valueCodeableConcept"]) == {("http://terminology.hl7.org/CodeSystem/v2-0136", "Y" if wanted[n] else "N")},
                      f"{where}: bit {n} of {reading['status']}")
    kinds = [e["resource"]["resourceType"] for e in entries]
    check(kinds.count("Observation") == observations, f"{kinds.count('Observation')} Observations, {observations} expected")
    return len(readings)


# ---- Open mHealth -----------------------------------------------------------------------------------------------
# The rules of openmhealth/schemas schema/omh/header-1.2.json, blood-pressure-4.0.json, heart-rate-2.0.json (with
# schema-id-1.0, unit-value-1.0, time-frame-1.0, date-time-1.0) that the data points use, in one schema.
UNIT_VALUE = {"type": "object", "required": ["value", "unit"], "properties": {"value": {"type": "number"}}}
TIME_FRAME = {"type": "object", "required": ["date_time"], "properties": {"date_time": {"type": "string", "format": "date-time"}}}
HEADER = {
    "type": "object", "required": ["id", "creation_date_time", "schema_id"],
    "properties": {
        "id": {"type": "string"}, "creation_date_time": {"type": "string", "format": "date-time"},
        "schema_id": {"type": "object", "required": ["namespace", "name", "version"], "properties": {
            "namespace": {"type": "string", "pattern": "^[a-zA-Z0-9.-]+$"}, "name": {"type": "string", "pattern": "^[a-zA-Z0-9-]+$"},
            "version": {"type": "string", "pattern": "^[1-9][0-9]*[.][0-9]+$"}}},
        "acquisition_provenance": {"type": "object", "required": ["source_name"], "properties": {
            "source_name": {"type": "string"}, "source_data_point_id": {"type": "string"},
            "modality": {"enum": ["sensed", "self-reported"]}}},
        "user_id": {"type": "string"}}}
MMHG = {"allOf": [UNIT_VALUE, {"properties": {"unit": {"enum": ["mmHg"]}}}]}
BODIES = {
    ("blood-pressure", "4.0"): {"type": "object", "required": ["systolic_blood_pressure", "diastolic_blood_pressure", "effective_time_frame"],
                                "properties": {"systolic_blood_pressure": MMHG, "diastolic_blood_pressure": MMHG, "effective_time_frame": TIME_FRAME,
                                               # body-posture-1.0.json, body-location-1.1.json
                                               "body_posture": {"enum": ["sitting", "lying down", "standing", "semi-recumbent"]},
                                               "measurement_location": {"enum": ["left ankle", "right ankle", "left hip", "right hip",
                                                                                 "left thigh", "right thigh", "left thorax",
                                                                                 "middle left thorax", "left upper arm",
                                                                                 "right upper arm", "left wrist", "right wrist"]}}},
    ("heart-rate", "2.0"): {"type": "object", "required": ["heart_rate", "effective_time_frame"],
                            "properties": {"heart_rate": {"allOf": [UNIT_VALUE, {"properties": {"unit": {"enum": ["beats/min"]}}}]},
                                           "effective_time_frame": TIME_FRAME}},
}


def check_omh(raw, readings, ndjson):
    import jsonschema
    text = raw.decode("utf-8")
    points = [json.loads(line) for line in text.splitlines()] if ndjson else json.loads(text)
    check(isinstance(points, list), "not a JSON array")
    by_source = {}
    for point in points:
        jsonschema.Draft4Validator(HEADER).validate(point["header"])
        schema = point["header"]["schema_id"]
        check(schema["namespace"] == "omh" and (schema["name"], schema["version"]) in BODIES, f"schema {schema}")
        jsonschema.Draft4Validator(BODIES[(schema["name"], schema["version"])]).validate(point["body"])
        instant(point["body"]["effective_time_frame"]["date_time"])
        instant(point["header"]["creation_date_time"])
        by_source[(point["header"]["acquisition_provenance"]["source_data_point_id"], schema["name"])] = point
    ids = [p["header"]["id"] for p in points]
    check(len(set(ids)) == len(ids), "data point ids repeat")
    expected = 0
    # Excluded readings are left out: the schemas cannot mark them.
    readings = [reading for reading in readings if not reading.get("excluded")]
    postures = {"sitting": "sitting", "standing": "standing", "lying": "lying down", "reclining": "semi-recumbent"}
    for reading in readings:
        sync = reading["syncIdentifier"]
        pressure = by_source.get((sync, "blood-pressure"))
        check(pressure is not None, f"{sync}: no blood-pressure data point")
        expected += 1
        if pressure:
            body = pressure["body"]
            check(body["systolic_blood_pressure"] == {"value": reading["systolic"], "unit": "mmHg"}, f"{sync}: systolic")
            check(body["diastolic_blood_pressure"] == {"value": reading["diastolic"], "unit": "mmHg"}, f"{sync}: diastolic")
            check(instant(body["effective_time_frame"]["date_time"]) == instant(reading["time"]), f"{sync}: time")
            check(pressure["header"].get("user_id") == reading["person"], f"{sync}: user_id")
            modality = "self-reported" if reading.get("enteredByHand") else "sensed"
            check(pressure["header"]["acquisition_provenance"]["modality"] == modality, f"{sync}: modality")
            check(body.get("body_posture") == postures.get(reading.get("position")), f"{sync}: body_posture")
            arm = reading.get("arm")
            location = arm if arm and arm.endswith("wrist") else (arm + " upper arm" if arm else None)
            check(body.get("measurement_location") == location, f"{sync}: measurement_location")
        pulse = by_source.get((sync, "heart-rate"))
        check((pulse is None) == (reading["pulseRate"] is None), f"{sync}: heart-rate data point")
        if pulse:
            expected += 1
            check(pulse["body"]["heart_rate"] == {"value": reading["pulseRate"], "unit": "beats/min"}, f"{sync}: heart rate")
    check(len(points) == expected, f"{len(points)} data points, {expected} expected")
    return len(readings)


# ---- Heart-rate sensors' samples (cuffctl export --data heart-rate) --------------------------------------------
HEART_RATE_COLUMNS = ["local_time", "utc_time", "heart_rate", "sensor_contact", "energy_expended_kj", "rr_intervals_s", "person",
                      "device_address", "manufacturer", "model", "serial", "sync_identifier"]


def check_heart_rate_csv(raw, samples):
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    check(rows[0] == HEART_RATE_COLUMNS, f"header {rows[0]}")
    rows = rows[1:]
    check(len(rows) == len(samples), f"{len(rows)} rows for {len(samples)} samples")
    for row, sample in zip(rows, samples):
        field = dict(zip(HEART_RATE_COLUMNS, row))
        where = sample["syncIdentifier"]
        check(instant(field["local_time"]) == instant(sample["time"]), f"{where}: local_time")
        check(float(field["heart_rate"]) == sample["heartRate"], f"{where}: heart_rate")
        check(field["sensor_contact"] == sample["sensorContact"], f"{where}: sensor_contact")
        energy = sample["energyExpended"]
        check(field["energy_expended_kj"] == ("" if energy is None else str(energy)), f"{where}: energy")
        seconds = [float(v) for v in field["rr_intervals_s"].split()]
        check(seconds == [round(r / 1024, 3) for r in sample["rrIntervals"]], f"{where}: RR {field['rr_intervals_s']}")
        check(field["sync_identifier"] == where and field["device_address"] == sample["device"]["address"], f"{where}: ids")
    return len(rows)


def check_heart_rate_fhir(raw, samples):
    from fhir.resources.R4B.bundle import Bundle
    Bundle.model_validate_json(raw)
    entries = json.loads(raw).get("entry", [])
    by_url = {e["fullUrl"]: e["resource"] for e in entries}
    for sample in samples:
        sync = sample["syncIdentifier"]
        observation = by_url.get(f"urn:uuid:{uuid.uuid5(NAMESPACE, 'heart-rate:' + sync)}")
        check(observation is not None, f"{sync}: no Observation")
        if observation is None:
            continue
        check(observation["meta"]["profile"] == ["http://hl7.org/fhir/StructureDefinition/heartrate"], f"{sync}: profile")
        check(codes(observation["code"]) == {(LOINC, "8867-4"), (MDC, "147842")}, f"{sync}: code")
        check(observation["identifier"] == [{"system": "urn:cuffd:sync-identifier:heart-rate", "value": sync}], f"{sync}: identifier")
        check(observation["valueQuantity"] == {"value": sample["heartRate"], "unit": "/min", "system": UCUM, "code": "/min"}, f"{sync}: value")
        check(instant(observation["effectiveDateTime"]) == instant(sample["time"]), f"{sync}: time")
        check(("note" in observation) == (sample["sensorContact"] == "notDetected"), f"{sync}: contact note")
        check(by_url[observation["device"]["reference"]]["resourceType"] == "Device", f"{sync}: device")
    kinds = [e["resource"]["resourceType"] for e in entries]
    check(kinds.count("Observation") == len(samples), f"{kinds.count('Observation')} Observations for {len(samples)} samples")
    return len(samples)


def check_heart_rate_omh(raw, samples):
    import jsonschema
    points = json.loads(raw.decode("utf-8"))
    with_contact = [s for s in samples if s["sensorContact"] != "notDetected"]
    check(len(points) == len(with_contact), f"{len(points)} data points for {len(with_contact)} samples with contact")
    for point, sample in zip(points, with_contact):
        jsonschema.Draft4Validator(HEADER).validate(point["header"])
        jsonschema.Draft4Validator(BODIES[("heart-rate", "2.0")]).validate(point["body"])
        check(point["header"]["acquisition_provenance"]["source_data_point_id"] == sample["syncIdentifier"], "source id")
        check(point["body"]["heart_rate"] == {"value": sample["heartRate"], "unit": "beats/min"}, f"{sample['syncIdentifier']}: value")
        check(instant(point["body"]["effective_time_frame"]["date_time"]) == instant(sample["time"]), "time")
    return len(samples)


def main():
    kind, export, readings = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(export, "rb") as file:
        raw = file.read()
    with open(readings, encoding="utf-8") as file:
        readings = json.load(file)
    if kind == "csv":
        count = check_csv(raw, readings)
    elif kind.startswith("heart-rate-"):
        count = {"csv": check_heart_rate_csv, "fhir": check_heart_rate_fhir, "omh": check_heart_rate_omh}[kind.removeprefix("heart-rate-")](raw, readings)
    elif kind in ("fhir", "fhir-transaction"):
        count = check_fhir(raw, readings, kind == "fhir-transaction")
    else:
        count = check_omh(raw, readings, kind == "omh-ndjson")
    if problems:
        print("\n".join(problems[:40]), file=sys.stderr)
        sys.exit(1)
    print(f"ok {count}")


main()
