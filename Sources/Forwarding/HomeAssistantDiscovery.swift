import ReadingColumns

/// The MQTT discovery configs that make a cuff user a device in Home Assistant, with a sensor per value
/// (Home Assistant MQTT integration, "MQTT Discovery"; MQTT Sensor and MQTT Binary Sensor, "Configuration
/// Variables"). Each config is retained on `<discovery_prefix>/<component>/<node_id>/<object_id>/config`, so that a
/// Home Assistant started later finds it; its `unique_id` is made of the cuff, the user and the value, so that it is
/// the same across restarts and Home Assistant keeps the entity's history and settings.
enum HomeAssistantDiscovery {
    /// One entity of a cuff user: its component, object id, name, and the keys particular to it.
    struct Entity {
        let component: String
        let object: String
        let name: String
        let keys: [String: DiscoveryValue]
        /// Its state is the cuff's battery topic, not the user's state topic.
        var battery = false
    }

    /// The blood pressures and the pulse are numeric sensors with `state_class: measurement`, so that Home Assistant
    /// keeps long-term statistics of them; there is no blood-pressure device class. `force_update` records each reading,
    /// even one equal to the last. The last measurement's time is a timestamp sensor; the irregular-pulse, body-movement
    /// and cuff-fit flags of the Measurement Status (GATT Specification Supplement §3.31.2.5) binary sensors of class
    /// `problem`; where the reading stands by the 2023 ESH home threshold (``BloodPressureCategory/ESH2023Home``) an
    /// enum sensor; and the cuff's battery (``CuffBattery``, on the cuff's battery topic) a battery sensor and a
    /// battery binary sensor.
    static var entities: [Entity] { [
        measurement("systolic", "Systolic", unit: "mmHg", icon: "mdi:heart-pulse"),
        measurement("diastolic", "Diastolic", unit: "mmHg", icon: "mdi:heart-pulse"),
        measurement("mean", "Mean arterial pressure", unit: "mmHg", icon: "mdi:heart-pulse"),
        measurement("pulse", "Pulse", unit: "bpm", icon: "mdi:heart"),
        Entity(component: "sensor", object: "measured", name: "Last measurement", keys: [
            "value_template": "{{ value_json.measured_at }}", "device_class": "timestamp",
        ]),
        flag("irregular_pulse", "Irregular pulse"),
        flag("body_movement", "Body movement"),
        flag("cuff_fit_loose", "Cuff too loose"),
        Entity(component: "sensor", object: "category", name: "ESH 2023 home category", keys: [
            "value_template": "{{ value_json.category }}", "device_class": "enum",
            "options": .array(BloodPressureCategory.ESH2023Home.allCases.map { .string($0.rawValue) }), "icon": "mdi:clipboard-pulse",
        ]),
        Entity(component: "sensor", object: "battery", name: "Battery", keys: [
            "value_template": "{{ value_json.level }}", "device_class": "battery", "unit_of_measurement": "%", "state_class": "measurement",
        ], battery: true),
        Entity(component: "binary_sensor", object: "battery_low", name: "Battery low", keys: [
            "value_template": "{{ 'ON' if value_json.low else 'OFF' }}", "device_class": "battery",
        ], battery: true),
    ] }

    /// A Measurement Status flag of the reading, `ON` when the cuff set it.
    private static func flag(_ key: String, _ name: String) -> Entity {
        Entity(component: "binary_sensor", object: key, name: name, keys: [
            "value_template": .string("{{ 'ON' if value_json.status.\(key) else 'OFF' }}"), "device_class": "problem",
        ])
    }

    /// A heart-rate sensor's entities: its heart rate, a numeric sensor like the pulse, and its skin contact, a binary
    /// sensor — `ON` with contact, `OFF` without, unknown (`None`, the binary sensor's `payload_reset`) for a sensor that
    /// cannot tell.
    static var strapEntities: [Entity] { [
        measurement("heart_rate", "Heart rate", unit: "bpm", icon: "mdi:heart-pulse", template: "{{ value_json.bpm }}"),
        Entity(component: "binary_sensor", object: "contact", name: "Skin contact", keys: [
            "value_template": "{{ {'detected': 'ON', 'notDetected': 'OFF'}.get(value_json.contact, 'None') }}", "icon": "mdi:account-heart",
        ]),
    ] }

    /// The entities of `user`: a cuff user's, or a heart-rate sensor's.
    static func entities(of user: CuffUser) -> [Entity] { user.isStrap ? strapEntities : entities }

    private static func measurement(_ object: String, _ name: String, unit: String, icon: String, template: String? = nil) -> Entity {
        Entity(component: "sensor", object: object, name: name, keys: [
            "value_template": .string(template ?? "{{ value_json.\(object) }}"), "unit_of_measurement": .string(unit), "state_class": "measurement",
            "force_update": true, "icon": .string(icon),
        ])
    }

    /// What removes `user` from Home Assistant and from the broker's memory: an empty retained config for each of its
    /// entities, which Home Assistant takes as the entity's removal ("MQTT Discovery", "Removing"), and an empty retained
    /// state, which the broker takes as the end of the retained message (MQTT 5 §3.3.1.3, MQTT 3.1.1 §3.3.1.3), so that
    /// a later subscriber is handed neither.
    static func removal(_ user: CuffUser, topics: MQTTTopics) -> [MQTTConnection.Message] {
        entities(of: user).map { MQTTConnection.Message(topic: topics.config($0.component, user, $0.object), payload: [], retain: true) }
            + [MQTTConnection.Message(topic: topics.state(user), payload: [], retain: true)]
            + (user.isStrap ? [] : [MQTTConnection.Message(topic: topics.battery(user.cuff), payload: [], retain: true)])
    }

    /// The retained configs of `user`'s entities.
    static func configs(_ user: PublishedUser, topics: MQTTTopics) -> [MQTTConnection.Message] {
        let key = user.key
        let model = user.device["model"].flatMap { $0.isEmpty ? nil : $0 } ?? user.device["name"] ?? (key.isStrap ? "Heart-rate sensor" : "Blood pressure cuff")
        let name = user.person ?? (key.isStrap ? model : "\(model) \(key.user)")
        var device: [String: DiscoveryValue] = ["identifiers": [.string(key.node)], "name": .string(name), "model": .string(model)]
        if let manufacturer = user.device["manufacturer"] { device["manufacturer"] = .string(manufacturer) }
        if let serial = user.device["serial"] { device["serial_number"] = .string(serial) }
        if let firmware = user.device["firmware"] { device["sw_version"] = .string(firmware) }
        if let address = user.device["address"] { device["connections"] = [["bluetooth", .string(address)]] }
        return entities(of: key).map { entity in
            var config = entity.keys
            config["name"] = .string(entity.name)
            config["unique_id"] = "\(key.node)_\(entity.object)"
            config["state_topic"] = .string(entity.battery ? topics.battery(key.cuff) : topics.state(key))
            if !key.isStrap, !entity.battery {
                // The status flags as the entity's attributes, from the same retained message as its state.
                config["json_attributes_topic"] = .string(topics.state(key))
                config["json_attributes_template"] = "{{ value_json.status | tojson }}"
            }
            config["availability_topic"] = .string(topics.availability)
            config["payload_available"] = "online"
            config["payload_not_available"] = "offline"
            config["device"] = .object(device)
            config["origin"] = ["name": "cuff-forward"]
            return MQTTConnection.Message(topic: topics.config(entity.component, key, entity.object), payload: DiscoveryValue.object(config).json, retain: true)
        }
    }
}
