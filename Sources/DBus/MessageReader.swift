import CDBus

/// Reads a message's arguments into `DBusValue`s with libdbus's iterators.
enum MessageReader {
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return values(&iterator)
    }

    private static func values(_ iterator: inout DBusMessageIter) -> [DBusValue] {
        var result: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != cdbus_type_invalid {
            result.append(value(&iterator))
            dbus_message_iter_next(&iterator)
        }
        return result
    }

    private static func signature(of iterator: inout DBusMessageIter) -> DBusType {
        let text = dbus_message_iter_get_signature(&iterator)!
        defer { dbus_free(text) }
        // libdbus has validated every signature it received, so parsing cannot fail here.
        return try! DBusType(parsing: String(cString: text))
    }

    private static func basic<T>(_ iterator: inout DBusMessageIter, _: T.Type) -> T {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1) { storage in
            dbus_message_iter_get_basic(&iterator, storage.baseAddress)
            return UnsafeRawPointer(storage.baseAddress!).load(as: T.self)
        }
    }

    private static func string(_ iterator: inout DBusMessageIter) -> String {
        String(cString: basic(&iterator, UnsafePointer<CChar>.self))
    }

    private static func value(_ iterator: inout DBusMessageIter) -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iterator)
        switch code {
        case cdbus_type_byte: return .byte(basic(&iterator, UInt8.self))
        case cdbus_type_boolean: return .boolean(basic(&iterator, UInt32.self) != 0)
        case cdbus_type_int16: return .int16(basic(&iterator, Int16.self))
        case cdbus_type_uint16: return .uint16(basic(&iterator, UInt16.self))
        case cdbus_type_int32: return .int32(basic(&iterator, Int32.self))
        case cdbus_type_uint32: return .uint32(basic(&iterator, UInt32.self))
        case cdbus_type_int64: return .int64(basic(&iterator, Int64.self))
        case cdbus_type_uint64: return .uint64(basic(&iterator, UInt64.self))
        case cdbus_type_double: return .double(basic(&iterator, Double.self))
        case cdbus_type_string: return .string(string(&iterator))
        case cdbus_type_object_path: return .objectPath(DBusObjectPath(unchecked: string(&iterator)))
        case cdbus_type_signature: return .signature(try! DBusSignature(string(&iterator)))
        case cdbus_type_unix_fd:
            // libdbus hands out a fresh duplicate that the receiver owns (dbus-message.c).
            return .unixFD(UnixFileDescriptor(owning: basic(&iterator, Int32.self)))
        case cdbus_type_variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .variant(value(&inner))
        case cdbus_type_struct:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(values(&inner))
        case cdbus_type_array:
            return array(&iterator)
        default:
            preconditionFailure("libdbus returned unknown type code \(code)")
        }
    }

    /// The elements of an array of a fixed-size type, copied in one block.
    private static func fixedArray<T>(_ inner: inout DBusMessageIter) -> [T] {
        var elements: UnsafeMutableRawPointer?
        var count: Int32 = 0
        if dbus_message_iter_get_arg_type(&inner) != cdbus_type_invalid {
            withUnsafeMutablePointer(to: &elements) { dbus_message_iter_get_fixed_array(&inner, $0, &count) }
        }
        guard let elements, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: elements.assumingMemoryBound(to: T.self), count: Int(count)))
    }

    private static func array(_ iterator: inout DBusMessageIter) -> DBusValue {
        let type = signature(of: &iterator)
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        switch type {
        case .array(.byte): return .bytes(fixedArray(&inner))
        case .array(.double): return .doubles(fixedArray(&inner))
        case .array(.int64): return .int64s(fixedArray(&inner))
        case .dictionary(let keyType, let valueType):
            var entries: [DBusDictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&inner) != cdbus_type_invalid {
                var entry = DBusMessageIter()
                dbus_message_iter_recurse(&inner, &entry)
                let key = value(&entry)
                dbus_message_iter_next(&entry)
                entries.append(DBusDictionaryEntry(key, value(&entry)))
                dbus_message_iter_next(&inner)
            }
            return .dictionary(key: keyType, value: valueType, entries)
        case .array(let element):
            return .array(element, values(&inner))
        default:
            preconditionFailure("array iterator with non-array signature \(type)")
        }
    }
}
