import CDBus

/// Appends `DBusValue`s to a message with libdbus's iterators. Values are validated first, so a
/// hand-built container of mixed types is a `DBusTypeMismatch`, never a libdbus assertion.
enum MessageWriter {
    static func append(_ arguments: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for argument in arguments {
            do {
                try argument.validate()
            } catch {
                throw error.dbusError
            }
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            guard append(argument, to: &iterator) else {
                throw DBusError(.noMemory, "out of memory appending \(argument.type.signature)")
            }
        }
    }

    private static func basic<T>(_ value: T, code: Int32, to iterator: inout DBusMessageIter) -> Bool {
        withUnsafePointer(to: value) { dbus_message_iter_append_basic(&iterator, code, $0) != 0 }
    }

    private static func string(_ text: String, code: Int32, to iterator: inout DBusMessageIter) -> Bool {
        text.withCString { pointer in
            withUnsafePointer(to: pointer) { dbus_message_iter_append_basic(&iterator, code, $0) != 0 }
        }
    }

    /// An array of a fixed-size type appended in one block.
    private static func fixedArray<T>(_ items: [T], code: Int32, signature: String, to iterator: inout DBusMessageIter) -> Bool {
        container(cdbus_type_array, signature: signature, in: &iterator) { inner in
            items.isEmpty || items.withUnsafeBufferPointer { buffer in
                var base = UnsafeRawPointer(buffer.baseAddress)
                return withUnsafePointer(to: &base) {
                    dbus_message_iter_append_fixed_array(&inner, code, $0, Int32(buffer.count)) != 0
                }
            }
        }
    }

    private static func container(
        _ code: Int32, signature: String?, in iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var inner = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iterator, code, $0, &inner) } != 0
        } else {
            opened = dbus_message_iter_open_container(&iterator, code, nil, &inner) != 0
        }
        guard opened else { return false }
        guard body(&inner) else {
            dbus_message_iter_abandon_container(&iterator, &inner)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return basic(v, code: cdbus_type_byte, to: &iterator)
        case .boolean(let v): return basic(UInt32(v ? 1 : 0), code: cdbus_type_boolean, to: &iterator)
        case .int16(let v): return basic(v, code: cdbus_type_int16, to: &iterator)
        case .uint16(let v): return basic(v, code: cdbus_type_uint16, to: &iterator)
        case .int32(let v): return basic(v, code: cdbus_type_int32, to: &iterator)
        case .uint32(let v): return basic(v, code: cdbus_type_uint32, to: &iterator)
        case .int64(let v): return basic(v, code: cdbus_type_int64, to: &iterator)
        case .uint64(let v): return basic(v, code: cdbus_type_uint64, to: &iterator)
        case .double(let v): return basic(v, code: cdbus_type_double, to: &iterator)
        case .string(let v): return string(v, code: cdbus_type_string, to: &iterator)
        case .objectPath(let v): return string(v.text, code: cdbus_type_object_path, to: &iterator)
        case .signature(let v): return string(v.text, code: cdbus_type_signature, to: &iterator)
        case .unixFD(let v): return basic(v.rawValue, code: cdbus_type_unix_fd, to: &iterator)
        case .bytes(let bytes): return fixedArray(bytes, code: cdbus_type_byte, signature: "y", to: &iterator)
        case .doubles(let doubles): return fixedArray(doubles, code: cdbus_type_double, signature: "d", to: &iterator)
        case .int64s(let integers): return fixedArray(integers, code: cdbus_type_int64, signature: "x", to: &iterator)
        case .strings(let texts):
            return container(cdbus_type_array, signature: "s", in: &iterator) { inner in
                texts.allSatisfy { string($0, code: cdbus_type_string, to: &inner) }
            }
        case .array(let element, let items):
            return container(cdbus_type_array, signature: element.signature, in: &iterator) { inner in
                items.allSatisfy { append($0, to: &inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            let entrySignature = "{" + key.signature + valueType.signature + "}"
            return container(cdbus_type_array, signature: entrySignature, in: &iterator) { inner in
                entries.allSatisfy { entry in
                    container(cdbus_type_dict_entry, signature: nil, in: &inner) { pair in
                        append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            return container(cdbus_type_struct, signature: nil, in: &iterator) { inner in
                fields.allSatisfy { append($0, to: &inner) }
            }
        case .variant(let inner):
            return container(cdbus_type_variant, signature: inner.type.signature, in: &iterator) { contents in
                append(inner, to: &contents)
            }
        }
    }
}
