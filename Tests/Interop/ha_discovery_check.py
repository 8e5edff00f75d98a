"""Reads what an MQTT subscriber saw (lines `RETAIN TOPIC PAYLOAD`, mosquitto_sub -F '%r %t %p') and checks the Home
Assistant discovery configs in it as Home Assistant would read them: each config is JSON, uses only keys its
component documents (home-assistant.io, "MQTT Sensor" and "MQTT Binary sensor", "Configuration Variables";
"MQTT" integration, "Discovery messages": `device` and `origin`), and its value_template and json_attributes_template,
rendered with Jinja2 (Home Assistant's template engine) against the newest message on its state_topic, give a value.

Usage: ha_discovery_check.py MESSAGES DISCOVERY_PREFIX → JSON {unique_id: {component, state, attributes, config}} on
stdout; a problem → a message on stderr and exit 1."""
import json
import sys

import jinja2

COMMON = {
    "availability", "availability_mode", "availability_template", "availability_topic", "device", "device_class",
    "enabled_by_default", "encoding", "entity_category", "entity_picture", "expire_after", "force_update", "icon",
    "json_attributes_template", "json_attributes_topic", "name", "object_id", "default_entity_id", "origin",
    "payload_available", "payload_not_available", "platform", "qos", "state_topic", "unique_id", "value_template",
}
ALLOWED = {
    "sensor": COMMON | {"last_reset_value_template", "options", "state_class", "suggested_display_precision",
                        "unit_of_measurement"},
    "binary_sensor": COMMON | {"off_delay", "payload_off", "payload_on"},
}
DEVICE = {"configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model", "model_id", "name",
          "serial_number", "suggested_area", "sw_version", "via_device"}
ORIGIN = {"name", "sw_version", "support_url"}


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def main(path, prefix):
    newest = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3:
                newest[parts[1]] = parts[2]
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    results = {}
    for topic, payload in sorted(newest.items()):
        if not (topic.startswith(prefix + "/") and topic.endswith("/config")) or payload in ("", "(null)"):
            continue
        component = topic.split("/")[1]
        config = json.loads(payload)
        unknown = set(config) - ALLOWED.get(component, set())
        if unknown:
            fail(f"{topic}: keys {sorted(unknown)} are not {component} configuration variables")
        if set(config.get("device", {})) - DEVICE or set(config.get("origin", {})) - ORIGIN:
            fail(f"{topic}: device or origin keys outside Home Assistant's list")
        state = newest.get(config["state_topic"])
        if state is None:
            fail(f"{topic}: nothing on its state_topic {config['state_topic']}")
        value_json = json.loads(state)
        rendered = environment.from_string(config["value_template"]).render(value_json=value_json, value=state)
        attributes = None
        if "json_attributes_template" in config:
            attributes_state = newest.get(config["json_attributes_topic"])
            attributes = json.loads(environment.from_string(config["json_attributes_template"]).render(
                value_json=json.loads(attributes_state), value=attributes_state))
        results[config["unique_id"]] = {"component": component, "state": rendered, "attributes": attributes,
                                        "config": config}
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
